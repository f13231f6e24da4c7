package jobs_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
)

// The demo model serves only the vision model: a page sent to the text
// model would be refused, so these tests also prove which model reads pages.
const (
	textModel   = "markwell-text"
	visionModel = "markwell-vision"
)

// demoModel starts the demo model over HTTP, as `make dev` runs it, and
// returns it with deps whose model client talks to it.
func (b *bundle) demoModel(t *testing.T, opts fakellm.Options, cfg llm.Config) (*fakellm.Server, jobs.Deps) {
	t.Helper()
	if opts.Models == nil {
		opts.Models = []string{visionModel}
	}
	srv := fakellm.New(opts)
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL + "/v1"
	model, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	deps := b.deps
	deps.LLM = model
	return srv, deps
}

// A scanned page of a handwritten assignment goes to the vision model, not
// to tesseract: extract_text queues transcribe_pages on the ai queue.
func TestTranscribePages_HandwrittenScanIsTranscribedByTheVisionModel(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	srv, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel, VisionModel: visionModel})
	id, job := b.add(t, fixture(t, "scanned.pdf", "homework.pdf", "application/pdf"))

	extractor, events := b.startWorker(t, deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)
	stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, extractor.Stop(stop))
	require.Equal(t, "extracting", b.submission(t, id).ExtractStatus)
	requireHandedTo(t, b, queue.TranscribePagesArgs{SubmissionID: id}, queue.QueueAI)
	require.Empty(t, b.handedTo(t, "ocr_pages"), "tesseract cannot read handwriting")

	b.startWorker(t, deps, map[string]int{queue.QueueAI: 2}, time.Minute)
	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Len(t, got, 1)
	require.Equal(t, jobs.SourceVision, got[0].Source)
	require.Contains(t, got[0].Text, "demo model cannot read handwriting", "the demo model says what it is")
	require.Regexp(t, `JPEG, 14\d\d × 2048 pixels`, got[0].Text, "the A4 page, rasterised to 2048 pixels")
	require.Equal(t, got[0].Text, *sub.ExtractedText)
	require.EqualValues(t, 1, sub.ExtractWrites)
	require.Equal(t, int64(1), srv.Stats().Tasks[fakellm.TaskTranscribePage])
	require.Equal(t, fakellm.TaskTranscribePage, jobs.TaskTranscribePage)
}

// A submission marked handwritten in a typed assignment goes to the vision
// model too; a phone photo is sent upright (EXIF orientation applied).
func TestTranscribePages_HandwrittenPhotoIsSentUpright(t *testing.T) {
	t.Parallel()
	b := setup(t)
	_, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel, VisionModel: visionModel})
	u := fixture(t, "photo-rotated.jpg", "IMG_0042.jpg", "image/jpeg")
	u.handWritten = true
	id, _ := b.add(t, u)
	b.startWorker(t, deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Equal(t, jobs.SourceVision, pages(t, sub)[0].Source)
	// Stored 258 × 1678 with orientation 6: upright it is wide.
	require.Contains(t, *sub.ExtractedText, "JPEG, 1678 × 258 pixels")
}

// A 429 from the provider snoozes the job for its Retry-After, which uses
// no attempt; the page is transcribed once the wait is over.
func TestTranscribePages_RateLimitSnoozesTheJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	srv, deps := b.demoModel(t, fakellm.Options{RetryAfter: time.Second}, llm.Config{Model: textModel, VisionModel: visionModel})
	srv.FailNext(fakellm.FaultRateLimit, 1)
	id, _ := b.add(t, fixture(t, "scanned.pdf", "homework.pdf", "application/pdf"))
	_, events := b.startWorker(t, deps, allQueues, time.Minute)

	ev := waitKind(t, events, "transcribe_pages")
	require.Equal(t, river.EventKindJobSnoozed, ev.Kind)
	require.WithinDuration(t, time.Now().Add(time.Second), ev.Job.ScheduledAt, 900*time.Millisecond)
	require.Equal(t, "extracting", b.submission(t, id).ExtractStatus)

	ev = waitFor(t, events, ev.Job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt, "a snooze is not a failed attempt")
	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.EqualValues(t, 1, sub.ExtractWrites)
	require.Equal(t, int64(1), srv.Stats().RateLimited)
}

// A provider that refuses the request (here: no vision model configured, and
// the text model is not served) fails the submission at once with a reason
// for the teacher, not the provider's error.
func TestTranscribePages_RefusedByTheModelFailsAtOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	_, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel})
	id, _ := b.add(t, fixture(t, "scanned.pdf", "homework.pdf", "application/pdf"))
	_, events := b.startWorker(t, deps, allQueues, time.Minute)

	ev := waitKind(t, events, "transcribe_pages")
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt)
	sub := b.submission(t, id)
	require.Equal(t, "failed", sub.ExtractStatus)
	require.Equal(t, jobs.ReasonVisionRefused, sub.ExtractError)
}

// A handwritten Word file's pasted photo the model refuses to read: the
// typed text stands, and the teacher is told the picture could not be read.
func TestTranscribePages_RefusedPictureLeavesTheTypedText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	_, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel})
	id, _ := b.add(t, pictureDOCX(t))
	_, events := b.startWorker(t, deps, allQueues, time.Minute)

	ev := waitKind(t, events, "transcribe_pages")
	require.Equal(t, river.EventKindJobCancelled, ev.Kind, "the refusal is final")
	require.Equal(t, 1, ev.Job.Attempt)
	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Equal(t, "My working is in the photo below.\n\nThat is all I have.", *sub.ExtractedText)
	require.Equal(t, "A picture on page 1 could not be read by the AI model, so its words are missing: check it against the original",
		pages(t, sub)[0].Warning)
	require.Equal(t, "A picture in this file could not be read by the AI model, so its words are missing: check it against the original",
		sub.ExtractError)
}

// Handwritten work that already has text (a typed PDF) is read in-process:
// no model call.
func TestTranscribePages_HandwrittenTextPDFNeedsNoModel(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	srv, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel, VisionModel: visionModel})
	id, job := b.add(t, fixture(t, "text-3pages.pdf", "essay.pdf", "application/pdf"))
	_, events := b.startWorker(t, deps, allQueues, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.Len(t, pages(t, sub), 3)
	require.Empty(t, b.handedTo(t, "transcribe_pages"))
	require.Zero(t, srv.Stats().Requests)
}

// resultUsage reads what a submission's result says its model calls cost.
func (b *bundle) resultUsage(t *testing.T, id uuid.UUID) (calls, prompt, completion int, cost float64) {
	t.Helper()
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT model_calls, prompt_tokens, completion_tokens, cost_usd
		FROM function_results WHERE submission_id = $1`, id).Scan(&calls, &prompt, &completion, &cost))
	return calls, prompt, completion, cost
}

// withResult gives a submission its (empty) result, as the API creates one
// with every submission.
func (b *bundle) withResult(t *testing.T, id uuid.UUID) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `INSERT INTO function_results (team_id, assignment_id, submission_id, status)
		VALUES ($1, $2, $3, '')`, b.teamID, b.asgID, id)
	require.NoError(t, err)
}

// usageDeps prices the vision model at a dollar a prompt token and two a
// completion token, and counts tokens against the team's budget.
func usageDeps(t *testing.T, b *bundle, deps jobs.Deps) (jobs.Deps, *ratelimit.AIBudget) {
	t.Helper()
	prices, err := llm.ParsePrices(visionModel + "=1000000/2000000")
	require.NoError(t, err)
	budget := &ratelimit.AIBudget{Limiter: &ratelimit.Limiter{Pool: b.pool}, TeamTokens: ratelimit.Rule{Limit: 1_000_000, Window: 24 * time.Hour}}
	deps.Prices, deps.Budget = prices, budget
	return deps, budget
}

// The teacher sees what reading a handwritten page cost on the submission's
// result, and its tokens count against the team's AI budget.
func TestTranscribePages_CallsAreCountedOnTheResultAndTheTeamBudget(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	srv, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel, VisionModel: visionModel})
	deps, budget := usageDeps(t, b, deps)
	id, _ := b.add(t, fixture(t, "scanned.pdf", "homework.pdf", "application/pdf"))
	b.withResult(t, id)
	b.startWorker(t, deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Equal(t, int64(1), srv.Stats().Tasks[fakellm.TaskTranscribePage])
	calls, prompt, completion, cost := b.resultUsage(t, id)
	require.Equal(t, 1, calls, "the page's transcription is on the result")
	require.Positive(t, prompt)
	require.Positive(t, completion)
	require.InDelta(t, float64(prompt)+2*float64(completion), cost, 1e-6)
	_, tokens := budget.TeamUsage(context.Background(), b.teamID)
	require.Equal(t, int64(prompt+completion), tokens.Used, "the transcription's tokens count against the team's budget")
}

// An answer that cannot be used fails the attempt, but the call was made:
// it is counted on the result and the team's budget like the one that
// succeeds on the next attempt.
func TestTranscribePages_AFailedAttemptsCallIsCountedToo(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.handwritten(t)
	srv, deps := b.demoModel(t, fakellm.Options{}, llm.Config{Model: textModel, VisionModel: visionModel})
	deps, budget := usageDeps(t, b, deps)
	srv.FailNext(fakellm.FaultMalformed, 1)
	id, _ := b.add(t, fixture(t, "scanned.pdf", "homework.pdf", "application/pdf"))
	b.withResult(t, id)
	b.startWorker(t, deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Equal(t, int64(1), srv.Stats().Malformed)
	calls, prompt, completion, _ := b.resultUsage(t, id)
	require.Equal(t, 2, calls, "the discarded answer is counted too")
	_, tokens := budget.TeamUsage(context.Background(), b.teamID)
	require.Equal(t, int64(prompt+completion), tokens.Used)
}
