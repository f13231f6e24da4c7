package ratelimit_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

func TestParseRule(t *testing.T) {
	t.Parallel()
	r, err := ratelimit.ParseRule("30/1m")
	require.NoError(t, err)
	require.Equal(t, ratelimit.Rule{Limit: 30, Window: time.Minute}, r)
	r, err = ratelimit.ParseRule("off")
	require.NoError(t, err)
	require.Zero(t, r.Limit)
	for _, bad := range []string{"30", "x/1m", "0/1m", "5/soon", "5/10ms"} {
		_, err := ratelimit.ParseRule(bad)
		require.Error(t, err, bad)
	}
}

func TestLimitIsSharedAndSaysWhenToComeBack(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	now := time.Date(2026, 11, 23, 9, 0, 20, 0, time.UTC)
	clock := func() time.Time { return now }
	// Two limiters, as two processes would have, share one count.
	a := &ratelimit.Limiter{Pool: pool, Now: clock}
	b := &ratelimit.Limiter{Pool: pool, Now: clock}
	rule := ratelimit.Rule{Limit: 3, Window: time.Minute}
	key := "test:" + uuid.NewString()
	ctx := context.Background()

	require.NoError(t, a.Allow(ctx, rule, key, "Slow down"))
	require.NoError(t, b.Allow(ctx, rule, key, "Slow down"))
	require.NoError(t, a.Allow(ctx, rule, key, "Slow down"))
	err := b.Allow(ctx, rule, key, "Slow down")
	require.ErrorIs(t, err, ratelimit.ErrLimited)
	e := apperr.From(err)
	require.Equal(t, apperr.RateLimited, e.Code)
	require.Equal(t, "Slow down", e.Message)
	require.Equal(t, 40*time.Second, e.RetryAfter)

	// Another key has its own count; the next window starts afresh.
	require.NoError(t, a.Allow(ctx, rule, key+"-other", "Slow down"))
	now = now.Add(time.Minute)
	require.NoError(t, a.Allow(ctx, rule, key, "Slow down"))
}

func TestConcurrentHitsNeverPassTheLimit(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	l := &ratelimit.Limiter{Pool: pool}
	rule := ratelimit.Rule{Limit: 10, Window: time.Hour}
	key := "test:" + uuid.NewString()
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if l.Allow(context.Background(), rule, key, "no") == nil {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 10, allowed)
}

func TestOffRuleAndNilLimiterAllowEverything(t *testing.T) {
	t.Parallel()
	var l *ratelimit.Limiter
	require.NoError(t, l.Allow(context.Background(), ratelimit.Rule{Limit: 1, Window: time.Minute}, "k", "no"))
	l2 := &ratelimit.Limiter{Pool: testdb.Pool(t)}
	for range 5 {
		require.NoError(t, l2.Allow(context.Background(), ratelimit.Rule{}, "k", "no"))
	}
}
