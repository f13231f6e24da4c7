package httpapi

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
)

const (
	logMaxFields = 30
	logMaxValue  = 2000
)

// clientLog is POST {base}/_log: NextAuth's client reports its errors here
// (form-encoded level, code and metadata). Each IP may send a few a minute;
// bodies are capped; entries are logged at warn.
func (h *authHandlers) clientLog(c *gin.Context) {
	if !h.logs.allow(c.ClientIP(), time.Now()) {
		fail(c, apperr.New(apperr.RateLimited, "Too many client logs; try again later."))
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, logBodyLimit)
	fields := map[string]string{}
	mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	var err error
	if mt == "application/json" {
		var raw map[string]json.RawMessage
		if err = json.NewDecoder(c.Request.Body).Decode(&raw); err == nil {
			for k, v := range raw {
				var s string
				if json.Unmarshal(v, &s) != nil {
					s = string(v)
				}
				fields[k] = s
			}
		}
	} else if err = c.Request.ParseForm(); err == nil {
		for k, v := range c.Request.PostForm {
			if len(v) > 0 {
				fields[k] = v[0]
			}
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(c, apperr.New(apperr.TooLarge, "Client log is too large"))
			return
		}
		fail(c, apperr.Wrap(apperr.Invalid, "Client log must be a form or a JSON object", err))
		return
	}
	level, code := clip(fields["level"]), clip(fields["code"])
	delete(fields, "level")
	delete(fields, "code")
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > logMaxFields {
		keys = keys[:logMaxFields]
	}
	meta := make(map[string]string, len(keys))
	for _, k := range keys {
		meta[clip(k)] = clip(fields[k])
	}
	logger(c).Warn("client log", "client_level", level, "code", code, "metadata", meta, "ip", c.ClientIP())
	c.JSON(http.StatusOK, gin.H{})
}

func clip(s string) string {
	if len(s) > logMaxValue {
		return s[:logMaxValue] + "…"
	}
	return s
}

// logLimiter is a token bucket per IP (perIP entries per window, refilled
// evenly) under a global bucket that bounds the total, whatever the IPs.
type logLimiter struct {
	mu      sync.Mutex
	rate    float64 // tokens per second, per IP
	burst   float64
	global  bucket
	gRate   float64
	gBurst  float64
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLogLimiter(perIP int, window time.Duration, total int) *logLimiter {
	return &logLimiter{
		rate: float64(perIP) / window.Seconds(), burst: float64(perIP),
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

// allow reports whether ip may log now, spending a token when it may.
func (l *logLimiter) allow(ip string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) >= 10000 {
		// Forget buckets that have refilled; they hold nothing worth keeping.
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
		if len(l.buckets) >= 10000 {
			clear(l.buckets)
		}
	}
	b := l.buckets[ip]
	if b == nil {
		b = &bucket{tokens: l.burst}
		l.buckets[ip] = b
	}
	if !b.take(now, l.rate, l.burst) {
		return false
	}
	return l.global.take(now, l.gRate, l.gBurst)
}
