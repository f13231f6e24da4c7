package classroom

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"golang.org/x/oauth2"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// Outcomes of a connect attempt; the callback sends the teacher back to
// where they started with ?googleClassroom=<outcome>.
const (
	OutcomeConnected     = "connected"
	OutcomeDenied        = "denied"         // the teacher declined at Google
	OutcomeMissingScopes = "missing-scopes" // the teacher unticked a permission
	OutcomeNotConfigured = "not-configured"
	OutcomeFailed        = "failed" // expired or foreign flow, failed exchange, database
)

// ConnectError is a connect attempt that did not end connected.
type ConnectError struct {
	// Outcome is one of the Outcome constants.
	Outcome string
	// Err is the cause, for the log only.
	Err error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("classroom connect: %s: %v", e.Outcome, e.Err)
}

// Unwrap returns the cause.
func (e *ConnectError) Unwrap() error { return e.Err }

// OutcomeOf is err's outcome: OutcomeConnected for nil, OutcomeFailed for
// an error that is not a *ConnectError.
func OutcomeOf(err error) string {
	if err == nil {
		return OutcomeConnected
	}
	var ce *ConnectError
	if errors.As(err, &ce) {
		return ce.Outcome
	}
	return OutcomeFailed
}

func connectFail(outcome string, format string, args ...any) error {
	return &ConnectError{Outcome: outcome, Err: fmt.Errorf(format, args...)}
}

// flow is a consent in flight. It travels sealed in a cookie of the browser
// that began it and is bound to that browser's session and user.
type flow struct {
	State    string    `json:"s"`
	Verifier string    `json:"v"`
	User     uuid.UUID `json:"u"`
	Session  []byte    `json:"b"` // SHA-256 of the session token
	ReturnTo string    `json:"r"`
	Expires  int64     `json:"e"` // Unix seconds
}

// flowAAD binds sealed flows to their purpose.
var flowAAD = []byte("classroom flow")

// Teacher is who connects: the signed-in user and their session.
type Teacher struct {
	// ID is the user's id.
	ID uuid.UUID
	// Email preselects the Google account on the consent screen.
	Email string
	// SessionToken is the value of the session cookie; the flow is bound to it.
	SessionToken string
}

func (s *Service) oauth2() *oauth2.Config {
	return &oauth2.Config{
		ClientID: s.cfg.ClientID, ClientSecret: s.cfg.ClientSecret,
		Endpoint:    oauth2.Endpoint{AuthURL: s.cfg.Endpoints.AuthURL, TokenURL: s.cfg.Endpoints.TokenURL, AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: s.cfg.PublicURL + CallbackPath, Scopes: requested,
	}
}

// httpContext makes the oauth2 package use the configured HTTP client.
func (s *Service) httpContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, s.cfg.HTTPClient)
}

// Begin starts connecting t's Google account: it returns Google's consent
// URL (offline access, include_granted_scopes=true, the Classroom and Drive
// scopes, state and a PKCE S256 challenge) and the sealed flow, which the
// caller stores in a cookie for the callback. returnTo is where the teacher
// goes afterwards: a path on this site, "/" otherwise.
func (s *Service) Begin(t Teacher, returnTo string) (authURL, sealedFlow string, err error) {
	if why := s.unavailable(); why != "" {
		return "", "", connectFail(OutcomeNotConfigured, "%s", why)
	}
	if t.ID == uuid.Nil || t.SessionToken == "" {
		return "", "", connectFail(OutcomeFailed, "no signed-in session to bind the flow to")
	}
	f := flow{
		State: randomString(), Verifier: oauth2.GenerateVerifier(), User: t.ID,
		Session: sessionHash(t.SessionToken), ReturnTo: SafeReturnTo(returnTo), Expires: s.now().Add(FlowTTL).Unix(),
	}
	plain, err := json.Marshal(f)
	if err != nil {
		return "", "", fmt.Errorf("encode flow: %w", err)
	}
	opts := []oauth2.AuthCodeOption{
		oauth2.AccessTypeOffline, oauth2.S256ChallengeOption(f.Verifier),
		oauth2.SetAuthURLParam("include_granted_scopes", "true"),
		// A refresh token comes only with a consent the teacher sees.
		oauth2.SetAuthURLParam("prompt", "consent"),
	}
	if t.Email != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", t.Email))
	}
	return s.oauth2().AuthCodeURL(f.State, opts...), base64.RawURLEncoding.EncodeToString(s.flows.Seal(plain, flowAAD)), nil
}

// Callback is what Google sent back: the query parameters of the same names.
type Callback struct {
	State, Code, Error string
}

// Finish completes a connect begun by Begin for the same teacher and
// session: it checks the sealed flow (not expired, same user, same session,
// same state), redeems the code with the PKCE verifier, checks that every
// scope was granted and stores the token encrypted. It returns where the
// teacher goes next ("/" when the flow does not open) and nil or a
// *ConnectError.
func (s *Service) Finish(ctx context.Context, t Teacher, sealedFlow string, cb Callback) (returnTo string, err error) {
	if s == nil {
		return "/", connectFail(OutcomeNotConfigured, "%s", MsgNotConfigured)
	}
	raw, err := base64.RawURLEncoding.DecodeString(sealedFlow)
	if err != nil || sealedFlow == "" {
		return "/", connectFail(OutcomeFailed, "no consent flow in this browser")
	}
	plain, err := s.flows.Open(raw, flowAAD)
	if err != nil {
		return "/", connectFail(OutcomeFailed, "flow: %w", err)
	}
	var f flow
	if err := json.Unmarshal(plain, &f); err != nil {
		return "/", connectFail(OutcomeFailed, "decode flow: %w", err)
	}
	returnTo = SafeReturnTo(f.ReturnTo)
	switch {
	case s.now().Unix() > f.Expires:
		return returnTo, connectFail(OutcomeFailed, "the flow expired at %s", time.Unix(f.Expires, 0))
	case f.User != t.ID:
		return returnTo, connectFail(OutcomeFailed, "the flow began for user %s, not %s", f.User, t.ID)
	case subtle.ConstantTimeCompare(f.Session, sessionHash(t.SessionToken)) != 1:
		return returnTo, connectFail(OutcomeFailed, "the flow began in another session")
	case cb.State == "" || subtle.ConstantTimeCompare([]byte(cb.State), []byte(f.State)) != 1:
		return returnTo, connectFail(OutcomeFailed, "the state does not match the flow")
	case cb.Error == "access_denied":
		return returnTo, connectFail(OutcomeDenied, "the teacher declined")
	case cb.Error != "":
		return returnTo, connectFail(OutcomeFailed, "google answered %q", cb.Error)
	case cb.Code == "":
		return returnTo, connectFail(OutcomeFailed, "no code")
	}
	if why := s.unavailable(); why != "" {
		return returnTo, connectFail(OutcomeNotConfigured, "%s", why)
	}
	tok, err := s.oauth2().Exchange(s.httpContext(ctx), cb.Code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return returnTo, connectFail(OutcomeFailed, "exchange code: %w", err)
	}
	granted, _ := tok.Extra("scope").(string)
	if granted == "" { // RFC 6749 §5.1: omitted when it is what was asked for
		granted = strings.Join(requested, " ")
	}
	if missing := missingScopes(granted); len(missing) > 0 {
		return returnTo, connectFail(OutcomeMissingScopes, "not granted: %s", strings.Join(missing, " "))
	}
	if err := s.saveToken(ctx, t.ID, tok, granted); err != nil {
		return returnTo, &ConnectError{Outcome: OutcomeFailed, Err: err}
	}
	s.log.InfoContext(ctx, "google classroom connected", "user_id", t.ID, "refresh_token", tok.RefreshToken != "")
	return returnTo, nil
}

// SafeReturnTo returns raw when it is a path on this site ("/…", not
// "//…"), else "/": connecting is never an open redirect.
func SafeReturnTo(raw string) string {
	if raw == "" || len(raw) > 2048 || !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") ||
		strings.ContainsAny(raw, "\\") || strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "/"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return raw
}

func sessionHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// tokenAAD binds a stored token to its user: a row copied to another user
// does not open.
func tokenAAD(user uuid.UUID) []byte { return append([]byte("google_tokens:"), user[:]...) }

// saveToken stores tok for user, encrypted.
func (s *Service) saveToken(ctx context.Context, user uuid.UUID, tok *oauth2.Token, scopes string) error {
	plain, err := json.Marshal(tok)
	if err != nil {
		return fmt.Errorf("encode token: %w", err)
	}
	if err := store.Q.UpsertGoogleToken(ctx, s.cfg.Pool, store.UpsertGoogleTokenParams{
		UserID: user, EncryptedToken: s.tokens.Seal(plain, tokenAAD(user)), Scopes: scopes,
	}); err != nil {
		return fmt.Errorf("store google token of user %s: %w", user, err)
	}
	return nil
}

// loadToken returns user's stored token and its scopes. No token, one with
// missing scopes or one that does not open (SECRET_KEY changed) is an error
// the teacher can act on.
func (s *Service) loadToken(ctx context.Context, user uuid.UUID) (*oauth2.Token, string, error) {
	row, err := store.Q.GetGoogleToken(ctx, s.cfg.Pool, user)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, "", apperr.New(apperr.Conflict, MsgNotConnected)
	}
	if err != nil {
		return nil, "", fmt.Errorf("load google token of user %s: %w", user, err)
	}
	if len(missingScopes(row.Scopes)) > 0 {
		return nil, "", apperr.New(apperr.Conflict, MsgMissingScopes)
	}
	plain, err := s.tokens.Open(row.EncryptedToken, tokenAAD(user))
	var tok oauth2.Token
	if err == nil {
		err = json.Unmarshal(plain, &tok)
	}
	if err != nil {
		s.log.WarnContext(ctx, "stored google token does not open; forgetting it", "user_id", user, "err", err)
		if derr := s.Disconnect(ctx, user); derr != nil {
			return nil, "", derr
		}
		return nil, "", apperr.Wrap(apperr.Conflict, MsgReconnect, err)
	}
	return &tok, row.Scopes, nil
}

// savingSource hands out the teacher's token, refreshing it when it
// expires, and stores each refreshed token so the next request starts from it.
type savingSource struct {
	s      *Service
	user   uuid.UUID
	scopes string
	base   oauth2.TokenSource

	mu   sync.Mutex
	last string
}

// Token returns a valid token.
func (t *savingSource) Token() (*oauth2.Token, error) {
	tok, err := t.base.Token()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	changed := tok.AccessToken != t.last
	t.last = tok.AccessToken
	t.mu.Unlock()
	if changed {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := t.s.saveToken(ctx, t.user, tok, t.scopes); err != nil {
			// The refreshed token still works for this request.
			t.s.log.Warn("could not store a refreshed google token", "user_id", t.user, "err", err)
		}
	}
	return tok, nil
}
