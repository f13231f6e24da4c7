package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// purgeBatch is how many uploads one transaction deletes.
const purgeBatch = 200

// PurgeLinkUploadsWorker deletes unsubmitted link uploads through
// Deps.Blob, which must also be a BlobDeleter (blob.Blob is).
type PurgeLinkUploadsWorker struct {
	river.WorkerDefaults[queue.PurgeLinkUploadsArgs]
	deps Deps
}

// NewPurgeLinkUploadsWorker returns the worker of purge_link_uploads jobs
// over d.
func NewPurgeLinkUploadsWorker(d Deps) *PurgeLinkUploadsWorker {
	return &PurgeLinkUploadsWorker{deps: d}
}

// Work implements river.Worker.
func (w *PurgeLinkUploadsWorker) Work(ctx context.Context, _ *river.Job[queue.PurgeLinkUploadsArgs]) error {
	n, err := PurgeLinkUploads(ctx, w.deps, time.Now().Add(-files.UnsubmittedUploadAge))
	if n > 0 {
		w.deps.logger().Info("unsubmitted student uploads deleted", "files", n)
	}
	return err
}

// PurgeLinkUploads deletes the files uploaded through student links before
// cutoff that no submission names, with their upload records, a batch per
// transaction, and clears the client address of the link uploads before
// cutoff that stay (those submitted). It returns how many files it deleted.
//
// Each batch's records are locked first, so a student submitting one of
// those files at that moment waits and then finds it gone (not found); a
// record such a submission already holds is skipped. Files are deleted
// before their records, so a failure leaves records to try again: deleting
// a file already gone is not an error.
func PurgeLinkUploads(ctx context.Context, d Deps, cutoff time.Time) (int, error) {
	del, ok := d.Blob.(BlobDeleter)
	if !ok {
		return 0, fmt.Errorf("purge link uploads: the worker's blob store (%T) cannot delete files", d.Blob)
	}
	total := 0
	for {
		var n int
		err := store.InTx(ctx, d.Pool, func(tx pgx.Tx) error {
			keys, err := store.Q.LockStaleLinkUploads(ctx, tx, store.LockStaleLinkUploadsParams{Cutoff: cutoff, Max: purgeBatch})
			if err != nil {
				return fmt.Errorf("find unsubmitted uploads: %w", err)
			}
			for _, key := range keys {
				if err := del.Delete(ctx, key); err != nil {
					return fmt.Errorf("delete %s: %w", key, err)
				}
			}
			if _, err := store.Q.DeleteUploadRecords(ctx, tx, keys); err != nil {
				return fmt.Errorf("delete upload records: %w", err)
			}
			n = len(keys)
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("purge link uploads: %w", err)
		}
		total += n
		if n < purgeBatch {
			break
		}
	}
	if _, err := store.Q.ForgetLinkUploadAddrs(ctx, d.Pool, cutoff); err != nil {
		return total, fmt.Errorf("purge link uploads: forget addresses: %w", err)
	}
	return total, nil
}
