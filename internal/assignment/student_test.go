package assignment_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/rubric"
)

// TestStudentViewOfADefinition: a student's view of each type of
// definition holds what their result page shows and none of the teacher's
// instructions (context, prompt, highlighter descriptions, rubric id, the
// descriptions of the levels the student was not given).
func TestStudentViewOfADefinition(t *testing.T) {
	t.Parallel()
	points := func(f float64) *float64 { return &f }
	rubricID := "7d0e5c8a-2b1c-4f55-9a53-1d7c3e0c9f10"
	fns := map[string]assignment.Function{
		assignment.TypeGrade: {Type: assignment.TypeGrade, Questions: []assignment.Question{{
			QuestionText: "Q1", Context: "KEY: the Nile", RubricID: &rubricID,
			Criteria:     []assignment.Criterion{{Description: "Names it", Points: 2}},
			Subquestions: []assignment.Question{{QuestionText: "Q1a", Context: "KEY: Egypt", Criteria: []assignment.Criterion{{Description: "Why", Points: 1}}}},
		}}},
		assignment.TypeFeedback: {Type: assignment.TypeFeedback, Context: "KEY: a letter",
			Highlights: []assignment.Highlighter{{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "KEY: look for the the"}}},
		assignment.TypeRubricFeedback: {Type: assignment.TypeRubricFeedback, Rubric: &rubric.Rubric{Name: "Essay", Criteria: []rubric.Criterion{
			{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear", "KEY: muddled"}},
			{CriterionDescription: "Evidence", LevelDescriptions: []string{"KEY: rich", "Some", "KEY: none"}, UseRange: true,
				LevelRanges: []rubric.LevelRange{{LevelDescriptionsIndex: 0, Min: points(4), Max: points(5)}, {LevelDescriptionsIndex: 1, Min: points(2), Max: points(3)}, {LevelDescriptionsIndex: 2, Min: points(0), Max: points(1)}}},
			{CriterionDescription: "Style", LevelDescriptions: []string{"KEY: fluent", "Flat"}},
		}}},
		assignment.TypePrompt: {Type: assignment.TypePrompt, Prompt: "KEY: be generous"},
	}
	want := map[string]string{
		assignment.TypeGrade: `{"type":"grade","questions":[{"questionText":"Q1","criteria":[{"description":"Names it","points":2}],
			"subquestions":[{"questionText":"Q1a","criteria":[{"description":"Why","points":1}],"subquestions":[]}]}]}`,
		assignment.TypeFeedback: `{"type":"feedback","highlights":[{"key":"grammar","color":"purple-500","title":"Grammar"}]}`,
		// levels [0, 1, 7]: the last criterion's level is past its levels,
		// which the page reads as its last
		assignment.TypeRubricFeedback: `{"type":"rubric-feedback","rubric":{"name":"Essay","criteria":[
			{"criterionDescription":"Thesis","levelDescriptions":["Clear",""],"useRange":false},
			{"criterionDescription":"Evidence","levelDescriptions":["","Some",""],"useRange":true,"levelRanges":[
				{"levelDescriptionsIndex":0,"min":4,"max":5},{"levelDescriptionsIndex":1,"min":2,"max":3},{"levelDescriptionsIndex":2,"min":0,"max":1}]},
			{"criterionDescription":"Style","levelDescriptions":["","Flat"],"useRange":false}]}}`,
		assignment.TypePrompt: `{"type":"prompt"}`,
	}
	for typ, fn := range fns {
		got, err := json.Marshal(fn.ForStudentView([]int{0, 1, 7}))
		require.NoError(t, err)
		require.JSONEq(t, want[typ], string(got), typ)
		require.NotContains(t, string(got), "KEY:", typ)
	}
}
