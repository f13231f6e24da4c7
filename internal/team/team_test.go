package team_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc *team.Service
}

func setup(t *testing.T) *bundle {
	t.Helper()
	return &bundle{svc: &team.Service{Pool: testdb.Pool(t), PublicURL: "http://markwell.test"}}
}

// teacher creates a signed-up teacher who owns a team of their own.
func (b *bundle) teacher(t *testing.T, name string) identity.Actor {
	t.Helper()
	ctx := context.Background()
	email := strings.ToLower(name) + "-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, b.svc.Pool, team.TeamName(name, email))
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: name, EmailVerified: true, TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	require.NoError(t, store.Q.SetTeamOwner(ctx, b.svc.Pool, store.SetTeamOwnerParams{ID: tm.ID, OwnerID: uuid.NullUUID{UUID: u.ID, Valid: true}}))
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: name, Email: email}
}

func (b *bundle) refresh(t *testing.T, a identity.Actor) identity.Actor {
	t.Helper()
	u, err := store.Q.GetUser(context.Background(), b.svc.Pool, a.UserID)
	require.NoError(t, err)
	a.TeamID = u.TeamID.UUID
	return a
}

func code(err error) apperr.Code { return apperr.From(err).Code }

func TestUserShowsTheTeamLibrary(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada := b.teacher(t, "Ada")
	asg, err := store.Q.CreateAssignment(ctx, b.svc.Pool, store.CreateAssignmentParams{TeamID: ada.TeamID, Name: "Essay", Type: store.AssignmentTypeGrade})
	require.NoError(t, err)

	u, err := b.svc.User(ctx, ada)
	require.NoError(t, err)
	require.Equal(t, ada.UserID, u.ID)
	require.Equal(t, "Ada's team", u.Team.Name)
	require.Equal(t, ada.UserID, u.Team.OwnerID)
	require.Equal(t, []team.Ref{{ID: asg.ID}}, u.Team.Assignments)
	require.Empty(t, u.Team.Rubrics)
	require.Empty(t, u.Team.Folders)
	require.NotNil(t, u.Functions)
}

func TestInviteThenAcceptByLink(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")

	inv, err := b.svc.Invite(ctx, ada, " "+strings.ToUpper(bob.Email)+" ")
	require.NoError(t, err)
	require.Equal(t, bob.Email, inv.Email)
	require.True(t, strings.HasPrefix(inv.URL, "http://markwell.test/invite/"))

	r, err := b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Members, 1)
	require.Len(t, r.Invites, 1)

	_, err = b.svc.Invite(ctx, ada, bob.Email)
	require.ErrorContains(t, err, "has already been invited")

	token := strings.TrimPrefix(inv.URL, "http://markwell.test/invite/")
	tm, err := b.svc.AcceptInvite(ctx, bob, token)
	require.NoError(t, err)
	require.Equal(t, ada.TeamID, tm.ID)

	r, err = b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Members, 2)
	require.Empty(t, r.Invites)

	// A link works once.
	carol := b.teacher(t, "Carol")
	_, err = b.svc.AcceptInvite(ctx, carol, token)
	require.Equal(t, apperr.Invalid, code(err))
	_, err = b.svc.Invite(ctx, ada, bob.Email)
	require.ErrorContains(t, err, "is already in your team")
}

func TestInviteRefusesBadEmails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	for _, bad := range []string{"", "bob", "bob@", "Bob <bob@school.test>", "bob@localhost"} {
		_, err := b.svc.Invite(context.Background(), ada, bad)
		require.Equal(t, apperr.Invalid, code(err), bad)
	}
}

func TestOtherTeamsInvitesAndMembersAreNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, eve := b.teacher(t, "Ada"), b.teacher(t, "Eve")
	inv, err := b.svc.Invite(ctx, ada, "new@school.test")
	require.NoError(t, err)

	require.Equal(t, apperr.NotFound, code(b.svc.CancelInvite(ctx, eve, inv.ID)))
	require.Equal(t, apperr.NotFound, code(b.svc.RemoveMember(ctx, eve, ada.UserID)))
	r, err := b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Invites, 1, "the other team's attempt changed nothing")

	require.NoError(t, b.svc.CancelInvite(ctx, ada, inv.ID))
	require.Equal(t, apperr.NotFound, code(b.svc.CancelInvite(ctx, ada, inv.ID)))
}

func TestOnlyTheOwnerRemovesMembers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob, cat := b.teacher(t, "Ada"), b.teacher(t, "Bob"), b.teacher(t, "Cat")
	for _, who := range []identity.Actor{bob, cat} {
		inv, err := b.svc.Invite(ctx, ada, who.Email)
		require.NoError(t, err)
		_, err = b.svc.AcceptInvite(ctx, who, inv.URL[strings.LastIndex(inv.URL, "/")+1:])
		require.NoError(t, err)
	}
	bob, cat = b.refresh(t, bob), b.refresh(t, cat)

	require.Equal(t, apperr.Forbidden, code(b.svc.RemoveMember(ctx, bob, cat.UserID)))
	require.Equal(t, apperr.Invalid, code(b.svc.RemoveMember(ctx, ada, ada.UserID)))
	require.NoError(t, b.svc.RemoveMember(ctx, ada, cat.UserID))

	cat = b.refresh(t, cat)
	require.NotEqual(t, ada.TeamID, cat.TeamID)
	u, err := b.svc.User(ctx, cat)
	require.NoError(t, err)
	require.Equal(t, cat.UserID, u.Team.OwnerID, "the removed teacher owns a new team")
}

func TestOwnerLeavingHandsTheTeamOn(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")

	_, err := b.svc.Leave(ctx, ada)
	require.ErrorContains(t, err, "only member")

	inv, err := b.svc.Invite(ctx, ada, bob.Email)
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(ctx, bob, inv.URL[strings.LastIndex(inv.URL, "/")+1:])
	require.NoError(t, err)
	oldTeam := ada.TeamID

	tm, err := b.svc.Leave(ctx, ada)
	require.NoError(t, err)
	require.NotEqual(t, oldTeam, tm.ID)
	require.Equal(t, ada.UserID, tm.OwnerID)

	bob = b.refresh(t, bob)
	u, err := b.svc.User(ctx, bob)
	require.NoError(t, err)
	require.Equal(t, oldTeam, u.Team.ID)
	require.Equal(t, bob.UserID, u.Team.OwnerID)
}
