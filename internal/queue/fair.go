package queue

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/store"
)

// InsertFairTx queues jobs of one queue in tx so that the classes waiting
// on it take turns: River serves a queue first come, first served, so a
// class of 30 queued just after a class of 300 would wait for all 300 (on
// Monday morning, behind a shared model limit, a minute or more). The k-th
// job of this batch is placed among the k-th jobs of the batches already
// waiting (store.InterleaveQueuedJobs says how); every job stays available
// at once. Every job in params must name the same queue.
func InsertFairTx(ctx context.Context, c *Client, tx pgx.Tx, queue string, params []river.InsertManyParams) error {
	res, err := c.InsertManyTx(ctx, tx, params)
	if err != nil {
		return err
	}
	ids := make([]int64, len(res))
	for i, r := range res {
		ids[i] = r.Job.ID
	}
	// Wait for batches being queued at the same moment to commit, so this
	// one is placed among their jobs (the next statement sees them).
	if err := store.Q.LockQueueInterleave(ctx, tx, queue); err != nil {
		return fmt.Errorf("wait for the batches queued alongside: %w", err)
	}
	if err := store.Q.InterleaveQueuedJobs(ctx, tx, store.InterleaveQueuedJobsParams{Ids: ids, Queue: queue}); err != nil {
		return fmt.Errorf("interleave %d jobs on queue %s: %w", len(ids), queue, err)
	}
	return nil
}
