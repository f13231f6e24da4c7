// Package changestest starts change listeners (changes.Clock) on the test
// database (testdb) for tests in other packages, as the API runs one.
package changestest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/testdb"
)

// Listening is a Clock listening on the test database, once it is live;
// stop ends it (the test's cleanup does too).
func Listening(t testing.TB) (clock *changes.Clock, stop func()) {
	t.Helper()
	clock = changes.NewClock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		clock.Run(ctx, testdb.URL(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	require.Eventually(t, clock.Live, 10*time.Second, 2*time.Millisecond, "the change listener starts")
	return clock, stop
}
