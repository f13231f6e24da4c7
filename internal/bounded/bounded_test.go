package bounded

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
)

func gate(slots int, wait, timeout time.Duration) *Gate {
	return New(Config{Slots: slots, Wait: wait, Timeout: timeout, Busy: "Busy, try again.", Slow: "Too slow."})
}

// waitFor polls cond for up to 2 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 2*time.Second, 5*time.Millisecond)
}

func TestRunReturnsWorkResult(t *testing.T) {
	t.Parallel()
	g := gate(1, time.Second, time.Second)
	require.NoError(t, g.Run(context.Background(), func(context.Context) error { return nil }))
	boom := errors.New("boom")
	require.ErrorIs(t, g.Run(context.Background(), func(context.Context) error { return boom }), boom)
	waitFor(t, func() bool { return g.Running() == 0 })
}

// TestSaturatedGateIs429: with every slot taken, a caller waits Wait and is refused with Busy and Retry-After; a
// slot frees only when its work has returned, even though its caller left long before.
func TestSaturatedGateIs429(t *testing.T) {
	t.Parallel()
	g := gate(2, 100*time.Millisecond, 0)
	release := make(chan struct{})
	stuck := func(context.Context) error { <-release; return nil } // ignores its context
	for i := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- g.Run(ctx, stuck) }()
		waitFor(t, func() bool { return g.Running() == i+1 })
		cancel()
		require.ErrorIs(t, <-errc, context.Canceled, "the caller is answered at once")
	}
	waitFor(t, func() bool { return g.Running() == 2 })

	start := time.Now()
	err := g.Run(context.Background(), func(context.Context) error { return nil })
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apperr.RateLimited, ae.Code)
	require.Equal(t, "Busy, try again.", ae.Message)
	require.Equal(t, time.Second, ae.RetryAfter)
	require.GreaterOrEqual(t, time.Since(start), 100*time.Millisecond, "it waited for a slot first")

	close(release)
	waitFor(t, func() bool { return g.Running() == 0 })
	require.NoError(t, g.Run(context.Background(), func(context.Context) error { return nil }))
}

// TestWaitingCallerGetsAFreedSlot: a slot freed within Wait goes to the waiting caller.
func TestWaitingCallerGetsAFreedSlot(t *testing.T) {
	t.Parallel()
	g := gate(1, 2*time.Second, 0)
	release := make(chan struct{})
	go func() { _ = g.Run(context.Background(), func(context.Context) error { <-release; return nil }) }()
	waitFor(t, func() bool { return g.Running() == 1 })
	time.AfterFunc(50*time.Millisecond, func() { close(release) })
	require.NoError(t, g.Run(context.Background(), func(context.Context) error { return nil }))
}

// TestDeadline: work past Timeout is refused with Slow at the deadline, and its context ends so it can stop.
func TestDeadline(t *testing.T) {
	t.Parallel()
	g := gate(1, time.Second, 100*time.Millisecond)
	stopped := make(chan struct{})
	start := time.Now()
	err := g.Run(context.Background(), func(ctx context.Context) error {
		<-ctx.Done()
		close(stopped)
		time.Sleep(time.Second) // slow to notice: the caller does not wait for it
		return ctx.Err()
	})
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, apperr.Invalid, ae.Code)
	require.Equal(t, "Too slow.", ae.Message)
	require.Less(t, time.Since(start), 900*time.Millisecond)
	<-stopped
	require.Equal(t, 1, g.Running(), "the slot is held until the work returns")
	waitFor(t, func() bool { return g.Running() == 0 })

	// Work that returns the deadline's error itself is refused the same way.
	err = g.Run(context.Background(), func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	require.ErrorAs(t, err, &ae)
	require.Equal(t, "Too slow.", ae.Message)
}

// TestCallerGoneWhileWaiting: a caller whose context ends while it waits for a slot gets its context's error.
func TestCallerGoneWhileWaiting(t *testing.T) {
	t.Parallel()
	g := gate(1, 5*time.Second, 0)
	release := make(chan struct{})
	defer close(release)
	go func() { _ = g.Run(context.Background(), func(context.Context) error { <-release; return nil }) }()
	waitFor(t, func() bool { return g.Running() == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, g.Run(ctx, func(context.Context) error { return nil }), context.DeadlineExceeded)
}
