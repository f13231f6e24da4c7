package llm_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// wireUsage is the usage block of the completions a server sent.
type wireUsage struct {
	Model string `json:"model"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// tee serves h and keeps a copy of every chat completion it answered.
type tee struct {
	h    http.Handler
	mu   sync.Mutex
	sent []wireUsage
}

func (t *tee) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	if r.URL.Path == "/v1/chat/completions" && rec.Code == http.StatusOK {
		var u wireUsage
		if json.NewDecoder(bytes.NewReader(rec.Body.Bytes())).Decode(&u) == nil {
			t.mu.Lock()
			t.sent = append(t.sent, u)
			t.mu.Unlock()
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// completions returns the usage of the completions sent so far.
func (t *tee) completions() []wireUsage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]wireUsage(nil), t.sent...)
}

func TestCompleteJSONReportsTheProvidersUsage(t *testing.T) {
	t.Parallel()
	srv := &tee{h: fakellm.New(fakellm.Options{})}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	client, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)

	var got grade
	usage, err := client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.NoError(t, err)

	require.Len(t, srv.completions(), 1)
	sent := srv.completions()[0]
	require.Positive(t, sent.Usage.PromptTokens)
	require.Positive(t, sent.Usage.CompletionTokens)
	require.Equal(t, llm.Usage{
		Model: fakellm.DefaultModel, Calls: 1, Mode: llm.ModeJSONSchema,
		PromptTokens: sent.Usage.PromptTokens, CompletionTokens: sent.Usage.CompletionTokens,
	}, usage)

	// An answer that cannot be used still cost what the model counted.
	srv.h.(*fakellm.Server).FailNext(fakellm.FaultMalformed, 1)
	usage, err = client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.ErrorIs(t, err, llm.ErrBadOutput)
	require.Len(t, srv.completions(), 2)
	require.Equal(t, 1, usage.Calls)
	require.Equal(t, srv.completions()[1].Usage.CompletionTokens, usage.CompletionTokens)
	require.Positive(t, usage.PromptTokens)

	// A call refused before the model answered is one call without tokens.
	srv.h.(*fakellm.Server).FailNext(fakellm.FaultServerError, 1)
	usage, err = client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.Error(t, err)
	require.Equal(t, llm.Usage{Model: fakellm.DefaultModel, Calls: 1, Mode: llm.ModeJSONSchema}, usage)
}

func TestUsageAdd(t *testing.T) {
	t.Parallel()
	var total llm.Usage
	total.Add(llm.Usage{Model: "gpt-4o-mini", Calls: 1, PromptTokens: 100, CompletionTokens: 20})
	total.Add(llm.Usage{Calls: 1})
	total.Add(llm.Usage{Model: "gpt-4o", Calls: 1, PromptTokens: 50, CompletionTokens: 5})
	require.Equal(t, llm.Usage{Model: "gpt-4o", Calls: 3, PromptTokens: 150, CompletionTokens: 25}, total)
}

func TestSummaryRequestsGoToTheSummaryModel(t *testing.T) {
	t.Parallel()
	models := []string{"demo-text", "demo-summary", "demo-vision"}
	schema := map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"model"},
		"properties": map[string]any{"model": map[string]any{"type": "string"}},
	}
	answer := func(req fakellm.ChatRequest) (any, error) { return map[string]any{"model": req.Model}, nil }
	ask := func(c *llm.OpenAI, summary bool, msg llm.Message) (string, llm.Usage) {
		var got struct{ Model string }
		usage, err := c.CompleteJSON(t.Context(), llm.Request{
			Task: "which_model", Messages: []llm.Message{msg}, Schema: schema, Summary: summary,
		}, &got)
		require.NoError(t, err)
		return got.Model, usage
	}
	text := llm.UserText("Summarise the class.")
	picture := llm.Message{Role: llm.RoleUser, Text: "Read this.", ImageURLs: []string{"data:image/png;base64,iVBORw0KGgo="}}

	b := setup(t, fakellm.Options{Models: models},
		llm.Config{Model: "demo-text", SummaryModel: "demo-summary", VisionModel: "demo-vision"})
	b.srv.Handle("which_model", answer)
	model, usage := ask(b.client, true, text)
	require.Equal(t, "demo-summary", model)
	require.Equal(t, "demo-summary", usage.Model, "the usage names the model that answered")
	model, _ = ask(b.client, false, text)
	require.Equal(t, "demo-text", model)
	model, _ = ask(b.client, true, picture)
	require.Equal(t, "demo-vision", model, "images still go to the vision model")

	// Without a summary model, summaries use the main model; and with the
	// vision model left to default to it, images never go to the summary model.
	plain := setup(t, fakellm.Options{Models: models}, llm.Config{Model: "demo-text"})
	plain.srv.Handle("which_model", answer)
	model, _ = ask(plain.client, true, text)
	require.Equal(t, "demo-text", model)
	noVision := setup(t, fakellm.Options{Models: models}, llm.Config{Model: "demo-text", SummaryModel: "demo-summary"})
	noVision.srv.Handle("which_model", answer)
	model, _ = ask(noVision.client, true, picture)
	require.Equal(t, "demo-text", model)
}
