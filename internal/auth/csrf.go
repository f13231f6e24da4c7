package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// csrf implements NextAuth's double-submit tokens: the cookie holds
// "token|sha256(token+secret)" in hex, so only the server can mint a cookie,
// and a write must echo the cookie's token (in a header or a form field).
type csrf struct {
	secret string
}

func (c csrf) hash(token string) string {
	h := sha256.Sum256([]byte(token + c.secret))
	return hex.EncodeToString(h[:])
}

// tokenOf returns the token of a genuine cookie value.
func (c csrf) tokenOf(cookie string) (string, bool) {
	token, mac, ok := strings.Cut(cookie, "|")
	if !ok || len(token) != 64 || len(mac) != 64 {
		return "", false
	}
	if subtle.ConstantTimeCompare([]byte(mac), []byte(c.hash(token))) != 1 {
		return "", false
	}
	return token, true
}

// CSRFToken returns the CSRF token bound to cookie (the csrf cookie's value,
// possibly empty). When the cookie is missing or was not minted here, it
// returns a new token and the cookie value to set (otherwise newCookie is
// empty).
func (s *Service) CSRFToken(cookie string) (token, newCookie string) {
	if t, ok := s.csrf.tokenOf(cookie); ok {
		return t, ""
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = hex.EncodeToString(b)
	return token, token + "|" + s.csrf.hash(token)
}

// VerifyCSRF reports whether submitted is the token of cookie, and cookie was
// minted here. The comparison takes constant time.
func (s *Service) VerifyCSRF(cookie, submitted string) bool {
	token, ok := s.csrf.tokenOf(cookie)
	if !ok || submitted == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(token), []byte(submitted)) == 1
}
