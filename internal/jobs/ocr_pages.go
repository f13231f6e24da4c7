package jobs

import (
	"context"
	"errors"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/queue"
)

// byOCR names OCR for the teacher, in the warning of a file finished
// without the pages OCR could not read (extract.Result.WithoutOCR).
const byOCR = "OCR"

// errNoOCR is a process that runs the ocr queue without an OCR pool: a
// wiring mistake, retried in case another worker has one.
var errNoOCR = errors.New("this worker has no OCR pool (Deps.OCR)")

// OCRPagesWorker finishes a submission whose pages need OCR: it reads the
// file again with a Reader that has the process's OCR pool, which rasterises
// each page without text (pdftoppm, to greyscale PGM) or decodes the image,
// recognises it with tesseract, and keeps the text pages as they are (read
// again in-process, a matter of milliseconds), so the pages come back whole
// and in order. When OCR fails on every attempt, the submission is finished
// with the text extract_text read, if it read any (failReading). It is
// idempotent: a finished extraction is never redone or overwritten.
type OCRPagesWorker struct {
	river.WorkerDefaults[queue.OCRPagesArgs]
	deps Deps
}

// Work implements river.Worker.
func (w *OCRPagesWorker) Work(ctx context.Context, job *river.Job[queue.OCRPagesArgs]) error {
	id := job.Args.SubmissionID
	sub, err := loadSubmission(ctx, w.deps, id)
	if err != nil || sub.ExtractStatus == statusReady {
		return err
	}
	if w.deps.OCR == nil {
		return w.deps.failReading(ctx, job.JobRow, sub, errNoOCR, byOCR)
	}
	o := w.deps.ReadOptions
	o.OCR = w.deps.OCR
	res, err := w.deps.read(ctx, extract.New(o), sub)
	if err != nil {
		return w.deps.failReading(ctx, job.JobRow, sub, err, byOCR)
	}
	return w.deps.finish(ctx, id, res, "")
}
