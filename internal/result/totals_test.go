package result_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// Totals follow the assignment's current criteria on every read, also
// after the same answers were read (and their totals remembered) under
// the old criteria, by both assignment/get and functionResult/get.
func TestTotalsFollowChangedCriteria(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, photosynthesisText)
	b.gradeNow(t, a, asgID, ids...)

	totals := func() (float64, float64, float64, float64) {
		_, results, err := b.svc.GetAssignment(b.ctx, a, asgID)
		require.NoError(t, err)
		one := b.get(t, a, asgID, ids[0])
		return *results[0].TotalPoints, *results[0].MaxPoints, *one.TotalPoints, *one.MaxPoints
	}
	for range 2 { // the second read is the remembered one
		total, most, oneTotal, oneMost := totals()
		require.Equal(t, []float64{6, 10, 6, 10}, []float64{total, most, oneTotal, oneMost})
	}

	qs := gradeQuestions()
	qs[0].Criteria[0].Points = 5 // "Names chlorophyll pigment", met: 2 → 5 points
	fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
	require.NoError(t, err)
	_, err = b.asgs.UpdateFunction(b.ctx, a, fn.ID, asgID, assignment.FunctionInput{Questions: qs})
	require.NoError(t, err)
	total, most, oneTotal, oneMost := totals()
	require.Equal(t, []float64{9, 13, 9, 13}, []float64{total, most, oneTotal, oneMost})
}
