package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
)

// A job queued right after another (a grade-all just after another
// teacher's) wakes the worker at once instead of waiting for its next
// poll: the API's insert client notifies a queue again after 5 ms, not
// River's 100 ms. The worker here polls every 5 s, so only the
// notification can start the second job within 2 s.
func TestJobQueuedRightAfterAnotherStartsWithoutWaitingForThePoll(t *testing.T) {
	t.Parallel()
	b := setup(t)
	client, err := jobs.NewWorkerClient(b.pool, jobs.NewWorkers(b.deps), jobs.WorkerOptions{
		Queues: map[string]int{queue.QueueDefault: 2}, JobTimeout: time.Minute, RescueAfter: 2 * time.Minute,
		FetchPollInterval: 5 * time.Second,
	}, b.deps.Log)
	require.NoError(t, err)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed)
	t.Cleanup(cancel)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
	time.Sleep(500 * time.Millisecond) // the worker has made its first fetch and listens

	args := queue.DeleteBlobsArgs{} // nothing to delete: the job only has to run
	first, err := b.insert.Insert(context.Background(), args, nil)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, first.Job.ID).Kind)
	second, err := b.insert.Insert(context.Background(), args, nil)
	require.NoError(t, err)
	select {
	case ev := <-events:
		require.Equal(t, second.Job.ID, ev.Job.ID)
	case <-time.After(2 * time.Second):
		t.Fatal("the second job waited for the worker's poll")
	}
}
