package result_test

import (
	"encoding/json"
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

// BenchmarkAssignmentGet300JSON is what assignment/get does for a graded
// class of 300 besides the HTTP layer: the results, the submission list
// and their JSON answer, encoded as the route's {"data": …} wrapper.
func BenchmarkAssignmentGet300JSON(b *testing.B) {
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
	size := 0
	for b.Loop() {
		asg, results, err := bn.svc.GetAssignment(bn.ctx, a, asgID)
		if err != nil {
			b.Fatal(err)
		}
		subs, err := bn.subs.ListLoaded(bn.ctx, a, asgID)
		if err != nil {
			b.Fatal(err)
		}
		out, err := json.Marshal(map[string]any{"data": map[string]any{"assignment": asg, "functionResults": results, "submissions": subs}})
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "bytes/answer")
}
