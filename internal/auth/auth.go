// Package auth is Markwell's sign-in: server-side sessions in PostgreSQL,
// NextAuth-style double-submit CSRF tokens bound to the session, sign-in
// providers (OpenID Connect issuers such as Google, and a development
// sign-in) and the rules that turn a verified identity into a user with a
// team. It knows nothing of HTTP; internal/httpapi serves it as a
// NextAuth-compatible /api/auth.
package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/store"
)

// AttemptTTL is how long an OAuth sign-in may take, from the redirect to the
// provider to its callback.
const AttemptTTL = 10 * time.Minute

// User is the signed-in person as handlers see them.
type User struct {
	// ID is the user's id.
	ID uuid.UUID
	// Email is the user's email address, lower-cased.
	Email string
	// EmailVerified reports that a provider vouched for the email address.
	EmailVerified bool
	// Name is the display name.
	Name string
	// Image is a picture URL, or empty.
	Image string
	// TeamID is the user's team, or uuid.Nil when they have none.
	TeamID uuid.UUID
}

func userFrom(u store.User) User {
	return User{ID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified, Name: u.Name, Image: u.Image, TeamID: u.TeamID.UUID}
}

// Config is what a Service needs.
type Config struct {
	// Pool is the database.
	Pool *pgxpool.Pool
	// Secret signs CSRF cookies, binding each token to its session (SECRET_KEY).
	Secret string
	// MaxAge is a session's lifetime since it was last extended.
	MaxAge time.Duration
	// UpdateAge is how often a session in use is extended to now+MaxAge.
	UpdateAge time.Duration
	// Providers are the ways to sign in, in the order the sign-in page lists them.
	Providers []Provider
	// Log receives sign-in events; nil discards them.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service signs people in and keeps their sessions.
type Service struct {
	pool      *pgxpool.Pool
	csrf      csrf
	maxAge    time.Duration
	updateAge time.Duration
	providers []Provider
	byID      map[string]Provider
	log       *slog.Logger
	now       func() time.Time
	sessions  *sessionCache
	// afterLookup, when set (by tests), runs after a session lookup read
	// the database and before it is remembered.
	afterLookup func()
}

// New checks c and returns a Service.
func New(c Config) (*Service, error) {
	if c.Pool == nil {
		return nil, errors.New("auth: no database pool")
	}
	if len(c.Secret) < 32 {
		return nil, errors.New("auth: the secret must be at least 32 characters")
	}
	if c.MaxAge <= 0 {
		return nil, errors.New("auth: the session max age must be positive")
	}
	if c.UpdateAge < 0 || c.UpdateAge >= c.MaxAge {
		return nil, errors.New("auth: the session update age must be shorter than the max age")
	}
	s := &Service{
		pool: c.Pool, csrf: csrf{secret: []byte(c.Secret)}, maxAge: c.MaxAge, updateAge: c.UpdateAge,
		byID: map[string]Provider{}, log: c.Log, now: c.Now, sessions: newSessionCache(SessionCacheTTL),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	for _, p := range c.Providers {
		if p.ID() == "" {
			return nil, errors.New("auth: a provider has no id")
		}
		if _, dup := s.byID[p.ID()]; dup {
			return nil, fmt.Errorf("auth: provider %q is configured twice", p.ID())
		}
		s.byID[p.ID()] = p
		s.providers = append(s.providers, p)
	}
	return s, nil
}

// FromConfig builds the Service the application configuration describes:
// Google when its client is set, the generic OpenID Connect issuer when set,
// and the development sign-in when DEV_SIGNIN is on.
func FromConfig(pool *pgxpool.Pool, c config.Config, log *slog.Logger) (*Service, error) {
	var providers []Provider
	if c.GoogleClientID != "" {
		providers = append(providers, NewOIDC(OIDCConfig{
			ID: "google", Name: "Google", Issuer: c.GoogleIssuer,
			ClientID: c.GoogleClientID, ClientSecret: c.GoogleClientSecret,
		}))
	}
	if c.OIDCIssuer != "" {
		providers = append(providers, NewOIDC(OIDCConfig{
			ID: "oidc", Name: c.OIDCName, Issuer: c.OIDCIssuer,
			ClientID: c.OIDCClientID, ClientSecret: c.OIDCClientSecret,
		}))
	}
	if c.DevSignIn {
		// Outside production the development sign-in is trusted like a
		// verified email, so it can link accounts and accept invites. In
		// production (where it should never be on) it can only make new,
		// unverified users.
		providers = append(providers, Credentials{Verified: !c.Production()})
	}
	return New(Config{
		Pool: pool, Secret: c.SecretKey, MaxAge: c.SessionMaxAge, UpdateAge: c.SessionUpdateAge,
		Providers: providers, Log: log,
	})
}

// Providers lists the configured providers in sign-in page order.
func (s *Service) Providers() []Provider { return s.providers }

// Provider returns the provider with the given id.
func (s *Service) Provider(id string) (Provider, bool) {
	p, ok := s.byID[id]
	return p, ok
}

// MaxAge is a session's lifetime; the session cookie lives as long.
func (s *Service) MaxAge() time.Duration { return s.maxAge }

// PurgeExpired deletes expired sessions and sign-in attempts. Lookups already
// ignore them; this only keeps the tables small.
func (s *Service) PurgeExpired(ctx context.Context) (sessions, attempts int64, err error) {
	now := s.now()
	if sessions, err = store.Q.DeleteExpiredSessions(ctx, s.pool, now); err != nil {
		return 0, 0, fmt.Errorf("purge sessions: %w", err)
	}
	if attempts, err = store.Q.DeleteExpiredSigninAttempts(ctx, s.pool, now); err != nil {
		return sessions, 0, fmt.Errorf("purge sign-in attempts: %w", err)
	}
	return sessions, attempts, nil
}

// fail is a sign-in failure with code (apperr's sign-in codes) and a cause
// for the log.
func fail(code apperr.SignInCode, format string, args ...any) *apperr.SignInError {
	return apperr.SignInFailed(code, fmt.Errorf(format, args...))
}
