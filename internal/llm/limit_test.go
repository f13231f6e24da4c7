package llm_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// limiter is a hand-written llm.Limiter whose answers are set per test; it
// records what it was asked.
type limiter struct {
	ReserveFunc func(ctx context.Context, tokens int) (int64, time.Duration, error)

	mu       sync.Mutex
	reserved []int
	settled  map[int64]int
}

func (l *limiter) Reserve(ctx context.Context, tokens int) (int64, time.Duration, error) {
	l.mu.Lock()
	l.reserved = append(l.reserved, tokens)
	l.mu.Unlock()
	return l.ReserveFunc(ctx, tokens)
}

func (l *limiter) Settle(_ context.Context, id int64, tokens int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.settled == nil {
		l.settled = map[int64]int{}
	}
	l.settled[id] = tokens
	return nil
}

// waits answers the given waits in turn, then admits with id 7.
func waits(ws ...time.Duration) func(context.Context, int) (int64, time.Duration, error) {
	var mu sync.Mutex
	return func(context.Context, int) (int64, time.Duration, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(ws) == 0 {
			return 7, 0, nil
		}
		w := ws[0]
		ws = ws[1:]
		return 0, w, nil
	}
}

func TestLimitedReservesEstimateAndSettlesRealTokens(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	l := &limiter{ReserveFunc: waits()}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{})

	req := gradeRequest() // MaxTokens 2000
	var got grade
	usage, err := client.CompleteJSON(t.Context(), req, &got)
	require.NoError(t, err)
	want := (len([]rune(req.System))+len([]rune(essay))+3)/4 + 2000
	require.Equal(t, []int{want}, l.reserved, "prompt characters ÷ 4 + MaxTokens")
	require.Equal(t, map[int64]int{7: usage.PromptTokens + usage.CompletionTokens}, l.settled)
	require.Less(t, usage.PromptTokens+usage.CompletionTokens, want, "the real usage replaces the estimate")

	// Chat takes a turn too; it reports no usage, so the estimate stays.
	_, err = client.Chat(t.Context(), llm.ChatRequest{Messages: []llm.Message{llm.UserText("Hello there")}})
	require.NoError(t, err)
	require.Equal(t, []int{want, 3}, l.reserved)
	require.Len(t, l.settled, 1)
}

func TestEstimateTokensCountsImages(t *testing.T) {
	t.Parallel()
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "abcdefgh", ImageURLs: []string{"a", "b"}}}
	require.Equal(t, 3+2*llm.ImageTokens+100, llm.EstimateTokens("sys", msgs, 100))
	require.Equal(t, 0, llm.EstimateTokens("", nil, 0))
}

func TestLimitedSleepsThroughShortWaits(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	l := &limiter{ReserveFunc: waits(150*time.Millisecond, 150*time.Millisecond)}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{MaxWait: time.Second})

	start := time.Now()
	var got grade
	_, err := client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.NoError(t, err)
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	require.Len(t, l.reserved, 3, "asked again after each wait")
	require.Equal(t, int64(1), b.srv.Stats().Requests)
}

func TestLimitedLongWaitIsARateLimit(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	l := &limiter{ReserveFunc: waits(40 * time.Second)}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{MaxWait: 5 * time.Second})

	start := time.Now()
	var got grade
	_, err := client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.Less(t, time.Since(start), time.Second, "no sleeping for a wait beyond MaxWait")
	var rl *llm.RateLimitError
	require.ErrorAs(t, err, &rl)
	require.Equal(t, 40*time.Second, rl.RetryAfter)
	d, ok := llm.RetryAfter(err)
	require.True(t, ok, "River workers snooze on it")
	require.Equal(t, 40*time.Second, d)
	require.Zero(t, b.srv.Stats().Requests, "the model was not called")

	// Waits add up: two 3 s waits exceed a 5 s MaxWait at the second.
	l2 := &limiter{ReserveFunc: waits(3*time.Second, 3*time.Second)}
	client = llm.WithLimit(b.client, l2, llm.LimitOptions{MaxWait: 5 * time.Second})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err = client.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{llm.UserText("hi")}})
	require.ErrorAs(t, err, &rl)
	require.Equal(t, 3*time.Second, rl.RetryAfter)
	require.Len(t, l2.reserved, 2)
}

func TestLimitedReturnsPromptlyWhenCancelledWhileWaiting(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	l := &limiter{ReserveFunc: waits(4 * time.Second)}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{MaxWait: 5 * time.Second})

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	var got grade
	_, err := client.CompleteJSON(ctx, gradeRequest(), &got)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), time.Second)
	_, limited := llm.RetryAfter(err)
	require.False(t, limited)
	require.Zero(t, b.srv.Stats().Requests)
}

func TestLimitedPassesProviderErrorsThrough(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{RetryAfter: 7 * time.Second}, llm.Config{})
	l := &limiter{ReserveFunc: waits()}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{})

	b.srv.FailNext(fakellm.FaultRateLimit, 1)
	var got grade
	_, err := client.CompleteJSON(t.Context(), gradeRequest(), &got)
	var rl *llm.RateLimitError
	require.ErrorAs(t, err, &rl)
	require.Equal(t, 7*time.Second, rl.RetryAfter, "the provider's own Retry-After")
	require.Empty(t, l.settled, "no usage: the estimate stays counted")

	req := gradeRequest()
	req.Temperature = llm.Float(3)
	_, err = client.CompleteJSON(t.Context(), req, &got)
	require.True(t, llm.IsPermanent(err))

	l.ReserveFunc = func(context.Context, int) (int64, time.Duration, error) {
		return 0, 0, errors.New("database is down")
	}
	_, err = client.CompleteJSON(t.Context(), gradeRequest(), &got)
	require.ErrorContains(t, err, "shared model limit: database is down")
	require.False(t, llm.IsPermanent(err), "retried later")
}

func TestWithoutLimiterTheClientIsUnchanged(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	require.Same(t, b.client, llm.WithLimit(b.client, nil, llm.LimitOptions{}))
}
