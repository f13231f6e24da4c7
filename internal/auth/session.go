package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/store"
)

// ErrNoSession is returned for a token with no live session: unknown,
// malformed, signed out or expired.
var ErrNoSession = errors.New("auth: no session")

// Session is a live sign-in.
type Session struct {
	// User is the signed-in user.
	User User
	// Expires is when the session ends unless it is used (and extended) first.
	Expires time.Time
	// Data is what the client stored with POST session; {} by default.
	Data json.RawMessage
	// Extended reports that this lookup slid Expires forward, so the session
	// cookie should be sent again with a fresh lifetime.
	Extended bool
	// key is the SHA-256 of the session's token, as its row stores it; CSRF
	// tokens are bound to it.
	key []byte
}

// tokenBytes is the session token's entropy.
const tokenBytes = 32

// newToken returns a random URL-safe token of tokenBytes bytes.
func newToken() string {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is what rows store instead of a token.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// wellFormed reports whether token could be one of ours, so garbage never
// reaches the database.
func wellFormed(token string) bool {
	b, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil && len(b) == tokenBytes
}

// CreateSession starts a session for u and returns its token, which only the
// cookie holds; the row keeps its SHA-256.
func (s *Service) CreateSession(ctx context.Context, u User) (string, Session, error) {
	token := newToken()
	expires := s.now().Add(s.maxAge)
	if err := store.Q.CreateSession(ctx, s.pool, store.CreateSessionParams{
		TokenHash: hashToken(token), UserID: u.ID, ExpiresAt: expires,
	}); err != nil {
		return "", Session{}, fmt.Errorf("create session for %s: %w", u.ID, err)
	}
	return token, Session{User: u, Expires: expires, Data: json.RawMessage("{}"), key: hashToken(token)}, nil
}

// Session returns the live session of token with its user. A session used
// UpdateAge or more after its last extension is extended to now+MaxAge.
func (s *Service) Session(ctx context.Context, token string) (Session, error) {
	if !wellFormed(token) {
		return Session{}, ErrNoSession
	}
	now := s.now()
	key := hashToken(token)
	if sess, ok := s.sessions.get(string(key), now); ok && now.Sub(sess.Expires.Add(-s.maxAge)) < s.updateAge {
		return sess, nil // remembered, and not due to be extended
	}
	gen, mark := s.sessions.begin()
	row, err := store.Q.GetSessionUser(ctx, s.pool, store.GetSessionUserParams{TokenHash: key, Now: now})
	if errors.Is(err, pgx.ErrNoRows) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("look up session: %w", err)
	}
	sess := Session{User: userFrom(row.User), Expires: row.ExpiresAt, Data: row.Data, key: hashToken(token)}
	lastExtended := row.ExpiresAt.Add(-s.maxAge)
	if now.Sub(lastExtended) >= s.updateAge {
		expires := now.Add(s.maxAge)
		if err := store.Q.ExtendSession(ctx, s.pool, store.ExtendSessionParams{TokenHash: hashToken(token), ExpiresAt: expires}); err != nil {
			return Session{}, fmt.Errorf("extend session: %w", err)
		}
		sess.Expires, sess.Extended = expires, true
	}
	if s.afterLookup != nil {
		s.afterLookup()
	}
	s.sessions.put(string(key), sess, now, gen, mark)
	return sess, nil
}

// HearChanges keeps looked-up sessions while a hears nothing about their
// users (SessionKeepMax); call it before the Service serves.
func (s *Service) HearChanges(a Announcements) { s.sessions.hear = a }

// ForgetSessions makes the next lookup of every session read the database,
// and keeps lookups under way from remembering what they read: a caller
// that changed users' teams calls it once the change is committed
// (SessionCacheTTL).
func (s *Service) ForgetSessions() { s.sessions.forgetAll() }

// UpdateSessionData stores data (any JSON value) with the session of token
// and returns the session.
func (s *Service) UpdateSessionData(ctx context.Context, token string, data json.RawMessage) (Session, error) {
	if !wellFormed(token) {
		return Session{}, ErrNoSession
	}
	if len(data) == 0 || !json.Valid(data) {
		return Session{}, errors.New("auth: session data must be JSON")
	}
	_, err := store.Q.UpdateSessionData(ctx, s.pool, store.UpdateSessionDataParams{TokenHash: hashToken(token), Data: data, Now: s.now()})
	s.sessions.forget(string(hashToken(token))) // after the write: see sessionCache
	if errors.Is(err, pgx.ErrNoRows) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("update session data: %w", err)
	}
	return s.Session(ctx, token)
}

// DeleteSession ends the session of token (signing out). Unknown tokens are
// not an error.
func (s *Service) DeleteSession(ctx context.Context, token string) error {
	if !wellFormed(token) {
		return nil
	}
	err := store.Q.DeleteSession(ctx, s.pool, hashToken(token))
	s.sessions.forget(string(hashToken(token))) // after the write: see sessionCache
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}
