package jobs

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"sync"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/queue"
)

// SourceVision is the source of a page transcribed by the vision model.
const SourceVision = "vision"

// byVision names the vision model for the teacher, in the warning of a file
// finished without the pages it could not read (extract.Result.WithoutOCR).
const byVision = "the AI model"

// TaskTranscribePage is the structured-output task (schema name) of a page
// transcription; the demo model answers it (fakellm.TaskTranscribePage).
const TaskTranscribePage = "transcribe_page"

// visionPixels is the long side, in pixels, of a page image sent to the
// vision model: about what providers scale a detailed image down to anyway,
// and enough for handwriting on an A4 page (≈ 170 dpi).
const visionPixels = 2048

// transcribePrompt is the system prompt of a page transcription.
const transcribePrompt = `You transcribe a student's handwritten work for their teacher, one page image at a time.
Write out exactly what the student wrote, in reading order, keeping line breaks, question numbers, lists and mathematical notation.
Do not correct spelling, grammar or working, and do not add comments, headings or descriptions of the page.
Leave out text that is crossed out. Write [illegible] for a word that cannot be read.
If nothing is written on the page, answer with an empty text.`

// transcribeSchema is the answer of a page transcription.
var transcribeSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"text": map[string]any{"type": "string", "description": "the page's writing, transcribed"},
	},
	"required":             []string{"text"},
	"additionalProperties": false,
}

// TranscribePagesWorker finishes a handwritten submission whose pages need
// reading: a Reader rasterises each page without text (or decodes the
// image, turned upright by its EXIF orientation), and the vision model
// (LLM_VISION_MODEL, else the main model) transcribes it, page by page and
// in order; text pages keep their text. A 429 snoozes the job for the
// provider's Retry-After. When the model fails on every attempt, or refuses
// the pages, the submission is finished with the text extract_text read, if
// it read any (failReading). It is idempotent: a finished extraction is
// never redone or overwritten.
type TranscribePagesWorker struct {
	river.WorkerDefaults[queue.TranscribePagesArgs]
	deps Deps
}

// errNoModel is a process that runs the ai queue without a model client.
var errNoModel = errors.New("this worker has no model client (Deps.LLM)")

// Work implements river.Worker.
func (w *TranscribePagesWorker) Work(ctx context.Context, job *river.Job[queue.TranscribePagesArgs]) error {
	id := job.Args.SubmissionID
	sub, err := loadSubmission(ctx, w.deps, id)
	if err != nil || sub.ExtractStatus == statusReady {
		return err
	}
	if w.deps.LLM == nil {
		return w.deps.failReading(ctx, job.JobRow, sub, errNoModel, byVision)
	}
	vision := &visionReader{model: w.deps.LLM}
	o := w.deps.ReadOptions
	o.OCR = vision
	o.Limits.RenderPixels = visionPixels
	res, err := w.deps.read(ctx, extract.New(o), sub)
	// Every call counts, also of an attempt that failed or will run again
	// and of a transcript discarded because another run finished first.
	u := vision.used()
	w.deps.spendTokens(ctx, sub.TeamID, u)
	w.deps.addUsage(ctx, id, u)
	if err != nil {
		return w.deps.failReading(ctx, job.JobRow, sub, err, byVision)
	}
	return w.deps.finish(ctx, id, res, SourceVision)
}

// visionReader is an extract.OCR that asks the vision model to transcribe a
// page: the Reader hands it greyscale PGM images, sent on as JPEG. It adds
// up what its calls cost, answered or not.
type visionReader struct {
	model llm.Client

	mu    sync.Mutex
	usage llm.Usage
}

// used is what the reader's calls have cost so far.
func (v *visionReader) used() llm.Usage {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.usage
}

var _ extract.OCR = (*visionReader)(nil)

// Text implements extract.OCR.
func (v *visionReader) Text(ctx context.Context, pgm []byte) (string, error) {
	text, u, err := TranscribePage(ctx, v.model, pgm)
	v.mu.Lock()
	v.usage.Add(u)
	v.mu.Unlock()
	return text, err
}

// TranscribePage asks model (its vision model) to transcribe one page: pgm
// is a greyscale PGM image, as an extract.Reader hands it to its OCR, sent
// as a JPEG scaled down to visionPixels. The usage is what the call cost,
// also when it failed after the model answered. The transcription worker
// reads every page without text this way.
func TranscribePage(ctx context.Context, model llm.Client, pgm []byte) (string, llm.Usage, error) {
	img, err := extract.DecodePGM(pgm)
	if err != nil {
		return "", llm.Usage{}, fmt.Errorf("page image: %w", err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, shrink(img, visionPixels), &jpeg.Options{Quality: 85}); err != nil {
		return "", llm.Usage{}, fmt.Errorf("encode page image: %w", err)
	}
	var out struct {
		Text string `json:"text"`
	}
	u, err := model.CompleteJSON(ctx, llm.Request{
		Task:   TaskTranscribePage,
		System: transcribePrompt,
		Messages: []llm.Message{{
			Role:      llm.RoleUser,
			Text:      "Transcribe the writing on this page.",
			ImageURLs: []string{"data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())},
		}},
		Schema:      transcribeSchema,
		Temperature: llm.Float(0),
		MaxTokens:   4096,
	}, &out)
	if err != nil {
		return "", u, fmt.Errorf("transcribe page: %w", err)
	}
	return out.Text, u, nil
}

// shrink scales img down by a whole factor, averaging each block of pixels,
// until its long side is at most maxSide; a smaller image is returned as is.
func shrink(img *image.Gray, maxSide int) *image.Gray {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	f := (max(w, h) + maxSide - 1) / maxSide
	if f <= 1 {
		return img
	}
	ow, oh := max(w/f, 1), max(h/f, 1)
	out := image.NewGray(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
			sum, n := 0, 0
			for sy := y * f; sy < min((y+1)*f, h); sy++ {
				for sx := x * f; sx < min((x+1)*f, w); sx++ {
					sum += int(img.Pix[sy*img.Stride+sx])
					n++
				}
			}
			out.Pix[y*out.Stride+x] = uint8((sum + n/2) / n)
		}
	}
	return out
}
