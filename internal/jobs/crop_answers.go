package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// CropAnswersArgs asks for one submission's answers to be cropped out of its
// pages by its assignment's answer-box template.
type CropAnswersArgs = answerbox.CropArgs

// BlobWriter stores files; blob.Blob satisfies it.
type BlobWriter interface {
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
}

// CropAnswersWorker renders the pages a template's boxes are on (each page
// once, kept for the drawing screen too), stores each box's crop under
// answerbox.CropKey and writes the result's answers tree with the boxes'
// coordinates and the crops' keys, keeping any grade already there, and the
// status ready-to-grade. It is idempotent: a rerun writes the same keys
// (overwriting, never adding) and the same tree. A submission, result or
// template that is gone cancels it. Deps.Blob must also be a BlobWriter.
type CropAnswersWorker struct {
	river.WorkerDefaults[CropAnswersArgs]
	deps Deps
}

// NewCropAnswersWorker returns the worker of crop_answers jobs over d.
func NewCropAnswersWorker(d Deps) *CropAnswersWorker { return &CropAnswersWorker{deps: d} }

// Work implements river.Worker.
func (w *CropAnswersWorker) Work(ctx context.Context, job *river.Job[CropAnswersArgs]) error {
	id := job.Args.SubmissionID
	put, ok := w.deps.Blob.(BlobWriter)
	if !ok {
		return fmt.Errorf("crop answers: the worker's blob store (%T) cannot store files", w.deps.Blob)
	}
	sub, err := store.Q.GetSubmissionToCrop(ctx, w.deps.Pool, id)
	if errors.Is(store.NotFound(err), store.ErrNotFound) {
		return river.JobCancel(fmt.Errorf("submission %s or its result is gone", id))
	}
	if err != nil {
		return fmt.Errorf("load submission %s to crop: %w", id, err)
	}
	boxes, err := answerbox.ParseBoxes(sub.AnswerBoxes)
	if err != nil {
		return river.JobCancel(err)
	}
	if len(boxes) == 0 {
		return river.JobCancel(fmt.Errorf("assignment %s has no answer boxes", sub.AssignmentID))
	}
	if sub.FileKey == "" {
		return river.JobCancel(fmt.Errorf("submission %s has no file", id))
	}
	qs, err := answerbox.ParseQuestions(sub.Questions)
	if err != nil {
		return river.JobCancel(err)
	}
	media, err := w.crop(ctx, put, sub, boxes)
	if err != nil {
		if errors.Is(err, blob.ErrNotFound) || errors.Is(err, blob.ErrInvalidKey) {
			return river.JobCancel(err)
		}
		return err
	}
	answers, err := answerbox.BuildAnswers(qs, boxes, media, sub.Answers)
	if err != nil {
		return err
	}
	var n int64
	err = store.InTx(ctx, w.deps.Pool, func(tx pgx.Tx) error {
		var err error
		n, err = store.Q.SaveCroppedAnswers(ctx, tx, store.SaveCroppedAnswersParams{
			Answers: answers, ID: sub.ResultID, Previous: sub.Answers,
		})
		if err != nil || n == 0 {
			return err
		}
		return queueGradingIfWaiting(ctx, tx, id) // grade-all came before the crops
	})
	if err != nil {
		return fmt.Errorf("save answers of submission %s: %w", id, err)
	}
	if n == 0 { // the answers changed since they were read: read them again
		return fmt.Errorf("answers of submission %s changed while cropping", id)
	}
	return nil
}

// crop stores the crop of every box on a page the submission has and
// returns the keys by path key. A box on a page past the file's last has
// no crop.
func (w *CropAnswersWorker) crop(ctx context.Context, put BlobWriter, sub store.GetSubmissionToCropRow, boxes []answerbox.Box) (map[string][]string, error) {
	pages := &answerbox.Pages{
		Store: storeOf{w.deps.Blob, put}, Render: w.renderer(),
		Assignment: sub.AssignmentID, Submission: sub.ID, FileKey: sub.FileKey,
	}
	imgs := map[int]image.Image{}
	media := make(map[string][]string, len(boxes))
	for _, b := range boxes {
		if sub.PageCount > 0 && b.Page >= int(sub.PageCount) {
			continue
		}
		img, ok := imgs[b.Page]
		if !ok {
			var err error
			img, _, err = pages.Image(ctx, b.Page)
			if errors.Is(err, answerbox.ErrNoSuchPage) {
				imgs[b.Page] = nil
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("page %d of submission %s: %w", b.Page, sub.ID, err)
			}
			imgs[b.Page] = img
		}
		if img == nil {
			continue
		}
		jpg, err := answerbox.EncodeJPEG(answerbox.Crop(img, b))
		if err != nil {
			return nil, err
		}
		key := answerbox.CropKey(sub.AssignmentID, sub.ID, b.Path)
		if err := put.Put(ctx, key, bytes.NewReader(jpg), int64(len(jpg)), "image/jpeg"); err != nil {
			return nil, fmt.Errorf("store crop %s: %w", key, err)
		}
		media[answerbox.PathKey(b.Path)] = []string{key}
	}
	return media, nil
}

// renderer renders pages with the poppler path and temporary folder of the
// extraction jobs.
func (w *CropAnswersWorker) renderer() answerbox.Renderer {
	return answerbox.Renderer{Pdftoppm: w.deps.ReadOptions.PdftoppmPath, TempDir: w.deps.ReadOptions.TempDir}
}

// storeOf joins a reader and a writer of the same store.
type storeOf struct {
	BlobReader
	BlobWriter
}

// queueCropsIfNeeded queues crop_answers in tx for submission id when its
// answers are cropped once it is read (handwritten work of a grade
// assignment whose template has boxes), and reports whether it did.
func queueCropsIfNeeded(ctx context.Context, tx pgx.Tx, id uuid.UUID) (bool, error) {
	needs, err := store.Q.NeedsAnswerCrops(ctx, tx, id)
	if err != nil {
		return false, fmt.Errorf("does submission %s need answer crops: %w", id, err)
	}
	if !needs {
		return false, nil
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return false, fmt.Errorf("queue crop_answers for submission %s: %w", id, err)
	}
	if _, err := client.InsertTx(ctx, tx, CropAnswersArgs{SubmissionID: id}, nil); err != nil {
		return false, fmt.Errorf("queue crop_answers for submission %s: %w", id, err)
	}
	return true, nil
}

// queueGradingIfWaiting queues grade_submission in tx when the
// submission's result waits in progress for its text (or its crops):
// grade-all was pressed before the submission was ready.
func queueGradingIfWaiting(ctx context.Context, tx pgx.Tx, id uuid.UUID) error {
	waiting, err := store.Q.ResultWaitingForText(ctx, tx, id)
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !waiting) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("is submission %s waiting to be graded: %w", id, err)
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return fmt.Errorf("queue grading of submission %s: %w", id, err)
	}
	if _, err := client.InsertTx(ctx, tx, queue.GradeSubmissionArgs{SubmissionID: id}, nil); err != nil {
		return fmt.Errorf("queue grading of submission %s: %w", id, err)
	}
	return nil
}
