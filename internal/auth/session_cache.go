package auth

import (
	"sync"
	"time"

	"github.com/google/uuid"
)

// SessionCacheTTL is how long an API process remembers a session it looked
// up. Every authenticated request looks its session up (a query joining
// the session and its user): with it remembered for a moment, a page's
// burst of requests and a status poll cost one lookup (cmd/bench: an idle
// authenticated read went from 3,100 to 3,900 requests/s; 5 s is longer
// than the status poll's 2 s). Signing out,
// changing the session's data and team changes made through this process
// take effect at once; through another API process, within this long.
//
// While the API process hears the database's announcements of users'
// changes (Announcements, migration 00026), a session is kept longer, up
// to SessionKeepMax, and forgotten as soon as a change to its user or
// their sessions is announced: a sign-out or team change through another
// process then takes effect within a notification's latency.
const SessionCacheTTL = 5 * time.Second

// SessionKeepMax is how long a session is kept while nothing about its
// user is announced.
const SessionKeepMax = 10 * time.Minute

// Announcements is what an API process hears of changes to users and
// their sessions (changes.Clock).
type Announcements interface {
	// UserMark is where a lookup begins (0 when nothing can be said).
	UserMark() uint64
	// UserSince says whether anything about the user was announced since
	// mark (changed), and whether that can be told (heard).
	UserSince(userID uuid.UUID, mark uint64) (changed, heard bool)
}

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
	ttl  time.Duration
	hear Announcements // nil: sessions are kept for ttl
	mu   sync.Mutex
	m    map[string]cachedSession
	gen  uint64
}

type cachedSession struct {
	sess Session
	at   time.Time
	mark uint64 // hear's mark when the lookup began (0 for none)
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
	if !ok || !now.Before(e.sess.Expires) {
		return Session{}, false
	}
	if c.hear != nil && e.mark != 0 {
		if changed, heard := c.hear.UserSince(e.sess.User.ID, e.mark); heard {
			if changed || now.Sub(e.at) >= SessionKeepMax {
				return Session{}, false
			}
			return e.sess, true
		}
	}
	if now.Sub(e.at) >= c.ttl {
		return Session{}, false
	}
	return e.sess, true
}

// begin returns the generation and the announcements' mark a lookup
// about to read the database passes to put.
func (c *sessionCache) begin() (gen, mark uint64) {
	if c.hear != nil {
		mark = c.hear.UserMark()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen, mark
}

// put remembers sess, looked up at now under key by a lookup that began in
// generation gen; nothing if anything was forgotten since.
func (c *sessionCache) put(key string, sess Session, now time.Time, gen, mark uint64) {
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
	c.m[key] = cachedSession{sess: sess, at: now, mark: mark}
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
