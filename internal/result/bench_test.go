package result_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// BenchmarkGetAssignment300 is assignment/get's service call on a graded
// class of 300: what the status poll and the submission list cost the
// API per request (cmd/bench measures the route under load).
func BenchmarkGetAssignment300(b *testing.B) {
	bn, a, asgID := gradedClass(b, 300)
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
	bn, a, asgID := gradedClass(b, 300)
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

// BenchmarkPollNotModified is assignment/get's service call as a page
// polls a graded class of 30 nobody touched: with the version it holds as
// If-None-Match and since, answered 304 (the status poll's usual answer).
func BenchmarkPollNotModified(b *testing.B) {
	bn, a, asgID := gradedClass(b, 30)
	whole, err := bn.svc.ReadClass(bn.ctx, a, bn.subs, asgID, result.Poll{})
	if err != nil {
		b.Fatal(err)
	}
	v := whole.Version.String()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := bn.svc.ReadClass(bn.ctx, a, bn.subs, asgID, result.Poll{IfNoneMatch: `"` + v + `"`, Since: v})
		if err != nil || !r.NotModified {
			b.Fatal("not a 304", err)
		}
	}
}

// gradedClass is a grade assignment of n essays, every one graded.
func gradedClass(b *testing.B, n int) (*bundle, identity.Actor, uuid.UUID) {
	bn := setup(b, false, fakellm.Options{})
	a := bn.teacher(b)
	asgID := bn.define(b, a, assignment.TypeGrade, false)
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf("Essay %d: %s", i, photosynthesisText)
	}
	bn.gradeNow(b, a, asgID, bn.submit(b, a, asgID, texts...)...)
	return bn, a, asgID
}

// BenchmarkReadRows10000 is submission-rows for a year group of 10,000
// imported from a CSV, none graded yet: the first page of 50 sorted by
// name, as the assignment page opens it (the read the first row waits on).
func BenchmarkReadRows10000(b *testing.B) {
	bn := setup(b, false, fakellm.Options{})
	a := bn.teacher(b)
	asgID := bn.define(b, a, assignment.TypeGrade, false)
	texts := make([]string, 10000)
	for i := range texts {
		texts[i] = fmt.Sprintf("Answer %d: %s", i, photosynthesisText)
	}
	bn.submit(b, a, asgID, texts...)
	q := result.RowQuery{Sort: "name", Limit: 50}
	if err := q.Normalize(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := bn.svc.ReadRows(bn.ctx, a, bn.subs, asgID, "", q)
		if err != nil || len(r.Page.Rows) != 50 || r.Page.ClassSize != 10000 {
			b.Fatal("not a page of 50 of 10,000", err)
		}
	}
}
