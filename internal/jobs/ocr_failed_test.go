package jobs_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
)

// OCR that fails on every attempt (tesseract crashing on one picture).

// brokenOCR fails every page it is given, as a crashing tesseract would,
// and counts them.
type brokenOCR struct{ calls atomic.Int32 }

var _ extract.OCR = (*brokenOCR)(nil)

func (o *brokenOCR) Text(context.Context, []byte) (string, error) {
	o.calls.Add(1)
	return "", errors.New("tesseract: process killed by signal 11")
}

// lastAttemptIsSecond makes the ocr_pages jobs queued so far end on their
// second attempt instead of their fifth, so a test does not wait out
// River's backoff (1 s before the second attempt, 16 s before the third).
func (b *bundle) lastAttemptIsSecond(t *testing.T) {
	t.Helper()
	tag, err := b.pool.Exec(context.Background(), `UPDATE river_job SET max_attempts = 2 WHERE kind = 'ocr_pages'`)
	require.NoError(t, err)
	require.Positive(t, tag.RowsAffected(), "an ocr_pages job was queued")
}

// doubtfulPages reads the pages the submissions table flags.
func (b *bundle) doubtfulPages(t *testing.T, id uuid.UUID) []int32 {
	t.Helper()
	var out []int32
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT doubtful_pages FROM submissions WHERE id = $1`, id).Scan(&out))
	return out
}

// A Word essay whose pasted photo OCR fails on every attempt is not thrown
// away: it ends ready with its typed text, the teacher is told the picture
// could not be read, and the grading that waited for the text goes on.
func TestOCRPages_WordFileWhosePictureOCRAlwaysFailsIsReadyWithItsTypedText(t *testing.T) {
	t.Parallel()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	asgID := g.define(t, assignment.TypeFeedback)
	ids := g.submit(t, asgID, newSubmission{name: "homework.docx", file: pictureDOCX(t).data, contentType: docxMime})
	id := ids[0]
	g.runMany(t, asgID, ids) // "Grade all" before the file is read

	// The file's reading and the early grading run side by side, in either
	// order: wait for both.
	early := g.handedTo(t, "grade_submission")
	require.Len(t, early, 1)
	reading := g.handedTo(t, "extract_text")
	require.Len(t, reading, 1)
	_, events := g.startWorker(t, g.deps, map[string]int{queue.QueueExtract: 2, queue.QueueAI: 4}, time.Minute)
	done := waitAll(t, events, []int64{reading[0].ID, early[0].ID})
	require.Equal(t, river.EventKindJobCompleted, done[reading[0].ID].Kind)
	require.Equal(t, river.EventKindJobCompleted, done[early[0].ID].Kind)
	require.Equal(t, grading.StatusAnnotating, g.stored(t, id).Status, "grading waits for the text")
	require.Equal(t, "extracting", g.submission(t, id).ExtractStatus, "the picture waits for OCR")

	g.lastAttemptIsSecond(t)
	ocr := &brokenOCR{}
	deps := g.deps
	deps.OCR = ocr
	_, ocrEvents := g.startWorker(t, deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	ev := waitKind(t, ocrEvents, "ocr_pages")
	require.Equal(t, river.EventKindJobFailed, ev.Kind)
	require.Contains(t, []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable}, ev.Job.State, "to be retried")

	ev = waitFor(t, ocrEvents, ev.Job.ID)
	require.Equal(t, river.EventKindJobFailed, ev.Kind, "the job says OCR failed")
	require.Equal(t, rivertype.JobStateDiscarded, ev.Job.State)
	require.Equal(t, 2, ev.Job.Attempt)
	require.Equal(t, int32(2), ocr.calls.Load(), "one picture, tried on each attempt")

	sub := g.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Equal(t, "My working is in the photo below.\n\nThat is all I have.", *sub.ExtractedText)
	require.Equal(t, []page{{Text: "My working is in the photo below.\n\nThat is all I have.", Source: "file",
		Warning: "A picture on page 1 could not be read by OCR, so its words are missing: check it against the original"}}, pages(t, sub))
	require.Equal(t, "A picture in this file could not be read by OCR, so its words are missing: check it against the original", sub.ExtractError)
	require.Equal(t, []int32{1}, g.doubtfulPages(t, id), "the table links to the original")
	require.EqualValues(t, 1, sub.ExtractWrites)

	got := g.waitFinished(t, asgID, ids)[0]
	require.Equal(t, grading.StatusAnnotated, got.Status, got.Error)
	require.Equal(t, 1, g.stored(t, id).Writes)
	require.Equal(t, int64(1), g.demo.Stats().Requests, "graded once, on the typed text")
}

// A scan has no text without OCR: when OCR always fails it still fails,
// with the reason it had before. So does a scan whose only words are a
// scanner app's stamp: graded, it would be blank work.
func TestOCRPages_ScanWhoseOCRAlwaysFailsStillFails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	scan, job1 := b.add(t, fixture(t, "scanned.pdf", "scan.pdf", "application/pdf"))
	stamped, job2 := b.add(t, fixture(t, "stamped-scan.pdf", "stamped.pdf", "application/pdf"))
	extractor, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	for _, ev := range waitAll(t, events, []int64{job1.ID, job2.ID}) {
		require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	}
	stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, extractor.Stop(stop))
	require.Equal(t, []page{{Text: "Scanned with CamScanner", Source: "pdftotext"}}, pages(t, b.submission(t, stamped)))

	b.lastAttemptIsSecond(t)
	deps := b.deps
	deps.OCR = &brokenOCR{}
	b.startWorker(t, deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	for _, id := range []uuid.UUID{scan, stamped} {
		sub := b.waitStatus(t, id)
		require.Equal(t, "failed", sub.ExtractStatus)
		require.Equal(t, jobs.ReasonUnreadable, sub.ExtractError)
		require.Nil(t, sub.ExtractedText)
		require.Zero(t, sub.ExtractWrites)
	}
}

// An attempt before the last that fails is retried as before: the
// submission stays extracting, its typed text stored and no warning yet.
func TestOCRPages_FailedAttemptBeforeTheLastIsRetried(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.extractOnly(t, pictureDOCX(t))
	deps := b.deps
	ocr := &brokenOCR{}
	deps.OCR = ocr
	_, events := b.startWorker(t, deps, map[string]int{queue.QueueOCR: 2}, time.Minute)

	ev := waitKind(t, events, "ocr_pages")
	require.Equal(t, river.EventKindJobFailed, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt)
	require.Contains(t, []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable}, ev.Job.State, "to be retried")
	require.Equal(t, 5, ev.Job.MaxAttempts)
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus)
	require.Empty(t, sub.ExtractError)
	require.Nil(t, sub.ExtractedText)
	require.Equal(t, []page{{Text: "My working is in the photo below.\n\nThat is all I have.", Source: "file"}}, pages(t, sub))
}
