package jobs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// An image of printed text: extract_text finds a page without text, stores
// what it has and queues ocr_pages on the ocr queue in the same
// transaction; the submission stays extracting until OCR has read it.
func TestOCRPages_PNGOfPrintedTextIsHandedToOCRAndFinished(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.extractOnly(t, fixture(t, "printed.png", "photo.png", "image/png"))
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus, "waiting for OCR")
	require.Equal(t, []page{{}}, pages(t, sub), "one page, not read yet")
	require.Zero(t, sub.ExtractWrites)
	requireHandedTo(t, b, queue.OCRPagesArgs{SubmissionID: id}, queue.QueueOCR)
	require.Empty(t, b.handedTo(t, "transcribe_pages"), "typed work never goes to the vision model")

	b.startWorker(t, b.deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	sub = b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Equal(t, "ocr", got[0].Source)
	require.True(t, strings.HasPrefix(got[0].Text, printedStart), got[0].Text)
	require.NotNil(t, got[0].Confidence, "OCR says how sure it was")
	require.GreaterOrEqual(t, *got[0].Confidence, 80, "clean print: no page to check")
	require.Contains(t, *sub.ExtractedText, "chloroplasts")
	require.Empty(t, sub.ExtractError)
	require.EqualValues(t, 1, sub.ExtractWrites)
}

// A PDF with a text page, a scanned page and a blank page comes back whole
// and in order, with a warning about the page without text.
func TestOCRPages_MixedPDFKeepsPagesInOrder(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, _ := b.add(t, fixture(t, "mixed.pdf", "mixed.pdf", "application/pdf"))
	b.startWorker(t, b.deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Len(t, got, 3)
	require.Equal(t, "pdftotext", got[0].Source)
	require.Equal(t, essayPage1, strings.Join(strings.Fields(got[0].Text), " "))
	require.Equal(t, "ocr", got[1].Source)
	require.True(t, strings.HasPrefix(strings.Join(strings.Fields(got[1].Text), " "), scanStart), got[1].Text)
	require.Equal(t, page{}, got[2], "the blank page")
	require.Equal(t, "No text found on 1 of 3 pages", sub.ExtractError, "ready, with a warning for the teacher")
	require.Less(t, strings.Index(*sub.ExtractedText, "Water Cycle"), strings.Index(*sub.ExtractedText, "Earthquakes"))
	require.EqualValues(t, 1, sub.ExtractWrites)
}

// A scan with a phone scanner app's stamp as real text: extract_text keeps
// the stamp's words and hands the page to OCR, which reads the whole page.
func TestOCRPages_ScanWithAStampLineIsHandedToOCRAndFinished(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.extractOnly(t, fixture(t, "stamped-scan.pdf", "scan.pdf", "application/pdf"))
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus, "waiting for OCR")
	require.Equal(t, []page{{Text: "Scanned with CamScanner", Source: "pdftotext"}}, pages(t, sub),
		"the stamp's words are stored while OCR waits")
	requireHandedTo(t, b, queue.OCRPagesArgs{SubmissionID: id}, queue.QueueOCR)

	b.startWorker(t, b.deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	sub = b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Equal(t, "ocr", got[0].Source)
	require.True(t, strings.HasPrefix(got[0].Text, printedStart), got[0].Text)
	require.Contains(t, got[0].Text, "CamScanner")
	require.Empty(t, sub.ExtractError)
}

// A PDF whose page 2 is a poor scan: OCR reads it unsure of itself, and the
// submission is ready with page 2's warning in its pages, page 2 among its
// doubtful pages and a summary in its warning, which the table lists.
func TestOCRPages_PoorScanIsMarkedForTheTeacher(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, _ := b.add(t, fixture(t, "blurred-page.pdf", "essay.pdf", "application/pdf"))
	b.startWorker(t, b.deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Len(t, got, 2)
	require.Equal(t, "pdftotext", got[0].Source)
	require.Empty(t, got[0].Warning)
	require.Equal(t, "ocr", got[1].Source)
	require.NotNil(t, got[1].Confidence)
	require.Less(t, *got[1].Confidence, 60)
	require.Equal(t, fmt.Sprintf("Page 2 was read by OCR, which was unsure of it (%d%%): check it against the original", *got[1].Confidence), got[1].Warning)
	require.Equal(t, "Page 2 may be misread: check it against the original", sub.ExtractError)

	listed, err := store.Q.ListSubmissions(context.Background(), b.pool, store.ListSubmissionsParams{AssignmentID: sub.AssignmentID, TeamID: sub.TeamID})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, []int32{2}, listed[0].DoubtfulPages)
}

// The OCR job run again after it finished (a crash before River recorded
// it) writes nothing.
func TestOCRPages_RerunAfterFinishWritesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	id, _ := b.add(t, fixture(t, "scanned.pdf", "scan.pdf", "application/pdf"))
	_, events := b.startWorker(t, b.deps, allQueues, time.Minute)
	before := b.waitStatus(t, id)
	require.Equal(t, "ready", before.ExtractStatus, before.ExtractError)
	require.EqualValues(t, 1, before.ExtractWrites)

	ev := waitKind(t, events, "ocr_pages")
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	_, err := b.pool.Exec(ctx, `UPDATE river_job SET state = 'available', finalized_at = NULL, scheduled_at = now() WHERE id = $1`, ev.Job.ID)
	require.NoError(t, err)
	ev = waitFor(t, events, ev.Job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt, "the job really ran again")

	after := b.submission(t, id)
	require.EqualValues(t, 1, after.ExtractWrites)
	require.Equal(t, before.ExtractedText, after.ExtractedText)
	require.Equal(t, before.ExtractError, after.ExtractError)
}

// A process that runs the ocr queue without an OCR pool is a wiring mistake:
// the job is retried (another worker may have one), never marked read.
func TestOCRPages_WorkerWithoutOCRPoolLeavesTheJobForAnother(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, _ := b.add(t, fixture(t, "scanned.pdf", "scan.pdf", "application/pdf"))
	deps := b.deps
	deps.OCR = nil
	_, events := b.startWorker(t, deps, allQueues, time.Minute)
	ev := waitKind(t, events, "ocr_pages")
	require.Equal(t, river.EventKindJobFailed, ev.Kind)
	require.Contains(t, []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable}, ev.Job.State, "to be retried")
	require.Equal(t, "extracting", b.submission(t, id).ExtractStatus)
}
