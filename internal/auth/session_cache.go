package auth

import (
	"sync"
	"time"
)

// SessionCacheTTL is how long an API process remembers a session it looked
// up. Every authenticated request looks its session up (a query joining
// the session and its user): with it remembered for a moment, a page's
// burst of requests and a status poll cost one lookup (cmd/bench: an idle
// authenticated read went from 3,100 to 3,900 requests/s; 5 s is longer
// than the status poll's 2 s). Signing out,
// changing the session's data and team changes made through this process
// take effect at once; through another API process, within this long.
const SessionCacheTTL = 5 * time.Second

// maxCachedSessions bounds the memory: past it the cache starts again empty.
const maxCachedSessions = 100_000

// sessionCache remembers looked-up sessions by their token's hash for
// ttl. Safe for concurrent use.
type sessionCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[string]cachedSession
}

type cachedSession struct {
	sess Session
	at   time.Time
}

func newSessionCache(ttl time.Duration) *sessionCache {
	return &sessionCache{ttl: ttl, m: map[string]cachedSession{}}
}

// get returns the session remembered for key, if it was looked up less
// than ttl ago and has not expired since.
func (c *sessionCache) get(key string, now time.Time) (Session, bool) {
	if c.ttl <= 0 {
		return Session{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || now.Sub(e.at) >= c.ttl || !now.Before(e.sess.Expires) {
		return Session{}, false
	}
	return e.sess, true
}

// put remembers sess, looked up at now, under key.
func (c *sessionCache) put(key string, sess Session, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	sess.Extended = false // the cookie was sent again with the lookup that extended it
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedSessions {
		clear(c.m)
	}
	c.m[key] = cachedSession{sess: sess, at: now}
}

// forget drops the session of key.
func (c *sessionCache) forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
}

// forgetAll drops every remembered session.
func (c *sessionCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}
