package config_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/ratelimit"
)

func TestModelDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Empty(t, c.LLMSummaryModel)
	require.Empty(t, c.LLMPrices)
	require.Zero(t, c.LLMRPM)
	require.Zero(t, c.LLMTPM)
	require.Nil(t, c.ModelLimit(nil), "no limit: the model client is left unlimited")
	require.Empty(t, c.Model().SummaryModel)
	require.Zero(t, c.LLMPrices.Cost(llm.Usage{Model: c.LLMModel, PromptTokens: 1000}), "the demo model costs nothing")
}

func TestModelSettings(t *testing.T) {
	t.Parallel()
	env := valid()
	env["LLM_MODEL"] = "gpt-4o"
	env["LLM_VISION_MODEL"] = "gpt-4o"
	env["LLM_SUMMARY_MODEL"] = "gpt-4o-mini"
	env["LLM_PRICES"] = "gpt-4o-mini=0.15/0.075/0.60,gpt-4o=2.50/10"
	env["LLM_RPM"] = "450"
	env["LLM_TPM"] = "180000"
	c, err := config.LoadFrom(env)
	require.NoError(t, err)

	require.Equal(t, "gpt-4o-mini", c.Model().SummaryModel)
	require.Equal(t, llm.Prices{
		"gpt-4o-mini": {Prompt: 0.15, CachedPrompt: 0.075, Completion: 0.60},
		"gpt-4o":      {Prompt: 2.50, CachedPrompt: 2.50, Completion: 10}, // no cached price: the input price
	}, c.LLMPrices)
	require.InDelta(t, 0.0125, c.LLMPrices.Cost(llm.Usage{Model: "gpt-4o-2024-08-06", PromptTokens: 1000, CompletionTokens: 1000}), 1e-12)
	require.InDelta(t, (1000*0.15+1000*0.075)/1e6, c.LLMPrices.Cost(llm.Usage{Model: "gpt-4o-mini", PromptTokens: 2000, CachedPromptTokens: 1000}), 1e-12,
		"cached prompt tokens at the cached price")
	limit, ok := c.ModelLimit(nil).(*ratelimit.ModelLimiter)
	require.True(t, ok)
	require.Equal(t, 450, limit.RPM)
	require.Equal(t, 180000, limit.TPM)
	require.Equal(t, ratelimit.DefaultModelBucket, limit.Bucket, "the API and every worker share one bucket")

	env = valid()
	env["LLM_TPM"] = "90000"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.NotNil(t, c.ModelLimit(nil), "a token limit alone is a limit")
}

func TestModelBadValues(t *testing.T) {
	t.Parallel()
	env := valid()
	env["LLM_RPM"] = "-5"
	env["LLM_TPM"] = "lots"
	env["LLM_PRICES"] = "gpt-4o=2.50"
	_, err := config.LoadFrom(env)
	require.Error(t, err)
	for _, want := range []string{
		`LLM_RPM: "-5" is not a whole number from 0 (no limit) to 1000000000`,
		`LLM_TPM: "lots" is not a whole number from 0 (no limit) to 1000000000`,
		`LLM_PRICES: "gpt-4o=2.50": want two prices, prompt/completion, or three, prompt/cached/completion`,
	} {
		require.Contains(t, err.Error(), want)
	}

	// A price table must price every configured model.
	env = valid()
	env["LLM_MODEL"] = "gpt-4o"
	env["LLM_VISION_MODEL"] = "gpt-4.1"
	env["LLM_SUMMARY_MODEL"] = "gpt-4o-mini"
	env["LLM_PRICES"] = "gpt-4o=2.50/10"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `LLM_PRICES: no price for LLM_VISION_MODEL "gpt-4.1" (add gpt-4.1=prompt/completion or prompt/cached/completion in US dollars per million tokens; 0/0 for a free model)`)
	require.ErrorContains(t, err, `LLM_PRICES: no price for LLM_SUMMARY_MODEL "gpt-4o-mini"`)
	require.NotContains(t, err.Error(), `LLM_MODEL "gpt-4o"`)
}

func TestOutputMode(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, llm.ModeAuto, c.LLMOutputMode, "auto detection by default")
	require.Equal(t, llm.ModeAuto, c.Model().OutputMode)

	for _, mode := range []llm.OutputMode{llm.ModeAuto, llm.ModeJSONSchema, llm.ModeJSONObject, llm.ModePrompt} {
		env := valid()
		env["LLM_OUTPUT_MODE"] = string(mode)
		c, err := config.LoadFrom(env)
		require.NoError(t, err, mode)
		require.Equal(t, mode, c.Model().OutputMode, "the model client gets it")
	}

	env := valid()
	env["LLM_OUTPUT_MODE"] = "json"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, "LLM_OUTPUT_MODE")
	require.ErrorContains(t, err, "use auto, json_schema, json_object or prompt")
}
