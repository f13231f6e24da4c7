package ratelimit

import (
	"sync"
	"time"
)

// Local is a token bucket per key (perKey tokens per window, refilled
// evenly) under one global bucket that bounds the total, whatever the keys.
// It lives in this process only, unlike [Limiter]: for requests that are
// not worth a database write each, such as NextAuth's client logs, where a
// count per process is enough.
type Local struct {
	mu      sync.Mutex
	rate    float64 // tokens per second, per key
	burst   float64
	global  bucket
	gRate   float64
	gBurst  float64
	buckets map[string]*bucket
}

// localMaxKeys bounds the keys Local remembers: past it, buckets that have
// refilled are forgotten, and if that is not enough, all of them.
const localMaxKeys = 10000

type bucket struct {
	tokens float64
	last   time.Time
}

// NewLocal returns a Local allowing perKey requests per key and total
// requests in all per window.
func NewLocal(perKey int, window time.Duration, total int) *Local {
	return &Local{
		rate: float64(perKey) / window.Seconds(), burst: float64(perKey),
		gRate: float64(total) / window.Seconds(), gBurst: float64(total),
		global:  bucket{tokens: float64(total)},
		buckets: map[string]*bucket{},
	}
}

func (b *bucket) take(now time.Time, rate, burst float64) bool {
	if !b.last.IsZero() {
		b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Allow reports whether key may make a request at now, spending a token
// when it may.
func (l *Local) Allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) >= localMaxKeys {
		// Forget buckets that have refilled; they hold nothing worth keeping.
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
		if len(l.buckets) >= localMaxKeys {
			clear(l.buckets)
		}
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst}
		l.buckets[key] = b
	}
	if !b.take(now, l.rate, l.burst) {
		return false
	}
	return l.global.take(now, l.gRate, l.gBurst)
}
