package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/queue"
)

// BlobDeleter removes stored files; blob.Blob satisfies it.
type BlobDeleter interface {
	// Delete removes one file; a missing file is not an error.
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every file under a folder.
	DeletePrefix(ctx context.Context, prefix string) error
}

// DeleteBlobsWorker removes the files of a delete_blobs job through
// Deps.Blob, which must also be a BlobDeleter (blob.Blob is). It is
// idempotent: files already gone are not an error, so a retry after a
// partial run finishes the rest.
type DeleteBlobsWorker struct {
	river.WorkerDefaults[queue.DeleteBlobsArgs]
	deps Deps
}

// NewDeleteBlobsWorker returns the worker of delete_blobs jobs over d.
func NewDeleteBlobsWorker(d Deps) *DeleteBlobsWorker { return &DeleteBlobsWorker{deps: d} }

// Work implements river.Worker.
func (w *DeleteBlobsWorker) Work(ctx context.Context, job *river.Job[queue.DeleteBlobsArgs]) error {
	del, ok := w.deps.Blob.(BlobDeleter)
	if !ok {
		return fmt.Errorf("delete blobs: the worker's blob store (%T) cannot delete files", w.deps.Blob)
	}
	var errs []error
	for _, key := range job.Args.Keys {
		if err := del.Delete(ctx, key); err != nil {
			errs = append(errs, fmt.Errorf("delete %s: %w", key, err))
		}
	}
	for _, prefix := range append([]string{job.Args.Prefix}, job.Args.Prefixes...) {
		if prefix == "" {
			continue
		}
		if err := del.DeletePrefix(ctx, prefix); err != nil {
			errs = append(errs, fmt.Errorf("delete folder %s: %w", prefix, err))
		}
	}
	return errors.Join(errs...)
}
