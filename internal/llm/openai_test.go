package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

const essay = `The water cycle moves water between the sea, the sky and the land. ` +
	`Heat from the sun evaporates water from oceans and lakes! ` +
	`Clouds form when the vapour cools and condenses into droplets. ` +
	`Rain and snow return the water to the ground, where rivers carry it back to the sea.`

// criteriaSchema is a strict, nested schema with $defs, enums and bounds.
var criteriaSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []string{"summary", "criteria", "total", "passed"},
	"properties": map[string]any{
		"summary": map[string]any{"type": "string"},
		"criteria": map[string]any{
			"type":     "array",
			"minItems": 2,
			"maxItems": 3,
			"items":    map[string]any{"$ref": "#/$defs/criterion"},
		},
		"total":  map[string]any{"type": "number", "minimum": 0, "maximum": 30},
		"passed": map[string]any{"type": "boolean"},
	},
	"$defs": map[string]any{
		"criterion": map[string]any{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"title", "level", "points", "quote", "comment"},
			"properties": map[string]any{
				"title":   map[string]any{"type": "string"},
				"level":   map[string]any{"type": "string", "enum": []string{"beginning", "developing", "proficient", "exemplary"}},
				"points":  map[string]any{"type": "integer", "minimum": 1, "maximum": 10},
				"quote":   map[string]any{"type": "string"},
				"comment": map[string]any{"type": []string{"string", "null"}},
			},
		},
	},
}

type grade struct {
	Summary  string `json:"summary"`
	Criteria []struct {
		Title   string  `json:"title"`
		Level   string  `json:"level"`
		Points  int     `json:"points"`
		Quote   string  `json:"quote"`
		Comment *string `json:"comment"`
	} `json:"criteria"`
	Total  float64 `json:"total"`
	Passed bool    `json:"passed"`
}

type bundle struct {
	srv    *fakellm.Server
	http   *httptest.Server
	client *llm.OpenAI
}

// setup starts a demo model over real HTTP and a real openai-go client for it.
func setup(t *testing.T, opts fakellm.Options, cfg llm.Config) bundle {
	t.Helper()
	srv := fakellm.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL + "/v1"
	if cfg.Model == "" {
		cfg.Model = fakellm.DefaultModel
	}
	client, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	return bundle{srv: srv, http: ts, client: client}
}

func gradeRequest() llm.Request {
	return llm.Request{
		Task:        "grade_essay",
		System:      "Grade the essay against the rubric.",
		Messages:    []llm.Message{llm.UserText(essay)},
		Schema:      criteriaSchema,
		Temperature: llm.Float(0.2),
		MaxTokens:   2000,
	}
}

// completeJSON calls c.CompleteJSON for tests about answers and errors,
// which do not look at the usage.
func completeJSON(ctx context.Context, c llm.Client, req llm.Request, out any) error {
	_, err := c.CompleteJSON(ctx, req, out)
	return err
}

func TestCompleteJSONNestedSchema(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})

	var got grade
	require.NoError(t, completeJSON(t.Context(), b.client, gradeRequest(), &got))

	require.NoError(t, llm.Validate(criteriaSchema, got))
	require.True(t, strings.HasPrefix(got.Summary, "Demo model"), got.Summary)
	require.Len(t, got.Criteria, 3)
	for _, c := range got.Criteria {
		require.NotEmpty(t, c.Title)
		require.Contains(t, []string{"beginning", "developing", "proficient", "exemplary"}, c.Level)
		require.GreaterOrEqual(t, c.Points, 1)
		require.LessOrEqual(t, c.Points, 10)
		require.Contains(t, essay, c.Quote, "quotes are exact substrings of the work")
	}
	require.GreaterOrEqual(t, got.Total, 0.0)
	require.LessOrEqual(t, got.Total, 30.0)
	require.Equal(t, int64(1), b.srv.Stats().Tasks["grade_essay"])
}

func TestCompleteJSONDeterministic(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})

	var first, second grade
	require.NoError(t, completeJSON(t.Context(), b.client, gradeRequest(), &first))
	require.NoError(t, completeJSON(t.Context(), b.client, gradeRequest(), &second))
	require.Equal(t, first, second)

	other := gradeRequest()
	other.Messages = []llm.Message{llm.UserText("A much shorter answer.")}
	var third grade
	require.NoError(t, completeJSON(t.Context(), b.client, other, &third))
	require.NotEqual(t, first, third)
}

func TestCompleteJSONTaskHandler(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.Handle("suggest_criteria", func(req fakellm.ChatRequest) (any, error) {
		return map[string]any{"criteria": []string{"Thesis", strings.ToUpper(req.UserText())}}, nil
	})
	schema := map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"criteria"},
		"properties": map[string]any{"criteria": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
	}

	var got struct{ Criteria []string }
	err := completeJSON(t.Context(), b.client, llm.Request{
		Task: "suggest_criteria", Messages: []llm.Message{llm.UserText("evidence")}, Schema: schema,
	}, &got)
	require.NoError(t, err)
	require.Equal(t, []string{"Thesis", "EVIDENCE"}, got.Criteria)
}

func TestCompleteJSONTaskHandlerOffSchemaIsServerError(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.Handle("grade_essay", func(fakellm.ChatRequest) (any, error) {
		return map[string]any{"summary": 42}, nil
	})

	var got grade
	err := completeJSON(t.Context(), b.client, gradeRequest(), &got)
	require.Error(t, err)
	require.False(t, llm.IsPermanent(err))
	require.Contains(t, err.Error(), "does not follow the schema")
}

func TestCompleteJSONVisionModel(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{Models: []string{"demo-text", "demo-vision"}},
		llm.Config{Model: "demo-text", VisionModel: "demo-vision"})
	type seen struct {
		Model  string `json:"model"`
		Images int    `json:"images"`
	}
	b.srv.Handle("read_page", func(req fakellm.ChatRequest) (any, error) {
		return seen{Model: req.Model, Images: req.Images()}, nil
	})
	schema := map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"model", "images"},
		"properties": map[string]any{"model": map[string]any{"type": "string"}, "images": map[string]any{"type": "integer"}},
	}
	ask := func(m llm.Message) seen {
		var got seen
		require.NoError(t, completeJSON(t.Context(), b.client, llm.Request{Task: "read_page", Messages: []llm.Message{m}, Schema: schema}, &got))
		return got
	}

	require.Equal(t, seen{Model: "demo-vision", Images: 2}, ask(llm.Message{
		Role: llm.RoleUser, Text: "Transcribe the handwriting.",
		ImageURLs: []string{"data:image/png;base64,iVBORw0KGgo=", "https://example.com/page2.png"},
	}))
	require.Equal(t, seen{Model: "demo-text", Images: 0}, ask(llm.UserText("No pictures here.")))
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		retryAfter time.Duration
		want       time.Duration
	}{
		{"seconds", 7 * time.Second, 7 * time.Second},
		{"milliseconds", 1500 * time.Millisecond, 1500 * time.Millisecond},
		{"no header", -1, llm.DefaultRetryAfter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, fakellm.Options{RetryAfter: tt.retryAfter}, llm.Config{})
			b.srv.FailNext(fakellm.FaultRateLimit, 1)

			var got grade
			err := completeJSON(t.Context(), b.client, gradeRequest(), &got)

			var rl *llm.RateLimitError
			require.ErrorAs(t, err, &rl)
			require.Equal(t, tt.want, rl.RetryAfter)
			d, ok := llm.RetryAfter(err)
			require.True(t, ok)
			require.Equal(t, tt.want, d)
			require.False(t, llm.IsPermanent(err))
			require.Equal(t, int64(1), b.srv.Stats().RateLimited)

			require.NoError(t, completeJSON(t.Context(), b.client, gradeRequest(), &got), "the next request succeeds")
		})
	}
}

func TestServerErrorIsTransient(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.FailNext(fakellm.FaultServerError, 1)

	_, err := b.client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello.")}})
	require.Error(t, err)
	require.False(t, llm.IsPermanent(err))
	_, limited := llm.RetryAfter(err)
	require.False(t, limited)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
}

func TestSDKRetriesWhenConfigured(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{RetryAfter: 10 * time.Millisecond}, llm.Config{MaxRetries: 2})
	b.srv.FailNext(fakellm.FaultRateLimit, 1)
	b.srv.FailNext(fakellm.FaultServerError, 1)

	_, err := b.client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello.")}})
	require.NoError(t, err)
	require.Equal(t, int64(3), b.srv.Stats().Requests)
}

func TestBadRequestIsPermanent(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})

	req := gradeRequest()
	req.Temperature = llm.Float(3) // the API accepts 0..2
	var got grade
	err := completeJSON(t.Context(), b.client, req, &got)
	require.Error(t, err)
	require.True(t, llm.IsPermanent(err))
	require.ErrorIs(t, err, llm.ErrPermanent)
	require.Contains(t, err.Error(), "temperature must be between 0 and 2", "the provider's message is kept")
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
}

func TestUnknownModelIsPermanent(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{Model: "gpt-nonexistent"})

	_, err := b.client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello.")}})
	require.True(t, llm.IsPermanent(err))
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusNotFound, apiErr.StatusCode)
}

func TestInvalidRequestsFailBeforeSending(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	var out grade
	tests := map[string]llm.Request{
		"bad task name":     {Task: "grade essay!", Messages: []llm.Message{llm.UserText("x")}, Schema: criteriaSchema},
		"no schema":         {Task: "grade_essay", Messages: []llm.Message{llm.UserText("x")}},
		"no messages":       {Task: "grade_essay", Schema: criteriaSchema},
		"unknown role":      {Task: "grade_essay", Messages: []llm.Message{{Role: "robot", Text: "x"}}, Schema: criteriaSchema},
		"assistant picture": {Task: "grade_essay", Messages: []llm.Message{{Role: llm.RoleAssistant, ImageURLs: []string{"https://example.com/a.png"}}}, Schema: criteriaSchema},
	}
	for name, req := range tests {
		err := completeJSON(t.Context(), b.client, req, &out)
		require.True(t, llm.IsPermanent(err), name)
	}
	require.Zero(t, b.srv.Stats().Requests)
}

func TestMalformedAnswerIsBadOutput(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.FailNext(fakellm.FaultMalformed, 1)

	var got grade
	err := completeJSON(t.Context(), b.client, gradeRequest(), &got)
	require.ErrorIs(t, err, llm.ErrBadOutput)
	require.False(t, llm.IsPermanent(err))
	require.Equal(t, int64(1), b.srv.Stats().Malformed)
}

func TestTruncatedBodyIsTransient(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.FailNext(fakellm.FaultTruncated, 1)

	var got grade
	err := completeJSON(t.Context(), b.client, gradeRequest(), &got)
	require.Error(t, err)
	require.False(t, llm.IsPermanent(err))
	_, limited := llm.RetryAfter(err)
	require.False(t, limited)
}

func TestTokenLimitIsBadOutput(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	req := gradeRequest()
	req.MaxTokens = 10

	var got grade
	err := completeJSON(t.Context(), b.client, req, &got)
	require.ErrorIs(t, err, llm.ErrBadOutput)
	require.Contains(t, err.Error(), "token limit")
}

func TestOffSchemaAnswerIsBadOutput(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	// The model answers a different schema than the one this request checks,
	// as a non-strict provider might.
	b.srv.Handle("grade_essay", func(req fakellm.ChatRequest) (any, error) {
		delete(req.Schema, "required")
		return map[string]any{"summary": "only a summary"}, nil
	})

	var got grade
	err := completeJSON(t.Context(), b.client, gradeRequest(), &got)
	require.ErrorIs(t, err, llm.ErrBadOutput)
	require.Contains(t, err.Error(), `missing required property "criteria"`)
}

func TestTimeoutHonoursContextDeadline(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.srv.FailNext(fakellm.FaultTimeout, 1)

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	var got grade
	err := completeJSON(ctx, b.client, gradeRequest(), &got)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.False(t, llm.IsPermanent(err))
	require.Equal(t, int64(1), b.srv.Stats().Timeouts)
}

func TestTimeoutHonoursConfiguredTimeout(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{Timeout: 200 * time.Millisecond})
	b.srv.FailNext(fakellm.FaultTimeout, 1)

	_, err := b.client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello.")}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.False(t, llm.IsPermanent(err))
}

func TestConnectionErrorIsTransient(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	b.http.Close()

	_, err := b.client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello.")}})
	require.Error(t, err)
	require.False(t, llm.IsPermanent(err))
	_, limited := llm.RetryAfter(err)
	require.False(t, limited)
}

func TestModels(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})

	ids, err := b.client.Models(t.Context())
	require.NoError(t, err)
	require.Equal(t, []string{"markwell-demo"}, ids)
}

func TestChat(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{APIKey: "any-key-is-accepted"})
	req := llm.ChatRequest{
		System: "You are a helpful teaching assistant.",
		Messages: []llm.Message{
			llm.UserText("Write a lesson plan."),
			{Role: llm.RoleAssistant, Text: "On which topic?"},
			{Role: llm.RoleUser, Text: "Fractions for year five. Keep it short.", ImageURLs: []string{"data:image/png;base64,iVBORw0KGgo="}},
		},
	}

	text, err := b.client.Chat(t.Context(), req)
	require.NoError(t, err)
	require.Contains(t, text, "demo model")
	require.Contains(t, text, "7 words in 2 sentences")
	require.Contains(t, text, "1 image(s)")

	again, err := b.client.Chat(t.Context(), req)
	require.NoError(t, err)
	require.Equal(t, text, again)
	require.Equal(t, int64(2), b.srv.Stats().Tasks[""])
}

func TestNewOpenAIRequiresModel(t *testing.T) {
	t.Parallel()
	_, err := llm.NewOpenAI(llm.Config{BaseURL: "http://127.0.0.1:1/v1"})
	require.Error(t, err)
	_, err = llm.NewOpenAI(llm.Config{Model: "m", MaxRetries: -1})
	require.Error(t, err)
}

func TestErrorsUnwrap(t *testing.T) {
	t.Parallel()
	rl := &llm.RateLimitError{RetryAfter: time.Second}
	wrapped := errors.Join(errors.New("grade submission 1"), rl)
	d, ok := llm.RetryAfter(wrapped)
	require.True(t, ok)
	require.Equal(t, time.Second, d)
	require.Contains(t, rl.Error(), "retry after 1s")
}
