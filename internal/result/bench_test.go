package result_test

import (
	"fmt"
	"testing"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// BenchmarkGetAssignment300 is assignment/get's service call on a graded
// class of 300: what the status poll and the submission list cost the
// API per request (cmd/bench measures the route under load).
func BenchmarkGetAssignment300(b *testing.B) {
	bn := setup(b, false, fakellm.Options{})
	a := bn.teacher(b)
	asgID := bn.define(b, a, assignment.TypeGrade, false)
	texts := make([]string, 300)
	for i := range texts {
		texts[i] = fmt.Sprintf("Essay %d: %s", i, photosynthesisText)
	}
	bn.gradeNow(b, a, asgID, bn.submit(b, a, asgID, texts...)...)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := bn.svc.GetAssignment(bn.ctx, a, asgID); err != nil {
			b.Fatal(err)
		}
	}
}
