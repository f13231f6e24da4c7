// Package seal encrypts the small secrets Markwell stores or hands to a
// browser (Google tokens, the Classroom consent flow, the LTI signing keys)
// with AES-256-GCM under a key derived from SECRET_KEY for one purpose.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// version prefixes every sealed value, so the format can change.
const version byte = 1

// ErrUnseal is any sealed value that does not open: tampered, cut, sealed
// under another key or for another purpose (its additional data differs).
var ErrUnseal = errors.New("sealed value does not open")

// Sealer seals values for one purpose: its key is derived from the
// server's secret with HKDF-SHA256 and info naming the purpose, so a value
// sealed for one use never opens for another.
type Sealer struct {
	aead cipher.AEAD
}

// New returns the sealer of purpose info under secret.
func New(secret, info string) (*Sealer, error) {
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
	return &Sealer{aead: aead}, nil
}

// Seal returns version ‖ nonce ‖ ciphertext of plain, bound to aad (which
// must be given again to open it).
func (s *Sealer) Seal(plain, aad []byte) []byte {
	out := make([]byte, 1+s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	out[0] = version
	_, _ = rand.Read(out[1:]) // crypto/rand.Read never fails
	return s.aead.Seal(out, out[1:], plain, aad)
}

// Open reverses Seal.
func (s *Sealer) Open(sealed, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != version {
		return nil, ErrUnseal
	}
	return s.open(sealed[1:1+n], sealed[1+n:], aad)
}

// OpenUnversioned opens nonce ‖ ciphertext, the format without the version
// byte in which the first LTI signing keys were stored (lti_keys rows made
// before the sealers were one); new values are always sealed by Seal.
func (s *Sealer) OpenUnversioned(sealed, aad []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return nil, ErrUnseal
	}
	return s.open(sealed[:n], sealed[n:], aad)
}

func (s *Sealer) open(nonce, ciphertext, aad []byte) ([]byte, error) {
	plain, err := s.aead.Open(nil, nonce, ciphertext, aad)
	if err != nil {
		return nil, ErrUnseal
	}
	return plain, nil
}
