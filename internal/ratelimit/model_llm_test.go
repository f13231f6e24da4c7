package ratelimit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/testdb"
)

// provider is the demo model behind a recorder of when each chat
// completion arrived: what the AI provider sees.
type provider struct {
	model *fakellm.Server
	url   string
	mu    sync.Mutex
	times []time.Time
}

func newProvider(t *testing.T) *provider {
	p := &provider{model: fakellm.New(fakellm.Options{})}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			p.mu.Lock()
			p.times = append(p.times, time.Now())
			p.mu.Unlock()
		}
		p.model.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	p.url = ts.URL + "/v1"
	return p
}

func (p *provider) arrivals() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := append([]time.Time(nil), p.times...)
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

// limitedClient is one process's model client: its own pool, and the
// limit like (the bucket of) l.
func limitedClient(t *testing.T, p *provider, pool *pgxpool.Pool, l *ratelimit.ModelLimiter, maxWait time.Duration) llm.Client {
	t.Helper()
	c, err := llm.NewOpenAI(llm.Config{BaseURL: p.url, Model: fakellm.DefaultModel})
	require.NoError(t, err)
	own := &ratelimit.ModelLimiter{Pool: pool, Bucket: l.Bucket, RPM: l.RPM, TPM: l.TPM, Window: l.Window}
	return llm.WithLimit(c, own, llm.LimitOptions{MaxWait: maxWait})
}

func summaryRequest() llm.Request {
	return llm.Request{
		Task: "class_summary", MaxTokens: 200,
		Messages: []llm.Message{llm.UserText("Most of the class explained evaporation; few mentioned condensation.")},
		Schema: map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"summary"},
			"properties": map[string]any{"summary": map[string]any{"type": "string"}},
		},
	}
}

func TestTwoLimitedClientsNeverExceedTheSharedLimitAtTheProvider(t *testing.T) {
	t.Parallel()
	p := newProvider(t)
	const n, window = 4, 2 * time.Second
	shared := &ratelimit.ModelLimiter{Bucket: "test:" + uuid.NewString(), RPM: n, Window: window}
	clients := []llm.Client{
		limitedClient(t, p, testdb.Pool(t), shared, 10*time.Second),
		limitedClient(t, p, secondPool(t), shared, 10*time.Second),
	}

	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Go(func() {
			var out struct{ Summary string }
			_, err := clients[i%2].CompleteJSON(t.Context(), summaryRequest(), &out)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err, "every call waits for its turn and succeeds")
	}

	got := p.arrivals()
	require.Len(t, got, 12)
	// The provider sees each call a round trip after the database admitted
	// it, so its windows are checked a little shorter than the limiter's.
	const seen = window - 400*time.Millisecond
	for i := 0; i+n < len(got); i++ {
		require.GreaterOrEqual(t, got[i+n].Sub(got[i]), seen,
			"calls %d and %d reached the provider within one window", i, i+n)
	}
	require.GreaterOrEqual(t, got[len(got)-1].Sub(got[0]), 2*window-400*time.Millisecond, "12 calls at 4 per window span two more windows")
}

func TestLimitedClientWithTheDatabaseLimiter(t *testing.T) {
	t.Parallel()
	p := newProvider(t)

	t.Run("a wait beyond MaxWait is a rate limit with that wait", func(t *testing.T) {
		t.Parallel()
		l := &ratelimit.ModelLimiter{Bucket: "test:" + uuid.NewString(), RPM: 1, Window: 30 * time.Second}
		a := limitedClient(t, p, testdb.Pool(t), l, 5*time.Second)
		b := limitedClient(t, p, secondPool(t), l, 5*time.Second)
		var out struct{ Summary string }
		_, err := a.CompleteJSON(t.Context(), summaryRequest(), &out)
		require.NoError(t, err)

		start := time.Now()
		_, err = b.CompleteJSON(t.Context(), summaryRequest(), &out)
		require.Less(t, time.Since(start), 2*time.Second)
		wait, ok := llm.RetryAfter(err)
		require.True(t, ok, "%v", err)
		require.Greater(t, wait, 25*time.Second)
		require.LessOrEqual(t, wait, 30*time.Second)
	})

	t.Run("cancelling while waiting returns promptly", func(t *testing.T) {
		t.Parallel()
		l := &ratelimit.ModelLimiter{Bucket: "test:" + uuid.NewString(), RPM: 1, Window: 4 * time.Second}
		c := limitedClient(t, p, testdb.Pool(t), l, 5*time.Second)
		var out struct{ Summary string }
		_, err := c.CompleteJSON(t.Context(), summaryRequest(), &out)
		require.NoError(t, err)

		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		_, err = c.CompleteJSON(ctx, summaryRequest(), &out)
		require.ErrorIs(t, err, context.Canceled)
		require.Less(t, time.Since(start), time.Second, "does not sleep out the ~4 s wait")
	})

	t.Run("the real usage replaces the estimate", func(t *testing.T) {
		t.Parallel()
		pool := testdb.Pool(t)
		l := &ratelimit.ModelLimiter{Bucket: "test:" + uuid.NewString(), TPM: 100_000}
		c := limitedClient(t, p, pool, l, time.Second)
		var out struct{ Summary string }
		usage, err := c.CompleteJSON(t.Context(), summaryRequest(), &out)
		require.NoError(t, err)
		var tokens int
		require.NoError(t, pool.QueryRow(t.Context(), "SELECT tokens FROM model_calls WHERE bucket = $1", l.Bucket).Scan(&tokens))
		require.Equal(t, usage.PromptTokens+usage.CompletionTokens, tokens)
		require.Less(t, tokens, 200, "less than the estimate, which counted MaxTokens")
	})
}
