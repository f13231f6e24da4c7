package jobs_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// prefixCache is a provider's prompt cache in front of the demo model: a
// call whose system prompt (the head of every grading prompt) an earlier
// call sent already reports half its prompt tokens as cached, as a
// provider that caches the shared prefix does.
type prefixCache struct {
	llm.Client
	mu      sync.Mutex
	systems map[string]bool
}

func (c *prefixCache) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	c.mu.Lock()
	seen := c.systems[req.System]
	c.systems[req.System] = true
	c.mu.Unlock()
	u, err := c.Client.CompleteJSON(ctx, req, out)
	if seen {
		u.CachedPromptTokens = u.PromptTokens / 2
	}
	return u, err
}

func TestGradeSubmission_RecordsCachedPromptTokensAtTheCachedPrice(t *testing.T) {
	t.Parallel()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	// a dollar a prompt token, a quarter a cached one, two a completion token
	prices, err := llm.ParsePrices(fakellm.DefaultModel + "=1000000/250000/2000000")
	require.NoError(t, err)
	g.deps.Prices = prices
	g.deps.FenceKey = grading.FenceKey("a secret key of at least 32 characters")
	g.deps.LLM = &prefixCache{Client: g.deps.LLM, systems: map[string]bool{}}
	asgID := g.define(t, assignment.TypeGrade)
	ids := g.submit(t, asgID, texts(photosynthesis, "Evaporation from the oceans. Condensation forms clouds.", "Plants use chlorophyll.")...)
	g.runMany(t, asgID, ids)
	var jobIDs []int64
	for _, j := range g.handedTo(t, "grade_submission") {
		jobIDs = append(jobIDs, j.ID)
	}
	_, events := g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
	waitAll(t, events, jobIDs)

	cachedResults := 0
	for i, fr := range g.waitFinished(t, asgID, ids) {
		require.Equal(t, grading.StatusGraded, fr.Status)
		u := fr.Usage
		require.NotNil(t, u)
		var prompt, cached, completion int
		var cost float64
		require.NoError(t, g.pool.QueryRow(context.Background(), `SELECT prompt_tokens, cached_prompt_tokens, completion_tokens, cost_usd
			FROM function_results WHERE submission_id = $1`, ids[i]).Scan(&prompt, &cached, &completion, &cost))
		require.Equal(t, cached, u.CachedPromptTokens, "the teacher's read shows the cached tokens")
		require.Positive(t, prompt)
		require.InDelta(t, float64(prompt-cached)+0.25*float64(cached)+2*float64(completion), cost, 1e-6,
			"cached tokens cost the cached price")
		if cached > 0 {
			cachedResults++
			require.Equal(t, prompt/2, cached)
			require.Less(t, cost, float64(prompt)+2*float64(completion), "cheaper than without the cache")
		}
	}
	require.Equal(t, len(ids)-1, cachedResults, "every grading after the first sent the class's system prompt again: the fence key reached the runs")
}
