package jobs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/queue"
)

// A 3-page TIFF scan: extract_text decodes its three pages, stores them
// empty and hands the file to ocr_pages, which reads every page, in order.
func TestOCRPages_MultiPageTIFFIsReadPageByPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.extractOnly(t, fixture(t, "scan-3pages.tif", "scan.tif", "image/tiff"))
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus, "waiting for OCR")
	require.Equal(t, []page{{}, {}, {}}, pages(t, sub), "three pages, not read yet")
	requireHandedTo(t, b, queue.OCRPagesArgs{SubmissionID: id}, queue.QueueOCR)

	b.startWorker(t, b.deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	sub = b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.EqualValues(t, 3, sub.PageCount)
	got := pages(t, sub)
	require.Len(t, got, 3)
	for i, start := range []string{"Page one is about rivers", "Page two is about mountains", "Page three is about deserts"} {
		require.Equal(t, "ocr", got[i].Source)
		require.True(t, strings.HasPrefix(strings.Join(strings.Fields(got[i].Text), " "), start), "page %d: %q", i+1, got[i].Text)
	}
	require.Empty(t, sub.ExtractError)
}

// extractOnly adds a file and runs its extract_text job alone, leaving what
// it hands on unread.
func (b *bundle) extractOnly(t *testing.T, u upload) uuid.UUID {
	t.Helper()
	id, job := b.add(t, u)
	extractor, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)
	stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, extractor.Stop(stop))
	return id
}

// A HEIC photo from a phone goes the same way, through heif-convert.
func TestOCRPages_HEICPhotoIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, _ := b.add(t, fixture(t, "photo-irot.heic", "IMG_4032.HEIC", "image/heic"))
	b.startWorker(t, b.deps, allQueues, time.Minute)
	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	require.Contains(t, *sub.ExtractedText, "Volcanoes form where melted rock")
}
