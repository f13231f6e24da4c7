package fakellm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const sheet = `Year 9 Science — Photosynthesis worksheet
Name: ____________   Date: ________
Answer in full sentences.

1. Explain how photosynthesis converts light energy into chemical energy. (4 marks)
2) Name the pigment that absorbs light in plant cells.
(3) Describe the role of stomata in gas exchange [3 marks]
Q4: Compare aerobic respiration and photosynthesis.
Why do plants grow more slowly in winter?
Question 6 - Calculate the rate of oxygen production, in ml per minute.
`

func TestQuestionsIn(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{
		"Explain how photosynthesis converts light energy into chemical energy.",
		"Name the pigment that absorbs light in plant cells.",
		"Describe the role of stomata in gas exchange",
		"Compare aerobic respiration and photosynthesis.",
		"Why do plants grow more slowly in winter?",
		"Calculate the rate of oxygen production, in ml per minute.",
	}, questionsIn(sheet))

	// Without numbers or question marks, every line is a question.
	require.Equal(t, []string{"Write a story about a storm.", "Use dialogue."}, questionsIn("Write a story about a storm.\n\n  Use dialogue.  "))
	require.Empty(t, questionsIn(" \n "))

	var long strings.Builder
	for i := range 30 {
		long.WriteString(strings.Repeat("x", i+1) + "?\n")
	}
	require.Len(t, questionsIn(long.String()), 20)
}

func TestCriteriaFor(t *testing.T) {
	t.Parallel()
	got := criteriaFor("Explain how photosynthesis converts light energy into chemical energy.")
	require.Equal(t, []demoCriterion{
		{Description: "Explains “photosynthesis converts light energy” accurately", Points: 5},
		{Description: "Shows understanding of “chemical energy”", Points: 2},
		{Description: "Answers clearly and completely, with a supporting example", Points: 1},
	}, got)
	for _, q := range strings.Split(sheet, "\n") {
		for _, c := range criteriaFor(q) {
			require.NotEmpty(t, c.Description)
			require.GreaterOrEqual(t, c.Points, 1.0)
			require.LessOrEqual(t, c.Points, 5.0)
		}
	}
	require.Equal(t, []demoCriterion{
		{Description: "Gives a correct answer to the question", Points: 2},
		{Description: "Answers clearly and completely, with a supporting example", Points: 1},
	}, criteriaFor("Why?"))
	require.Equal(t, criteriaFor("Compare aerobic respiration and photosynthesis."), criteriaFor("Compare aerobic respiration and photosynthesis."), "deterministic")
}

func TestTeachAllAnswersTheAssistTasks(t *testing.T) {
	t.Parallel()
	srv := New(Options{})
	TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	b := bundle{srv: srv, url: ts.URL}
	crit := map[string]any{"type": "object", "properties": map[string]any{
		"description": map[string]any{"type": "string"}, "points": map[string]any{"type": "number"}},
		"required": []any{"description", "points"}, "additionalProperties": false}
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"questions": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"question": map[string]any{"type": "string"}, "criteria": map[string]any{"type": "array", "items": crit}},
			"required": []any{"question", "criteria"}, "additionalProperties": false}}},
		"required": []any{"questions"}, "additionalProperties": false}
	body, err := json.Marshal(map[string]any{
		"model": DefaultModel,
		"messages": []any{
			map[string]any{"role": "system", "content": "You are a teaching assistant."},
			map[string]any{"role": "user", "content": "<assignment>\n" + sheet + "\n</assignment>\nList the questions."},
		},
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": TaskSuggestQuestions, "schema": schema, "strict": true}},
	})
	require.NoError(t, err)
	status, _, out := b.post(t, string(body))
	require.Equal(t, http.StatusOK, status, out)
	content := out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
	var answer struct {
		Questions []demoQuestion `json:"questions"`
	}
	require.NoError(t, json.Unmarshal([]byte(content), &answer))
	require.Len(t, answer.Questions, 6)
	require.Equal(t, "Compare aerobic respiration and photosynthesis.", answer.Questions[3].Question)
	require.Equal(t, criteriaFor(answer.Questions[3].Question), answer.Questions[3].Criteria)
	require.Equal(t, int64(1), srv.Stats().Tasks[TaskSuggestQuestions])
}
