package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// cacheStudents is the class size of the prompt-caching figure.
const cacheStudents = 30

// referencePrice prices the class when LLM_PRICES does not: OpenAI's list
// price of gpt-4.1-mini (input, cached input, output per million tokens).
const referencePrice = "gpt-4.1-mini=0.40/0.10/1.60"

// cacheTarget is the share of the prompt tokens of calls 2..30 that should
// be served from the provider's cache.
const cacheTarget = 0.8

// classRun is what grading a class one submission after another cost.
type classRun struct {
	// usage per submission, in grading order
	usage []llm.Usage
	// sent are the requests in the order they were sent
	sent []llm.Request
}

// recorder is a model client that keeps the requests it passes on.
type recorder struct {
	llm.Client
	mu   sync.Mutex
	sent []llm.Request
}

func (r *recorder) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	r.mu.Lock()
	r.sent = append(r.sent, req)
	r.mu.Unlock()
	return r.Client.CompleteJSON(ctx, req, out)
}

// gradeClass grades the class of cacheClass through grading.Run and model,
// one submission after another, as the worker's runs of one class reach a
// provider, every run with the fence key (the worker's is
// grading.FenceKey(SECRET_KEY)).
func gradeClass(ctx context.Context, model llm.Client, students int, key []byte) (classRun, error) {
	answers, examples := cacheClass(students)
	rec := &recorder{Client: model}
	var run classRun
	for i, text := range answers {
		in := grading.Input{
			Function: assignment.Function{Type: assignment.TypeGrade, Questions: cacheQuestions(), Context: "Year 9 biology: photosynthesis homework"},
			Text:     text, Examples: examples, FenceKey: key,
		}
		_, u, err := grading.Run(ctx, rec, in)
		if err != nil {
			return run, fmt.Errorf("grade student %d: %w", i+1, err)
		}
		run.usage = append(run.usage, u)
	}
	run.sent = rec.sent
	return run, nil
}

// cachedShare is the share of the prompt tokens of the calls after the
// first that the provider reported cached.
func (r classRun) cachedShare() float64 {
	var prompt, cached int
	for _, u := range r.usage[1:] {
		prompt += u.PromptTokens
		cached += u.CachedPromptTokens
	}
	if prompt == 0 {
		return 0
	}
	return float64(cached) / float64(prompt)
}

// total is the class's usage.
func (r classRun) total() llm.Usage {
	var t llm.Usage
	for _, u := range r.usage {
		t.Add(u)
	}
	return t
}

// serialised is a request as a provider reads it for its cache: the
// system prompt, then every message's role and text, in order.
func serialised(req llm.Request) string {
	var b strings.Builder
	b.WriteString("system\x00" + req.System + "\x00")
	for _, m := range req.Messages {
		b.WriteString(string(m.Role) + "\x00" + m.Text + "\x00")
	}
	return b.String()
}

// prefixShare is the share of the characters of requests 2..n that their
// longest common prefix with the request before them covers: what a
// provider caching the previous prompt could serve from its cache,
// measured without the provider.
func prefixShare(sent []llm.Request) float64 {
	var total, shared int
	for i := 1; i < len(sent); i++ {
		prev, cur := serialised(sent[i-1]), serialised(sent[i])
		n := 0
		for n < len(prev) && n < len(cur) && prev[n] == cur[n] {
			n++
		}
		total += len(cur)
		shared += n
	}
	if total == 0 {
		return 0
	}
	return float64(shared) / float64(total)
}

// classPrice is the price the class's cost is reported at: the configured
// model's in LLM_PRICES, else LLM_PRICES' only entry, else the reference
// price; the note says which.
func classPrice() (llm.Prices, string, string, error) {
	table, err := llm.ParsePrices(os.Getenv("LLM_PRICES"))
	if err != nil {
		return nil, "", "", fmt.Errorf("LLM_PRICES: %w", err)
	}
	if model := os.Getenv("LLM_MODEL"); model != "" {
		if _, ok := table.Lookup(model); ok {
			return table, model, "at LLM_PRICES for " + model, nil
		}
	}
	if len(table) == 1 {
		for model := range table {
			return table, model, "at LLM_PRICES for " + model, nil
		}
	}
	ref, err := llm.ParsePrices(referencePrice)
	if err != nil {
		return nil, "", "", err
	}
	model, _, _ := strings.Cut(referencePrice, "=")
	return ref, model, "at the reference price " + referencePrice + " (LLM_PRICES not set)", nil
}

// promptCaching is the figure of issue 22: a class of 30 with three
// benchmark examples graded through grading.Run, the real OpenAI client
// and the demo model over HTTP; the share of the prompt tokens after the
// first call that the demo model served from its prompt cache, the same
// share measured as the requests' common prefix, and the class's cost with
// and without caching.
func promptCaching(ctx context.Context, res *Results) error {
	fmt.Printf("\n-- Prompt caching: a class of %d, three benchmark examples, through the demo model --\n", cacheStudents)
	start := time.Now()
	srv := fakellm.New(fakellm.Options{})
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	if err != nil {
		return err
	}
	run, err := gradeClass(ctx, client, cacheStudents, grading.FenceKey(randomHex(32)))
	if err != nil {
		return err
	}
	prices, model, note, err := classPrice()
	if err != nil {
		return err
	}
	total := run.total()
	total.Model = model // the demo model's tokens, priced as the configured model's
	with, without := prices.Cost(total), prices.CostUncached(total)
	fmt.Printf("%d calls, %d prompt tokens (%d cached), %d completion tokens in %s\n",
		total.Calls, total.PromptTokens, total.CachedPromptTokens, total.CompletionTokens, time.Since(start).Round(time.Millisecond))

	res.AtLeast("cache.class30_cached_prompt_share", run.cachedShare(), cacheTarget, "share",
		"prompt tokens of calls 2..30 the demo model reported cached")
	res.AtLeast("cache.class30_shared_prefix_share", prefixShare(run.sent), cacheTarget, "share",
		"characters of calls 2..30 in the common prefix with the call before (measured without the provider)")
	res.Add("cache.class30_prompt_tokens_per_call", float64(total.PromptTokens)/float64(max(total.Calls, 1)), "tokens", "")
	res.Add("cache.class30_cost_usd", with, "USD", "per class of 30 with caching, "+note)
	res.Add("cache.class30_cost_uncached_usd", without, "USD", "per class of 30 without caching, "+note)
	return nil
}
