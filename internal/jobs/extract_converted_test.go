package jobs_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/office/officetest"
)

// An OpenDocument text, saved by LibreOffice from
// internal/extract/testdata/converted/lesson.fodt, is converted by
// LibreOffice in the worker and ends ready with its words. (The RTF, DOC,
// ODP and PPT fixtures are read in internal/extract's tests.)
func TestExtractText_ODTIsConvertedAndReady(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	b := setup(t)
	id, job := b.add(t, fixture(t, "converted/lesson.odt", "lesson.odt", "application/vnd.oasis.opendocument.text"))
	// Attempts of two minutes: a conversion takes seconds, but one at a time
	// in the process, and other tests convert too.
	_, events := b.startWorker(t, b.deps, extractQueue, 4*time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind, "%v", ev.Job.Errors)
	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Empty(t, sub.ExtractError)
	require.Equal(t, []page{{Text: *sub.ExtractedText, Source: "file"}}, pages(t, sub))
	require.Contains(t, *sub.ExtractedText, "The Water Cycle\nWater evaporates from the ocean when the sun warms it.")
	require.Contains(t, *sub.ExtractedText, "Monday | 12 mm")
	require.Contains(t, *sub.ExtractedText, "το νερό εξατμίζεται")
	require.EqualValues(t, 1, sub.ExtractWrites)
}

// A LibreOffice that never finishes is killed at the conversion's timeout;
// the submission fails at once with a sentence saying what to do, and the
// job is not retried (another attempt would hang the same way).
func TestExtractText_HangingConversionFailsOnceWithASentence(t *testing.T) {
	t.Parallel()
	b := setup(t)
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	deps := b.deps
	deps.ReadOptions.Converter = office.LibreOffice{Path: officetest.HangingSoffice(t, pids), TempDir: dir}
	deps.ReadOptions.Limits = extract.Limits{ConvertTimeout: time.Second}
	id, job := b.add(t, fixture(t, "converted/lesson.odt", "lesson.odt", "application/octet-stream"))
	_, events := b.startWorker(t, deps, extractQueue, 4*time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt, "not retried")
	sub := b.submission(t, id)
	require.Equal(t, "failed", sub.ExtractStatus)
	require.Equal(t, "This file took too long to convert. Please save it as PDF or Word and upload it again.", sub.ExtractError)
	for _, pid := range officetest.PIDs(t, pids) {
		require.Eventually(t, func() bool { return !officetest.Alive(pid) }, 2*time.Second, 20*time.Millisecond,
			"process %d of the conversion is left running", pid)
	}
}
