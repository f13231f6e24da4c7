package auth

import (
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/input"

	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Provider types, as NextAuth's client knows them.
const (
	TypeOAuth       = "oauth"
	TypeCredentials = "credentials"
)

// Provider is a way to sign in, listed by GET providers.
type Provider interface {
	// ID names the provider in URLs: "google", "oidc", "credentials".
	ID() string
	// Name is shown on the sign-in button.
	Name() string
	// Type is TypeOAuth or TypeCredentials.
	Type() string
}

// OAuthProvider signs people in by sending them to an identity provider and
// back (the authorisation code flow with PKCE).
type OAuthProvider interface {
	Provider
	// AuthCodeURL returns the URL that starts attempt a at the identity provider.
	AuthCodeURL(ctx context.Context, a Attempt) (string, error)
	// Exchange redeems the code the identity provider sent back for attempt a
	// and returns the identity its verified id_token names.
	Exchange(ctx context.Context, a Attempt, code string) (Identity, error)
}

// Attempt is one OAuth sign-in in flight.
type Attempt struct {
	// State travels through the identity provider and back; it finds the attempt.
	State string
	// Nonce must come back inside the id_token.
	Nonce string
	// Verifier is the PKCE code verifier; its S256 challenge goes out.
	Verifier string
	// RedirectURL is our callback endpoint the provider returns to.
	RedirectURL string
	// CallbackURL is where the user goes once signed in.
	CallbackURL string
}

// Identity is a person as a provider vouches for them.
type Identity struct {
	// Provider is the provider's id.
	Provider string
	// Subject is the person's stable id at the provider.
	Subject string
	// Email is the person's email address.
	Email string
	// EmailVerified reports that the provider verified Email.
	EmailVerified bool
	// Name is a display name, possibly empty.
	Name string
	// Image is a picture URL, possibly empty.
	Image string
}

// Credentials is the development sign-in: a name and an email, no password.
// It exists only when DEV_SIGNIN is on.
type Credentials struct {
	// Verified makes the emails it is given count as verified, so they link
	// to existing users and accept invites. FromConfig sets it outside
	// production only.
	Verified bool
}

// ID is "credentials".
func (Credentials) ID() string { return "credentials" }

// Name is shown on the development sign-in form.
func (Credentials) Name() string { return "Development sign-in" }

// Type is TypeCredentials.
func (Credentials) Type() string { return TypeCredentials }

// Authorize checks a name and an email and returns the identity they make;
// the subject is the lower-cased email, so the same email is the same
// account. A bad email is an apperr.SignInCredentials error.
func (c Credentials) Authorize(name, email string) (Identity, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	name = input.Name(name)
	if email == "" || len(email) > input.MaxEmail {
		return Identity{}, fail(apperr.SignInCredentials, "email is empty or too long")
	}
	at := strings.LastIndexByte(email, '@')
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || at < 1 || !strings.Contains(email[at+1:], ".") {
		return Identity{}, fail(apperr.SignInCredentials, "%q is not an email address", email)
	}
	if len([]rune(name)) > input.MaxName {
		return Identity{}, fail(apperr.SignInCredentials, "name is longer than 200 characters")
	}
	return Identity{Provider: c.ID(), Subject: email, Email: email, EmailVerified: c.Verified, Name: name}, nil
}

// OIDCConfig describes an OpenID Connect client.
type OIDCConfig struct {
	// ID is the provider id ("google", "oidc").
	ID string
	// Name is shown on the sign-in button.
	Name string
	// Issuer is the issuer URL; discovery reads Issuer/.well-known/openid-configuration.
	Issuer string
	// ClientID and ClientSecret are the client's registration at the issuer.
	ClientID     string
	ClientSecret string
	// Scopes default to openid, email and profile.
	Scopes []string
	// HTTPClient talks to the issuer; nil means a client with a 15 s timeout.
	HTTPClient *http.Client
}

// OIDC is an OpenID Connect provider (Google, Microsoft Entra, Keycloak …)
// on coreos/go-oidc. Discovery happens on first use and is cached; a failed
// discovery is retried on the next sign-in.
type OIDC struct {
	cfg    OIDCConfig
	client *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
}

// NewOIDC returns a provider for c. It does not contact the issuer.
func NewOIDC(c OIDCConfig) *OIDC {
	if len(c.Scopes) == 0 {
		c.Scopes = []string{oidc.ScopeOpenID, "email", "profile"}
	}
	client := c.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	return &OIDC{cfg: c, client: client}
}

// ID is the configured id.
func (p *OIDC) ID() string { return p.cfg.ID }

// Name is the configured name.
func (p *OIDC) Name() string { return p.cfg.Name }

// Type is TypeOAuth.
func (p *OIDC) Type() string { return TypeOAuth }

func (p *OIDC) ctx(ctx context.Context) context.Context { return oidc.ClientContext(ctx, p.client) }

// discover fetches and caches the issuer's discovery document.
func (p *OIDC) discover(ctx context.Context) (*oidc.Provider, *oidc.IDTokenVerifier, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.provider != nil {
		return p.provider, p.verifier, nil
	}
	prov, err := oidc.NewProvider(p.ctx(ctx), p.cfg.Issuer)
	if err != nil {
		return nil, nil, fmt.Errorf("discover %s: %w", p.cfg.Issuer, err)
	}
	// The verifier checks the signature against the issuer's JWKS, the
	// issuer, the audience (our client id) and the expiry.
	p.provider, p.verifier = prov, prov.Verifier(&oidc.Config{ClientID: p.cfg.ClientID})
	return p.provider, p.verifier, nil
}

func (p *OIDC) oauth2(prov *oidc.Provider, redirectURL string) *oauth2.Config {
	return &oauth2.Config{
		ClientID: p.cfg.ClientID, ClientSecret: p.cfg.ClientSecret,
		Endpoint: prov.Endpoint(), RedirectURL: redirectURL, Scopes: p.cfg.Scopes,
	}
}

// AuthCodeURL returns the issuer's authorisation URL with state, nonce and
// the PKCE S256 challenge.
func (p *OIDC) AuthCodeURL(ctx context.Context, a Attempt) (string, error) {
	prov, _, err := p.discover(ctx)
	if err != nil {
		return "", err
	}
	return p.oauth2(prov, a.RedirectURL).AuthCodeURL(a.State, oidc.Nonce(a.Nonce), oauth2.S256ChallengeOption(a.Verifier)), nil
}

// idClaims are the id_token claims Markwell reads.
type idClaims struct {
	Email             string          `json:"email"`
	EmailVerified     json.RawMessage `json:"email_verified"`
	Name              string          `json:"name"`
	GivenName         string          `json:"given_name"`
	FamilyName        string          `json:"family_name"`
	PreferredUsername string          `json:"preferred_username"`
	Picture           string          `json:"picture"`
}

// verified reads email_verified, which some issuers send as a string.
func (c idClaims) verified() bool {
	var b bool
	if json.Unmarshal(c.EmailVerified, &b) == nil {
		return b
	}
	var s string
	return json.Unmarshal(c.EmailVerified, &s) == nil && strings.EqualFold(s, "true")
}

// Exchange redeems code with the PKCE verifier, verifies the id_token
// (signature, issuer, audience, expiry) and its nonce, and returns the
// identity it names. When the id_token carries no email, the userinfo
// endpoint is asked.
func (p *OIDC) Exchange(ctx context.Context, a Attempt, code string) (Identity, error) {
	prov, verifier, err := p.discover(ctx)
	if err != nil {
		return Identity{}, err
	}
	ctx = p.ctx(ctx)
	tok, err := p.oauth2(prov, a.RedirectURL).Exchange(ctx, code, oauth2.VerifierOption(a.Verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("exchange code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, errors.New("the token response has no id_token")
	}
	idt, err := verifier.Verify(ctx, raw)
	if err != nil {
		return Identity{}, fmt.Errorf("verify id_token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(a.Nonce)) != 1 {
		return Identity{}, errors.New("verify id_token: the nonce does not match")
	}
	var c idClaims
	if err := idt.Claims(&c); err != nil {
		return Identity{}, fmt.Errorf("read id_token claims: %w", err)
	}
	if c.Email == "" {
		info, err := prov.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return Identity{}, fmt.Errorf("userinfo: %w", err)
		}
		if info.Subject != idt.Subject {
			return Identity{}, errors.New("userinfo: the subject differs from the id_token's")
		}
		var more idClaims
		if err := info.Claims(&more); err != nil {
			return Identity{}, fmt.Errorf("read userinfo claims: %w", err)
		}
		c.Email, c.EmailVerified = info.Email, more.EmailVerified
		if info.EmailVerified {
			c.EmailVerified = json.RawMessage("true")
		}
		if c.Name == "" {
			c.Name = more.Name
		}
		if c.Picture == "" {
			c.Picture = more.Picture
		}
	}
	if c.Email == "" {
		return Identity{}, errors.New("the identity provider did not share an email address")
	}
	name := c.Name
	if name == "" {
		name = strings.TrimSpace(c.GivenName + " " + c.FamilyName)
	}
	if name == "" {
		name = c.PreferredUsername
	}
	// A provider's name follows the input rule too: no control characters or
	// bidi overrides, at most MaxName characters.
	name = input.Name(name)
	if r := []rune(name); len(r) > input.MaxName {
		name = string(r[:input.MaxName])
	}
	return Identity{
		Provider: p.cfg.ID, Subject: idt.Subject, Email: strings.ToLower(strings.TrimSpace(c.Email)),
		EmailVerified: c.verified(), Name: name, Image: c.Picture,
	}, nil
}
