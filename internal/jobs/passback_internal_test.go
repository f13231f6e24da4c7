package jobs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"
)

// TestPassbackGivesUpOnlyOnItsLastAttempt: a failed attempt of a grade
// passback is retried and leaves the pending grades alone; the last failed
// attempt, or a worker that cannot send at all, abandons them (so the
// teacher sees them failed and can send again) and ends the job.
func TestPassbackGivesUpOnlyOnItsLastAttempt(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	down := errors.New("the gradebook is down")
	var sentLast []bool
	abandoned := 0
	p := passback{
		name: "test grades",
		send: func(_ context.Context, last bool) error {
			sentLast = append(sentLast, last)
			return down
		},
		abandon: func(context.Context) error { abandoned++; return nil },
	}
	cancelled := func(err error) bool {
		var c *rivertype.JobCancelError
		return errors.As(err, &c)
	}

	err := p.run(t.Context(), log, &rivertype.JobRow{Attempt: 1, MaxAttempts: 3})
	require.ErrorIs(t, err, down)
	require.False(t, cancelled(err), "retried")
	require.Zero(t, abandoned)

	err = p.run(t.Context(), log, &rivertype.JobRow{Attempt: 3, MaxAttempts: 3})
	require.ErrorIs(t, err, down)
	require.True(t, cancelled(err), "the last attempt ends the job")
	require.Equal(t, 1, abandoned)
	require.Equal(t, []bool{false, true}, sentLast, "send knows its last attempt")

	p.unavailable = errors.New("no service here")
	err = p.run(t.Context(), log, &rivertype.JobRow{Attempt: 1, MaxAttempts: 3})
	require.True(t, cancelled(err))
	require.Equal(t, 2, abandoned, "a worker that cannot send gives the run up at once")
	require.Len(t, sentLast, 2, "and sends nothing")

	p.unavailable, p.send = nil, func(context.Context, bool) error { return nil }
	require.NoError(t, p.run(t.Context(), log, &rivertype.JobRow{Attempt: 3, MaxAttempts: 3}))
	require.Equal(t, 2, abandoned)
}
