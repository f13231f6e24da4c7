package ratelimit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/ratelimit"
)

func TestLocal_PerKeyBurstThenEvenRefill(t *testing.T) {
	t.Parallel()
	l := ratelimit.NewLocal(10, time.Minute, 120)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10 {
		require.True(t, l.Allow("10.0.0.1", now), "request %d", i)
	}
	require.False(t, l.Allow("10.0.0.1", now), "the 11th in a minute is refused")
	require.True(t, l.Allow("10.0.0.2", now), "another address has its own bucket")
	// 10 a minute refill one every 6 s.
	require.False(t, l.Allow("10.0.0.1", now.Add(5*time.Second)))
	require.True(t, l.Allow("10.0.0.1", now.Add(12*time.Second)))
}

func TestLocal_GlobalBucketBoundsEveryKey(t *testing.T) {
	t.Parallel()
	l := ratelimit.NewLocal(10, time.Minute, 120)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	allowed := 0
	for i := range 50 {
		for range 10 {
			if l.Allow(fmt.Sprintf("10.0.%d.1", i), now) {
				allowed++
			}
		}
	}
	require.Equal(t, 120, allowed, "500 requests from 50 addresses: only the total's 120 pass")
}

func TestLocal_ForgetsKeysPastItsCapWithoutRefusingNewOnes(t *testing.T) {
	t.Parallel()
	l := ratelimit.NewLocal(1, time.Minute, 1_000_000)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10_001 {
		require.True(t, l.Allow(fmt.Sprintf("k%d", i), now))
	}
	require.False(t, l.Allow("k10000", now), "a key still remembered stays limited")
}
