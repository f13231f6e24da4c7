package team_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/team"
)

// clock is a settable time source for the service.
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

// withClock makes the bundle's service read the time from a settable clock.
func (b *bundle) withClock() *clock {
	c := &clock{t: time.Now().Truncate(time.Microsecond)}
	b.svc.Now = c.now
	return c
}

func tokenOf(inv team.Invite) string { return inv.URL[strings.LastIndex(inv.URL, "/")+1:] }

// join has owner invite who by email and who accept by link.
func (b *bundle) join(t *testing.T, owner, who identity.Actor) identity.Actor {
	t.Helper()
	inv, err := b.svc.Invite(context.Background(), owner, who.Email)
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(context.Background(), who, tokenOf(inv))
	require.NoError(t, err)
	return b.refresh(t, who)
}

// unverified creates a teacher whose email no provider has verified.
func (b *bundle) unverified(t *testing.T, name string) identity.Actor {
	t.Helper()
	a := b.teacher(t, name)
	_, err := b.svc.Pool.Exec(context.Background(), "UPDATE users SET email_verified = false WHERE id = $1", a.UserID)
	require.NoError(t, err)
	return a
}

func (b *bundle) memberIDs(t *testing.T, a identity.Actor) []uuid.UUID {
	t.Helper()
	r, err := b.svc.Roster(context.Background(), a)
	require.NoError(t, err)
	var ids []uuid.UUID
	for _, m := range r.Members {
		ids = append(ids, m.ID)
	}
	return ids
}

func requireMessage(t *testing.T, err error, c apperr.Code, message string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, c, e.Code, "error: %v", err)
	require.Equal(t, message, e.Message)
}

// The review's scenario: the owner invites D, D accepts, D creates an invite
// for any address, the owner removes D, D redeems that invite: D stays out.
func TestRemovedMemberCannotRejoinWithAnInviteTheyMade(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner, d := b.teacher(t, "Owner"), b.teacher(t, "Dee")
	d = b.join(t, owner, d)
	require.Equal(t, owner.TeamID, d.TeamID)

	backdoor, err := b.svc.Invite(ctx, d, "anyone-"+uuid.NewString()[:8]+"@elsewhere.test")
	require.NoError(t, err)
	_, err = b.svc.CreateLink(ctx, d)
	requireMessage(t, err, apperr.Forbidden, "Only the team's owner can create invitation links.")

	require.NoError(t, b.svc.RemoveMember(ctx, owner, d.UserID))
	// A request of D's that was already under way, still naming the old
	// team, makes no new invite either.
	_, err = b.svc.Invite(ctx, d, "late-"+uuid.NewString()[:8]+"@elsewhere.test")
	require.Equal(t, apperr.NotFound, code(err))
	d = b.refresh(t, d)
	require.NotEqual(t, owner.TeamID, d.TeamID)

	_, err = b.svc.AcceptInvite(ctx, d, tokenOf(backdoor))
	requireMessage(t, err, apperr.NotFound, "This invitation is no longer valid.")
	d = b.refresh(t, d)
	require.NotEqual(t, owner.TeamID, d.TeamID, "D is outside the team")
	require.NotContains(t, b.memberIDs(t, owner), d.UserID)
}

func TestAUserWithAnotherEmailCannotAcceptAnEmailInvite(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob, mallory := b.teacher(t, "Ada"), b.teacher(t, "Bob"), b.teacher(t, "Mallory")
	inv, err := b.svc.Invite(ctx, ada, bob.Email)
	require.NoError(t, err)
	require.Equal(t, team.KindEmail, inv.Kind)
	require.Nil(t, inv.ExpiresAt, "email invites do not expire")

	_, err = b.svc.AcceptInvite(ctx, mallory, tokenOf(inv))
	requireMessage(t, err, apperr.Forbidden, "This invitation was sent to another email address. Sign in with that address to accept it.")
	require.NotEqual(t, ada.TeamID, b.refresh(t, mallory).TeamID)

	// The refusal left the invite for Bob.
	tm, err := b.svc.AcceptInvite(ctx, bob, tokenOf(inv))
	require.NoError(t, err)
	require.Equal(t, ada.TeamID, tm.ID)
}

func TestAnEmailInviteNeedsAVerifiedEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, eve := b.teacher(t, "Ada"), b.unverified(t, "Eve")
	inv, err := b.svc.Invite(ctx, ada, eve.Email)
	require.NoError(t, err)

	_, err = b.svc.AcceptInvite(ctx, eve, tokenOf(inv))
	requireMessage(t, err, apperr.Forbidden, "Your email address is not verified, so this invitation cannot be accepted. Sign in with a provider that verifies it.")
	require.NotEqual(t, ada.TeamID, b.refresh(t, eve).TeamID)
	r, err := b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Invites, 1, "the invite is still pending")
}

func TestAnAcceptedEmailInviteCannotBeUsedAgain(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	inv, err := b.svc.Invite(ctx, ada, bob.Email)
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(ctx, bob, tokenOf(inv))
	require.NoError(t, err)
	bob = b.refresh(t, bob)
	require.NoError(t, b.svc.RemoveMember(ctx, ada, bob.UserID))
	bob = b.refresh(t, bob)

	_, err = b.svc.AcceptInvite(ctx, bob, tokenOf(inv))
	requireMessage(t, err, apperr.Invalid, "This invitation has already been used.")
	require.NotEqual(t, ada.TeamID, b.refresh(t, bob).TeamID)
}

func TestOwnerLinkInvites(t *testing.T) {
	t.Parallel()
	b := setup(t)
	clk := b.withClock()
	b.svc.LinkTTL = 48 * time.Hour
	ctx := context.Background()
	ada, cy, newcomer, late := b.teacher(t, "Ada"), b.teacher(t, "Cy"), b.teacher(t, "Newcomer"), b.teacher(t, "Late")
	cy = b.join(t, ada, cy)

	link, err := b.svc.CreateLink(ctx, ada)
	require.NoError(t, err)
	require.Equal(t, team.KindLink, link.Kind)
	require.Empty(t, link.Email)
	require.NotNil(t, link.ExpiresAt)
	require.WithinDuration(t, clk.now().Add(48*time.Hour), *link.ExpiresAt, time.Millisecond)
	require.True(t, strings.HasPrefix(link.URL, "http://markwell.test/invite/"))

	// Every member sees it, with its expiry and without its link.
	r, err := b.svc.Roster(ctx, cy)
	require.NoError(t, err)
	require.Len(t, r.Invites, 1)
	require.Equal(t, link.ID, r.Invites[0].ID)
	require.Equal(t, team.KindLink, r.Invites[0].Kind)
	require.WithinDuration(t, *link.ExpiresAt, *r.Invites[0].ExpiresAt, time.Millisecond)
	require.Empty(t, r.Invites[0].URL)

	// Only the owner revokes it.
	requireMessage(t, b.svc.CancelInvite(ctx, cy, link.ID), apperr.Forbidden, "Only the team's owner can revoke invitation links.")

	// The owner opening their own link changes nothing and keeps it.
	_, err = b.svc.AcceptInvite(ctx, ada, tokenOf(link))
	require.NoError(t, err)

	// Anyone signed in may use it, once, before it expires.
	clk.add(47 * time.Hour)
	tm, err := b.svc.AcceptInvite(ctx, newcomer, tokenOf(link))
	require.NoError(t, err)
	require.Equal(t, ada.TeamID, tm.ID)
	_, err = b.svc.AcceptInvite(ctx, late, tokenOf(link))
	requireMessage(t, err, apperr.Invalid, "This invitation has already been used.")
	require.NotEqual(t, ada.TeamID, b.refresh(t, late).TeamID)
	r, err = b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Empty(t, r.Invites)
	require.Len(t, r.Members, 3)

	// A revoked link is no longer valid.
	revoked, err := b.svc.CreateLink(ctx, ada)
	require.NoError(t, err)
	require.NoError(t, b.svc.CancelInvite(ctx, ada, revoked.ID))
	_, err = b.svc.AcceptInvite(ctx, late, tokenOf(revoked))
	requireMessage(t, err, apperr.NotFound, "This invitation is no longer valid.")
}

func TestAnExpiredLinkSaysItHasExpired(t *testing.T) {
	t.Parallel()
	b := setup(t)
	clk := b.withClock()
	ctx := context.Background()
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")

	link, err := b.svc.CreateLink(ctx, ada)
	require.NoError(t, err)
	require.WithinDuration(t, clk.now().Add(7*24*time.Hour), *link.ExpiresAt, time.Millisecond, "7 days by default")

	clk.add(7 * 24 * time.Hour)
	_, err = b.svc.AcceptInvite(ctx, bob, tokenOf(link))
	requireMessage(t, err, apperr.Invalid, "This invitation link has expired. Ask your team's owner for a new one.")
	require.NotEqual(t, ada.TeamID, b.refresh(t, bob).TeamID)
	r, err := b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Empty(t, r.Invites, "an expired link is no longer listed")
}

func TestLeavingTheTeamRevokesThePendingInvitesOneMade(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, dee, eli, friend := b.teacher(t, "Ada"), b.teacher(t, "Dee"), b.teacher(t, "Eli"), b.teacher(t, "Friend")
	dee, eli = b.join(t, ada, dee), b.join(t, ada, eli)

	fromDee, err := b.svc.Invite(ctx, dee, friend.Email)
	require.NoError(t, err)
	fromEli, err := b.svc.Invite(ctx, eli, "colleague-"+uuid.NewString()[:8]+"@school.test")
	require.NoError(t, err)
	link, err := b.svc.CreateLink(ctx, ada)
	require.NoError(t, err)

	require.NoError(t, b.svc.RemoveMember(ctx, ada, dee.UserID))
	r, err := b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Invites, 2)
	require.ElementsMatch(t, []uuid.UUID{fromEli.ID, link.ID}, []uuid.UUID{r.Invites[0].ID, r.Invites[1].ID}, "only Dee's invite is gone")
	_, err = b.svc.AcceptInvite(ctx, friend, tokenOf(fromDee))
	requireMessage(t, err, apperr.NotFound, "This invitation is no longer valid.")

	// Leaving of one's own accord takes one's invites too.
	_, err = b.svc.Leave(ctx, eli)
	require.NoError(t, err)
	r, err = b.svc.Roster(ctx, ada)
	require.NoError(t, err)
	require.Len(t, r.Invites, 1)
	require.Equal(t, link.ID, r.Invites[0].ID)

	var pending int
	require.NoError(t, b.svc.Pool.QueryRow(ctx, "SELECT count(*) FROM team_invites WHERE invited_by = ANY($1) AND accepted_at IS NULL",
		[]uuid.UUID{dee.UserID, eli.UserID}).Scan(&pending))
	require.Zero(t, pending)
}

// The probe's scenario: an email invite to X is pending when X joins by the
// owner's link; the owner removes X; X accepts the old email invite, or
// signs in again with a verified email (which accepts pending invites):
// either way X stays out. Leaving of one's own accord keeps the invites to
// one (the team asked them in; they may take it up again).
func TestRemovingAMemberRevokesThePendingInvitesToTheirEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	owner, eli, x := b.teacher(t, "Owner"), b.teacher(t, "Eli"), b.teacher(t, "Xan")
	eli = b.join(t, owner, eli)
	toX, err := b.svc.Invite(ctx, eli, strings.ToUpper(x.Email))
	require.NoError(t, err)
	link, err := b.svc.CreateLink(ctx, owner)
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(ctx, x, tokenOf(link))
	require.NoError(t, err)
	x = b.refresh(t, x)
	require.Equal(t, owner.TeamID, x.TeamID)

	// An invite to X in another team is not this team's to revoke.
	other := b.teacher(t, "Other")
	elsewhere, err := b.svc.Invite(ctx, other, x.Email)
	require.NoError(t, err)

	require.NoError(t, b.svc.RemoveMember(ctx, owner, x.UserID))
	r, err := b.svc.Roster(ctx, owner)
	require.NoError(t, err)
	require.Empty(t, r.Invites, "the invite to X is gone from the team's pending invites")
	r, err = b.svc.Roster(ctx, other)
	require.NoError(t, err)
	require.Len(t, r.Invites, 1)
	require.Equal(t, elsewhere.ID, r.Invites[0].ID, "the other team's invite to X stays")

	x = b.refresh(t, x)
	_, err = b.svc.AcceptInvite(ctx, x, tokenOf(toX))
	requireMessage(t, err, apperr.NotFound, "This invitation is no longer valid.")
	require.NotEqual(t, owner.TeamID, b.refresh(t, x).TeamID)
	require.NotContains(t, b.memberIDs(t, owner), x.UserID)

	// Signing in again, verified, places X by a pending invite: only the
	// other team's is left.
	signin, err := auth.New(auth.Config{Pool: b.svc.Pool, Secret: strings.Repeat("s", 32), MaxAge: time.Hour, UpdateAge: time.Minute})
	require.NoError(t, err)
	u, err := signin.SignIn(ctx, auth.Identity{Provider: "google", Subject: "x-" + x.UserID.String(), Email: x.Email, EmailVerified: true, Name: "Xan"})
	require.NoError(t, err)
	require.Equal(t, x.UserID, u.ID)
	require.Equal(t, other.TeamID, u.TeamID, "X joined the team whose invite was still pending")
	require.NotContains(t, b.memberIDs(t, owner), x.UserID)

	// Leaving keeps the invites to the one who leaves.
	y := b.teacher(t, "Yve")
	toY, err := b.svc.Invite(ctx, owner, y.Email)
	require.NoError(t, err)
	link, err = b.svc.CreateLink(ctx, owner)
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(ctx, y, tokenOf(link))
	require.NoError(t, err)
	_, err = b.svc.Leave(ctx, b.refresh(t, y))
	require.NoError(t, err)
	_, err = b.svc.AcceptInvite(ctx, b.refresh(t, y), tokenOf(toY))
	require.NoError(t, err)
	require.Equal(t, owner.TeamID, b.refresh(t, y).TeamID)
}
