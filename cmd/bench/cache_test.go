package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

func TestCacheClassIsThirtyDifferentRealisticAnswers(t *testing.T) {
	t.Parallel()
	answers, examples := cacheClass(cacheStudents)
	require.Len(t, answers, cacheStudents)
	require.Len(t, examples, 3)
	seen := map[string]bool{}
	for _, a := range answers {
		words := len(strings.Fields(a))
		require.GreaterOrEqual(t, words, 150, a)
		require.LessOrEqual(t, words, 425, a) // the last sentence may pass 400
		require.False(t, seen[a], "every answer is different")
		seen[a] = true
		for _, label := range []string{"1.", "1a.", "2.", "3."} {
			require.Contains(t, a, label+" ")
		}
	}
}

// demoClient is the real OpenAI client talking to the demo model over
// HTTP, in the output mode given (none: auto).
func demoClient(t *testing.T, mode ...llm.OutputMode) llm.Client {
	t.Helper()
	srv := fakellm.New(fakellm.Options{})
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg := llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel}
	if len(mode) > 0 {
		cfg.OutputMode = mode[0]
	}
	client, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	return client
}

// In json_object and prompt modes the schema goes into the system prompt:
// it is the class's too, so the prefix stays shared.
func TestAClassIsCachedInEveryOutputMode(t *testing.T) {
	t.Parallel()
	for _, mode := range []llm.OutputMode{llm.ModeJSONObject, llm.ModePrompt} {
		run, err := gradeClass(context.Background(), demoClient(t, mode), 10, grading.FenceKey("a secret key of at least 32 characters"))
		require.NoError(t, err, mode)
		require.GreaterOrEqual(t, run.cachedShare(), cacheTarget, mode)
	}
}

// The cross-check of the bench figure, without the provider's cache
// report: the longest common prefix of consecutive requests.
func TestAClassSharesMostOfItsPromptWithTheCallBefore(t *testing.T) {
	t.Parallel()
	run, err := gradeClass(context.Background(), demoClient(t), cacheStudents, grading.FenceKey("a secret key of at least 32 characters"))
	require.NoError(t, err)
	require.Len(t, run.sent, cacheStudents, "one call per student: every answer fitted")
	share := prefixShare(run.sent)
	require.GreaterOrEqual(t, share, cacheTarget)
	require.GreaterOrEqual(t, run.cachedShare(), cacheTarget, "the demo model's cache report agrees")
	require.LessOrEqual(t, run.cachedShare(), share, "a provider caches whole blocks of the prefix, no more")
	t.Logf("calls 2..%d: shared prefix %.3f, reported cached %.3f", cacheStudents, share, run.cachedShare())

	// The whole of a request but the submission's part is the prefix.
	for i := 1; i < len(run.sent); i++ {
		cur := serialised(run.sent[i])
		shared := cur[:strings.Index(cur, "The submission, fenced with this request's own code:")]
		require.True(t, strings.HasPrefix(serialised(run.sent[i-1]), shared), "call %d", i+1)
	}

	// Without a fence key the codes change on every call, and the prefix
	// ends at the first one, in the system prompt.
	random, err := gradeClass(context.Background(), demoClient(t), 5, nil)
	require.NoError(t, err)
	require.Less(t, prefixShare(random.sent), 0.5)
	require.Less(t, random.cachedShare(), 0.5)
}

func TestClassCostIsCheaperWithTheCache(t *testing.T) {
	t.Setenv("LLM_PRICES", "")
	t.Setenv("LLM_MODEL", "")
	prices, model, note, err := classPrice()
	require.NoError(t, err)
	require.Equal(t, "gpt-4.1-mini", model)
	require.Contains(t, note, "reference price")
	u := llm.Usage{Model: model, PromptTokens: 1_000_000, CachedPromptTokens: 800_000, CompletionTokens: 100_000}
	require.InDelta(t, 0.2*0.40+0.8*0.10+0.1*1.60, prices.Cost(u), 1e-9)
	require.InDelta(t, 0.40+0.1*1.60, prices.CostUncached(u), 1e-9)

	t.Setenv("LLM_PRICES", "gpt-4o=2.50/1.25/10,gpt-4o-mini=0.15/0.075/0.60")
	t.Setenv("LLM_MODEL", "gpt-4o")
	_, model, note, err = classPrice()
	require.NoError(t, err)
	require.Equal(t, "gpt-4o", model)
	require.Equal(t, "at LLM_PRICES for gpt-4o", note)
}
