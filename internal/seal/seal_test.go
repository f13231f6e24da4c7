package seal_test

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/seal"
)

func TestASealedValueOpensOnlyForItsPurposeAndData(t *testing.T) {
	tokens, err := seal.New("server secret", "markwell google_tokens v1")
	require.NoError(t, err)
	sealed := tokens.Seal([]byte("refresh-token"), []byte("user-1"))
	require.Equal(t, byte(1), sealed[0], "the format's version comes first")

	plain, err := tokens.Open(sealed, []byte("user-1"))
	require.NoError(t, err)
	require.Equal(t, "refresh-token", string(plain))

	_, err = tokens.Open(sealed, []byte("user-2"))
	require.ErrorIs(t, err, seal.ErrUnseal, "another user's data")
	flows, err := seal.New("server secret", "markwell classroom consent flow v1")
	require.NoError(t, err)
	_, err = flows.Open(sealed, []byte("user-1"))
	require.ErrorIs(t, err, seal.ErrUnseal, "another purpose")
	other, err := seal.New("another secret", "markwell google_tokens v1")
	require.NoError(t, err)
	_, err = other.Open(sealed, []byte("user-1"))
	require.ErrorIs(t, err, seal.ErrUnseal, "another SECRET_KEY")
	sealed[len(sealed)-1] ^= 1
	_, err = tokens.Open(sealed, []byte("user-1"))
	require.ErrorIs(t, err, seal.ErrUnseal, "tampered")
	_, err = tokens.Open(sealed[:5], []byte("user-1"))
	require.ErrorIs(t, err, seal.ErrUnseal, "cut")
}

// TestAValueSealedWithoutTheVersionStillOpens: the LTI signing keys were
// stored as nonce ‖ ciphertext (no version byte) before internal/lti used
// this package; those rows must keep opening.
func TestAValueSealedWithoutTheVersionStillOpens(t *testing.T) {
	key, err := hkdf.Key(sha256.New, []byte("server secret"), nil, "markwell lti signing key", 32)
	require.NoError(t, err)
	block, err := aes.NewCipher(key)
	require.NoError(t, err)
	aead, err := cipher.NewGCM(block)
	require.NoError(t, err)
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	legacy := aead.Seal(nonce, nonce, []byte("pkcs8 der"), []byte("kid-1"))

	s, err := seal.New("server secret", "markwell lti signing key")
	require.NoError(t, err)
	plain, err := s.OpenUnversioned(legacy, []byte("kid-1"))
	require.NoError(t, err)
	require.Equal(t, "pkcs8 der", string(plain))
	_, err = s.OpenUnversioned(legacy, []byte("kid-2"))
	require.ErrorIs(t, err, seal.ErrUnseal)
	_, err = s.Open(legacy, []byte("kid-1"))
	require.ErrorIs(t, err, seal.ErrUnseal, "the versioned format does not take it")
}
