package llm_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// records is a slog handler that keeps what is logged.
type records struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec.Clone())
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

// warnings returns the warnings logged, each as its message and attributes.
func (r *records) warnings() []map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]string
	for _, rec := range r.recs {
		if rec.Level < slog.LevelWarn {
			continue
		}
		m := map[string]string{"msg": rec.Message}
		rec.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
		out = append(out, m)
	}
	return out
}

func TestEachModeAgainstTheDemoModel(t *testing.T) {
	t.Parallel()
	base := setup(t, fakellm.Options{}, llm.Config{OutputMode: llm.ModeJSONSchema})
	var want grade
	_, err := base.client.CompleteJSON(t.Context(), gradeRequest(), &want)
	require.NoError(t, err)

	tests := []struct {
		mode   llm.OutputMode
		opts   fakellm.Options
		format string
	}{
		{llm.ModeJSONSchema, fakellm.Options{}, "json_schema"},
		{llm.ModeJSONObject, fakellm.Options{RefuseJSONSchema: true}, "json_object"},
		{llm.ModePrompt, fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true}, ""},
		{llm.ModePrompt, fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true, Chatty: true}, ""},
	}
	for _, tt := range tests {
		name := string(tt.mode)
		if tt.opts.Chatty {
			name += " chatty"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, tt.opts, llm.Config{OutputMode: tt.mode})
			var got grade
			usage, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
			require.NoError(t, err)
			require.Equal(t, want, got, "the same answer in every mode")
			require.Equal(t, tt.mode, usage.Mode)
			require.Equal(t, 1, usage.Calls)
			require.Positive(t, usage.PromptTokens)
			st := b.srv.Stats()
			require.Equal(t, map[string]int64{tt.format: 1}, st.Formats)
			require.Equal(t, int64(1), st.Tasks["grade_essay"])
		})
	}
}

func TestModesCheckTheAnswer(t *testing.T) {
	t.Parallel()
	for _, mode := range []llm.OutputMode{llm.ModeJSONObject, llm.ModePrompt} {
		b := setup(t, fakellm.Options{Chatty: true}, llm.Config{OutputMode: mode})
		var got grade

		// JSON that does not follow the schema, as a model that only
		// reads the schema in its prompt may write.
		b.srv.Handle("grade_essay", func(req fakellm.ChatRequest) (any, error) {
			delete(req.Schema, "required")
			return map[string]any{"summary": "only a summary"}, nil
		})
		_, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
		require.ErrorIs(t, err, llm.ErrBadOutput, mode)
		require.Contains(t, err.Error(), `missing required property "criteria"`, mode)

		// An answer whose JSON is cut short.
		b.srv.FailNext(fakellm.FaultMalformed, 1)
		b.srv.Handle("grade_essay", nil)
		_, err = b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
		require.ErrorIs(t, err, llm.ErrBadOutput, mode)
		require.False(t, llm.IsPermanent(err), mode)
	}
}

func TestAutoSwitchesToJSONObjectAfterOneRefusal(t *testing.T) {
	t.Parallel()
	logs := &records{}
	b := setup(t, fakellm.Options{RefuseJSONSchema: true}, llm.Config{Log: slog.New(logs)})
	require.Equal(t, llm.ModeJSONSchema, b.client.Mode(fakellm.DefaultModel))

	var first grade
	usage, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &first)
	require.NoError(t, err)
	require.Equal(t, llm.ModeJSONObject, usage.Mode)
	require.Equal(t, 2, usage.Calls, "the refused attempt counts")
	require.Equal(t, map[string]int64{"json_schema": 1, "json_object": 1}, b.srv.Stats().Formats)
	require.Equal(t, llm.ModeJSONObject, b.client.Mode(fakellm.DefaultModel))

	var second grade
	usage, err = b.client.CompleteJSON(t.Context(), gradeRequest(), &second)
	require.NoError(t, err)
	require.Equal(t, first, second)
	require.Equal(t, llm.ModeJSONObject, usage.Mode)
	require.Equal(t, 1, usage.Calls)
	require.Equal(t, map[string]int64{"json_schema": 1, "json_object": 2}, b.srv.Stats().Formats,
		"the second call sends no json_schema at all")

	warns := logs.warnings()
	require.Len(t, warns, 1)
	require.Equal(t, fakellm.DefaultModel, warns[0]["model"])
	require.Equal(t, "json_object", warns[0]["mode"])
	require.Contains(t, warns[0]["provider_error"], "'json_schema' is not supported")
	require.Contains(t, warns[0]["advice"], "LLM_OUTPUT_MODE=json_object")
}

func TestAutoDetectionIsPerModelAndConcurrent(t *testing.T) {
	t.Parallel()
	logs := &records{}
	b := setup(t, fakellm.Options{RefuseJSONSchema: true, Models: []string{"text", "vision"}},
		llm.Config{Model: "text", VisionModel: "vision", Log: slog.New(logs)})

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var got grade
			_, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
			require.NoError(t, err)
		})
	}
	wg.Wait()
	require.Len(t, logs.warnings(), 1, "logged once however many calls found out at the same time")
	require.Equal(t, llm.ModeJSONObject, b.client.Mode("text"))
	require.Equal(t, llm.ModeJSONSchema, b.client.Mode("vision"), "another model has not been tried")
}

func TestAutoFallsBackToPrompt(t *testing.T) {
	t.Parallel()
	logs := &records{}
	b := setup(t, fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true, Chatty: true}, llm.Config{Log: slog.New(logs)})

	var got grade
	usage, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.NoError(t, err)
	require.Equal(t, llm.ModePrompt, usage.Mode)
	require.Equal(t, 3, usage.Calls)
	require.NoError(t, llm.Validate(criteriaSchema, got))

	usage, err = b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.NoError(t, err)
	require.Equal(t, 1, usage.Calls)
	require.Equal(t, map[string]int64{"json_schema": 1, "json_object": 1, "": 2}, b.srv.Stats().Formats)
	warns := logs.warnings()
	require.Len(t, warns, 1)
	require.Contains(t, warns[0]["advice"], "LLM_OUTPUT_MODE=prompt")
}

func TestExplicitJSONSchemaRefusedIsPermanent(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{RefuseJSONSchema: true}, llm.Config{OutputMode: llm.ModeJSONSchema})
	var got grade
	usage, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.True(t, llm.IsPermanent(err))
	require.Contains(t, err.Error(), "'json_schema' is not supported")
	require.Equal(t, 1, usage.Calls, "no fallback when the mode is set")
	require.Equal(t, map[string]int64{"json_schema": 1}, b.srv.Stats().Formats)
}

func TestAutoUnrelatedBadRequestChangesNothing(t *testing.T) {
	t.Parallel()
	logs := &records{}
	b := setup(t, fakellm.Options{}, llm.Config{Log: slog.New(logs)})
	req := gradeRequest()
	req.Temperature = llm.Float(5)

	var got grade
	usage, err := b.client.CompleteJSON(t.Context(), req, &got)
	require.True(t, llm.IsPermanent(err))
	require.Contains(t, err.Error(), "temperature must be between 0 and 2", "the first error is returned")
	require.Equal(t, 3, usage.Calls, "every mode was tried")

	usage, err = b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.NoError(t, err)
	require.Equal(t, llm.ModeJSONSchema, usage.Mode, "nothing remembered")
	require.Equal(t, 1, usage.Calls)
	require.Empty(t, logs.warnings())
}

func TestAutoNeverFallsBackOnTransientErrors(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{RetryAfter: -1}, llm.Config{})
	b.srv.FailNext(fakellm.FaultRateLimit, 1)
	b.srv.FailNext(fakellm.FaultServerError, 1)

	var got grade
	usage, err := b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	_, limited := llm.RetryAfter(err)
	require.True(t, limited)
	require.Equal(t, 1, usage.Calls)
	usage, err = b.client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.Error(t, err)
	require.False(t, llm.IsPermanent(err))
	require.Equal(t, 1, usage.Calls)
	require.Equal(t, map[string]int64{"json_schema": 2}, b.srv.Stats().Formats)
	require.Equal(t, llm.ModeJSONSchema, b.client.Mode(fakellm.DefaultModel))
}

func TestStrictSchemaRefusalIsPermanent(t *testing.T) {
	t.Parallel()
	loose := map[string]any{
		"type": "object", "required": []string{"summary"},
		"properties": map[string]any{"summary": map[string]any{"type": "string"}},
	}
	for _, mode := range []llm.OutputMode{llm.ModeJSONSchema, llm.ModeAuto} {
		b := setup(t, fakellm.Options{}, llm.Config{OutputMode: mode})
		var got struct{ Summary string }
		usage, err := b.client.CompleteJSON(t.Context(), llm.Request{
			Task: "summarise", Messages: []llm.Message{llm.UserText(essay)}, Schema: loose,
		}, &got)
		require.True(t, llm.IsPermanent(err), mode)
		require.Contains(t, err.Error(), "Invalid schema for response_format 'summarise'", mode)
		require.Contains(t, err.Error(), "additionalProperties", mode)
		require.Equal(t, 1, usage.Calls, "%s: a schema outside the strict subset is not a reason to change mode", mode)
		require.Equal(t, llm.ModeJSONSchema, b.client.Mode(fakellm.DefaultModel))
	}
}

func TestCachedPromptTokens(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	shared := strings.Repeat("Rubric line. ", 462)[:6000]
	ask := func(student string) llm.Usage {
		req := gradeRequest()
		req.System = shared
		req.Messages = []llm.Message{llm.UserText(student)}
		var got grade
		usage, err := b.client.CompleteJSON(t.Context(), req, &got)
		require.NoError(t, err)
		return usage
	}
	require.Zero(t, ask(essay).CachedPromptTokens, "the first request finds nothing cached")
	second := ask("A different student wrote this answer about the water cycle.")
	// 6,000 shared characters are 1,500 tokens: 11 whole blocks of 128.
	require.Equal(t, 1408, second.CachedPromptTokens)
	require.Less(t, second.CachedPromptTokens, second.PromptTokens)

	// The streamed answer's usage reports it too.
	var text strings.Builder
	usage, err := b.client.ChatStream(t.Context(), llm.ChatRequest{System: shared, Messages: []llm.Message{llm.UserText("Hello.")}},
		func(d string) error { text.WriteString(d); return nil })
	require.NoError(t, err)
	require.Equal(t, 1408, usage.CachedPromptTokens)

	short := gradeRequest()
	var got grade
	usage, err = b.client.CompleteJSON(t.Context(), short, &got)
	require.NoError(t, err)
	usage, err = b.client.CompleteJSON(t.Context(), short, &got)
	require.NoError(t, err)
	require.Zero(t, usage.CachedPromptTokens, "a short prompt is never cached")
}
