package auth_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/store"
)

// shareWaitingFor has a teacher of another team share a rubric with email
// before anyone has signed up with it.
func (b *bundle) shareWaitingFor(t *testing.T, email string) store.Notification {
	t.Helper()
	sender, err := b.svc.SignIn(b.ctx, b.identity("google", "sender-"+uuid.NewString()[:8], b.email("sender-"+uuid.NewString()[:8]), true))
	require.NoError(t, err)
	r, err := store.Q.CreateRubric(b.ctx, b.pool, store.CreateRubricParams{
		TeamID: sender.TeamID, Name: "Lab rubric",
		Criteria: json.RawMessage(`[{"criterionDescription":"Method","levelDescriptions":["clear"],"useRange":false}]`),
	})
	require.NoError(t, err)
	n, err := store.Q.NotificationCreate(b.ctx, b.pool, store.NotificationCreateParams{
		RecipientEmail: &email, Kind: store.NotificationKindSharedRubric,
		SenderID: uuid.NullUUID{UUID: sender.ID, Valid: true}, RubricID: uuid.NullUUID{UUID: r.ID, Valid: true},
	})
	require.NoError(t, err)
	return n
}

func (b *bundle) notifications(t *testing.T, u auth.User) []uuid.UUID {
	t.Helper()
	rows, err := store.Q.NotificationList(b.ctx, b.pool, u.ID)
	require.NoError(t, err)
	ids := []uuid.UUID{}
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

func TestFirstSignInReceivesTheSharesThatWaitedForTheEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("newcomer")
	n := b.shareWaitingFor(t, email)

	u, err := b.svc.SignInWithCredentials(b.ctx, "Newcomer", email)
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{n.ID}, b.notifications(t, u))

	// Signing in again delivers nothing twice.
	_, err = b.svc.SignInWithCredentials(b.ctx, "Newcomer", email)
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{n.ID}, b.notifications(t, u))
}

func TestSharesWaitForAVerifiedSignIn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	email := b.email("claimant")
	n := b.shareWaitingFor(t, email)

	u, err := b.svc.SignIn(b.ctx, b.identity("oidc", "o-claimant", email, false))
	require.NoError(t, err)
	require.Empty(t, b.notifications(t, u), "an unverified email receives nothing")

	v, err := b.svc.SignIn(b.ctx, b.identity("google", "g-claimant", email, true))
	require.NoError(t, err)
	require.Equal(t, u.ID, v.ID)
	require.Equal(t, []uuid.UUID{n.ID}, b.notifications(t, v))
}

// A provider that now vouches for another address than the user's does not
// vouch for the user's: their invites wait.
func TestSignInAcceptsOnlyInvitesForTheVerifiedEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	first := b.email("renamed")
	u, err := b.svc.SignIn(b.ctx, b.identity("google", "g-renamed", first, true))
	require.NoError(t, err)
	owner := b.inviteTo(t, "frank", first)

	again, err := b.svc.SignIn(b.ctx, b.identity("google", "g-renamed", b.email("other-address"), true))
	require.NoError(t, err)
	require.Equal(t, u.ID, again.ID)
	require.NotEqual(t, owner.TeamID, again.TeamID)
	require.Equal(t, 1, b.pendingInvites(t, first))
}
