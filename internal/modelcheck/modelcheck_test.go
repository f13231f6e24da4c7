package modelcheck_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/modelcheck"
)

// demo serves the demo model, taught as `make dev` runs it, over HTTP.
func demo(t *testing.T, opts fakellm.Options) (string, *fakellm.Server) {
	t.Helper()
	srv := fakellm.New(opts)
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL + "/v1", srv
}

// check runs the check through the real client at base with mode.
func check(t *testing.T, base, model string, mode llm.OutputMode, vision bool) modelcheck.Report {
	t.Helper()
	cfg := llm.Config{BaseURL: base, Model: model, OutputMode: mode, Timeout: 5 * time.Second}
	if vision {
		cfg.VisionModel = model
	}
	prices, err := llm.ParsePrices("markwell-demo=0.40/0.10/1.60")
	require.NoError(t, err)
	rep, err := (&modelcheck.Checker{Config: cfg, Prices: prices}).Check(context.Background(), "")
	require.NoError(t, err)
	return rep
}

// modes are the structured-output modes of the report's tasks that ran.
func modes(rep modelcheck.Report) map[string]llm.OutputMode {
	out := map[string]llm.OutputMode{}
	for _, r := range rep.Results {
		if r.Skipped == "" {
			out[r.Task] = r.Mode
		}
	}
	return out
}

func allModes(m llm.OutputMode, tasks ...string) map[string]llm.OutputMode {
	out := map[string]llm.OutputMode{}
	for _, t := range tasks {
		out[t] = m
	}
	return out
}

var textTasks = []string{modelcheck.CheckGrade, modelcheck.CheckFeedback, modelcheck.CheckRubricFeedback, modelcheck.CheckPrompt}

func TestEveryTaskPassesAgainstTheDemoModel(t *testing.T) {
	t.Parallel()
	base, srv := demo(t, fakellm.Options{})
	rep := check(t, base, fakellm.DefaultModel, "", true)
	require.True(t, rep.Passed, rep.Text())
	require.Empty(t, rep.FirstError)
	require.Equal(t, llm.ModeAuto, rep.Mode)
	require.Equal(t, allModes(llm.ModeJSONSchema, append(textTasks, modelcheck.CheckHandwriting)...), modes(rep),
		"a provider that takes json_schema keeps it")
	for _, r := range rep.Results {
		require.True(t, r.Valid, r.Task)
		require.False(t, r.Retried, r.Task)
		require.Equal(t, 1, r.Calls, r.Task)
		require.Positive(t, r.PromptTokens, r.Task)
		require.Positive(t, r.CompletionTokens, r.Task)
		require.NotNil(t, r.ClassCost, r.Task)
		want := 30 * (float64(r.PromptTokens-r.CachedPromptTokens)*0.40 + float64(r.CachedPromptTokens)*0.10 + float64(r.CompletionTokens)*1.60) / 1e6
		require.InDelta(t, want, *r.ClassCost, 1e-12, r.Task)
	}
	stats := srv.Stats()
	for _, task := range []string{"grade_answers", "highlight_feedback", "rubric_feedback", "prompt_feedback", "transcribe_page"} {
		require.Equal(t, int64(1), stats.Tasks[task], "the demo model answered %s once", task)
	}
	text := rep.Text()
	require.Contains(t, text, "LLM_OUTPUT_MODE=auto")
	require.Regexp(t, `(?m)^handwriting +json_schema +yes +\d+ ms +\d+ +\d+ +\d+ +\$0\.\d{4}$`, text)
	require.Contains(t, text, "OK: 5 of 5 tasks passed")
	require.Empty(t, rep.Advice, "json_schema worked: nothing to set")
}

func TestAutoFallsBackToJSONObjectWhenJSONSchemaIsRefused(t *testing.T) {
	t.Parallel()
	base, _ := demo(t, fakellm.Options{RefuseJSONSchema: true})
	rep := check(t, base, fakellm.DefaultModel, llm.ModeAuto, false)
	require.True(t, rep.Passed, rep.Text())
	require.Equal(t, allModes(llm.ModeJSONObject, textTasks...), modes(rep))
	for _, r := range rep.Results[1:4] {
		require.False(t, r.Retried, "%s: the refusal was learnt once, by the first task", r.Task)
	}
	require.Regexp(t, `(?m)^grade +json_object +yes `, rep.Text())
	require.Contains(t, rep.Text(), "\nAdvice: the provider refused json_schema and automatic detection settled on json_object: set LLM_OUTPUT_MODE=json_object,")
}

func TestAutoFallsBackToPromptWithoutAnyResponseFormat(t *testing.T) {
	t.Parallel()
	base, _ := demo(t, fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true, Chatty: true})
	rep := check(t, base, fakellm.DefaultModel, llm.ModeAuto, true)
	require.True(t, rep.Passed, rep.Text())
	require.Equal(t, allModes(llm.ModePrompt, append(textTasks, modelcheck.CheckHandwriting)...), modes(rep),
		"the JSON is taken out of the code fence and the sentences around it")
	require.Contains(t, rep.Advice, "set LLM_OUTPUT_MODE=prompt")
}

func TestExplicitModes(t *testing.T) {
	t.Parallel()
	base, _ := demo(t, fakellm.Options{})
	for _, m := range []llm.OutputMode{llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModePrompt} {
		rep := check(t, base, fakellm.DefaultModel, m, true)
		require.True(t, rep.Passed, "%s: %s", m, rep.Text())
		require.Equal(t, m, rep.Mode)
		require.Equal(t, allModes(m, append(textTasks, modelcheck.CheckHandwriting)...), modes(rep), m)
		require.Contains(t, rep.Text(), "LLM_OUTPUT_MODE="+string(m))
	}

	// json_schema, set by hand, against a provider that refuses it: the
	// operator is told which mode to set.
	base, _ = demo(t, fakellm.Options{RefuseJSONSchema: true})
	rep := check(t, base, fakellm.DefaultModel, llm.ModeJSONSchema, false)
	require.False(t, rep.Passed)
	require.True(t, strings.HasPrefix(rep.FirstError, "grade: the provider refused structured output; LLM_OUTPUT_MODE=json_object"), rep.FirstError)
	require.False(t, rep.Results[0].Answered)
	require.Regexp(t, `(?m)^grade +- +no answer `, rep.Text())

	// json_object against a provider without JSON mode either: prompt.
	base, _ = demo(t, fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true})
	rep = check(t, base, fakellm.DefaultModel, llm.ModeJSONObject, false)
	require.False(t, rep.Passed)
	require.True(t, strings.HasPrefix(rep.FirstError, "grade: the provider refused JSON mode; LLM_OUTPUT_MODE=prompt"), rep.FirstError)
}

func TestAWrongModelIsNamed(t *testing.T) {
	t.Parallel()
	base, _ := demo(t, fakellm.Options{})
	rep := check(t, base, "gpt-4o-mini", "", false)
	require.False(t, rep.Passed)
	require.True(t, strings.HasPrefix(rep.FirstError, "grade: the model gpt-4o-mini does not exist at "+base+" (404)"), rep.FirstError)
	for _, r := range rep.Results[:4] {
		require.False(t, r.Valid)
		require.False(t, r.Answered)
		require.Nil(t, r.ClassCost, "gpt-4o-mini is not in LLM_PRICES")
	}
	require.Equal(t, "LLM_VISION_MODEL is not set", rep.Results[4].Skipped)
	text := rep.Text()
	require.Contains(t, text, "not priced")
	require.Contains(t, text, "feedback: the same\n")
	require.Contains(t, text, "handwriting      skipped: LLM_VISION_MODEL is not set\n")
	require.Contains(t, text, "FAILED: 4 of 4 tasks failed. First error: grade: the model gpt-4o-mini does not exist")
}

func TestNothingAnswersAtADeadAddress(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	base := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	rep := check(t, base, fakellm.DefaultModel, "", false)
	require.False(t, rep.Passed)
	require.Equal(t, "grade: nothing answers at "+base+": is the server running, and is LLM_BASE_URL's host and port right?", rep.FirstError)
}

// provider answers every chat completion with status and an OpenAI-style
// error body.
func provider(t *testing.T, status int, code, message string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"error":{"message":"` + message + `","type":"invalid_request_error","code":"` + code + `"}}`))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

func TestProviderRefusalsInPlainWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status        int
		code, message string
		want          string
	}{
		{401, "invalid_api_key", "Incorrect API key provided.", "grade: the API key was refused (401): check LLM_API_KEY"},
		{403, "", "Project does not have access.", "grade: the API key may not use the model markwell-demo (403)"},
		{404, "", "404 page not found", "grade: %s has no chat completions endpoint (404): LLM_BASE_URL usually ends in /v1"},
		{400, "", "Invalid 'messages': too long.", "grade: the provider refused the request (400)"},
		{400, "", "Invalid schema for response_format 'grade_answers': 'additionalProperties' is required to be supplied and to be false.",
			"grade: the provider refused the answer's schema for strict structured output: please report this as a Markwell bug; LLM_OUTPUT_MODE=json_object works around it"},
	} {
		base := provider(t, tc.status, tc.code, tc.message)
		rep := check(t, base, fakellm.DefaultModel, llm.ModeJSONObject, false)
		want := tc.want
		if strings.Contains(want, "%s") {
			want = strings.Replace(want, "%s", base, 1)
		}
		require.True(t, strings.HasPrefix(rep.FirstError, want), "%d: %s", tc.status, rep.FirstError)
		require.Contains(t, rep.FirstError, tc.message, "the provider's own words follow")
	}
}

func TestASlowProviderTimesOut(t *testing.T) {
	t.Parallel()
	base, _ := demo(t, fakellm.Options{Latency: 2 * time.Second})
	cfg := llm.Config{BaseURL: base, Model: fakellm.DefaultModel, Timeout: 100 * time.Millisecond}
	rep, err := (&modelcheck.Checker{Config: cfg}).Check(context.Background(), llm.ModeJSONSchema)
	require.NoError(t, err)
	require.False(t, rep.Passed)
	require.Equal(t, "grade: no answer from "+base+" within LLM_TIMEOUT (100ms): a slow model (a local GPU) needs a longer LLM_TIMEOUT", rep.FirstError)
}

func TestBadOutputIsRetriedOnceThenReported(t *testing.T) {
	t.Parallel()
	base, srv := demo(t, fakellm.Options{})
	srv.FailNext(fakellm.FaultMalformed, 1)
	rep := check(t, base, fakellm.DefaultModel, llm.ModeJSONSchema, false)
	require.True(t, rep.Passed, rep.Text())
	grade := rep.Results[0]
	require.True(t, grade.Retried)
	require.Equal(t, 2, grade.Calls)
	require.Contains(t, grade.Note, "the first answer did not fit (the model's answer could not be used (bad output): answer is not JSON")
	require.Regexp(t, `(?m)^grade +json_schema +yes, after a retry `, rep.Text())

	srv.FailNext(fakellm.FaultMalformed, 2)
	rep = check(t, base, fakellm.DefaultModel, llm.ModeJSONSchema, false)
	require.False(t, rep.Passed)
	require.True(t, rep.Results[0].Answered)
	require.True(t, strings.HasPrefix(rep.FirstError, "grade: the model's answer did not follow the schema, twice (bad output): answer is not JSON"), rep.FirstError)
	require.Regexp(t, `(?m)^grade +json_schema +no `, rep.Text())
}

// The table's exact text, for a report whose numbers are fixed.
func TestTheTablesText(t *testing.T) {
	t.Parallel()
	cost := func(f float64) *float64 { return &f }
	rep := modelcheck.Report{
		BaseURL: "http://gpu.school.test:11434/v1", Model: "qwen2.5:7b-instruct", Mode: llm.ModeAuto, ClassSize: 30,
		DurationMS: 41230, FirstError: "rubric-feedback: the model's answer did not follow the schema, twice (bad output): x",
		Results: []modelcheck.Result{
			{Task: "grade", Mode: llm.ModeJSONSchema, Valid: true, Answered: true, LatencyMS: 9870, PromptTokens: 1012, CompletionTokens: 180, ClassCost: cost(0)},
			{Task: "feedback", Mode: llm.ModeJSONSchema, Valid: true, Retried: true, Answered: true, LatencyMS: 21400, PromptTokens: 1843, CachedPromptTokens: 768, CompletionTokens: 402, ClassCost: cost(1.5),
				Note: "the first answer did not fit (y); the retry did"},
			{Task: "rubric-feedback", Mode: llm.ModeJSONSchema, Answered: true, LatencyMS: 850, PromptTokens: 1201, CompletionTokens: 2,
				Error: "the model's answer did not follow the schema, twice (bad output): x"},
			{Task: "handwriting", Skipped: "LLM_VISION_MODEL is not set"},
		},
	}
	require.Equal(t, `Provider check: http://gpu.school.test:11434/v1, model qwen2.5:7b-instruct, vision model not set, LLM_OUTPUT_MODE=auto

task             mode         schema-valid        latency  prompt  cached  completion  cost per class of 30
grade            json_schema  yes                   9.9 s    1012       0         180               $0.0000
feedback         json_schema  yes, after a retry   21.4 s    1843     768         402                 $1.50
rubric-feedback  json_schema  no                   850 ms    1201       0           2            not priced
handwriting      skipped: LLM_VISION_MODEL is not set

feedback: the first answer did not fit (y); the retry did
rubric-feedback: the model's answer did not follow the schema, twice (bad output): x

FAILED: 1 of 3 tasks failed. First error: rubric-feedback: the model's answer did not follow the schema, twice (bad output): x
`, rep.Text())
}
