package auth_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type bundle struct {
	pool  *pgxpool.Pool
	svc   *auth.Service
	clock *clock
	ctx   context.Context
	// tag makes this test's emails unique in the shared database.
	tag string
}

const (
	maxAge    = 30 * 24 * time.Hour
	updateAge = 24 * time.Hour
)

func setup(t *testing.T, providers ...auth.Provider) *bundle {
	t.Helper()
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	bd := &bundle{pool: testdb.Pool(t), clock: &clock{t: time.Now().Truncate(time.Millisecond)}, ctx: context.Background(), tag: hex.EncodeToString(b)}
	if len(providers) == 0 {
		providers = []auth.Provider{auth.Credentials{Verified: true}}
	}
	svc, err := auth.New(auth.Config{
		Pool: bd.pool, Secret: strings.Repeat("s", 32), MaxAge: maxAge, UpdateAge: updateAge,
		Providers: providers, Now: bd.clock.now,
	})
	require.NoError(t, err)
	bd.svc = svc
	return bd
}

// email returns a test-unique address for local.
func (b *bundle) email(local string) string { return local + "+" + b.tag + "@school.test" }

func (b *bundle) identity(provider, subject, email string, verified bool) auth.Identity {
	return auth.Identity{Provider: provider, Subject: subject + b.tag, Email: email, EmailVerified: verified, Name: "Ada Lovelace"}
}

func TestNewRefusesBadConfig(t *testing.T) {
	t.Parallel()
	pool := testdb.Pool(t)
	secret := strings.Repeat("s", 32)
	for name, c := range map[string]auth.Config{
		"no pool":         {Secret: secret, MaxAge: time.Hour},
		"short secret":    {Pool: pool, Secret: "short", MaxAge: time.Hour},
		"no max age":      {Pool: pool, Secret: secret},
		"update≥max":      {Pool: pool, Secret: secret, MaxAge: time.Hour, UpdateAge: time.Hour},
		"duplicate ids":   {Pool: pool, Secret: secret, MaxAge: time.Hour, Providers: []auth.Provider{auth.Credentials{}, auth.Credentials{}}},
		"provider w/o id": {Pool: pool, Secret: secret, MaxAge: time.Hour, Providers: []auth.Provider{auth.NewOIDC(auth.OIDCConfig{})}},
	} {
		_, err := auth.New(c)
		require.Error(t, err, name)
	}
}

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
	require.NoError(t, err)

	token, created, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)
	require.Len(t, token, 43, "32 random bytes, base64url")
	require.Equal(t, b.clock.now().Add(maxAge), created.Expires)

	// The row holds the token's hash, never the token.
	var stored int
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT count(*) FROM sessions WHERE token_hash = sha256($1::bytea)", []byte(token)).Scan(&stored))
	require.Equal(t, 1, stored)
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT count(*) FROM sessions WHERE token_hash = $1::bytea", []byte(token)).Scan(&stored))
	require.Equal(t, 0, stored)

	// Lookup joins the user.
	s, err := b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.Equal(t, u, s.User)
	require.NotEqual(t, uuid.Nil, s.User.TeamID)
	require.False(t, s.Extended)
	require.JSONEq(t, `{}`, string(s.Data))

	// Used within the update age: not extended.
	b.clock.add(updateAge - time.Minute)
	s, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.False(t, s.Extended)
	require.Equal(t, created.Expires, s.Expires)

	// Used after the update age: extended to now + max age.
	b.clock.add(2 * time.Minute)
	s, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.True(t, s.Extended)
	require.Equal(t, b.clock.now().Add(maxAge), s.Expires)

	// Left unused past its expiry: gone.
	b.clock.add(maxAge + time.Second)
	_, err = b.svc.Session(b.ctx, token)
	require.ErrorIs(t, err, auth.ErrNoSession)
}

func TestPurgeExpired(t *testing.T) {
	t.Parallel()
	// Its own database: purging with a clock in the future would end the
	// other tests' sessions.
	pool := testdb.Isolated(t)
	c := &clock{t: time.Now()}
	svc, err := auth.New(auth.Config{Pool: pool, Secret: strings.Repeat("s", 32), MaxAge: time.Hour, Now: c.now,
		Providers: []auth.Provider{auth.Credentials{Verified: true}}})
	require.NoError(t, err)
	ctx := context.Background()
	u, err := svc.SignInWithCredentials(ctx, "Ada", "ada@school.test")
	require.NoError(t, err)
	old, _, err := svc.CreateSession(ctx, u)
	require.NoError(t, err)
	c.add(50 * time.Minute)
	live, _, err := svc.CreateSession(ctx, u)
	require.NoError(t, err)
	c.add(20 * time.Minute)

	sessions, _, err := svc.PurgeExpired(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1), sessions)
	_, err = svc.Session(ctx, old)
	require.ErrorIs(t, err, auth.ErrNoSession)
	_, err = svc.Session(ctx, live)
	require.NoError(t, err)
}

func TestDeletedSessionIsGone(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
	require.NoError(t, err)
	token, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)
	other, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)

	require.NoError(t, b.svc.DeleteSession(b.ctx, token))
	_, err = b.svc.Session(b.ctx, token)
	require.ErrorIs(t, err, auth.ErrNoSession)
	// Other sessions of the user live on.
	_, err = b.svc.Session(b.ctx, other)
	require.NoError(t, err)

	for _, bad := range []string{"", "x", token + "x", strings.Repeat("A", 43), "not base64 at all!!!!!!!!!!!!!!!!!!!!!!!!!!"} {
		_, err = b.svc.Session(b.ctx, bad)
		require.ErrorIs(t, err, auth.ErrNoSession, bad)
		require.NoError(t, b.svc.DeleteSession(b.ctx, bad))
	}
}

func TestSessionData(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
	require.NoError(t, err)
	token, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)

	s, err := b.svc.UpdateSessionData(b.ctx, token, json.RawMessage(`{"theme":"dark"}`))
	require.NoError(t, err)
	require.JSONEq(t, `{"theme":"dark"}`, string(s.Data))
	s, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.JSONEq(t, `{"theme":"dark"}`, string(s.Data))

	_, err = b.svc.UpdateSessionData(b.ctx, token, json.RawMessage(`{bad`))
	require.Error(t, err)
	require.NoError(t, b.svc.DeleteSession(b.ctx, token))
	_, err = b.svc.UpdateSessionData(b.ctx, token, json.RawMessage(`{}`))
	require.ErrorIs(t, err, auth.ErrNoSession)
}

func TestCSRFDoubleSubmit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	token, cookie := b.svc.CSRFToken("", nil)
	require.Len(t, token, 64)
	require.True(t, strings.HasPrefix(cookie, token+"|"))
	require.Len(t, cookie, 64+1+64)

	// A genuine cookie keeps its token.
	again, fresh := b.svc.CSRFToken(cookie, nil)
	require.Equal(t, token, again)
	require.Empty(t, fresh)

	require.True(t, b.svc.VerifyCSRF(cookie, token, nil))
	require.False(t, b.svc.VerifyCSRF(cookie, "", nil))
	require.False(t, b.svc.VerifyCSRF(cookie, strings.Repeat("0", 64), nil))
	require.False(t, b.svc.VerifyCSRF("", token, nil))

	// A cookie minted elsewhere (another secret, or forged) is refused and replaced.
	other, err := auth.New(auth.Config{Pool: b.pool, Secret: strings.Repeat("x", 32), MaxAge: time.Hour})
	require.NoError(t, err)
	_, foreign := other.CSRFToken("", nil)
	forgedToken := strings.Repeat("a", 64)
	for _, bad := range []string{foreign, forgedToken + "|" + strings.Repeat("b", 64), forgedToken, "|"} {
		require.False(t, b.svc.VerifyCSRF(bad, strings.SplitN(bad, "|", 2)[0], nil), bad)
		newToken, newCookie := b.svc.CSRFToken(bad, nil)
		require.NotEmpty(t, newCookie)
		require.NotEqual(t, strings.SplitN(bad, "|", 2)[0], newToken)
	}
}

func TestCSRFTokenIsBoundToItsSession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	session := func(local string) (string, *auth.Session) {
		u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email(local))
		require.NoError(t, err)
		token, s, err := b.svc.CreateSession(b.ctx, u)
		require.NoError(t, err)
		return token, &s
	}
	tokenA, sessA := session("ada-csrf")
	_, sessB := session("bob-csrf")
	_, sessA2 := session("ada-csrf") // the same user, another browser

	anonToken, anonCookie := b.svc.CSRFToken("", nil)
	aToken, aCookie := b.svc.NewCSRFToken(sessA)
	require.True(t, b.svc.VerifyCSRF(anonCookie, anonToken, nil))
	require.True(t, b.svc.VerifyCSRF(aCookie, aToken, sessA))

	// A pair minted anonymously, or for another session (even of the same
	// user), is refused with a session; a session's pair is refused without it.
	for name, victim := range map[string]*auth.Session{"B": sessB, "A elsewhere": sessA2} {
		require.False(t, b.svc.VerifyCSRF(anonCookie, anonToken, victim), name)
		require.False(t, b.svc.VerifyCSRF(aCookie, aToken, victim), name)
	}
	require.False(t, b.svc.VerifyCSRF(aCookie, aToken, nil))

	// Asked for a token with another session's cookie, the service mints one.
	got, fresh := b.svc.CSRFToken(aCookie, sessB)
	require.NotEmpty(t, fresh)
	require.NotEqual(t, aToken, got)
	require.True(t, b.svc.VerifyCSRF(fresh, got, sessB))

	// The binding survives looking the session up again and extending it.
	b.clock.add(updateAge + time.Minute)
	looked, err := b.svc.Session(b.ctx, tokenA)
	require.NoError(t, err)
	require.True(t, looked.Extended)
	require.True(t, b.svc.VerifyCSRF(aCookie, aToken, &looked))
	same, fresh := b.svc.CSRFToken(aCookie, &looked)
	require.Equal(t, aToken, same)
	require.Empty(t, fresh)

	// Every renewal is a new token.
	renewed, _ := b.svc.NewCSRFToken(sessA)
	require.NotEqual(t, aToken, renewed)
}

func TestCredentialsSignInTwiceIsOneUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first, err := b.svc.SignInWithCredentials(b.ctx, "Ada Lovelace", b.email("ada"))
	require.NoError(t, err)
	require.Equal(t, "Ada Lovelace", first.Name)
	require.Equal(t, b.email("ada"), first.Email)
	second, err := b.svc.SignInWithCredentials(b.ctx, "Someone Else", "  "+strings.ToUpper(b.email("ada"))+" ")
	require.NoError(t, err)
	require.Equal(t, first.ID, second.ID)
	require.Equal(t, first.TeamID, second.TeamID)
	require.Equal(t, "Ada Lovelace", second.Name, "an existing name is kept")

	var accounts int
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT count(*) FROM accounts WHERE user_id = $1", first.ID).Scan(&accounts))
	require.Equal(t, 1, accounts)
}

func TestCredentialsRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, email := range []string{"", "ada", "ada@", "@school.test", "Ada <ada@school.test>", "ada@school", strings.Repeat("a", 250) + "@school.test"} {
		_, err := b.svc.SignInWithCredentials(b.ctx, "Ada", email)
		require.Equal(t, apperr.SignInCredentials, apperr.SignInCodeOf(err), email)
	}
	_, err := b.svc.SignInWithCredentials(b.ctx, strings.Repeat("n", 201), b.email("ada"))
	require.Equal(t, apperr.SignInCredentials, apperr.SignInCodeOf(err))

	// Without the development sign-in configured, it does not exist.
	off := setup(t, auth.NewOIDC(auth.OIDCConfig{ID: "oidc", Name: "SSO", Issuer: "http://127.0.0.1:1"}))
	_, err = off.svc.SignInWithCredentials(off.ctx, "Ada", off.email("ada"))
	require.Equal(t, apperr.SignInConfiguration, apperr.SignInCodeOf(err))
}

func TestFirstSignInCreatesOwnTeam(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u, err := b.svc.SignInWithCredentials(b.ctx, "", b.email("grace"))
	require.NoError(t, err)
	require.Equal(t, "grace+"+b.tag, u.Name, "no name: the email's local part")

	var name string
	var owner uuid.UUID
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT name, owner_id FROM teams WHERE id = $1", u.TeamID).Scan(&name, &owner))
	require.Equal(t, "grace+"+b.tag+"'s team", name)
	require.Equal(t, u.ID, owner)
}

func TestLinkByVerifiedEmailAcrossProviders(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("ada")
	google, err := b.svc.SignIn(b.ctx, b.identity("google", "g-1", email, true))
	require.NoError(t, err)
	require.True(t, google.EmailVerified)

	// Another issuer that verified the same email: the same user.
	oidc, err := b.svc.SignIn(b.ctx, b.identity("oidc", "o-1", strings.ToUpper(email), true))
	require.NoError(t, err)
	require.Equal(t, google.ID, oidc.ID)
	require.Equal(t, google.TeamID, oidc.TeamID)

	// An issuer that did not verify it: refused, not linked.
	_, err = b.svc.SignIn(b.ctx, b.identity("other", "x-1", email, false))
	require.Equal(t, apperr.SignInAccountNotLinked, apperr.SignInCodeOf(err))

	var providers []string
	rows, err := b.pool.Query(b.ctx, "SELECT provider FROM accounts WHERE user_id = $1 ORDER BY provider", google.ID)
	require.NoError(t, err)
	for rows.Next() {
		var p string
		require.NoError(t, rows.Scan(&p))
		providers = append(providers, p)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"google", "oidc"}, providers)

	// Once linked, the account signs in by itself, whatever its email says now.
	again, err := b.svc.SignIn(b.ctx, b.identity("oidc", "o-1", b.email("renamed"), false))
	require.NoError(t, err)
	require.Equal(t, google.ID, again.ID)
}

func TestUnverifiedNewUserIsCreatedButNotTrusted(t *testing.T) {
	t.Parallel()
	b := setup(t, auth.Credentials{Verified: false})
	u, err := b.svc.SignInWithCredentials(b.ctx, "Eve", b.email("eve"))
	require.NoError(t, err)
	require.False(t, u.EmailVerified)

	// A verified sign-in later links to them and records the verification.
	v, err := b.svc.SignIn(b.ctx, b.identity("google", "g-eve", b.email("eve"), true))
	require.NoError(t, err)
	require.Equal(t, u.ID, v.ID)
	require.True(t, v.EmailVerified)
}

// team makes a team owned by a fresh user and invites email to it.
func (b *bundle) inviteTo(t *testing.T, owner string, email string) (ownerUser auth.User) {
	t.Helper()
	o, err := b.svc.SignIn(b.ctx, b.identity("google", "owner-"+owner, b.email(owner), true))
	require.NoError(t, err)
	_, err = b.pool.Exec(b.ctx, "INSERT INTO team_invites (team_id, email, token_hash, invited_by) VALUES ($1, $2, sha256(gen_random_uuid()::text::bytea), $3)",
		o.TeamID, email, o.ID)
	require.NoError(t, err)
	return o
}

func (b *bundle) pendingInvites(t *testing.T, email string) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT count(*) FROM team_invites WHERE lower(email) = lower($1) AND accepted_at IS NULL", email).Scan(&n))
	return n
}

func TestInviteAcceptedAtFirstSignIn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("bob")
	owner := b.inviteTo(t, "alice", strings.ToUpper(email))
	require.Equal(t, 1, b.pendingInvites(t, email))

	bob, err := b.svc.SignInWithCredentials(b.ctx, "Bob", email)
	require.NoError(t, err)
	require.Equal(t, owner.TeamID, bob.TeamID, "bob joins alice's team")
	require.Equal(t, 0, b.pendingInvites(t, email))

	var ownTeams int
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT count(*) FROM teams WHERE owner_id = $1", bob.ID).Scan(&ownTeams))
	require.Zero(t, ownTeams, "no team of his own was made")

	// Signing in again changes nothing.
	again, err := b.svc.SignInWithCredentials(b.ctx, "Bob", email)
	require.NoError(t, err)
	require.Equal(t, owner.TeamID, again.TeamID)
}

func TestInviteMovesExistingUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("carol")
	carol, err := b.svc.SignIn(b.ctx, b.identity("google", "g-carol", email, true))
	require.NoError(t, err)

	owner := b.inviteTo(t, "dave", email)
	require.NotEqual(t, owner.TeamID, carol.TeamID)

	moved, err := b.svc.SignIn(b.ctx, b.identity("google", "g-carol", email, true))
	require.NoError(t, err)
	require.Equal(t, carol.ID, moved.ID)
	require.Equal(t, owner.TeamID, moved.TeamID)
	require.Equal(t, 0, b.pendingInvites(t, email))
}

func TestUnverifiedEmailDoesNotAcceptInvites(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("mallory")
	owner := b.inviteTo(t, "erin", email)

	m, err := b.svc.SignIn(b.ctx, b.identity("oidc", "o-mallory", email, false))
	require.NoError(t, err)
	require.NotEqual(t, owner.TeamID, m.TeamID, "an unverified email gets a team of its own")
	require.Equal(t, 1, b.pendingInvites(t, email), "the invite stays pending")
}

func TestConcurrentFirstSignInsMakeOneUser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("race")
	var wg sync.WaitGroup
	ids := make([]uuid.UUID, 4)
	errs := make([]error, 4)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u, err := b.svc.SignInWithCredentials(b.ctx, "Racer", email)
			ids[i], errs[i] = u.ID, err
		}()
	}
	wg.Wait()
	for i := range ids {
		require.NoError(t, errs[i])
		require.Equal(t, ids[0], ids[i])
	}
}

// An owner who joins another team at sign-in hands their old team to the
// member who remains, so no team is left owned by an outsider.
func TestOwnerJoiningAnotherTeamHandsTheirTeamOn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	dora := b.email("dora")
	d, err := b.svc.SignInWithCredentials(b.ctx, "Dora", dora)
	require.NoError(t, err)
	// Eli joins Dora's team.
	_, err = b.pool.Exec(b.ctx, "INSERT INTO team_invites (team_id, email, token_hash, invited_by) VALUES ($1, $2, sha256(gen_random_uuid()::text::bytea), $3)",
		d.TeamID, b.email("eli"), d.ID)
	require.NoError(t, err)
	eli, err := b.svc.SignInWithCredentials(b.ctx, "Eli", b.email("eli"))
	require.NoError(t, err)
	require.Equal(t, d.TeamID, eli.TeamID)

	// Then Dora is invited elsewhere and signs in.
	other := b.inviteTo(t, "frank", dora)
	d2, err := b.svc.SignInWithCredentials(b.ctx, "Dora", dora)
	require.NoError(t, err)
	require.Equal(t, other.TeamID, d2.TeamID)

	var owner uuid.UUID
	require.NoError(t, b.pool.QueryRow(b.ctx, "SELECT owner_id FROM teams WHERE id = $1", d.TeamID).Scan(&owner))
	require.Equal(t, eli.ID, owner, "Eli now owns the team Dora left")
}
