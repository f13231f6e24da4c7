package ratelimit_test

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/testdb"
)

var _ llm.Limiter = (*ratelimit.ModelLimiter)(nil)

// secondPool is another process's connection pool to the same database.
func secondPool(t *testing.T) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(context.Background(), testdb.URL())
	require.NoError(t, err)
	t.Cleanup(p.Close)
	return p
}

// admission is a call the limiter let through: when (on the database's
// clock, as stamped under the lock), when the caller asked for the turn it
// got and when it had it, and its tokens.
type admission struct {
	at, asked, seen time.Time
	tokens          int
}

// reserveUntilAdmitted is a caller that sleeps as told until it gets a turn.
func reserveUntilAdmitted(ctx context.Context, t *testing.T, l *ratelimit.ModelLimiter, tokens int) admission {
	for {
		asked := time.Now()
		id, wait, err := l.Reserve(ctx, tokens)
		seen := time.Now()
		if err != nil {
			t.Error(err)
			return admission{}
		}
		if wait == 0 {
			var at time.Time
			if err := l.Pool.QueryRow(ctx, "SELECT at FROM model_calls WHERE id = $1", id).Scan(&at); err != nil {
				t.Error(err)
			}
			return admission{at: at, asked: asked, seen: seen, tokens: tokens}
		}
		if wait > l.Window {
			t.Errorf("wait %s is longer than the window %s", wait, l.Window)
		}
		select {
		case <-ctx.Done():
			t.Error("caller never got a turn:", ctx.Err())
			return admission{}
		case <-time.After(wait):
		}
	}
}

// crowd runs n callers spread over two limiters (two processes) sharing one
// bucket and returns their admissions in time order.
func crowd(t *testing.T, a, b *ratelimit.ModelLimiter, n, tokens int) []admission {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var got []admission
	var wg sync.WaitGroup
	for i := range n {
		l := a
		if i%2 == 1 {
			l = b
		}
		wg.Go(func() {
			adm := reserveUntilAdmitted(ctx, t, l, tokens)
			mu.Lock()
			got = append(got, adm)
			mu.Unlock()
		})
	}
	wg.Wait()
	require.Len(t, got, n, "every caller gets through")
	sort.Slice(got, func(i, j int) bool { return got[i].at.Before(got[j].at) })
	return got
}

// busiest is the most calls and tokens of any sliding window of length w
// (starting at an admission, which is where a busiest window starts) of
// admissions in time order.
func busiest(adms []admission, w time.Duration) (calls, tokens int) {
	for i := range adms {
		c, s := 0, 0
		for j := i; j < len(adms) && adms[j].at.Sub(adms[i].at) < w; j++ {
			c++
			s += adms[j].tokens
		}
		calls, tokens = max(calls, c), max(tokens, s)
	}
	return calls, tokens
}

// requireCallersAgree checks the limit on the callers' own clock, which
// does not trust the database's stamps: admission i+n came at least w after
// admission i, so the caller of i+n had its turn at least w after the
// caller of i asked for its own. (The database runs on this machine: one
// clock.)
func requireCallersAgree(t *testing.T, adms []admission, n int, w time.Duration) {
	t.Helper()
	for i := 0; i+n < len(adms); i++ {
		gap := adms[i+n].seen.Sub(adms[i].asked)
		require.GreaterOrEqual(t, gap, w, "admissions %d and %d", i, i+n)
	}
}

func TestModelLimiterRequestsSharedByTwoProcesses(t *testing.T) {
	t.Parallel()
	bucket := "test:" + uuid.NewString()
	const window = 2 * time.Second
	a := &ratelimit.ModelLimiter{Pool: testdb.Pool(t), Bucket: bucket, RPM: 5, Window: window}
	b := &ratelimit.ModelLimiter{Pool: secondPool(t), Bucket: bucket, RPM: 5, Window: window}

	adms := crowd(t, a, b, 20, 10)

	calls, _ := busiest(adms, window)
	require.Equal(t, 5, calls, "never more than 5 calls in any 2 s window")
	requireCallersAgree(t, adms, 5, window)
	// 20 calls at 5 per window need three more windows after the first,
	// and the limiter wastes little of them.
	span := adms[len(adms)-1].at.Sub(adms[0].at)
	require.GreaterOrEqual(t, span, 3*window)
	require.Less(t, span, 3*window+2*time.Second, "callers are admitted soon after places free up")
}

func TestModelLimiterTokensSharedByTwoProcesses(t *testing.T) {
	t.Parallel()
	bucket := "test:" + uuid.NewString()
	const window = 2 * time.Second
	a := &ratelimit.ModelLimiter{Pool: testdb.Pool(t), Bucket: bucket, TPM: 100, Window: window}
	b := &ratelimit.ModelLimiter{Pool: secondPool(t), Bucket: bucket, TPM: 100, Window: window}

	adms := crowd(t, a, b, 12, 30) // three calls of 30 tokens fit in 100

	calls, tokens := busiest(adms, window)
	require.Equal(t, 90, tokens, "never more than 100 tokens in any 2 s window")
	require.Equal(t, 3, calls)
	requireCallersAgree(t, adms, 3, window)
	require.GreaterOrEqual(t, adms[len(adms)-1].at.Sub(adms[0].at), 3*window)
}

func TestModelLimiterWaitsForTheOldestCall(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	bucket := "test:" + uuid.NewString()
	l := &ratelimit.ModelLimiter{Pool: pool, Bucket: bucket, RPM: 2, Window: 3 * time.Second}
	ctx := t.Context()

	first, wait, err := l.Reserve(ctx, 10)
	require.NoError(t, err)
	require.Zero(t, wait)
	require.NotZero(t, first)
	time.Sleep(500 * time.Millisecond)
	_, wait, err = l.Reserve(ctx, 10)
	require.NoError(t, err)
	require.Zero(t, wait)

	id, wait, err := l.Reserve(ctx, 10)
	require.NoError(t, err)
	require.Zero(t, id, "a call that must wait is not recorded")
	require.Greater(t, wait, 2*time.Second, "until the first call leaves the window, not the second")
	require.LessOrEqual(t, wait, 2500*time.Millisecond)
	require.Equal(t, 2, countCalls(t, pool, bucket))

	time.Sleep(wait)
	id, wait, err = l.Reserve(ctx, 10)
	require.NoError(t, err)
	require.Zero(t, wait, "the told wait is enough")
	require.NotZero(t, id)
}

func TestModelLimiterSettleFreesTokens(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	l := &ratelimit.ModelLimiter{Pool: pool, Bucket: "test:" + uuid.NewString(), TPM: 100, Window: time.Minute}
	ctx := t.Context()

	id, wait, err := l.Reserve(ctx, 60)
	require.NoError(t, err)
	require.Zero(t, wait)
	_, wait, err = l.Reserve(ctx, 60)
	require.NoError(t, err)
	require.Greater(t, wait, 59*time.Second, "60 + 60 estimated tokens do not fit in 100")

	require.NoError(t, l.Settle(ctx, id, 25)) // the model used fewer
	_, wait, err = l.Reserve(ctx, 60)
	require.NoError(t, err)
	require.Zero(t, wait, "25 real + 60 estimated tokens fit")

	// A call bigger than the whole budget goes alone once the window is
	// empty rather than waiting for ever.
	big := &ratelimit.ModelLimiter{Pool: pool, Bucket: "test:" + uuid.NewString(), TPM: 100, Window: time.Minute}
	_, wait, err = big.Reserve(ctx, 500)
	require.NoError(t, err)
	require.Zero(t, wait)
	_, wait, err = big.Reserve(ctx, 1)
	require.NoError(t, err)
	require.Positive(t, wait)
}

func TestModelLimiterPurgesCallsThatLeftTheWindow(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	bucket := "test:" + uuid.NewString()
	l := &ratelimit.ModelLimiter{Pool: pool, Bucket: bucket, RPM: 100, Window: 300 * time.Millisecond}
	for range 5 {
		_, _, err := l.Reserve(t.Context(), 1)
		require.NoError(t, err)
	}
	require.Equal(t, 5, countCalls(t, pool, bucket))
	time.Sleep(400 * time.Millisecond)
	_, _, err := l.Reserve(t.Context(), 1)
	require.NoError(t, err)
	require.Equal(t, 1, countCalls(t, pool, bucket), "the next reservation deleted the old calls")
}

func TestModelLimiterZeroMeansUnlimited(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	bucket := "test:" + uuid.NewString()
	off := &ratelimit.ModelLimiter{Pool: pool, Bucket: bucket}
	require.True(t, off.Unlimited())
	for range 50 {
		id, wait, err := off.Reserve(t.Context(), 1_000_000)
		require.NoError(t, err)
		require.Zero(t, wait)
		require.NoError(t, off.Settle(t.Context(), id, 5))
	}
	require.Zero(t, countCalls(t, pool, bucket), "an unlimited limiter does not touch the database")

	// Only tokens limited: calls are not.
	tokensOnly := &ratelimit.ModelLimiter{Pool: pool, Bucket: bucket, TPM: 1000}
	for range 30 {
		_, wait, err := tokensOnly.Reserve(t.Context(), 10)
		require.NoError(t, err)
		require.Zero(t, wait)
	}
	// Only calls limited: tokens are not.
	callsOnly := &ratelimit.ModelLimiter{Pool: pool, Bucket: "test:" + uuid.NewString(), RPM: 2}
	for range 2 {
		_, wait, err := callsOnly.Reserve(t.Context(), 1_000_000)
		require.NoError(t, err)
		require.Zero(t, wait)
	}
	_, wait, err := callsOnly.Reserve(t.Context(), 1)
	require.NoError(t, err)
	require.Positive(t, wait)
}

func TestModelLimiterFailsWithTheDatabase(t *testing.T) {
	t.Parallel()
	l := &ratelimit.ModelLimiter{Pool: testdb.Pool(t), Bucket: "test:" + uuid.NewString(), RPM: 1}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, _, err := l.Reserve(ctx, 1)
	require.ErrorIs(t, err, context.Canceled)
}

func countCalls(t *testing.T, pool *pgxpool.Pool, bucket string) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(t.Context(), "SELECT count(*) FROM model_calls WHERE bucket = $1", bucket).Scan(&n))
	return n
}

// BenchmarkModelLimiterReserve measures one admitted reservation in steady
// state: lock, purge of the calls that left the window, count, insert.
func BenchmarkModelLimiterReserve(b *testing.B) {
	pool := testdb.Pool(b)
	l := &ratelimit.ModelLimiter{Pool: pool, Bucket: "bench:" + uuid.NewString(), RPM: 1_000_000, TPM: 1_000_000_000, Window: 100 * time.Millisecond}
	ctx := context.Background()
	for b.Loop() {
		if _, wait, err := l.Reserve(ctx, 100); err != nil || wait != 0 {
			b.Fatal(err, wait)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM model_calls WHERE bucket = $1", l.Bucket).Scan(&n); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n), "rows-left")
}
