package queue_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Two teachers press grade-all at the same moment. Y's transaction began
// first but waited for X's (the queue's lock) and commits second; still the
// two classes take turns. Placing by the transaction's start time (now())
// put all of Y's jobs before X's first: on Monday morning, behind eleven
// such classes, one class waited for 220 results (make test-scale, 42 s).
func TestBatchesQueuedTogetherTakeTurnsWhicheverTransactionBeganFirst(t *testing.T) {
	ctx := context.Background()
	pool := testdb.Pool(t)
	client, err := queue.NewInsertClient(pool, nil)
	require.NoError(t, err)
	const n = 5
	batch := func() ([]river.InsertManyParams, map[string]bool) {
		ps := make([]river.InsertManyParams, n)
		ids := map[string]bool{}
		for i := range ps {
			id := uuid.New()
			ids[id.String()] = true
			ps[i] = river.InsertManyParams{Args: queue.GradeSubmissionArgs{SubmissionID: id}}
		}
		return ps, ids
	}
	yJobs, yIDs := batch()
	xJobs, xIDs := batch()

	ty, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer ty.Rollback(ctx)
	_, err = ty.Exec(ctx, "SELECT 1") // Y's transaction has begun: now() is fixed
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)

	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	require.NoError(t, queue.InsertFairTx(ctx, client, tx, queue.QueueAI, xJobs))
	require.NoError(t, tx.Commit(ctx))
	require.NoError(t, queue.InsertFairTx(ctx, client, ty, queue.QueueAI, yJobs))
	require.NoError(t, ty.Commit(ctx))

	// River's order of the available jobs: priority, scheduled_at, id.
	rows, err := pool.Query(ctx, `SELECT args ->> 'submission_id' FROM river_job
		WHERE kind = 'grade_submission' AND state = 'available' ORDER BY priority, scheduled_at, id`)
	require.NoError(t, err)
	var order []string
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		if xIDs[id] {
			order = append(order, "X")
		} else if yIDs[id] {
			order = append(order, "Y")
		}
	}
	require.NoError(t, rows.Err())
	require.Len(t, order, 2*n)
	for k := 0; k < n; k++ {
		pair := order[2*k : 2*k+2]
		require.ElementsMatch(t, []string{"X", "Y"}, pair, "the %d-th jobs of both classes come before either's next: %v", k+1, order)
	}
	// and none waits for a time to come
	var future int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'grade_submission' AND scheduled_at > now()`).Scan(&future))
	require.Zero(t, future)
}
