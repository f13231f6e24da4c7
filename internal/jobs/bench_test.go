package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// BenchmarkExtractText measures the extraction pipeline end to end through
// PostgreSQL and River: each op is one Word file's submission row written
// with its job in one transaction, then read by a worker with two slots.
func BenchmarkExtractText(b *testing.B) {
	bb := setup(b)
	_, events := bb.startWorker(b, bb.deps, extractQueue, time.Minute)
	docx := fixture(b, "report.docx", "report.docx", docxMime)
	b.ResetTimer()
	pending := make(map[int64]bool, b.N)
	for range b.N {
		_, job := bb.add(b, docx)
		pending[job.ID] = true
	}
	for len(pending) > 0 {
		select {
		case ev := <-events:
			if ev.Kind != river.EventKindJobCompleted {
				b.Fatalf("job %d: %s", ev.Job.ID, ev.Kind)
			}
			delete(pending, ev.Job.ID)
		case <-time.After(time.Minute):
			b.Fatalf("%d jobs did not finish", len(pending))
		}
	}
}

// benchSlots is the width of the extract and the ocr queue in
// BenchmarkExtractClass: the two cores of the machines it runs on.
const benchSlots = 2

// BenchmarkExtractClass measures a class of 30 submissions (10 text PDFs,
// 10 Word files, 6 mixed PDFs that hand a scanned page to OCR and 4 photos
// of printed text) from the insert of their rows and jobs to the last one
// ready, against the ideal: the sum of each file's time alone through the
// same pipeline, divided by the queue width. It reports
//
//	class-s      the class, insert to last ready
//	ideal-s      Σ single-file times ÷ 2 slots
//	x-ideal      class-s ÷ ideal-s (1 is perfect use of the slots)
//	files/s      submissions ready per second
func BenchmarkExtractClass(b *testing.B) {
	bb := setup(b)
	bb.startWorker(b, bb.deps, map[string]int{queue.QueueExtract: benchSlots, queue.QueueOCR: benchSlots}, time.Minute)
	kinds := []struct {
		file  upload
		count int
	}{
		{fixture(b, "text-3pages.pdf", "essay.pdf", "application/pdf"), 10},
		{fixture(b, "report.docx", "report.docx", docxMime), 10},
		{fixture(b, "mixed.pdf", "mixed.pdf", "application/pdf"), 6},
		{fixture(b, "printed.png", "photo.png", "image/png"), 4},
	}
	var class []upload
	var sum time.Duration
	for _, k := range kinds {
		start := time.Now()
		bb.waitReady(b, bb.addClass(b, []upload{k.file}))
		alone := time.Since(start)
		sum += alone * time.Duration(k.count)
		b.Logf("%s alone: %s", k.file.name, alone.Round(time.Millisecond))
		for range k.count {
			class = append(class, k.file)
		}
	}
	ideal := sum / benchSlots

	b.ResetTimer()
	var total time.Duration
	for range b.N {
		start := time.Now()
		bb.waitReady(b, bb.addClass(b, class))
		total += time.Since(start)
	}
	b.StopTimer()
	perClass := total / time.Duration(b.N)
	b.ReportMetric(perClass.Seconds(), "class-s")
	b.ReportMetric(ideal.Seconds(), "ideal-s")
	b.ReportMetric(perClass.Seconds()/ideal.Seconds(), "x-ideal")
	b.ReportMetric(float64(len(class))/perClass.Seconds(), "files/s")
}

// addClass stores the files and writes their rows and jobs in one
// transaction, as the API does for one upload of many files.
func (b *bundle) addClass(t testing.TB, files []upload) []uuid.UUID {
	t.Helper()
	ids := make([]uuid.UUID, len(files))
	err := store.InTx(context.Background(), b.pool, func(tx pgx.Tx) error {
		for i, f := range files {
			var err error
			if ids[i], _, err = b.addTx(t, tx, f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// waitReady polls (finely, for timing) until every submission is ready.
func (b *bundle) waitReady(t testing.TB, ids []uuid.UUID) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var ready int
		if err := b.pool.QueryRow(context.Background(),
			`SELECT count(*) FROM submissions WHERE id = ANY($1) AND extract_status = 'ready'`, ids).Scan(&ready); err != nil {
			t.Fatal(err)
		}
		if ready == len(ids) {
			return
		}
		var failed int
		_ = b.pool.QueryRow(context.Background(),
			`SELECT count(*) FROM submissions WHERE id = ANY($1) AND extract_status = 'failed'`, ids).Scan(&failed)
		if failed > 0 || time.Now().After(deadline) {
			t.Fatalf("%d of %d ready, %d failed", ready, len(ids), failed)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
