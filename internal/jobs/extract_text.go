package jobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/storage"
	"github.com/markwell/markwell/internal/store"
)

// ExtractTextArgs asks for the text of one uploaded submission.
type ExtractTextArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
}

// Kind implements river.JobArgs.
func (ExtractTextArgs) Kind() string { return "extract_text" }

// InsertOpts puts the job on the extract queue, once per submission.
func (ExtractTextArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueExtract, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// ExtractTextWorker reads a submission's file and stores its text. It is
// idempotent: a finished extraction is never redone or overwritten.
type ExtractTextWorker struct {
	river.WorkerDefaults[ExtractTextArgs]
	deps Deps
}

// Work implements river.Worker.
func (w *ExtractTextWorker) Work(ctx context.Context, job *river.Job[ExtractTextArgs]) error {
	id := job.Args.SubmissionID
	sub, err := store.Q.GetSubmissionForJob(ctx, w.deps.Pool, id)
	if err != nil {
		if errors.Is(store.NotFound(err), store.ErrNotFound) {
			return river.JobCancel(fmt.Errorf("submission %s is gone", id))
		}
		return fmt.Errorf("load submission %s: %w", id, err)
	}
	if sub.ExtractStatus == "done" {
		return nil
	}
	if err := store.Q.StartExtraction(ctx, w.deps.Pool, id); err != nil {
		return fmt.Errorf("mark submission %s extracting: %w", id, err)
	}

	text, err := w.read(ctx, sub)
	if err != nil {
		permanent := errors.Is(err, extract.ErrUnsupported) || errors.Is(err, extract.ErrTooLarge) ||
			errors.Is(err, storage.ErrNotFound)
		if permanent || job.Attempt >= job.MaxAttempts {
			// Keep the error for the teacher; a context cancelled by shutdown is not the file's fault.
			if ferr := store.Q.FailExtraction(context.WithoutCancel(ctx), w.deps.Pool, store.FailExtractionParams{
				ID: id, ExtractError: userMessage(err),
			}); ferr != nil {
				return fmt.Errorf("mark submission %s failed: %w (after %w)", id, ferr, err)
			}
		}
		if permanent {
			return river.JobCancel(err)
		}
		return err
	}
	if _, err := store.Q.FinishExtraction(ctx, w.deps.Pool, store.FinishExtractionParams{ID: id, ExtractedText: &text}); err != nil {
		return fmt.Errorf("save text of submission %s: %w", id, err)
	}
	return nil
}

func (w *ExtractTextWorker) read(ctx context.Context, sub store.Submission) (string, error) {
	body, err := w.deps.Blob.Get(ctx, sub.FileKey)
	if err != nil {
		return "", fmt.Errorf("open file of submission %s: %w", sub.ID, err)
	}
	defer body.Close()
	res, err := w.deps.Extractor.Extract(ctx, extract.Input{Name: sub.Name, ContentType: sub.ContentType, Body: body})
	if err != nil {
		return "", fmt.Errorf("extract submission %s: %w", sub.ID, err)
	}
	return res.Text, nil
}

// userMessage is what a teacher sees for a failed extraction: never internals.
func userMessage(err error) string {
	switch {
	case errors.Is(err, extract.ErrUnsupported):
		return "This file type cannot be read."
	case errors.Is(err, extract.ErrTooLarge):
		return "This file is too large to read."
	case errors.Is(err, storage.ErrNotFound):
		return "The uploaded file is missing. Please upload it again."
	default:
		return "The file could not be read. Please upload it again."
	}
}
