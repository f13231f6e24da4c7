package lti

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/store"
)

// signingKey is Markwell's current key.
type signingKey struct {
	kid string
	key *rsa.PrivateKey
}

// currentKey returns the newest unretired key, generating the first one
// (once, under an advisory lock, so two processes agree).
func (s *Service) currentKey(ctx context.Context) (signingKey, error) {
	var out signingKey
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		row, err := store.Q.LtiCurrentKey(ctx, tx)
		if errors.Is(err, pgx.ErrNoRows) {
			if err := store.Q.LtiLockKeys(ctx, tx); err != nil {
				return err
			}
			row, err = store.Q.LtiCurrentKey(ctx, tx)
			if errors.Is(err, pgx.ErrNoRows) {
				out, err = s.newKey(ctx, tx)
				return err
			}
		}
		if err != nil {
			return fmt.Errorf("read signing key: %w", err)
		}
		k, err := s.openKey(row.Kid, row.PrivateSealed)
		if err != nil {
			return err
		}
		out = signingKey{kid: row.Kid, key: k}
		return nil
	})
	return out, err
}

// openKey unseals and parses a stored signing key.
func (s *Service) openKey(kid string, sealed []byte) (*rsa.PrivateKey, error) {
	plain, err := s.open(sealed, kid)
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(plain)
	if err != nil {
		return nil, fmt.Errorf("parse signing key %s: %w", kid, err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("signing key %s is not RSA", kid)
	}
	return rk, nil
}

// newKey generates, seals and stores a new current key.
func (s *Service) newKey(ctx context.Context, tx pgx.Tx) (signingKey, error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return signingKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return signingKey{}, err
	}
	kid := s.now().UTC().Format("20060102T150405") + "-" + randomToken()[:8]
	sealed, err := s.seal(der, kid)
	if err != nil {
		return signingKey{}, err
	}
	if err := store.Q.LtiInsertKey(ctx, tx, store.LtiInsertKeyParams{Kid: kid, PrivateSealed: sealed, CreatedAt: s.now()}); err != nil {
		return signingKey{}, fmt.Errorf("store signing key: %w", err)
	}
	return signingKey{kid: kid, key: k}, nil
}

// RotateKey retires the current key and makes a new one; the old key stays
// in the JWKS for KeyOverlap. It returns the new key's id.
func (s *Service) RotateKey(ctx context.Context) (string, error) {
	var kid string
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if err := store.Q.LtiLockKeys(ctx, tx); err != nil {
			return err
		}
		if err := store.Q.LtiRetireKeys(ctx, tx, s.now()); err != nil {
			return fmt.Errorf("retire signing key: %w", err)
		}
		if err := store.Q.LtiDeleteKeysRetiredBefore(ctx, tx, s.now().Add(-KeyOverlap)); err != nil {
			return fmt.Errorf("drop old signing keys: %w", err)
		}
		k, err := s.newKey(ctx, tx)
		kid = k.kid
		return err
	})
	return kid, err
}

// JWKS is Markwell's public key set: the current key and those retired
// less than KeyOverlap ago.
func (s *Service) JWKS(ctx context.Context) (jose.JSONWebKeySet, error) {
	if _, err := s.currentKey(ctx); err != nil {
		return jose.JSONWebKeySet{}, err
	}
	rows, err := store.Q.LtiListPublishedKeys(ctx, s.Pool, s.now().Add(-KeyOverlap))
	if err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("list signing keys: %w", err)
	}
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{}}
	for _, r := range rows {
		k, err := s.openKey(r.Kid, r.PrivateSealed)
		if err != nil {
			return set, err
		}
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: r.Kid, Algorithm: string(jose.RS256), Use: "sig"})
	}
	return set, nil
}

// sign makes a JWT of claims signed with the current key.
func (s *Service) sign(ctx context.Context, claims map[string]any) (string, error) {
	k, err := s.currentKey(ctx)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k.key, KeyID: k.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// ToolConfig is what an operator copies into a platform.
type ToolConfig struct {
	LoginURL    string          `json:"loginUrl"`
	RedirectURI string          `json:"redirectUri"`
	JWKSURL     string          `json:"jwksUrl"`
	Canvas      json.RawMessage `json:"canvas"`
}

// Config is Markwell's tool configuration, with a Canvas "Paste JSON"
// developer key configuration.
func (s *Service) Config() ToolConfig {
	canvas, _ := json.MarshalIndent(map[string]any{
		"title":               "Markwell",
		"description":         "Grading and feedback for teacher teams",
		"oidc_initiation_url": s.LoginURL(),
		"target_link_uri":     s.LaunchURL(),
		"public_jwk_url":      s.JWKSURL(),
		"scopes":              Scopes,
		"extensions": []map[string]any{{
			"platform": "canvas.instructure.com", "privacy_level": "public",
			"settings": map[string]any{"placements": []map[string]any{
				{"placement": "link_selection", "message_type": MsgDeepLinking, "target_link_uri": s.LaunchURL()},
				{"placement": "assignment_selection", "message_type": MsgDeepLinking, "target_link_uri": s.LaunchURL()},
			}},
		}},
		"custom_fields": map[string]string{},
	}, "", "  ")
	return ToolConfig{LoginURL: s.LoginURL(), RedirectURI: s.LaunchURL(), JWKSURL: s.JWKSURL(), Canvas: canvas}
}
