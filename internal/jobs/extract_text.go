package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// Reasons a teacher sees on a submission whose file could not be read, besides
// the extract package's own (extract.Reason). None of them carries internals.
const (
	// ReasonUnreadable follows the last of a job's attempts when each failed
	// for a reason retrying might have fixed (I/O, a timeout, the model down).
	ReasonUnreadable = "The file could not be read. Please upload it again."
	// ReasonMissing is a submission whose file is not in storage.
	ReasonMissing = "The uploaded file is missing. Please upload it again."
	// ReasonVisionRefused is a handwritten file the AI model refused to read
	// (the provider rejected the request: a model without vision, a bad key).
	ReasonVisionRefused = "The AI model could not read the handwriting in this file."
)

// statusReady is a submission whose text is final (submissions.extract_status).
const statusReady = "ready"

// ExtractTextWorker reads a submission's file and stores its text. The format
// comes from the file's bytes (a ".pdf" holding a PNG is read as a PNG). Text
// pages are read here; when some page needs OCR (a scanned PDF page, an
// image) the pages read so far are stored and, in the same transaction, an
// ocr_pages job (or, for handwritten work, a transcribe_pages job) is queued
// to finish the file, the submission staying "extracting". It is idempotent:
// a finished extraction is never redone or overwritten.
type ExtractTextWorker struct {
	river.WorkerDefaults[queue.ExtractTextArgs]
	deps Deps
}

// Work implements river.Worker.
func (w *ExtractTextWorker) Work(ctx context.Context, job *river.Job[queue.ExtractTextArgs]) error {
	id := job.Args.SubmissionID
	sub, err := loadSubmission(ctx, w.deps, id)
	if err != nil || sub.ExtractStatus == statusReady {
		return err
	}
	if _, err := store.Q.StartExtracting(ctx, w.deps.Pool, id); err != nil {
		return fmt.Errorf("mark submission %s extracting: %w", id, err)
	}
	res, err := w.deps.read(ctx, w.deps.extractor(), sub)
	if err != nil {
		return w.deps.failAttempt(ctx, job.JobRow, id, err)
	}
	if !res.NeedsOCR() {
		return w.deps.finish(ctx, id, res, "")
	}
	return w.handOff(ctx, sub, res)
}

// handOff stores the pages read so far and queues the job that reads the
// rest, in one transaction: either both happen or neither.
func (w *ExtractTextWorker) handOff(ctx context.Context, sub store.GetSubmissionToExtractRow, res extract.Result) error {
	var next river.JobArgs = queue.OCRPagesArgs{SubmissionID: sub.ID}
	if sub.HandWritten {
		next = queue.TranscribePagesArgs{SubmissionID: sub.ID}
	}
	client, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return fmt.Errorf("queue %s for submission %s: %w", next.Kind(), sub.ID, err)
	}
	pages, err := json.Marshal(storedPages(res, ""))
	if err != nil {
		return fmt.Errorf("encode pages of submission %s: %w", sub.ID, err)
	}
	err = store.InTx(ctx, w.deps.Pool, func(tx pgx.Tx) error {
		n, err := store.Q.SavePartialExtraction(ctx, tx, store.SavePartialExtractionParams{
			ID: sub.ID, Pages: pages, PageCount: int32(len(res.Pages)),
		})
		if err != nil || n == 0 { // n == 0: another run has finished it
			return err
		}
		_, err = client.InsertTx(ctx, tx, next, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("hand submission %s to %s: %w", sub.ID, next.Kind(), err)
	}
	return nil
}

// loadSubmission loads a submission for an extraction job; a deleted one
// cancels the job.
func loadSubmission(ctx context.Context, d Deps, id uuid.UUID) (store.GetSubmissionToExtractRow, error) {
	sub, err := store.Q.GetSubmissionToExtract(ctx, d.Pool, id)
	if errors.Is(store.NotFound(err), store.ErrNotFound) {
		return sub, river.JobCancel(fmt.Errorf("submission %s is gone", id))
	}
	if err != nil {
		return sub, fmt.Errorf("load submission %s: %w", id, err)
	}
	return sub, nil
}

// extractor is the extract queue's reader: no OCR.
func (d Deps) extractor() extract.Extractor {
	if d.Extractor != nil {
		return d.Extractor
	}
	o := d.ReadOptions
	o.OCR = nil
	return extract.New(o)
}

// read opens a submission's file and reads it with ex.
func (d Deps) read(ctx context.Context, ex extract.Extractor, sub store.GetSubmissionToExtractRow) (extract.Result, error) {
	if sub.FileKey == "" {
		return extract.Result{}, fmt.Errorf("submission %s has no file: %w", sub.ID, blob.ErrNotFound)
	}
	body, err := d.Blob.Get(ctx, sub.FileKey)
	if err != nil {
		return extract.Result{}, fmt.Errorf("open file of submission %s: %w", sub.ID, err)
	}
	defer body.Close()
	// The file's SHA-256, taken as it is read: the upload screen compares it
	// with the files a teacher picks, so a folder uploaded again adds no
	// second row for the same work.
	hash := sha256.New()
	res, err := ex.Extract(ctx, extract.Input{Name: sub.Name, ContentType: sub.ContentType, Body: io.TeeReader(body, hash)})
	if err != nil {
		return extract.Result{}, fmt.Errorf("extract submission %s: %w", sub.ID, err)
	}
	if _, err := io.Copy(hash, body); err != nil { // what the reader left unread
		return extract.Result{}, fmt.Errorf("hash file of submission %s: %w", sub.ID, err)
	}
	sum := hex.EncodeToString(hash.Sum(nil))
	if err := store.Q.SetSubmissionContentHash(ctx, d.Pool, store.SetSubmissionContentHashParams{ID: sub.ID, ContentSha256: &sum}); err != nil {
		return extract.Result{}, fmt.Errorf("save hash of submission %s: %w", sub.ID, err)
	}
	return res, nil
}

// finish writes a finished extraction: pages (each with its warning, when
// it may be misread), text, the doubtful pages and a warning about pages
// without text or misread, at most once (a submission already ready is left
// alone). source, when set, replaces the source of OCR'd pages.
func (d Deps) finish(ctx context.Context, id uuid.UUID, res extract.Result, source string) error {
	if res.NeedsOCR() {
		return fmt.Errorf("submission %s: %d pages still wait for OCR", id, res.EmptyPages)
	}
	pages := storedPages(res, source)
	data, err := json.Marshal(pages)
	if err != nil {
		return fmt.Errorf("encode pages of submission %s: %w", id, err)
	}
	text := res.Text
	var n int64
	err = store.InTx(ctx, d.Pool, func(tx pgx.Tx) error {
		var err error
		n, err = store.Q.FinishExtracting(ctx, tx, store.FinishExtractingParams{
			ID: id, Pages: data, PageCount: int32(len(pages)), ExtractedText: &text, ExtractError: res.Warning(),
			DoubtfulPages: int32s(res.Doubtful()),
		})
		if err != nil || n == 0 {
			return err
		}
		cropping, err := queueCropsIfNeeded(ctx, tx, id) // answer boxes of handwritten grade work
		if err != nil || cropping {
			return err // the crop job queues the grading
		}
		return queueGradingIfWaiting(ctx, tx, id)
	})
	if err != nil {
		return fmt.Errorf("save text of submission %s: %w", id, err)
	}
	if n == 0 {
		d.logger().Info("extraction already finished: nothing written", "submission", id)
	}
	return nil
}

// failAttempt decides what a failed attempt means. A rate limit snoozes the
// job. A permanent failure (the file is unreadable, missing, or refused by
// the model) marks the submission failed with its reason and cancels the job
// at once; any other error is retried by River, and only the last attempt
// marks the submission failed.
func (d Deps) failAttempt(ctx context.Context, job *rivertype.JobRow, id uuid.UUID, err error) error {
	return d.endAttempt(ctx, job, id, err, nil)
}

// failReading is failAttempt for the jobs that read the pages extract_text
// left waiting (ocr_pages, transcribe_pages; by names their reader for the
// teacher: "OCR", "the AI model"). When that reading has failed for good,
// on the last attempt or by the model refusing it, what extract_text read
// still stands: finishUnread finishes the submission with it, the pages left
// unread named in its warning, and grading that waited for the text goes
// on. A file with no text of its own (a scan) fails as failAttempt fails
// it, and so does a failure of the file itself (missing, damaged).
func (d Deps) failReading(ctx context.Context, job *rivertype.JobRow, sub store.GetSubmissionToExtractRow, err error, by string) error {
	return d.endAttempt(ctx, job, sub.ID, err, func(ctx context.Context) (bool, error) {
		return d.finishUnread(ctx, sub, by)
	})
}

// endAttempt is failAttempt; salvage, when set, runs first when the job's
// reading has failed for good (not the file: a retryable error on the last
// attempt, or the model's refusal) and reports whether it finished the
// submission all the same, in which case it is not marked failed.
func (d Deps) endAttempt(ctx context.Context, job *rivertype.JobRow, id uuid.UUID, err error,
	salvage func(context.Context) (bool, error)) error {
	if wait, ok := llm.RetryAfter(err); ok {
		d.logger().Info("model rate limit: job snoozed", "submission", id, "kind", job.Kind, "wait", wait)
		return river.JobSnooze(wait)
	}
	reason, permanent := failureReason(err)
	if !permanent && job.Attempt < job.MaxAttempts {
		return err
	}
	if !permanent {
		reason = ReasonUnreadable
	}
	// What is written is kept even when the attempt's context has ended.
	ctx = context.WithoutCancel(ctx)
	// The model refusing to read the pages is the reader's failure, not the
	// file's: what was read without it stands, as after the last attempt.
	if salvage != nil && (!permanent || reason == ReasonVisionRefused) {
		finished, serr := salvage(ctx)
		if serr != nil {
			d.logger().Warn("could not finish with the pages read", "submission", id, "kind", job.Kind, "err", serr)
		}
		if finished {
			d.logger().Warn("pages left unread", "submission", id, "kind", job.Kind, "attempt", job.Attempt, "err", err)
			return stopJob(err, permanent)
		}
	}
	d.logger().Warn("extraction failed", "submission", id, "kind", job.Kind, "attempt", job.Attempt,
		"reason", reason, "err", err)
	if ferr := d.failExtracting(ctx, id, reason); ferr != nil {
		return fmt.Errorf("mark submission %s failed: %w (after %w)", id, ferr, err)
	}
	return stopJob(err, permanent)
}

// stopJob is what a job's last failed attempt returns: a permanent failure
// cancels it, any other is its last error (River discards it).
func stopJob(err error, permanent bool) error {
	if permanent {
		return river.JobCancel(err)
	}
	return err
}

// rereadTimeout bounds reading a file again to finish it without OCR: the
// attempt's own time may be over (OCR ran until the job's timeout).
const rereadTimeout = time.Minute

// finishUnread finishes a submission whose pages waiting for OCR (or the
// vision model: by) will never be read, with the text extract_text read:
// the file is read again as extract_text read it, without OCR, and the pages
// that waited are left as they were, each with a warning
// (extract.Result.WithoutOCR). It reports false, writing nothing, when no
// text stands without them: the stored pages hold none (a scan), or only a
// scanned page's few words (a scanner app's stamp).
func (d Deps) finishUnread(ctx context.Context, sub store.GetSubmissionToExtractRow, by string) (bool, error) {
	var stored []storedPage
	if err := json.Unmarshal(sub.Pages, &stored); err != nil {
		return false, fmt.Errorf("decode pages of submission %s: %w", sub.ID, err)
	}
	if !slices.ContainsFunc(stored, func(p storedPage) bool { return p.Text != "" }) {
		return false, nil // nothing read without OCR: no need to read it again
	}
	ctx, cancel := context.WithTimeout(ctx, rereadTimeout)
	defer cancel()
	res, err := d.read(ctx, d.extractor(), sub)
	if err != nil {
		return false, err
	}
	res, ok := res.WithoutOCR(by)
	if !ok {
		return false, nil
	}
	if err := d.finish(ctx, sub.ID, res, ""); err != nil {
		return false, err
	}
	return true, nil
}

// failExtracting marks a submission's extraction failed and, when grading
// waited for its text, the grading too: nothing stays in progress.
func (d Deps) failExtracting(ctx context.Context, id uuid.UUID, reason string) error {
	return store.InTx(ctx, d.Pool, func(tx pgx.Tx) error {
		if _, err := store.Q.FailExtracting(ctx, tx, store.FailExtractingParams{ID: id, ExtractError: reason}); err != nil {
			return err
		}
		_, err := store.Q.FailRun(ctx, tx, store.FailRunParams{Error: ReasonNoText, SubmissionID: id})
		return err
	})
}

// failureReason returns the teacher-facing reason of a failure that retrying
// cannot fix, and false for any other.
func failureReason(err error) (string, bool) {
	if reason, ok := extract.Reason(err); ok {
		return reason, true
	}
	switch {
	case errors.Is(err, blob.ErrNotFound), errors.Is(err, blob.ErrInvalidKey):
		return ReasonMissing, true
	case llm.IsPermanent(err):
		return ReasonVisionRefused, true
	}
	return "", false
}

// storedPage is one page as submissions.pages holds it and submission/get
// serves it: {"text", "source"}. Source is the extract package's ("file",
// "pdftotext", "ocr"), "vision" for a transcript by the vision model, and ""
// for a page without text or one still waiting for OCR. Confidence is
// tesseract's (0–100) for a page OCR read, absent otherwise. Warning says
// why the page's text may be misread (extract.Page.Warning), absent when
// it may not.
type storedPage struct {
	Text       string `json:"text"`
	Source     string `json:"source"`
	Confidence *int   `json:"confidence,omitempty"`
	Warning    string `json:"warning,omitempty"`
}

// storedPages turns a result into stored pages, naming OCR'd pages' source
// ocrSource when it is set.
func storedPages(res extract.Result, ocrSource string) []storedPage {
	out := make([]storedPage, len(res.Pages))
	for i, p := range res.Pages {
		src := string(p.Source)
		if p.Source == extract.SourceOCR && ocrSource != "" {
			src = ocrSource
		}
		out[i] = storedPage{Text: p.Text, Source: src, Confidence: p.Confidence, Warning: p.Warning}
	}
	return out
}

// int32s converts page numbers for the database.
func int32s(ns []int) []int32 {
	out := make([]int32, len(ns))
	for i, n := range ns {
		out[i] = int32(n)
	}
	return out
}

// logger is Log, or a logger that drops everything.
func (d Deps) logger() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
