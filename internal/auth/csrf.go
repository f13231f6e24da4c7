package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// csrf implements NextAuth's double-submit tokens, bound to the session. A
// token is 32 random bytes in hex; its cookie holds "token|mac", where mac
// is an HMAC-SHA256 under the server secret of the token and of what it
// belongs to: the session (by the SHA-256 of its token, as the sessions
// table keys it) or, for a client that is not signed in, no session. So only
// the server can mint a cookie, and a cookie minted for one session, or
// anonymously, is worthless with another session.
type csrf struct {
	secret []byte
}

// csrfDomain keeps these MACs apart from anything else signed with the secret.
const csrfDomain = "markwell/csrf/v2"

// binding names what a token belongs to: sess, or no session when nil.
func binding(sess *Session) string {
	if sess == nil {
		return "anonymous"
	}
	return "session:" + hex.EncodeToString(sess.key)
}

func (c csrf) mac(token string, sess *Session) string {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(csrfDomain + "\x00" + token + "\x00" + binding(sess)))
	return hex.EncodeToString(m.Sum(nil))
}

// tokenOf returns the token of a cookie minted here for sess.
func (c csrf) tokenOf(cookie string, sess *Session) (string, bool) {
	token, mac, ok := strings.Cut(cookie, "|")
	if !ok || len(token) != 64 || len(mac) != 64 {
		return "", false
	}
	if !hmac.Equal([]byte(mac), []byte(c.mac(token, sess))) {
		return "", false
	}
	return token, true
}

// NewCSRFToken mints a new CSRF token for sess (nil when the client is not
// signed in) and returns it with the cookie value that carries it. Call it
// whenever a session begins or ends, so no token outlives the session it
// was minted for.
func (s *Service) NewCSRFToken(sess *Session) (token, cookie string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	token = hex.EncodeToString(b)
	return token, token + "|" + s.csrf.mac(token, sess)
}

// CSRFToken returns the CSRF token of cookie (the csrf cookie's value,
// possibly empty) for sess, the request's live session (nil when it has
// none). When the cookie is missing, was not minted here, or was minted for
// another session (or for none), it returns a new token and the cookie value
// to set; otherwise newCookie is empty.
func (s *Service) CSRFToken(cookie string, sess *Session) (token, newCookie string) {
	if t, ok := s.csrf.tokenOf(cookie, sess); ok {
		return t, ""
	}
	return s.NewCSRFToken(sess)
}

// VerifyCSRF reports whether submitted is the token of cookie and cookie was
// minted here for sess, the request's live session (nil when it has none).
// The comparisons take constant time.
func (s *Service) VerifyCSRF(cookie, submitted string, sess *Session) bool {
	token, ok := s.csrf.tokenOf(cookie, sess)
	if !ok || submitted == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(token), []byte(submitted)) == 1
}
