package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/riverqueue/river"
)

// DeleteBlobsArgs asks for stored files to be removed: the files under
// Keys, and every file under Prefix (a folder such as "assignments/{id}/")
// when it is set. The API inserts it in the transaction that deletes the
// rows naming the files, so the files go even if the API dies right after.
type DeleteBlobsArgs struct {
	Keys   []string `json:"keys,omitempty"`
	Prefix string   `json:"prefix,omitempty"`
	// Prefixes are more folders to empty (a deleted submission's page
	// images and crops).
	Prefixes []string `json:"prefixes,omitempty"`
}

// Kind implements river.JobArgs.
func (DeleteBlobsArgs) Kind() string { return "delete_blobs" }

// InsertOpts puts the job on the default queue; a store that is down is
// retried with River's backoff.
func (DeleteBlobsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 10}
}

// BlobDeleter removes stored files; blob.Blob satisfies it.
type BlobDeleter interface {
	// Delete removes one file; a missing file is not an error.
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every file under a folder.
	DeletePrefix(ctx context.Context, prefix string) error
}

// DeleteBlobsWorker removes the files of a DeleteBlobsArgs job through
// Deps.Blob, which must also be a BlobDeleter (blob.Blob is). It is
// idempotent: files already gone are not an error, so a retry after a
// partial run finishes the rest.
type DeleteBlobsWorker struct {
	river.WorkerDefaults[DeleteBlobsArgs]
	deps Deps
}

// NewDeleteBlobsWorker returns the worker of delete_blobs jobs over d.
func NewDeleteBlobsWorker(d Deps) *DeleteBlobsWorker { return &DeleteBlobsWorker{deps: d} }

// Work implements river.Worker.
func (w *DeleteBlobsWorker) Work(ctx context.Context, job *river.Job[DeleteBlobsArgs]) error {
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
