package catalog_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/catalog"
)

func requireError(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	require.Equal(t, msg, e.Message)
}

func TestTheCatalogueHoldsTheBuiltIns(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, tool := range catalog.Tools() {
		ids = append(ids, tool.ID+":"+tool.Kind)
		require.NotEmpty(t, tool.Title, tool.ID)
		require.NotEmpty(t, tool.Description, tool.ID)
		require.NotEmpty(t, tool.InitialMessage, tool.ID)
		if tool.Kind == catalog.KindChat {
			require.Greater(t, len(tool.SystemPrompt), 200, "%s has a real system prompt", tool.ID)
		}
	}
	require.Equal(t, []string{"lesson-planner:chat", "quiz-maker:chat", "parent-letter:chat", "rubric-from-sheet:rubric"}, ids)

	ids = nil
	for _, w := range catalog.Workflows() {
		ids = append(ids, w.ID)
		require.NotEmpty(t, w.Title, w.ID)
		require.NotEmpty(t, w.SystemPrompt, w.ID)
		names := map[string]bool{}
		for _, f := range w.Fields {
			require.False(t, names[f.Name], "%s repeats field %s", w.ID, f.Name)
			names[f.Name] = true
			require.Contains(t, []string{"text", "textarea", "select"}, f.Kind)
			require.Positive(t, f.MaxLength)
			require.NotContains(t, strings.ToLower(f.Label), "student", "no field asks for pupils' details")
			require.NotContains(t, strings.ToLower(f.Label), "pupil", "no field asks for pupils' details")
			if f.Kind == "select" {
				require.NotEmpty(t, f.Options, "%s.%s", w.ID, f.Name)
				for _, o := range f.Options {
					require.LessOrEqual(t, len(o), f.MaxLength, "%s.%s option %q fits", w.ID, f.Name, o)
				}
			} else {
				require.Empty(t, f.Options)
			}
		}
	}
	require.Equal(t, []string{"lesson-plan", "parent-letter-workflow", "quiz-from-text"}, ids)
}

func TestTheAPIShapeHidesPromptsAndTemplates(t *testing.T) {
	t.Parallel()
	raw, err := json.Marshal(map[string]any{"tools": catalog.Tools(), "workflows": catalog.Workflows()})
	require.NoError(t, err)
	for _, tool := range catalog.Tools() {
		if tool.SystemPrompt != "" {
			require.NotContains(t, string(raw), tool.SystemPrompt[:40])
		}
	}
	require.NotContains(t, string(raw), "systemPrompt")
	require.NotContains(t, string(raw), "Write the whole", "no template text")

	var got struct {
		Tools     []map[string]any `json:"tools"`
		Workflows []map[string]any `json:"workflows"`
	}
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, map[string]any{
		"id": "quiz-maker", "title": "Quiz maker", "kind": "chat",
		"description":    got.Tools[1]["description"],
		"initialMessage": got.Tools[1]["initialMessage"],
	}, got.Tools[1])
	fields := got.Workflows[0]["fields"].([]any)
	require.Equal(t, map[string]any{"name": "lessonLength", "label": "Lesson length", "kind": "select", "required": true,
		"options": []any{"30 minutes", "45 minutes", "60 minutes", "90 minutes"}, "maxLength": 20.0}, fields[3])
	require.Equal(t, false, fields[4].(map[string]any)["required"], "learning objectives are optional")
}

func TestCataloguesAreCopies(t *testing.T) {
	t.Parallel()
	ws := catalog.Workflows()
	ws[0].Fields[3].Options[0] = "5 hours"
	ws[0].Title = "Changed"
	w, ok := catalog.FindWorkflow(catalog.WorkflowLessonPlan)
	require.True(t, ok)
	require.Equal(t, "30 minutes", w.Fields[3].Options[0])
	require.Equal(t, "Plan a lesson", w.Title)
}

func TestChatPrompt(t *testing.T) {
	t.Parallel()
	p, err := catalog.ChatPrompt(catalog.ToolParentLetter)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p, "You are Markwell's parent letter writer"), p)

	// A workflow's chat continues with the workflow's prompt.
	p, err = catalog.ChatPrompt(catalog.WorkflowQuizFromText)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p, "You are Markwell's quiz maker"), p)

	_, err = catalog.ChatPrompt(catalog.ToolRubricFromSheet)
	requireError(t, err, apperr.Invalid, `"Rubric from an assignment sheet" makes a rubric, not a chat: use it from the Tools page`)
	for _, id := range []string{"", "nope", "Lesson-Planner"} {
		_, err = catalog.ChatPrompt(id)
		requireError(t, err, apperr.NotFound, "Tool not found")
	}
}

func TestComposeLessonPlan(t *testing.T) {
	t.Parallel()
	w, _ := catalog.FindWorkflow(catalog.WorkflowLessonPlan)
	msg, err := w.Compose(map[string]string{
		"subject": " Science ", "gradeLevel": "Year 7", "topic": "How volcanoes form", "lessonLength": "45 minutes",
	})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(msg, "Write a lesson plan for a 45 minutes Science lesson for Year 7.\n\nTopic: How volcanoes form\n"), msg)
	require.Contains(t, msg, "Suggest two or three learning objectives", "no objectives given")
	require.True(t, strings.HasSuffix(msg, "Write the whole lesson plan as a document."), msg)

	msg, err = w.Compose(map[string]string{
		"subject": "Science", "gradeLevel": "Year 7", "topic": "Volcanoes", "lessonLength": "60 minutes",
		"objectives": "Explain how magma rises",
	})
	require.NoError(t, err)
	require.Contains(t, msg, "Learning objectives:\nExplain how magma rises\n")
	require.NotContains(t, msg, "Suggest two or three")
}

func TestComposeParentLetterAndQuiz(t *testing.T) {
	t.Parallel()
	w, _ := catalog.FindWorkflow(catalog.WorkflowParentLetter)
	msg, err := w.Compose(map[string]string{"situation": "Trip to the museum on 12 May", "tone": "Formal", "signedBy": "Ms Patel"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(msg, "Write a letter to parents and carers in a formal tone.\n\nPurpose or situation:\nTrip to the museum on 12 May\n"), msg)
	require.Contains(t, msg, "Parents need not do anything")
	require.Contains(t, msg, "Signed by: Ms Patel")
	msg, err = w.Compose(map[string]string{"situation": "Trip", "tone": "Formal", "signedBy": "Ms Patel", "action": "Sign the form by Friday"})
	require.NoError(t, err)
	require.Contains(t, msg, "What parents should do: Sign the form by Friday\n")

	q, _ := catalog.FindWorkflow(catalog.WorkflowQuizFromText)
	msg, err = q.Compose(map[string]string{"sourceText": "Volcanoes erupt.\n```\ncode\n```", "questionCount": "10", "questionType": "Multiple choice"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(msg, "Write a quiz of 10 multiple-choice questions (four options each, one correct) based on the source text below"), msg)
	require.True(t, strings.HasSuffix(msg, "Source text:\n````\nVolcanoes erupt.\n```\ncode\n```\n````"), "the text stays one fenced block: %s", msg)
}

func TestComposeRefusesBadInputs(t *testing.T) {
	t.Parallel()
	lesson, _ := catalog.FindWorkflow(catalog.WorkflowLessonPlan)
	good := func() map[string]string {
		return map[string]string{"subject": "Science", "gradeLevel": "Year 7", "topic": "Volcanoes", "lessonLength": "45 minutes"}
	}
	with := func(k, v string) map[string]string { m := good(); m[k] = v; return m }
	for name, tc := range map[string]struct {
		inputs map[string]string
		msg    string
	}{
		"nothing":          {nil, "Please fill in all required fields"},
		"blank topic":      {with("topic", "  \n "), "Please fill in all required fields"},
		"missing length":   {func() map[string]string { m := good(); delete(m, "lessonLength"); return m }(), "Please fill in all required fields"},
		"not an option":    {with("lessonLength", "5 hours"), "Lesson length must be one of: 30 minutes, 45 minutes, 60 minutes, 90 minutes"},
		"unknown field":    {with("studentName", "Sam"), `Plan a lesson has no field named "studentName"`},
		"topic too long":   {with("topic", strings.Repeat("é", 301)), "Topic can be at most 300 characters"},
		"objectives long":  {with("objectives", strings.Repeat("x", 3001)), "Learning objectives can be at most 3,000 characters"},
		"required & wrong": {with("subject", ""), "Please fill in all required fields"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := lesson.Compose(tc.inputs)
			requireError(t, err, apperr.Invalid, tc.msg)
		})
	}
	// Exactly at the limit is fine; surrounding space does not count.
	_, err := lesson.Compose(with("topic", " "+strings.Repeat("é", 300)+" "))
	require.NoError(t, err)

	quiz, _ := catalog.FindWorkflow(catalog.WorkflowQuizFromText)
	_, err = quiz.Compose(map[string]string{"sourceText": strings.Repeat("a", 20001), "questionCount": "5", "questionType": "Short answer"})
	requireError(t, err, apperr.Invalid, "Source text can be at most 20,000 characters")
	_, err = quiz.Compose(map[string]string{"sourceText": "Text", "questionCount": "7", "questionType": "Short answer"})
	requireError(t, err, apperr.Invalid, "Number of questions must be one of: 5, 10, 15, 20")
}
