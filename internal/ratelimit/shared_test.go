package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/testdb"
)

func TestSharedRuleLimit(t *testing.T) {
	t.Parallel()
	r := ratelimit.SharedRule{Base: ratelimit.Rule{Limit: 300, Window: time.Hour}, PerMember: 25, Max: 3000}
	require.Equal(t, int64(325), r.Limit(1))
	require.Equal(t, int64(1050), r.Limit(30))
	require.Equal(t, int64(3000), r.Limit(1000), "capped")
	r.Max = 0
	require.Equal(t, int64(25300), r.Limit(1000), "no cap")
	r.Max, r.PerMember = 100, 25
	require.Equal(t, int64(300), r.Limit(5), "a cap below the base keeps the base")
}

func TestSharedQuotaCountsEachMemberOnceEvenAtOnce(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 9, 0, 20, 0, time.UTC)
	l := &ratelimit.Limiter{Pool: testdb.Pool(t), Now: func() time.Time { return now }}
	rule := ratelimit.SharedRule{Base: ratelimit.Rule{Limit: 1, Window: time.Hour}, PerMember: 1}
	key := "test:shared:" + uuid.NewString()

	// Twenty members' first calls at the same moment: each raises the quota by one
	// before it is counted, so all twenty fit (1 + 20 ≥ 20).
	errs := make([]error, 20)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = l.AllowShared(context.Background(), rule, key, fmt.Sprint("m", i), "full") })
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	// Quota 21, count 20: one more call of a known member fits, then none.
	require.NoError(t, l.AllowShared(context.Background(), rule, key, "m0", "full"))
	err := l.AllowShared(context.Background(), rule, key, "m1", "full")
	require.Equal(t, apperr.RateLimited, apperr.From(err).Code, err)
	require.Equal(t, 59*time.Minute+40*time.Second, apperr.From(err).RetryAfter, "until the window ends")
	// Refused calls are not counted: a new member still gets in, with the room it brings.
	for range 5 {
		require.Error(t, l.AllowShared(context.Background(), rule, key, "m1", "full"))
	}
	require.NoError(t, l.AllowShared(context.Background(), rule, key, "newcomer", "full"))
}
