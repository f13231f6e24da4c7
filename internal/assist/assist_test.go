package assist_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

type bundle struct {
	svc  *assist.Service
	mock *llmtest.Mock
	// sent records the requests the mock received.
	sent []llm.Request
}

// setup gives a service over a mock model that answers with answer.
func setup(t *testing.T, answer any) *bundle {
	t.Helper()
	b := &bundle{mock: &llmtest.Mock{}}
	b.mock.CompleteJSONFunc = func(ctx context.Context, req llm.Request, out any) error {
		b.sent = append(b.sent, req)
		if err, ok := answer.(error); ok {
			return err
		}
		return llmtest.Answer(answer)(ctx, req, out)
	}
	b.svc = &assist.Service{LLM: b.mock}
	return b
}

// demo gives a service over the real openai-go client talking HTTP to the
// demo model, taught as `make dev` runs it.
func demo(t *testing.T) (*assist.Service, *fakellm.Server) {
	t.Helper()
	model := fakellm.New(fakellm.Options{})
	fakellm.TeachAll(model)
	ts := httptest.NewServer(model)
	t.Cleanup(ts.Close)
	client, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)
	return &assist.Service{LLM: client}, model
}

func requireError(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	require.Equal(t, msg, e.Message)
}

// requireStrict checks what strict structured output demands: every object
// lists all its properties as required and allows no others.
func requireStrict(t *testing.T, s map[string]any, path string) {
	t.Helper()
	switch s["type"] {
	case "object":
		props := s["properties"].(map[string]any)
		require.Equal(t, false, s["additionalProperties"], path)
		required := s["required"].([]any)
		require.Len(t, required, len(props), path)
		for _, r := range required {
			require.Contains(t, props, r, path)
		}
		for name, p := range props {
			requireStrict(t, p.(map[string]any), path+"."+name)
		}
	case "array":
		requireStrict(t, s["items"].(map[string]any), path+"[]")
	}
}

func TestSchemasAreStrict(t *testing.T) {
	t.Parallel()
	requireStrict(t, assist.CriteriaSchema, "$")
	requireStrict(t, assist.QuestionsSchema, "$")
}

func TestSuggestCriteriaSendsTheTask(t *testing.T) {
	t.Parallel()
	b := setup(t, map[string]any{"criteria": []any{map[string]any{"description": "Names chlorophyll", "points": 2}}})
	got, err := b.svc.SuggestCriteria(context.Background(), "  What absorbs light in a leaf? ", " Year 8 biology ")
	require.NoError(t, err)
	require.Equal(t, []assist.Criterion{{Description: "Names chlorophyll", Points: 2}}, got)

	require.Len(t, b.sent, 1)
	req := b.sent[0]
	require.Equal(t, "suggest_criteria", req.Task)
	require.Equal(t, assist.CriteriaSchema, req.Schema)
	require.Contains(t, req.System, "grading criteria")
	require.Len(t, req.Messages, 1)
	require.Equal(t, llm.RoleUser, req.Messages[0].Role)
	require.Contains(t, req.Messages[0].Text, "<question>\nWhat absorbs light in a leaf?\n</question>")
	require.Contains(t, req.Messages[0].Text, "<context>\nYear 8 biology\n</context>")

	// No context, no context section.
	_, err = b.svc.SuggestCriteria(context.Background(), "Q?", "  ")
	require.NoError(t, err)
	require.NotContains(t, b.sent[1].Messages[0].Text, "<context>")
}

func TestSuggestQuestionsSendsTheTask(t *testing.T) {
	t.Parallel()
	b := setup(t, map[string]any{"questions": []any{map[string]any{"question": "Q1", "criteria": []any{}}}})
	got, err := b.svc.SuggestQuestions(context.Background(), "\n1. Q1\n")
	require.NoError(t, err)
	require.Equal(t, []assist.QuestionAndCriteria{{Question: "Q1", Criteria: []assist.Criterion{}}}, got)
	req := b.sent[0]
	require.Equal(t, "suggest_questions", req.Task)
	require.Equal(t, assist.QuestionsSchema, req.Schema)
	require.Contains(t, req.System, "assignment sheet")
	require.Contains(t, req.Messages[0].Text, "<assignment>\n1. Q1\n</assignment>")
}

func TestEmptyInputIsRefusedWithoutAskingTheModel(t *testing.T) {
	t.Parallel()
	b := setup(t, errors.New("must not be called"))
	_, err := b.svc.SuggestCriteria(context.Background(), " \n\t", "context alone is not enough")
	requireError(t, err, apperr.Invalid, "Please enter the question first.")
	_, err = b.svc.SuggestQuestions(context.Background(), "   ")
	requireError(t, err, apperr.Invalid, "Please paste the assignment text first.")
	require.Empty(t, b.sent)
}

func TestInputIsCapped(t *testing.T) {
	t.Parallel()
	b := setup(t, map[string]any{"questions": []any{map[string]any{"question": "Q", "criteria": []any{}}}})
	_, err := b.svc.SuggestQuestions(context.Background(), strings.Repeat("é", assist.MaxInput+500))
	require.NoError(t, err)
	require.Equal(t, assist.MaxInput, strings.Count(b.sent[0].Messages[0].Text, "é"))
}

func TestAnswersAreCleaned(t *testing.T) {
	t.Parallel()
	many := make([]any, 15)
	for i := range many {
		many[i] = map[string]any{"description": fmt.Sprintf("c%d", i), "points": i}
	}
	b := setup(t, map[string]any{"criteria": append([]any{
		map[string]any{"description": "  padded  ", "points": -3},
		map[string]any{"description": "   ", "points": 2},
		map[string]any{"description": "huge", "points": 1e9},
		map[string]any{"description": strings.Repeat("long ", 1000), "points": 2.5},
	}, many...)})
	got, err := b.svc.SuggestCriteria(context.Background(), "Q", "")
	require.NoError(t, err)
	require.Len(t, got, 10)
	require.Equal(t, assist.Criterion{Description: "padded", Points: 0}, got[0])
	require.Equal(t, assist.Criterion{Description: "huge", Points: 1000}, got[1])
	require.Equal(t, 2000, len([]rune(got[2].Description))+1, "cut to 2000 characters, then trimmed")
	require.Equal(t, 2.5, got[2].Points)
	require.Equal(t, "c0", got[3].Description)

	qs := make([]any, 25)
	for i := range qs {
		qs[i] = map[string]any{"question": fmt.Sprintf(" Q%d ", i), "criteria": many}
	}
	qs[0] = map[string]any{"question": "  ", "criteria": many}
	b = setup(t, map[string]any{"questions": qs})
	questions, err := b.svc.SuggestQuestions(context.Background(), "sheet")
	require.NoError(t, err)
	require.Len(t, questions, 20)
	require.Equal(t, "Q1", questions[0].Question, "questions without text are dropped")
	for _, q := range questions {
		require.Len(t, q.Criteria, 10)
	}
}

func TestModelFailures(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]any{
		"error":       fmt.Errorf("llm suggest: %w", llm.ErrBadOutput),
		"rate limit":  &llm.RateLimitError{RetryAfter: 1},
		"nothing":     map[string]any{"criteria": []any{}, "questions": []any{}},
		"only blanks": map[string]any{"criteria": []any{map[string]any{"description": " ", "points": 1}}, "questions": []any{map[string]any{"question": "", "criteria": []any{}}}},
	} {
		b := setup(t, answer)
		_, err := b.svc.SuggestCriteria(context.Background(), "Q", "")
		requireError(t, err, apperr.Upstream, "Failed to generate criteria.")
		require.NotContains(t, apperr.From(err).Message, "llm", name)
		_, err = b.svc.SuggestQuestions(context.Background(), "Q")
		requireError(t, err, apperr.Upstream, "Failed to generate questions.")
	}
}

func TestDemoModelOverHTTP(t *testing.T) {
	t.Parallel()
	svc, model := demo(t)
	ctx := context.Background()

	questions, err := svc.SuggestQuestions(ctx, `Year 10 History — The Cold War
Name: __________

1. Describe the causes of the Berlin Blockade. (6 marks)
2. Explain why the Berlin Wall was built in 1961.
3) Compare the aims of the USA and the USSR in Europe after 1945.
What was the significance of the Cuban Missile Crisis?
`)
	require.NoError(t, err)
	require.Len(t, questions, 4, "one question per numbered or question-marked line")
	require.Equal(t, "Describe the causes of the Berlin Blockade.", questions[0].Question)
	require.Equal(t, "Explain why the Berlin Wall was built in 1961.", questions[1].Question)
	require.Equal(t, "Compare the aims of the USA and the USSR in Europe after 1945.", questions[2].Question)
	require.Equal(t, "What was the significance of the Cuban Missile Crisis?", questions[3].Question)
	for _, q := range questions {
		require.NotEmpty(t, q.Criteria)
		for _, c := range q.Criteria {
			require.NotEmpty(t, c.Description)
			require.GreaterOrEqual(t, c.Points, 1.0)
			require.LessOrEqual(t, c.Points, 5.0)
		}
	}
	var first []string
	for _, c := range questions[0].Criteria {
		first = append(first, c.Description)
	}
	require.Contains(t, strings.Join(first, "\n"), "Berlin Blockade", "criteria come from the question's key phrases")

	criteria, err := svc.SuggestCriteria(ctx, "Explain why the Berlin Wall was built in 1961.", "GCSE history")
	require.NoError(t, err)
	require.Equal(t, questions[1].Criteria, criteria, "the same question gets the same criteria")
	require.Equal(t, int64(1), model.Stats().Tasks["suggest_criteria"])
	require.Equal(t, int64(1), model.Stats().Tasks["suggest_questions"])

	// A failing model is a failure to generate, whatever went wrong.
	model.FailNext(fakellm.FaultServerError, 1)
	_, err = svc.SuggestCriteria(ctx, "Why?", "")
	requireError(t, err, apperr.Upstream, "Failed to generate criteria.")
	model.FailNext(fakellm.FaultMalformed, 1)
	_, err = svc.SuggestQuestions(ctx, "1. Why?")
	requireError(t, err, apperr.Upstream, "Failed to generate questions.")
	model.FailNext(fakellm.FaultRateLimit, 1)
	_, err = svc.SuggestQuestions(ctx, "1. Why?")
	requireError(t, err, apperr.Upstream, "Failed to generate questions.")
}
