package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
)

// stall makes a run look started `ago` and gives its grading job the state
// (a cancelled or discarded job is not live; "" deletes it).
func (g *gradeBundle) stall(t *testing.T, id uuid.UUID, ago time.Duration, jobState string) {
	t.Helper()
	ctx := context.Background()
	_, err := g.pool.Exec(ctx, `UPDATE function_results SET status_at = now() - make_interval(secs => $2) WHERE submission_id = $1`,
		id, ago.Seconds())
	require.NoError(t, err)
	switch jobState {
	case "":
		_, err = g.pool.Exec(ctx, `DELETE FROM river_job WHERE kind = 'grade_submission' AND args ->> 'submission_id' = $1`, id.String())
	case "cancelled", "discarded", "completed":
		_, err = g.pool.Exec(ctx, `UPDATE river_job SET state = $2, finalized_at = now()
			WHERE kind = 'grade_submission' AND args ->> 'submission_id' = $1`, id.String(), jobState)
	default:
		_, err = g.pool.Exec(ctx, `UPDATE river_job SET state = $2, scheduled_at = now() + interval '1 hour'
			WHERE kind = 'grade_submission' AND args ->> 'submission_id' = $1`, id.String(), jobState)
	}
	require.NoError(t, err)
}

func TestSweepStuckRunsFailsOnlyRunsThatCanNoLongerFinish(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	asgID := g.define(t, assignment.TypeRubricFeedback)
	ids := g.submit(t, asgID, append(texts("lost", "cancelled", "discarded", "queued", "snoozed", "recent", "graded"),
		newSubmission{name: "extracting", file: []byte("Still being read.")})...)
	lost, cancelled, discarded, queued, snoozed, recent, graded, extracting := ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6], ids[7]
	g.runMany(t, asgID, ids)
	g.stall(t, lost, time.Hour, "")
	g.stall(t, cancelled, time.Hour, "cancelled")
	g.stall(t, discarded, time.Hour, "discarded")
	g.stall(t, queued, time.Hour, "available")
	g.stall(t, snoozed, time.Hour, "scheduled")
	g.stall(t, recent, time.Minute, "")
	g.stall(t, extracting, time.Hour, "completed") // its text is still queued for extraction
	_, err := g.pool.Exec(ctx, `UPDATE function_results SET status = 'graded', status_at = now() - interval '1 hour' WHERE submission_id = $1`, graded)
	require.NoError(t, err)

	swept, err := jobs.SweepStuckRuns(ctx, g.deps, time.Now().Add(-jobs.StuckAfter))
	require.NoError(t, err)
	require.Len(t, swept, 3)
	for _, id := range []uuid.UUID{lost, cancelled, discarded} {
		s := g.stored(t, id)
		require.Equal(t, grading.StatusFailed, s.Status)
		require.Equal(t, "Grading did not finish. Please grade it again.", s.Error)
	}
	for _, id := range []uuid.UUID{queued, snoozed, recent, extracting} {
		require.Equal(t, grading.StatusRubricGrading, g.stored(t, id).Status, "a run that can still finish is left alone")
	}
	require.Equal(t, grading.StatusGraded, g.stored(t, graded).Status)

	again, err := jobs.SweepStuckRuns(ctx, g.deps, time.Now().Add(-jobs.StuckAfter))
	require.NoError(t, err)
	require.Empty(t, again, "a swept run is swept once")

	// Graded again, a swept result finishes normally.
	g.runMany(t, asgID, []uuid.UUID{lost})
	g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
	got := g.waitFinished(t, asgID, []uuid.UUID{lost})[0]
	require.Equal(t, grading.StatusGraded, got.Status)
	require.Empty(t, got.Error)
}

// The periodic sweep_runs job fails a run stuck for longer than StuckAfter,
// and forgets the tombstones older than changes.TombstoneAge.
func TestSweepRunsJobFailsAStuckRun(t *testing.T) {
	t.Parallel()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	asgID := g.define(t, assignment.TypePrompt)
	ids := g.submit(t, asgID, texts("stuck", "fresh")...)
	g.runMany(t, asgID, ids)
	g.stall(t, ids[0], jobs.StuckAfter+time.Minute, "discarded")
	g.stall(t, ids[1], jobs.StuckAfter-time.Minute, "discarded")
	oldTomb, freshTomb := uuid.New(), uuid.New()
	_, err := g.pool.Exec(context.Background(), `INSERT INTO deleted_rows (assignment_id, row_id, kind, deleted_at)
		VALUES ($1, $2, 'submission', now() - make_interval(secs => $4)), ($1, $3, 'submission', now())`,
		asgID, oldTomb, freshTomb, (changes.TombstoneAge + time.Minute).Seconds())
	require.NoError(t, err)

	res, err := g.insert.Insert(context.Background(), queue.SweepRunsArgs{}, nil)
	require.NoError(t, err)
	require.Equal(t, queue.QueueDefault, res.Job.Queue)
	_, events := g.startWorker(t, g.deps, map[string]int{queue.QueueDefault: 1}, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, res.Job.ID).Kind)
	s := g.stored(t, ids[0])
	require.Equal(t, grading.StatusFailed, s.Status)
	require.Equal(t, jobs.ReasonGradingUnfinished, s.Error)
	require.Equal(t, grading.StatusGrading, g.stored(t, ids[1]).Status, "not stuck long enough")
	var kept []uuid.UUID
	rows, err := g.pool.Query(context.Background(), `SELECT row_id FROM deleted_rows WHERE assignment_id = $1`, asgID)
	require.NoError(t, err)
	for rows.Next() {
		var id uuid.UUID
		require.NoError(t, rows.Scan(&id))
		kept = append(kept, id)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []uuid.UUID{freshTomb}, kept, "the old tombstone is pruned, the fresh one kept")
}
