package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/oauth2"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
)

// SignIn turns an identity a provider vouched for into a user:
//
//   - the account (provider, subject) is known: its user;
//   - else a user with the same email exists: the account is linked to them
//     when the provider verified the email, else apperr.SignInAccountNotLinked;
//   - else a new user.
//
// Then the team: when a pending invite exists for a verified email, the user
// joins the newest inviting team (also an existing user, who moves) and
// every pending invite for the email is closed; otherwise a user without a
// team (a first sign-in) gets a team of their own, "{name}'s team".
//
// Last, shares sent to a verified email before anyone used it are given to
// the user, in the same transaction (a first sign-in's user is created in
// it too).
func (s *Service) SignIn(ctx context.Context, id Identity) (User, error) {
	id.Email = strings.ToLower(strings.TrimSpace(id.Email))
	if id.Provider == "" || id.Subject == "" || id.Email == "" {
		return User{}, fail(apperr.SignInCallback, "identity is incomplete (provider %q, subject %q, email %q)", id.Provider, id.Subject, id.Email)
	}
	var u User
	var err error
	// Two first sign-ins with one email can race on the unique email index;
	// the loser tries again and finds the winner's user.
	for try := 0; try < 2; try++ {
		u, err = s.signIn(ctx, id)
		var pg *pgconn.PgError
		if !errors.As(err, &pg) || pg.Code != "23505" {
			break
		}
	}
	if err != nil {
		var e *apperr.SignInError
		if errors.As(err, &e) {
			return User{}, err
		}
		return User{}, &apperr.SignInError{Code: apperr.SignInCallback, Err: err}
	}
	return u, nil
}

func (s *Service) signIn(ctx context.Context, id Identity) (User, error) {
	var out store.User
	err := store.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		u, err := s.findOrCreateUser(ctx, tx, id)
		if err != nil {
			return err
		}
		if u, err = s.placeInTeam(ctx, tx, u, id); err != nil {
			return err
		}
		if verifiedOwner(id, u) {
			n, err := store.Q.NotificationClaimPending(ctx, tx, store.NotificationClaimPendingParams{UserID: u.ID, Email: u.Email})
			if err != nil {
				return fmt.Errorf("claim shares: %w", err)
			}
			if n > 0 {
				s.log.InfoContext(ctx, "shares waiting for the email delivered", "user_id", u.ID, "count", n)
			}
		}
		out = u
		return nil
	})
	if err != nil {
		return User{}, err
	}
	// A sign-in may have moved the user into an invite's team or filled in
	// their name: their other browsers' sessions are read afresh.
	s.ForgetSessions()
	return userFrom(out), nil
}

func (s *Service) findOrCreateUser(ctx context.Context, tx pgx.Tx, id Identity) (store.User, error) {
	refresh := func(u store.User) (store.User, error) {
		// The provider's verification counts only for the address stored:
		// an account whose email changed at the provider does not verify
		// the old one.
		verified := id.EmailVerified && strings.EqualFold(strings.TrimSpace(id.Email), u.Email)
		return store.Q.AuthRefreshUser(ctx, tx, store.AuthRefreshUserParams{
			ID: u.ID, EmailVerified: verified, Name: id.Name, Image: id.Image,
		})
	}
	u, err := store.Q.AuthUserByAccount(ctx, tx, store.AuthUserByAccountParams{Provider: id.Provider, ProviderAccountID: id.Subject})
	if err == nil {
		return refresh(u)
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return store.User{}, fmt.Errorf("find account: %w", err)
	}
	link := func(u store.User) error {
		return store.Q.AuthCreateAccount(ctx, tx, store.AuthCreateAccountParams{UserID: u.ID, Provider: id.Provider, ProviderAccountID: id.Subject})
	}

	u, err = store.Q.AuthUserByEmail(ctx, tx, id.Email)
	switch {
	case err == nil:
		if !id.EmailVerified {
			return store.User{}, fail(apperr.SignInAccountNotLinked, "%s did not verify the email of user %s", id.Provider, u.ID)
		}
		if err := link(u); err != nil {
			return store.User{}, fmt.Errorf("link account: %w", err)
		}
		s.log.InfoContext(ctx, "account linked by verified email", "user_id", u.ID, "provider", id.Provider)
		return refresh(u)
	case errors.Is(err, pgx.ErrNoRows):
		name := id.Name
		if name == "" {
			name = id.Email[:strings.IndexByte(id.Email, '@')]
		}
		u, err = store.Q.AuthCreateUser(ctx, tx, store.AuthCreateUserParams{Email: id.Email, Name: name, Image: id.Image, EmailVerified: id.EmailVerified})
		if err != nil {
			return store.User{}, fmt.Errorf("create user: %w", err)
		}
		if err := link(u); err != nil {
			return store.User{}, fmt.Errorf("create account: %w", err)
		}
		s.log.InfoContext(ctx, "user created", "user_id", u.ID, "provider", id.Provider)
		return u, nil
	default:
		return store.User{}, fmt.Errorf("find user by email: %w", err)
	}
}

// verifiedOwner reports that this sign-in's provider verified the user's own
// email (not some other address the account now has): only then may the
// sign-in accept the email's invites and receive the shares waiting for it.
func verifiedOwner(id Identity, u store.User) bool {
	return id.EmailVerified && strings.EqualFold(id.Email, u.Email)
}

func (s *Service) placeInTeam(ctx context.Context, tx pgx.Tx, u store.User, id Identity) (store.User, error) {
	if verifiedOwner(id, u) {
		inv, err := store.Q.AuthNewestPendingInvite(ctx, tx, u.Email)
		switch {
		case err == nil:
			if err := team.Move(ctx, tx, u.ID, u.TeamID, inv.TeamID); err != nil {
				return store.User{}, fmt.Errorf("join team %s: %w", inv.TeamID, err)
			}
			if _, err := store.Q.AuthCloseInvites(ctx, tx, store.AuthCloseInvitesParams{Email: u.Email, AcceptedAt: s.now()}); err != nil {
				return store.User{}, fmt.Errorf("accept invites: %w", err)
			}
			s.log.InfoContext(ctx, "team invite accepted at sign-in", "user_id", u.ID, "team_id", inv.TeamID, "invite_id", inv.ID)
			return store.Q.GetUser(ctx, tx, u.ID)
		case !errors.Is(err, pgx.ErrNoRows):
			return store.User{}, fmt.Errorf("find invites: %w", err)
		}
	}
	if u.TeamID.Valid {
		return u, nil
	}
	teamID, err := team.CreateOwn(ctx, tx, u)
	if err != nil {
		return store.User{}, fmt.Errorf("create own team: %w", err)
	}
	s.log.InfoContext(ctx, "team created", "user_id", u.ID, "team_id", teamID)
	return store.Q.GetUser(ctx, tx, u.ID)
}

// LinkAccount links the account (provider, subject) to the user userID,
// so that signing in with it signs them in. The caller has established that
// the person holds both (internal/lti: the browser that launched from the
// LMS is signed in as this user, whose email the launch names); an email
// alone never links. An account linked to someone else already is refused
// with apperr.SignInAccountNotLinked.
func (s *Service) LinkAccount(ctx context.Context, userID uuid.UUID, provider, subject string) error {
	n, err := store.Q.AuthLinkAccount(ctx, s.pool, store.AuthLinkAccountParams{UserID: userID, Provider: provider, ProviderAccountID: subject})
	if err != nil {
		return fmt.Errorf("link account: %w", err)
	}
	if n == 0 {
		u, err := store.Q.AuthUserByAccount(ctx, s.pool, store.AuthUserByAccountParams{Provider: provider, ProviderAccountID: subject})
		if err != nil {
			return fmt.Errorf("find linked account: %w", err)
		}
		if u.ID != userID {
			return fail(apperr.SignInAccountNotLinked, "%s account is linked to user %s, not %s", provider, u.ID, userID)
		}
		return nil
	}
	s.log.InfoContext(ctx, "account linked by its signed-in user", "user_id", userID, "provider", provider)
	return nil
}

// SignInWithCredentials is the development sign-in: it checks name and email
// and signs the person in. It fails with apperr.SignInConfiguration when the
// development sign-in is off and apperr.SignInCredentials for a bad email.
func (s *Service) SignInWithCredentials(ctx context.Context, name, email string) (User, error) {
	p, ok := s.byID["credentials"].(Credentials)
	if !ok {
		return User{}, fail(apperr.SignInConfiguration, "the development sign-in is off")
	}
	id, err := p.Authorize(name, email)
	if err != nil {
		return User{}, err
	}
	return s.SignIn(ctx, id)
}

func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// BeginOAuth starts a sign-in at OAuth provider providerID: it stores the
// attempt (state hash, nonce, PKCE verifier, callbackURL) for AttemptTTL and
// returns the provider's authorisation URL and the state, which the caller
// also binds to the browser. redirectURL is our callback endpoint.
func (s *Service) BeginOAuth(ctx context.Context, providerID, redirectURL, callbackURL string) (authURL, state string, err error) {
	p, ok := s.byID[providerID].(OAuthProvider)
	if !ok {
		return "", "", fail(apperr.SignInConfiguration, "%q is not an OAuth provider", providerID)
	}
	a := Attempt{
		State: randomString(), Nonce: randomString(), Verifier: oauth2.GenerateVerifier(),
		RedirectURL: redirectURL, CallbackURL: callbackURL,
	}
	authURL, err = p.AuthCodeURL(ctx, a)
	if err != nil {
		return "", "", &apperr.SignInError{Code: apperr.SignInOAuthSignin, Err: err}
	}
	if err := store.Q.CreateSigninAttempt(ctx, s.pool, store.CreateSigninAttemptParams{
		StateHash: hashToken(a.State), Provider: providerID, Nonce: a.Nonce, CodeVerifier: a.Verifier,
		CallbackUrl: callbackURL, ExpiresAt: s.now().Add(AttemptTTL),
	}); err != nil {
		return "", "", &apperr.SignInError{Code: apperr.SignInOAuthSignin, Err: fmt.Errorf("store sign-in attempt: %w", err)}
	}
	return authURL, a.State, nil
}

// OAuthReturn is what an identity provider sent back to the callback.
type OAuthReturn struct {
	// Provider is the provider id in the callback's path.
	Provider string
	// State, Code and Error are the query parameters of the same names.
	State string
	Code  string
	Error string
	// RedirectURL is our callback endpoint, as sent in BeginOAuth.
	RedirectURL string
}

// FinishOAuth completes a sign-in begun by BeginOAuth. It consumes the
// attempt (a state works once), exchanges the code with the PKCE verifier,
// verifies the id_token and its nonce, and signs the person in. It returns
// the attempt's callback URL whenever the attempt was found, also with an
// error; failures are apperr.SignInOAuthCallback, apperr.SignInAccountNotLinked or apperr.SignInCallback.
func (s *Service) FinishOAuth(ctx context.Context, r OAuthReturn) (User, string, error) {
	if r.State == "" {
		return User{}, "", fail(apperr.SignInOAuthCallback, "no state")
	}
	row, err := store.Q.TakeSigninAttempt(ctx, s.pool, hashToken(r.State))
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, "", fail(apperr.SignInOAuthCallback, "unknown or already used state")
	}
	if err != nil {
		return User{}, "", &apperr.SignInError{Code: apperr.SignInCallback, Err: fmt.Errorf("take sign-in attempt: %w", err)}
	}
	cb := row.CallbackUrl
	switch {
	case !row.ExpiresAt.After(s.now()):
		return User{}, cb, fail(apperr.SignInOAuthCallback, "the sign-in attempt expired at %s", row.ExpiresAt)
	case row.Provider != r.Provider:
		return User{}, cb, fail(apperr.SignInOAuthCallback, "the attempt began at %q but returned to %q", row.Provider, r.Provider)
	case r.Error != "":
		return User{}, cb, fail(apperr.SignInOAuthCallback, "the provider answered %q", r.Error)
	case r.Code == "":
		return User{}, cb, fail(apperr.SignInOAuthCallback, "no code")
	}
	p, ok := s.byID[r.Provider].(OAuthProvider)
	if !ok {
		return User{}, cb, fail(apperr.SignInOAuthCallback, "%q is not an OAuth provider", r.Provider)
	}
	id, err := p.Exchange(ctx, Attempt{State: r.State, Nonce: row.Nonce, Verifier: row.CodeVerifier, RedirectURL: r.RedirectURL, CallbackURL: cb}, r.Code)
	if err != nil {
		return User{}, cb, &apperr.SignInError{Code: apperr.SignInOAuthCallback, Err: err}
	}
	u, err := s.SignIn(ctx, id)
	return u, cb, err
}
