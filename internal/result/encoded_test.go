package result_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// classResult is the result of sub in a whole read of the class, as
// assignment/get sends it.
func classResult(t *testing.T, b *bundle, a identity.Actor, asgID, sub uuid.UUID) result.FunctionResult {
	t.Helper()
	r, err := b.svc.ReadClass(b.ctx, a, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	for _, fr := range decodeResults(t, r.Results) {
		if fr.Submission == sub {
			return fr
		}
	}
	t.Fatalf("no result of submission %s in the class", sub)
	return result.FunctionResult{}
}

// A class read again and again (the results encoded once, then kept) never
// answers an earlier state: a teacher's tick, her overall comment and an
// edit of the definition's points all show on the next read, and a delta
// carries the same bytes as the whole read.
func TestClassReadsNeverServeAnEarlierResult(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	sub := b.submit(t, ada, asgID, photosynthesisText)[0]
	fr := b.gradeNow(t, ada, asgID, sub)[0]
	got, most := total(t, fr)
	require.Equal(t, []float64{6, 10}, []float64{got, most})
	for range 3 {
		got, most = total(t, classResult(t, b, ada, asgID, sub))
		require.Equal(t, []float64{6, 10}, []float64{got, most})
	}

	// the teacher ticks a criterion the model left
	tree := answers(t, fr.Answers)
	var path []int
	var criterion int
	for qi, q := range tree {
		for ci, on := range q.Grade.Criteria {
			if !on && path == nil {
				path, criterion = []int{qi}, ci
			}
		}
	}
	require.NotNil(t, path, "the model left a criterion unticked")
	change, err := b.svc.ToggleCriterion(b.ctx, ada, result.Toggle{ResultID: fr.ID, Path: path, CriterionIndex: criterion})
	require.NoError(t, err)
	require.Positive(t, change)
	got, _ = total(t, classResult(t, b, ada, asgID, sub))
	require.Equal(t, 6+change, got, "the tick shows on the next read")

	// her overall comment
	fields := classResult(t, b, ada, asgID, sub).ResultFields
	fields.OverallComments = "Lovely diagrams."
	_, err = b.svc.Update(b.ctx, ada, result.Edit{ResultID: fr.ID, ResultFields: fields})
	require.NoError(t, err)
	require.Equal(t, "Lovely diagrams.", classResult(t, b, ada, asgID, sub).OverallComments)

	// the definition's points change, no result is written: the totals
	// follow at once
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[0].Criteria[0].Points += 5
		return qs
	})
	_, most2 := total(t, classResult(t, b, ada, asgID, sub))
	require.Equal(t, most+5, most2, "the new maximum, not the one encoded before")

	// a delta's result is the whole read's, byte for byte
	whole, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	v := whole.Version.String()
	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET overall_comments = 'Again' WHERE id = $1`, fr.ID)
	require.NoError(t, err)
	delta, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{IfNoneMatch: `"` + v + `"`, Since: v})
	require.NoError(t, err)
	require.True(t, delta.Delta)
	require.Len(t, delta.Results, 1)
	whole, err = b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	require.Equal(t, string(whole.Results[0]), string(delta.Results[0]))
	require.NotNil(t, delta.Assignment.Usage)
	require.Positive(t, delta.Assignment.Usage.Calls, "the model's calls are counted")
	require.Equal(t, *whole.Assignment.Usage, *delta.Assignment.Usage, "a delta's totals are the whole read's")
	require.Contains(t, string(delta.Results[0]), `"overallComments":"Again"`)

	// another team's teacher reads nothing of it, whatever is kept
	_, err = b.svc.ReadClass(b.ctx, b.teacher(t), b.subs, asgID, result.Poll{})
	require.Error(t, err)
}

// EncodeJSON writes what encoding/json made of the same fields in a map:
// assignment/get's answer is unchanged for the UI, in a delta too.
func TestClassAnswerIsWhatAMapOfItsFieldsEncodesTo(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	subs := b.submit(t, ada, asgID, photosynthesisText, "Plants are green <b>&</b> grow.")
	b.gradeNow(t, ada, asgID, subs...)

	check := func(r result.ClassRead) {
		t.Helper()
		got, err := r.EncodeJSON()
		require.NoError(t, err)
		m := map[string]any{"assignment": r.Assignment, "functionResults": r.Results, "submissions": r.Submissions, "version": r.Version.String()}
		if r.Delta {
			m["delta"] = true
			m["deletedSubmissionIds"] = r.DeletedSubmissionIDs
			m["deletedFunctionResultIds"] = r.DeletedResultIDs
		}
		want, err := json.Marshal(m)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
	whole, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	require.Len(t, whole.Results, 2)
	check(whole)
	v := whole.Version.String()
	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET overall_comments = '<script>' WHERE submission_id = $1`, subs[1])
	require.NoError(t, err)
	delta, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{IfNoneMatch: `"` + v + `"`, Since: v})
	require.NoError(t, err)
	require.True(t, delta.Delta)
	check(delta)
	raw, err := delta.EncodeJSON()
	require.NoError(t, err)
	require.NotContains(t, string(raw), "<script>", "HTML escaped as encoding/json does")
}
