package classroom

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// sealVersion prefixes every sealed value, so the format can change.
const sealVersion byte = 1

// errUnseal is any sealed value that does not open: tampered, cut, sealed
// under another key or for another purpose (its additional data differs).
var errUnseal = errors.New("sealed value does not open")

// sealer encrypts small values with AES-256-GCM under a key derived from the
// server's secret for one purpose (HKDF-SHA256, info names the purpose), so
// a value sealed for one use never opens for another.
type sealer struct {
	aead cipher.AEAD
}

func newSealer(secret, info string) (*sealer, error) {
	key, err := hkdf.Key(sha256.New, []byte(secret), nil, info, 32)
	if err != nil {
		return nil, fmt.Errorf("derive %q key: %w", info, err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("aes: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("gcm: %w", err)
	}
	return &sealer{aead: aead}, nil
}

// seal returns version ‖ nonce ‖ ciphertext of plain, bound to aad (which
// must be given again to open it).
func (s *sealer) seal(plain, aad []byte) []byte {
	out := make([]byte, 1+s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	out[0] = sealVersion
	_, _ = rand.Read(out[1:]) // crypto/rand.Read never fails
	return s.aead.Seal(out, out[1:], plain, aad)
}

// open reverses seal.
func (s *sealer) open(sealed, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != sealVersion {
		return nil, errUnseal
	}
	plain, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], aad)
	if err != nil {
		return nil, errUnseal
	}
	return plain, nil
}
