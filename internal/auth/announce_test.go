package auth_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/changes/changestest"
)

// hearing is a second API process on b's database: its own Service (its
// own remembered sessions, its own frozen clock) hearing a change listener.
// settle waits until the announcements of everything committed so far
// have arrived (they arrive in commit order: a sentinel's last).
func hearing(t *testing.T, b *bundle) (svc *auth.Service, clk *clock, lookups *atomic.Int64, settle func()) {
	t.Helper()
	listener, _ := changestest.Listening(t)
	require.Eventually(t, func() bool { return listener.UserMark() != 0 }, 10*time.Second, 2*time.Millisecond, "the listener hears users")

	clk = &clock{t: b.clock.now()}
	svc, err := auth.New(auth.Config{
		Pool: b.pool, Secret: strings.Repeat("s", 32), MaxAge: maxAge, UpdateAge: updateAge,
		Providers: []auth.Provider{auth.Credentials{Verified: true}}, Now: clk.now,
	})
	require.NoError(t, err)
	svc.HearChanges(listener)
	lookups = &atomic.Int64{}
	auth.SetAfterLookup(svc, func() { lookups.Add(1) })
	sentinel, err := b.svc.SignInWithCredentials(b.ctx, "Sentinel", b.email("sentinel"))
	require.NoError(t, err)
	settle = func() {
		t.Helper()
		mark := listener.UserMark()
		_, err := b.pool.Exec(b.ctx, `UPDATE users SET name = name WHERE id = $1`, sentinel.ID)
		require.NoError(t, err)
		require.Eventually(t, func() bool { changed, _ := listener.UserSince(sentinel.ID, mark); return changed },
			5*time.Second, 2*time.Millisecond, "the sentinel's announcement arrives")
	}
	return svc, clk, lookups, settle
}

// A process that hears the database's announcements keeps a session past
// SessionCacheTTL without asking the database, and a sign-out or a team
// change made through another process ends it at once, not after
// SessionCacheTTL (this process's clock stands still: only the
// announcement can end it).
func TestAKeptSessionEndsWhenAnotherProcessChangesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	other, clk, lookups, settle := hearing(t, b)
	u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
	require.NoError(t, err)
	token, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)
	second, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)
	bystander, err := b.svc.SignInWithCredentials(b.ctx, "Grace", b.email("grace"))
	require.NoError(t, err)
	bystanderToken, _, err := b.svc.CreateSession(b.ctx, bystander)
	require.NoError(t, err)
	settle() // the sign-ins' own announcements are behind us

	for _, tok := range []string{token, second, bystanderToken} {
		_, err = other.Session(b.ctx, tok)
		require.NoError(t, err)
	}
	require.Equal(t, int64(3), lookups.Load())

	// A minute later, far past SessionCacheTTL: still kept, no lookup.
	clk.add(time.Minute)
	for _, tok := range []string{token, second, bystanderToken} {
		_, err = other.Session(b.ctx, tok)
		require.NoError(t, err)
	}
	require.Equal(t, int64(3), lookups.Load(), "kept sessions are not looked up again")

	// Signed out through the first process: gone here too, at once.
	require.NoError(t, b.svc.DeleteSession(b.ctx, token))
	require.Eventually(t, func() bool {
		_, err := other.Session(b.ctx, token)
		return err != nil
	}, 5*time.Second, 5*time.Millisecond, "the sign-out reaches the other process")
	_, err = other.Session(b.ctx, token)
	require.ErrorIs(t, err, auth.ErrNoSession)

	// The user's other session is read again (their sessions changed) and
	// lives on; someone else's is still kept.
	n := lookups.Load()
	s, err := other.Session(b.ctx, second)
	require.NoError(t, err)
	require.Equal(t, u.TeamID, s.User.TeamID)
	_, err = other.Session(b.ctx, bystanderToken)
	require.NoError(t, err)
	require.Equal(t, n+1, lookups.Load(), "only the changed user's session is read again")

	// Removed from the team elsewhere: the kept session shows it at once.
	_, err = b.pool.Exec(b.ctx, `UPDATE users SET team_id = NULL WHERE id = $1`, u.ID)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		s, err := other.Session(b.ctx, second)
		return err == nil && s.User.TeamID != u.TeamID
	}, 5*time.Second, 5*time.Millisecond, "the team change reaches the other process")

	// Past SessionKeepMax a kept session is read again however quiet.
	n = lookups.Load()
	clk.add(auth.SessionKeepMax)
	_, err = other.Session(b.ctx, bystanderToken)
	require.NoError(t, err)
	require.Equal(t, n+1, lookups.Load())
}

// A process that does not hear announcements keeps a session for
// SessionCacheTTL only.
func TestWithoutAnnouncementsASessionIsKeptForTheTTL(t *testing.T) {
	t.Parallel()
	b := setup(t)
	var lookups atomic.Int64
	auth.SetAfterLookup(b.svc, func() { lookups.Add(1) })
	u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
	require.NoError(t, err)
	token, _, err := b.svc.CreateSession(b.ctx, u)
	require.NoError(t, err)
	_, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	b.clock.add(auth.SessionCacheTTL - time.Millisecond)
	_, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.Equal(t, int64(1), lookups.Load())
	b.clock.add(time.Millisecond)
	_, err = b.svc.Session(b.ctx, token)
	require.NoError(t, err)
	require.Equal(t, int64(2), lookups.Load())
}
