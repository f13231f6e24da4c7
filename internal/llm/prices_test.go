package llm_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
)

func TestParsePrices(t *testing.T) {
	t.Parallel()
	p, err := llm.ParsePrices(" gpt-4o-mini=0.15/0.60, gpt-4o = 2.50 / 10 ,meta-llama/Llama-3-8B=0/0,")
	require.NoError(t, err)
	require.Equal(t, llm.Prices{
		"gpt-4o-mini":           {Prompt: 0.15, CachedPrompt: 0.15, Completion: 0.60},
		"gpt-4o":                {Prompt: 2.50, CachedPrompt: 2.50, Completion: 10},
		"meta-llama/Llama-3-8B": {},
	}, p)
	require.Equal(t, "gpt-4o=2.5/10,gpt-4o-mini=0.15/0.6,meta-llama/Llama-3-8B=0/0", p.String())
	again, err := llm.ParsePrices(p.String())
	require.NoError(t, err)
	require.Equal(t, p, again)

	empty, err := llm.ParsePrices("")
	require.NoError(t, err)
	require.Empty(t, empty)
}

func TestParsePricesErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"gpt-4o":                      `"gpt-4o": want model=prompt/completion (US dollars per million tokens), e.g. gpt-4o-mini=0.15/0.60`,
		"=1/2":                        `"=1/2": want model=prompt/completion`,
		"gpt-4o=2.5":                  `"gpt-4o=2.5": want two prices, prompt/completion, or three, prompt/cached/completion, e.g. gpt-4o=0.15/0.60`,
		"gpt-4o=2.5/1.25/10/3":        `"gpt-4o=2.5/1.25/10/3": want two prices`,
		"gpt-4o=2.5/half/10":          `"gpt-4o=2.5/half/10": cached prompt price "half" is not a number`,
		"gpt-4o=cheap/10":             `"gpt-4o=cheap/10": prompt price "cheap" is not a number of dollars of at least 0`,
		"gpt-4o=2.5/-1":               `"gpt-4o=2.5/-1": completion price "-1" is not a number of dollars of at least 0`,
		"gpt-4o=2.5/NaN":              `completion price "NaN" is not a number`,
		"gpt-4o=$2.50/10":             `prompt price "$2.50" is not a number`,
		"gpt-4o=1/2,a=1/2,gpt-4o=3/4": `"gpt-4o=3/4": model gpt-4o is priced twice`,
	}
	for in, want := range tests {
		_, err := llm.ParsePrices(in)
		require.ErrorContains(t, err, want, in)
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	p, err := llm.ParsePrices("gpt-4o-mini=0.15/0.60,gpt-4o=2.50/10")
	require.NoError(t, err)

	// 2,000 prompt tokens at $0.15/M and 500 completion tokens at $0.60/M.
	require.InDelta(t, 0.0003+0.0003, p.Cost(llm.Usage{Model: "gpt-4o-mini", PromptTokens: 2000, CompletionTokens: 500}), 1e-12)
	// A million of each on the big model.
	require.InDelta(t, 12.50, p.Cost(llm.Usage{Model: "gpt-4o", PromptTokens: 1_000_000, CompletionTokens: 1_000_000}), 1e-9)
	// OpenAI answers with a dated snapshot name: priced as its model.
	require.InDelta(t, 0.0006, p.Cost(llm.Usage{Model: "gpt-4o-mini-2024-07-18", PromptTokens: 2000, CompletionTokens: 500}), 1e-12)
	require.InDelta(t, 0.01, p.Cost(llm.Usage{Model: "gpt-4o-2024-08-06", PromptTokens: 0, CompletionTokens: 1000}), 1e-12)
	require.InDelta(t, 0.01, p.Cost(llm.Usage{Model: "gpt-4o-0613", CompletionTokens: 1000}), 1e-12)
	// Another model whose name merely starts the same is not priced alike.
	bigOnly := llm.Prices{"gpt-4o": {Prompt: 2.50, Completion: 10}}
	require.Zero(t, bigOnly.Cost(llm.Usage{Model: "gpt-4o-mini", PromptTokens: 1000}))
	require.Zero(t, bigOnly.Cost(llm.Usage{Model: "gpt-4o-mini-2024-07-18", PromptTokens: 1000}))
	require.Zero(t, bigOnly.Cost(llm.Usage{Model: "gpt-4o-audio-preview", PromptTokens: 1000}))
	// A model the table does not price (the demo model) costs nothing, and
	// so does everything with an empty table.
	require.Zero(t, p.Cost(llm.Usage{Model: "markwell-demo", PromptTokens: 5000, CompletionTokens: 5000}))
	require.Zero(t, p.Cost(llm.Usage{Model: "gpt-4", PromptTokens: 5000}), "gpt-4 is not a snapshot of gpt-4o")
	require.Zero(t, llm.Prices(nil).Cost(llm.Usage{Model: "gpt-4o", PromptTokens: 5000}))

	price, ok := p.Lookup("gpt-4o-mini-2024-07-18")
	require.True(t, ok)
	require.Equal(t, llm.Price{Prompt: 0.15, CachedPrompt: 0.15, Completion: 0.60}, price)
}

func TestCostOfCachedPromptTokens(t *testing.T) {
	t.Parallel()
	p, err := llm.ParsePrices("gpt-4.1-mini=0.40/0.10/1.60,gpt-4o=2.50/10")
	require.NoError(t, err)
	require.Equal(t, llm.Price{Prompt: 0.40, CachedPrompt: 0.10, Completion: 1.60}, p["gpt-4.1-mini"])
	require.Equal(t, "gpt-4.1-mini=0.4/0.1/1.6,gpt-4o=2.5/10", p.String())
	again, err := llm.ParsePrices(p.String())
	require.NoError(t, err)
	require.Equal(t, p, again)

	// 3,000 prompt tokens of which 2,048 cached: 952 at $0.40/M, 2,048 at
	// $0.10/M, and 200 completion tokens at $1.60/M.
	u := llm.Usage{Model: "gpt-4.1-mini", PromptTokens: 3000, CachedPromptTokens: 2048, CompletionTokens: 200}
	require.InDelta(t, (952*0.40+2048*0.10+200*1.60)/1e6, p.Cost(u), 1e-12)
	require.InDelta(t, (3000*0.40+200*1.60)/1e6, p.CostUncached(u), 1e-12)
	// Without a cached price the cache saves nothing.
	u.Model = "gpt-4o"
	require.InDelta(t, p.CostUncached(u), p.Cost(u), 1e-12)
	// A provider reporting more cached tokens than prompt tokens is not
	// believed beyond the prompt.
	u = llm.Usage{Model: "gpt-4.1-mini", PromptTokens: 1000, CachedPromptTokens: 5000}
	require.InDelta(t, 1000*0.10/1e6, p.Cost(u), 1e-12)
}
