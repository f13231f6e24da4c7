package release

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// tokenBytes is a release token's entropy (an HMAC-SHA256), as a view
// token's; its text is 43 characters of unpadded base64url.
const tokenBytes = 32

var tokenLen = base64.RawURLEncoding.EncodedLen(tokenBytes)

// Links makes release tokens and their links. A token is the HMAC of the
// release's random nonce under a key derived from the server's secret:
// the database keeps the nonce and the token's SHA-256 (to find the
// release), never the token, yet the teacher can copy the link again.
// Changing SECRET_KEY changes every link: released links stop opening
// (release them again after a revoke to get working ones).
type Links struct {
	key []byte
	// PublicURL is where students reach the app (no trailing slash).
	PublicURL string
}

// NewLinks derives the token key from secret (SECRET_KEY).
func NewLinks(secret, publicURL string) (Links, error) {
	key, err := hkdf.Key(sha256.New, []byte(secret), nil, "markwell release token v1", 32)
	if err != nil {
		return Links{}, fmt.Errorf("derive release token key: %w", err)
	}
	return Links{key: key, PublicURL: strings.TrimRight(publicURL, "/")}, nil
}

// Token is the token of a release's nonce.
func (l Links) Token(nonce []byte) string {
	m := hmac.New(sha256.New, l.key)
	m.Write(nonce)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// URL is the student's link of token: the SPA's /results/<token>.
func (l Links) URL(token string) string {
	return l.PublicURL + "/results/" + token
}

// newNonce is a fresh release nonce.
func newNonce() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return b
}

// WellFormed reports whether s could be a release token, so anything else
// is refused without a query.
func WellFormed(s string) bool {
	if len(s) != tokenLen {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == tokenBytes
}

// hashToken is what is stored to find a release by its token: its SHA-256.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
