package lti

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// Platform is a registered LMS.
type Platform struct {
	ID            uuid.UUID `json:"id"`
	Name          string    `json:"name"`
	Issuer        string    `json:"issuer"`
	ClientID      string    `json:"clientId"`
	DeploymentIDs []string  `json:"deploymentIds"`
	AuthLoginURL  string    `json:"authLoginUrl"`
	TokenURL      string    `json:"tokenUrl"`
	JWKSURL       string    `json:"jwksUrl"`
	CreatedAt     time.Time `json:"createdAt"`
}

// platformFrom is a stored registration.
func platformFrom(r store.LtiPlatform) Platform {
	return Platform{ID: r.ID, Name: r.Name, Issuer: r.Issuer, ClientID: r.ClientID, DeploymentIDs: r.DeploymentIds,
		AuthLoginURL: r.AuthLoginUrl, TokenURL: r.TokenUrl, JWKSURL: r.JwksUrl, CreatedAt: r.CreatedAt}
}

// Messages of a refused registration.
const (
	MsgPlatformExists = "A platform with this issuer and client id is registered already."
	MsgPlatformFields = "Issuer, client id, at least one deployment id and the three platform URLs are required."
)

// URLAllowed reports whether Markwell may call u: https, or http only with
// AllowInsecure.
func (s *Service) URLAllowed(u string) bool {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || p.User != nil {
		return false
	}
	return p.Scheme == "https" || (s.AllowInsecure && p.Scheme == "http")
}

// clean checks a registration.
func (s *Service) clean(p Platform) (Platform, error) {
	trim := strings.TrimSpace
	p.Name, p.Issuer, p.ClientID = trim(p.Name), trim(p.Issuer), trim(p.ClientID)
	p.AuthLoginURL, p.TokenURL, p.JWKSURL = trim(p.AuthLoginURL), trim(p.TokenURL), trim(p.JWKSURL)
	var ids []string
	for _, d := range p.DeploymentIDs {
		if d = trim(d); d != "" {
			ids = append(ids, d)
		}
	}
	p.DeploymentIDs = ids
	if p.Issuer == "" || p.ClientID == "" || len(ids) == 0 || p.AuthLoginURL == "" || p.TokenURL == "" || p.JWKSURL == "" {
		return p, apperr.New(apperr.Invalid, MsgPlatformFields)
	}
	for _, f := range []struct{ name, v string }{{"Auth login URL", p.AuthLoginURL}, {"Token URL", p.TokenURL}, {"JWKS URL", p.JWKSURL}} {
		if !s.URLAllowed(f.v) {
			return p, apperr.New(apperr.Invalid, f.name+" must be an https:// URL.")
		}
	}
	for _, v := range append([]string{p.Name, p.Issuer, p.ClientID, p.AuthLoginURL, p.TokenURL, p.JWKSURL}, ids...) {
		if len(v) > 2000 {
			return p, apperr.New(apperr.Invalid, "Each field can be at most 2000 characters.")
		}
	}
	if len(ids) > 50 {
		return p, apperr.New(apperr.Invalid, "At most 50 deployment ids.")
	}
	return p, nil
}

// Platforms lists the registrations.
func (s *Service) Platforms(ctx context.Context) ([]Platform, error) {
	rs, err := store.Q.LtiListPlatforms(ctx, s.Pool)
	if err != nil {
		return nil, fmt.Errorf("list platforms: %w", err)
	}
	out := make([]Platform, len(rs))
	for i, r := range rs {
		out[i] = platformFrom(r)
	}
	return out, nil
}

// SavePlatform registers p, or updates it when p.ID is set.
func (s *Service) SavePlatform(ctx context.Context, p Platform) (Platform, error) {
	p, err := s.clean(p)
	if err != nil {
		return Platform{}, err
	}
	var row store.LtiPlatform
	if p.ID == uuid.Nil {
		row, err = store.Q.LtiInsertPlatform(ctx, s.Pool, store.LtiInsertPlatformParams{Name: p.Name, Issuer: p.Issuer, ClientID: p.ClientID,
			DeploymentIds: p.DeploymentIDs, AuthLoginUrl: p.AuthLoginURL, TokenUrl: p.TokenURL, JwksUrl: p.JWKSURL})
	} else {
		row, err = store.Q.LtiUpdatePlatform(ctx, s.Pool, store.LtiUpdatePlatformParams{ID: p.ID, Name: p.Name, Issuer: p.Issuer, ClientID: p.ClientID,
			DeploymentIds: p.DeploymentIDs, AuthLoginUrl: p.AuthLoginURL, TokenUrl: p.TokenURL, JwksUrl: p.JWKSURL})
	}
	var pg *pgconn.PgError
	switch {
	case errors.As(err, &pg) && pg.Code == "23505":
		return Platform{}, apperr.New(apperr.Conflict, MsgPlatformExists)
	case errors.Is(err, pgx.ErrNoRows):
		return Platform{}, apperr.ErrNotFound
	case err != nil:
		return Platform{}, fmt.Errorf("save platform: %w", err)
	}
	s.forgetKeys(row.ID)
	return platformFrom(row), nil
}

// DeletePlatform removes a registration and everything linked through it.
func (s *Service) DeletePlatform(ctx context.Context, id uuid.UUID) error {
	n, err := store.Q.LtiDeletePlatform(ctx, s.Pool, id)
	if err != nil {
		return fmt.Errorf("delete platform: %w", err)
	}
	if n == 0 {
		return apperr.ErrNotFound
	}
	s.forgetKeys(id)
	return nil
}

func (s *Service) platform(ctx context.Context, id uuid.UUID) (Platform, error) {
	r, err := store.Q.LtiGetPlatform(ctx, s.Pool, id)
	return platformFrom(r), err
}
