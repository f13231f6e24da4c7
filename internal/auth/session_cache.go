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
//
// A lookup reads the database and then remembers what it read; a sign-out
// or a team change writes the database and then forgets. A lookup that
// read before the write but remembers after the forget would put the old
// session back for ttl. So every forget starts a new generation, a lookup
// notes the generation before it reads (begin), and put drops what a
// lookup from an earlier generation read: whatever it saw may be what the
// forget was for.
type sessionCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[string]cachedSession
	gen uint64
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

// begin returns the generation a lookup about to read the database passes
// to put.
func (c *sessionCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put remembers sess, looked up at now under key by a lookup that began in
// generation gen; nothing if anything was forgotten since.
func (c *sessionCache) put(key string, sess Session, now time.Time, gen uint64) {
	if c.ttl <= 0 {
		return
	}
	sess.Extended = false // the cookie was sent again with the lookup that extended it
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return // a forget came while this lookup was reading
	}
	if len(c.m) >= maxCachedSessions {
		clear(c.m)
	}
	c.m[key] = cachedSession{sess: sess, at: now}
}

// forget drops the session of key, and what lookups under way read. Call
// it after the database write it is for.
func (c *sessionCache) forget(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, key)
}

// forgetAll drops every remembered session, and what lookups under way
// read. Call it after the database write it is for.
func (c *sessionCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
}
