// Package ratelimit keeps limits in PostgreSQL, so every API and worker
// process shares one count and adding processes never raises a limit:
// [Limiter] counts requests in fixed windows (abuse guards and AI budgets),
// [ModelLimiter] admits model calls under the provider's requests- and
// tokens-per-minute limit in a sliding window. [Local] is the one count
// kept in a process's memory, for requests not worth a database write.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// Rule is a limit: at most Limit hits per Window. A zero Limit turns the
// rule off.
type Rule struct {
	Limit  int
	Window time.Duration
}

// ParseRule reads "N/window", e.g. "30/1m" or "2000/24h"; "off" (or "0")
// turns the rule off.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return Rule{}, nil
	}
	n, w, ok := strings.Cut(s, "/")
	if !ok {
		return Rule{}, fmt.Errorf("%q: want N/window, e.g. 30/1m", s)
	}
	limit, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || limit < 1 {
		return Rule{}, fmt.Errorf("%q: the count must be a whole number of at least 1", s)
	}
	window, err := time.ParseDuration(strings.TrimSpace(w))
	if err != nil || window < time.Second {
		return Rule{}, fmt.Errorf("%q: the window must be a duration of at least 1s, e.g. 1m or 24h", s)
	}
	return Rule{Limit: limit, Window: window}, nil
}

// String writes the rule as ParseRule reads it.
func (r Rule) String() string {
	if r.Limit == 0 {
		return "off"
	}
	return fmt.Sprintf("%d/%s", r.Limit, r.Window)
}

// Limiter counts hits in PostgreSQL.
type Limiter struct {
	Pool *pgxpool.Pool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ErrLimited is wrapped by the errors Allow returns when a limit is hit.
var ErrLimited = errors.New("rate limited")

// window returns the clock's now and the fixed window of rule it falls in.
func (l *Limiter) window(rule Rule) (now, start, end time.Time) {
	now = time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start = now.Truncate(rule.Window)
	return now, start, start.Add(rule.Window)
}

// Allow counts one hit of key under rule. Past the limit it returns a
// RateLimited apperr carrying message and the time until the window ends
// (the Retry-After). A database failure lets the hit through: a limit is
// a guard against abuse, and an outage of the counter must not lock every
// teacher out; the caller's own database work will fail loudly anyway.
func (l *Limiter) Allow(ctx context.Context, rule Rule, key, message string) error {
	if l == nil || rule.Limit == 0 {
		return nil
	}
	now, start, end := l.window(rule)
	n, err := store.Q.HitRateCounter(ctx, l.Pool, store.HitRateCounterParams{
		Key: key, WindowStart: start, N: 1, ExpiresAt: end,
	})
	if err != nil {
		return nil //nolint:nilerr // see the doc comment: fail open
	}
	if n > int64(rule.Limit) {
		return limited(message, end.Sub(now), key, rule)
	}
	return nil
}

// Usage is a counter's state in its current window.
type Usage struct {
	// Used is the count so far (it may pass the limit: Add never refuses).
	Used int64
	// Limit is the rule's.
	Limit int64
	// Ends is when the window ends and the count starts again at zero.
	Ends time.Time
	// Window is the rule's window.
	Window time.Duration
}

// Left is what the window still allows, never below zero.
func (u Usage) Left() int64 { return max(u.Limit-u.Used, 0) }

// Used reads key's count in rule's current window. A database failure
// reads as nothing used (fail open, as Allow).
func (l *Limiter) Used(ctx context.Context, rule Rule, key string) Usage {
	if l == nil || rule.Limit == 0 {
		return Usage{Window: rule.Window}
	}
	_, start, end := l.window(rule)
	u := Usage{Limit: int64(rule.Limit), Ends: end, Window: rule.Window}
	n, err := store.Q.RateCounter(ctx, l.Pool, store.RateCounterParams{Key: key, WindowStart: start})
	if err == nil {
		u.Used = n
	}
	return u
}

// Add adds n (tokens a call used, known only after it) to key's count in
// rule's current window, without refusing: the next call is refused once
// the count has reached the limit.
func (l *Limiter) Add(ctx context.Context, rule Rule, key string, n int64) error {
	if l == nil || rule.Limit == 0 || n <= 0 {
		return nil
	}
	_, start, end := l.window(rule)
	if _, err := store.Q.HitRateCounter(ctx, l.Pool, store.HitRateCounterParams{
		Key: key, WindowStart: start, N: n, ExpiresAt: end,
	}); err != nil {
		return fmt.Errorf("add %d to %s: %w", n, key, err)
	}
	return nil
}

// Take counts n hits of key under rule all at once, through db (a
// transaction: when it rolls back, the hits are given back), or none of
// them when they do not all fit; it then returns the counter's state and
// false. Unlike Allow, a database failure is an error: inside a
// transaction the caller's work cannot go on anyway.
func (l *Limiter) Take(ctx context.Context, db store.DBTX, rule Rule, key string, n int64) (Usage, bool, error) {
	if l == nil || rule.Limit == 0 || n <= 0 {
		return Usage{Window: rule.Window}, true, nil
	}
	_, start, end := l.window(rule)
	u := Usage{Limit: int64(rule.Limit), Ends: end, Window: rule.Window}
	if n <= u.Limit {
		count, err := store.Q.TakeRateCounter(ctx, db, store.TakeRateCounterParams{
			Key: key, WindowStart: start, N: n, ExpiresAt: end, Max: u.Limit,
		})
		switch {
		case err == nil:
			u.Used = count
			return u, true, nil
		case !errors.Is(err, pgx.ErrNoRows):
			return u, false, fmt.Errorf("take %d from %s: %w", n, key, err)
		}
	}
	count, err := store.Q.RateCounter(ctx, db, store.RateCounterParams{Key: key, WindowStart: start})
	if err != nil {
		return u, false, fmt.Errorf("read %s: %w", key, err)
	}
	u.Used = count
	return u, false, nil
}

// limited is the RateLimited error of key past rule: message for the
// user, retry after wait.
func limited(message string, wait time.Duration, key string, rule Rule) error {
	e := apperr.RateLimitedAfter(message, wait)
	e.Err = fmt.Errorf("%w: %s over %s", ErrLimited, key, rule)
	return e
}

// Purge deletes counters whose window has ended.
func (l *Limiter) Purge(ctx context.Context) (int64, error) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	n, err := store.Q.PurgeRateCounters(ctx, l.Pool, now)
	if err != nil {
		return 0, fmt.Errorf("purge rate counters: %w", err)
	}
	return n, nil
}

// MsgSignIn is what a client address past its sign-in attempts is told.
const MsgSignIn = "Too many sign-in attempts from your network. Please wait a minute and try again."
