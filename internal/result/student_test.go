package result_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
)

// TestAStudentSeesFeedbackOnlyOnceItIsFinished: the statuses a student's
// view token reads feedback in (assignment.Finished) are grading's finished
// ones, and none in which the AI works, failed or never ran.
func TestAStudentSeesFeedbackOnlyOnceItIsFinished(t *testing.T) {
	t.Parallel()
	for _, s := range []string{grading.StatusGraded, grading.StatusAnnotated, grading.StatusReviewed} {
		require.True(t, assignment.Finished(s), s)
		fr := assignment.FunctionResult{ResultFields: assignment.ResultFields{Feedback: "Well argued."}, Status: s}.ForStudentView()
		require.NotNil(t, fr.StudentFeedback, s)
		require.Equal(t, "Well argued.", fr.Feedback)
	}
	for _, s := range []string{"", grading.StatusReadyToGrade, grading.StatusGrading, grading.StatusRubricGrading,
		grading.StatusAnnotating, grading.StatusFailed} {
		require.False(t, assignment.Finished(s), s)
		fr := assignment.FunctionResult{ResultFields: assignment.ResultFields{Feedback: "An earlier run's feedback."}, Status: s, Error: "The model timed out."}.ForStudentView()
		require.Equal(t, assignment.StudentResult{Status: s}, fr, "the status only")
	}
}
