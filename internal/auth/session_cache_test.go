package auth_test

import (
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/store"
)

// A lookup that read the session before a sign-out (or a team change) and
// remembers it after the forget must not put the old session back: the
// next request sees the signed-out (or moved) state, not the cache's.
// The interleaving is forced: the lookup waits, between its read and its
// remembering, until the change and its forget are done.
func TestALookupUnderWayDoesNotBringBackAForgottenSession(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		change func(t *testing.T, b *bundle, token string, u auth.User)
		check  func(t *testing.T, b *bundle, token string, u auth.User)
	}{
		"sign-out": {
			change: func(t *testing.T, b *bundle, token string, _ auth.User) {
				require.NoError(t, b.svc.DeleteSession(b.ctx, token))
			},
			check: func(t *testing.T, b *bundle, token string, _ auth.User) {
				_, err := b.svc.Session(b.ctx, token)
				require.ErrorIs(t, err, auth.ErrNoSession, "the signed-out session is not served from the cache")
			},
		},
		"removal from the team": {
			change: func(t *testing.T, b *bundle, _ string, u auth.User) {
				// What a removal commits, then what the API does after it.
				tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Elsewhere "+uuid.NewString()[:8])
				require.NoError(t, err)
				require.NoError(t, store.Q.SetUserTeam(b.ctx, b.pool, store.SetUserTeamParams{ID: u.ID, TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}}))
				b.svc.ForgetSessions()
			},
			check: func(t *testing.T, b *bundle, token string, u auth.User) {
				sess, err := b.svc.Session(b.ctx, token)
				require.NoError(t, err)
				require.NotEqual(t, u.TeamID, sess.User.TeamID, "the old team is not served from the cache")
			},
		},
		"session data": {
			change: func(t *testing.T, b *bundle, token string, _ auth.User) {
				_, err := b.svc.UpdateSessionData(b.ctx, token, []byte(`{"theme":"dark"}`))
				require.NoError(t, err)
			},
			check: func(t *testing.T, b *bundle, token string, _ auth.User) {
				sess, err := b.svc.Session(b.ctx, token)
				require.NoError(t, err)
				require.JSONEq(t, `{"theme":"dark"}`, string(sess.Data))
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			u, err := b.svc.SignInWithCredentials(b.ctx, "Ada", b.email("ada"))
			require.NoError(t, err)
			token, _, err := b.svc.CreateSession(b.ctx, u)
			require.NoError(t, err)

			read, changed := make(chan struct{}), make(chan struct{})
			// Only the first lookup waits (the change may look the session
			// up itself, as UpdateSessionData does).
			var first atomic.Bool
			auth.SetAfterLookup(b.svc, func() {
				if first.CompareAndSwap(false, true) {
					close(read)
					<-changed
				}
			})
			done := make(chan error, 1)
			go func() {
				sess, err := b.svc.Session(b.ctx, token)
				if err == nil && sess.User.ID != u.ID {
					err = auth.ErrNoSession
				}
				done <- err
			}()
			<-read // the lookup has read the live session, and waits
			tc.change(t, b, token, u)
			close(changed)
			require.NoError(t, <-done, "the lookup under way answers with what it read")

			tc.check(t, b, token, u)
		})
	}
}
