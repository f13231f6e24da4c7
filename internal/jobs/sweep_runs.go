package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// How the sweeper decides a run is stuck: in progress for StuckAfter with
// no live grading job and no extraction under way. A job that is still
// queued, running or retrying is never swept, however long it waits.
const StuckAfter = 15 * time.Minute

// SweepRunsWorker fails runs that can no longer finish (their job was
// cancelled, discarded or lost), so no result stays in progress forever.
type SweepRunsWorker struct {
	river.WorkerDefaults[queue.SweepRunsArgs]
	deps Deps
}

// Work implements river.Worker.
func (w *SweepRunsWorker) Work(ctx context.Context, _ *river.Job[queue.SweepRunsArgs]) error {
	return Sweep(ctx, w.deps, time.Now())
}

// Sweep is the periodic sweep at now: it fails the stuck runs and forgets
// the tombstones of deleted rows no poll's version can still need
// (changes.Prune).
func Sweep(ctx context.Context, d Deps, now time.Time) error {
	ids, err := SweepStuckRuns(ctx, d, now.Add(-StuckAfter))
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		d.logger().Warn("stuck AI runs failed", "results", len(ids))
	}
	_, err = changes.Prune(ctx, d.Pool, now)
	return err
}

// SweepStuckRuns fails the runs in progress since before cutoff that have
// no live job, and returns the ids of their results.
func SweepStuckRuns(ctx context.Context, d Deps, cutoff time.Time) ([]uuid.UUID, error) {
	ids, err := store.Q.SweepStuckRuns(ctx, d.Pool, store.SweepStuckRunsParams{Error: ReasonGradingUnfinished, Cutoff: cutoff})
	if err != nil {
		return nil, fmt.Errorf("sweep stuck runs: %w", err)
	}
	return ids, nil
}

// periodicJobs are the jobs River's leader inserts on a schedule.
func periodicJobs() []*river.PeriodicJob {
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(queue.SweepEvery), func() (river.JobArgs, *river.InsertOpts) {
			return queue.SweepRunsArgs{}, nil
		}, nil),
	}
}
