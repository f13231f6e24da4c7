// Package bounded runs heavy work that a request asks for (a Word export, reading an attached file, rendering a
// page) so that no request can tie up the API: at most a few such pieces of work run at once in the process, each
// under a deadline, and the caller is answered as soon as its client goes away or the deadline passes.
//
// Work is cancelled through its context; the work itself must check it (between AST nodes, pages, files) and
// must never run unboundedly between two checks (inputs are capped before parsing). A [Gate] holds a slot until
// the work has really stopped, so work abandoned by its client still counts against the cap until its next check.
package bounded

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/markwell/markwell/internal/apperr"
)

// Config describes a Gate.
type Config struct {
	// Slots is how many pieces of work may run at once (at least 1).
	Slots int
	// Wait is how long a request waits for a free slot before it is refused
	// with Busy (429, Retry-After RetryAfter).
	Wait time.Duration
	// Timeout bounds one piece of work; past it the request is refused with
	// Slow (400). Zero: no deadline beyond the request's own.
	Timeout time.Duration
	// RetryAfter is the Retry-After sent with Busy; zero is Wait, at least
	// a second.
	RetryAfter time.Duration
	// Busy is the 429 message when every slot is taken.
	Busy string
	// Slow is the 400 message when the work outlives Timeout.
	Slow string
}

// Gate admits at most Config.Slots pieces of work at once. The zero Gate is
// not usable: make one with New.
type Gate struct {
	cfg     Config
	slots   chan struct{}
	running atomic.Int64
}

// New returns a Gate for cfg.
func New(cfg Config) *Gate {
	cfg.Slots = max(cfg.Slots, 1)
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = max(cfg.Wait, time.Second)
	}
	return &Gate{cfg: cfg, slots: make(chan struct{}, cfg.Slots)}
}

// Config returns the gate's configuration.
func (g *Gate) Config() Config { return g.cfg }

// Running is the number of pieces of work whose goroutine has not returned
// yet, including work whose caller has already been answered.
func (g *Gate) Running() int { return int(g.running.Load()) }

// Run waits for a free slot (at most Config.Wait), then runs work in its own
// goroutine with a context that ends when ctx does or Config.Timeout passes.
// Run returns work's error as soon as work returns, or as soon as that
// context ends, whichever comes first: the caller is never kept waiting for
// work that no longer matters. The slot is freed only when work returns.
//
// Errors: ctx's own error when the caller's context ended (the client went
// away); apperr RateLimited with Config.Busy and Retry-After when no slot
// freed in time; apperr Invalid with Config.Slow past the deadline (also
// when work itself returns the deadline's error); otherwise work's error.
func (g *Gate) Run(ctx context.Context, work func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := g.acquire(ctx); err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(ctx)
	if g.cfg.Timeout > 0 {
		wctx, cancel = context.WithTimeoutCause(ctx, g.cfg.Timeout, errTooSlow)
	}
	defer cancel() // the work sees its context end and stops at its next check
	done := make(chan error, 1)
	g.running.Add(1)
	go func() {
		defer func() {
			g.running.Add(-1)
			<-g.slots
		}()
		done <- work(wctx)
	}()
	select {
	case err := <-done:
		return g.outcome(ctx, wctx, err)
	case <-wctx.Done():
		if err := ctx.Err(); err != nil {
			return err
		}
		return apperr.Wrap(apperr.Invalid, g.cfg.Slow, context.Cause(wctx))
	}
}

// errTooSlow is the cause of a work context that outlived Config.Timeout.
var errTooSlow = errors.New("bounded: work took too long")

// outcome maps the error of work that returned.
func (g *Gate) outcome(ctx, wctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(context.Cause(wctx), errTooSlow) && errors.Is(err, context.DeadlineExceeded) {
		return apperr.Wrap(apperr.Invalid, g.cfg.Slow, err)
	}
	return err
}

// acquire takes a slot, waiting at most Config.Wait.
func (g *Gate) acquire(ctx context.Context) error {
	select {
	case g.slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(g.cfg.Wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return apperr.RateLimitedAfter(g.cfg.Busy, g.cfg.RetryAfter)
	}
}
