package grading_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/highlight"
)

var noInjection = map[string]any{"detected": false, "passage": ""}

func feedbackInput(text string) grading.Input {
	return grading.Input{Function: assignment.Function{Type: assignment.TypeFeedback, Context: "A letter to a friend.", Highlights: []assignment.Highlighter{
		{Key: "praise", Color: "green-500", Title: "Praise", Description: "What works well."},
		{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "This highlighter should point out any grammar mistakes."},
	}}, Text: text}
}

func TestRunFeedbackPlacesPassagesAndCountsTheRest(t *testing.T) {
	t.Parallel()
	text := "Dear Sam, we went to the the beach & it was <great>."
	m := script(map[string]any{
		"passages": []any{
			map[string]any{"key": "grammar", "text": "the the", "comment": `Doubled "the".`},
			map[string]any{"key": "praise", "text": "it was <great>", "comment": "Lively."},
			map[string]any{"key": "grammar", "text": "not in the text", "comment": "x"},
			map[string]any{"key": "spelling", "text": "Dear Sam", "comment": "unknown key"},
		},
		"feedback": "A warm letter.", "injection": noInjection,
	})
	res, _, err := grading.Run(context.Background(), m.mock, feedbackInput(text))
	require.NoError(t, err)
	require.Equal(t, 2, res.DroppedHighlights)
	require.Equal(t, "A warm letter.", res.Feedback)
	require.Equal(t, `Dear Sam, we went to <grammar comment="Doubled &quot;the&quot;.">the the</grammar> beach &amp; <praise comment="Lively.">it was &lt;great&gt;</praise>.`, res.HighlightedText)
	require.Equal(t, text, highlight.Plain(res.HighlightedText))

	req := m.sent[0]
	require.Equal(t, grading.TaskFeedback, req.Task)
	key := req.Schema["properties"].(map[string]any)["passages"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["key"]
	require.Equal(t, []any{"praise", "grammar"}, key.(map[string]any)["enum"])
	require.Contains(t, req.Messages[0].Text, `"key":"grammar","title":"Grammar"`)
}

func TestRunRubricFeedbackChecksLevelsAndRanges(t *testing.T) {
	t.Parallel()
	in := grading.Input{Function: assignment.Function{Type: assignment.TypeRubricFeedback, Rubric: ptr(essayRubric())},
		Text: "Cities should plant more trees. Trees cool streets, as a 2019 study shows."}
	answer := func(l1, l2 int, p2 float64) map[string]any {
		return map[string]any{
			"criteria": map[string]any{
				"1": map[string]any{"level": l1, "feedback": "Thesis feedback."},
				"2": map[string]any{"level": l2, "points": p2, "feedback": "Evidence feedback."},
			},
			"overallComments": "Solid.",
			"passages": []any{
				map[string]any{"key": "criterion1", "text": "Cities should plant more trees.", "comment": "Clear thesis."},
				map[string]any{"key": "criterion2", "text": "as a 2019 study shows", "comment": "Cited."},
			},
			"injection": noInjection,
		}
	}
	// Level 4 of 3 does not exist; then 9 points are outside level 1's
	// 4–5; the third answer fits.
	m := script(answer(4, 1, 4.5), answer(1, 1, 9), answer(2, 1, 4.5))
	_, usage, err := grading.Run(context.Background(), m.mock, in)
	require.ErrorIs(t, err, grading.ErrInvalidOutput)
	require.Equal(t, 2, usage.Calls)
	require.Contains(t, m.sent[1].Messages[2].Text, `criterion "1": level 4 does not exist (its levels are numbered 1 to 3)`)

	m = script(answer(1, 1, 9), answer(2, 1, 4.5))
	res, _, err := grading.Run(context.Background(), m.mock, in)
	require.NoError(t, err)
	require.Contains(t, m.sent[1].Messages[2].Text, `criterion "2": points 9 are outside level 1's range 4 to 5`)
	require.Equal(t, []int{1, 0}, res.CriteriaLevels, "level indexes, 0 = best")
	require.Equal(t, []float64{2, 4.5}, res.CriteriaPoints, "level 2 of 3 without ranges is worth 2")
	require.Equal(t, []string{"Thesis feedback.", "Evidence feedback."}, res.CriteriaFeedback)
	require.Equal(t, "Solid.", res.OverallComments)
	require.Zero(t, res.DroppedHighlights)
	require.Contains(t, res.HighlightedText, `<criterion2 comment="Cited.">as a 2019 study shows</criterion2>`)
	total, maxPts := grading.RubricTotals(essayRubric(), res.CriteriaLevels, res.CriteriaPoints)
	require.Equal(t, 6.5, total)
	require.Equal(t, 8.0, maxPts)

	// Only the criterion with ranges is asked for points.
	crit := m.sent[0].Schema["properties"].(map[string]any)["criteria"].(map[string]any)["properties"].(map[string]any)
	require.NotContains(t, crit["1"].(map[string]any)["properties"], "points")
	require.Contains(t, crit["2"].(map[string]any)["properties"], "points")
	require.Equal(t, []any{1, 2, 3}, crit["1"].(map[string]any)["properties"].(map[string]any)["level"].(map[string]any)["enum"])
}

func TestRunPromptFollowsTheTeachersPrompt(t *testing.T) {
	t.Parallel()
	in := grading.Input{Function: assignment.Function{Type: assignment.TypePrompt, Prompt: "Comment on structure in three bullet points."},
		Text: "My essay about rivers."}
	m := script(map[string]any{"feedback": "", "injection": noInjection}, map[string]any{"feedback": "- Clear start\n- Add a conclusion", "injection": noInjection})
	res, usage, err := grading.Run(context.Background(), m.mock, in)
	require.NoError(t, err)
	require.Equal(t, 2, usage.Calls, "empty feedback is retried")
	require.Equal(t, "- Clear start\n- Add a conclusion", res.Feedback)
	require.Contains(t, m.sent[0].Messages[0].Text, `"prompt":"Comment on structure in three bullet points."`)
	require.Equal(t, grading.TaskPrompt, m.sent[0].Task)
}

func TestStatusesAndProcessesPerType(t *testing.T) {
	t.Parallel()
	for typ, want := range map[string][3]string{
		assignment.TypeGrade:          {grading.ProcessGrade, "grading", "graded"},
		assignment.TypePrompt:         {grading.ProcessPrompt, "grading", "graded"},
		assignment.TypeRubricFeedback: {grading.ProcessRubricFeedback, "rubric-grading", "graded"},
		assignment.TypeFeedback:       {grading.ProcessFeedback, "annotating", "annotated"},
		"quiz":                        {"", "", ""},
	} {
		require.Equal(t, want, [3]string{grading.ProcessFor(typ), grading.InProgressStatus(typ), grading.DoneStatus(typ)}, typ)
		require.Equal(t, want[1] != "", grading.IsInProgress(grading.InProgressStatus(typ)), typ)
	}
	for _, s := range []string{"", "ready-to-grade", "graded", "annotated", "failed", "reviewed"} {
		require.False(t, grading.IsInProgress(s), s)
	}
}

func ptr[T any](v T) *T { return &v }

// strict reports the first object of schema that strict structured output
// would refuse: one whose required list is not all its properties, or that
// allows other properties.
func strict(t *testing.T, schema map[string]any, path string) {
	t.Helper()
	if schema["type"] == "object" {
		props, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		require.Len(t, required, len(props), "%s: every property required", path)
		for _, r := range required {
			require.Contains(t, props, r, path)
		}
		require.Equal(t, false, schema["additionalProperties"], path)
		for k, v := range props {
			strict(t, v.(map[string]any), path+"."+k)
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		strict(t, items, path+"[]")
	}
}

func TestEverySchemaIsStrict(t *testing.T) {
	t.Parallel()
	rub := grading.Input{Function: assignment.Function{Type: assignment.TypeRubricFeedback, Rubric: ptr(essayRubric())}, Text: "x"}
	prompt := grading.Input{Function: assignment.Function{Type: assignment.TypePrompt, Prompt: "Be kind."}, Text: "x"}
	for _, in := range []grading.Input{gradeInput("x"), feedbackInput("x"), rub, prompt} {
		m := script()
		_, _, err := grading.Run(context.Background(), m.mock, in)
		require.Error(t, err) // the script has no answer
		require.Len(t, m.sent, 1)
		strict(t, m.sent[0].Schema, m.sent[0].Task)
	}
	strict(t, grading.SummarySchema, grading.TaskSummary)
}
