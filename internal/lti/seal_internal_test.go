package lti

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSigningKeysStoredBeforeTheSharedSealerStillOpen: lti_keys rows
// sealed the first way (nonce ‖ ciphertext, no version byte) open, and new
// ones open too.
func TestSigningKeysStoredBeforeTheSharedSealerStillOpen(t *testing.T) {
	s := &Service{Secret: "server secret"}
	key, err := hkdf.Key(sha256.New, []byte(s.Secret), nil, "markwell lti signing key", 32)
	require.NoError(t, err)
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	aead, err := cipher.NewGCM(block)
	require.NoError(t, err)
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	old := aead.Seal(nonce, nonce, []byte("old key"), []byte("kid-old"))

	plain, err := s.open(old, "kid-old")
	require.NoError(t, err)
	require.Equal(t, "old key", string(plain))

	sealed, err := s.seal([]byte("new key"), "kid-new")
	require.NoError(t, err)
	plain, err = s.open(sealed, "kid-new")
	require.NoError(t, err)
	require.Equal(t, "new key", string(plain))

	_, err = s.open(sealed, "kid-old")
	require.ErrorIs(t, err, errUnseal)
	_, err = (&Service{Secret: "another secret"}).open(old, "kid-old")
	require.ErrorIs(t, err, errUnseal)
}
