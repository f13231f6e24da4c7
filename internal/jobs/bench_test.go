package jobs_test

import (
	"testing"
	"time"

	"github.com/riverqueue/river"
)

// BenchmarkExtractText measures the extraction pipeline end to end through
// PostgreSQL and River: each op is one submission row written with its job in
// one transaction, then extracted by a worker with two slots.
func BenchmarkExtractText(b *testing.B) {
	bb := setup(b)
	_, events := bb.startWorker(b, bb.deps, time.Minute)
	b.ResetTimer()
	pending := make(map[int64]bool, b.N)
	for i := 0; i < b.N; i++ {
		_, job := bb.addSubmission(b, "A short essay about rivers.")
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
