package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

// noBlobs is a blob store holding nothing; deleting from it always works.
type noBlobs struct{}

func (noBlobs) Get(context.Context, string) (io.ReadCloser, error) { return nil, io.EOF }
func (noBlobs) Delete(context.Context, string) error               { return nil }
func (noBlobs) DeletePrefix(context.Context, string) error         { return nil }

// listeners counts the connections to the pool's database whose last
// statement was a LISTEN (River's notifier keeps one open while it runs).
func listeners(t *testing.T, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(),
		`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen %'`).Scan(&n))
	return n
}

// runOneJob starts a worker client on the default queue, inserts a
// delete_blobs job and waits for it to complete.
func runOneJob(t *testing.T, pool *pgxpool.Pool, pollOnly bool) {
	t.Helper()
	deps := jobs.Deps{Pool: pool, Blob: noBlobs{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	client, err := jobs.NewWorkerClient(pool, jobs.NewWorkers(deps), jobs.WorkerOptions{
		Queues: map[string]int{queue.QueueDefault: 1}, JobTimeout: time.Minute, RescueAfter: 2 * time.Minute,
		FetchPollInterval: 200 * time.Millisecond, PollOnly: pollOnly,
	}, deps.Log)
	require.NoError(t, err)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	t.Cleanup(cancel)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
	res, err := client.Insert(context.Background(), queue.DeleteBlobsArgs{Keys: []string{"gone.txt"}}, nil)
	require.NoError(t, err)
	ev := waitFor(t, events, res.Job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
}

// Behind PgBouncer in transaction mode LISTEN cannot work: with PollOnly
// (JOBS_POLL_ONLY=true) a worker still runs new jobs, found by polling, and
// never issues a LISTEN. The default client does LISTEN, which shows the
// check would catch one.
func TestPollOnlyWorkerRunsJobsWithoutListen(t *testing.T) {
	t.Parallel()
	t.Run("poll only", func(t *testing.T) {
		t.Parallel()
		pool := testdb.Isolated(t)
		runOneJob(t, pool, true)
		require.Never(t, func() bool { return listeners(t, pool) > 0 }, time.Second, 50*time.Millisecond,
			"a poll-only worker must not LISTEN")
	})
	t.Run("default listens", func(t *testing.T) {
		t.Parallel()
		pool := testdb.Isolated(t)
		runOneJob(t, pool, false)
		require.Eventually(t, func() bool { return listeners(t, pool) > 0 }, 5*time.Second, 50*time.Millisecond,
			"the default worker LISTENs for new jobs")
	})
}
