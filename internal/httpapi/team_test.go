package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func inviteToken(t *testing.T, invite map[string]any) string {
	t.Helper()
	url, _ := invite["url"].(string)
	require.Contains(t, url, "/invite/")
	return url[strings.LastIndex(url, "/")+1:]
}

// The review's scenario, through the API: the owner invites D, D signs in
// and is in, D invites some address, the owner removes D, D redeems D's
// invite. D stays outside the team.
func TestARemovedMemberCannotRejoinWithAnInviteTheyMade(t *testing.T) {
	t.Parallel()
	b := setup(t)
	suffix := uuid.NewString()[:8]
	owner := b.browser
	ownerUser := owner.signIn(t, "Owner", "owner-rejoin-"+suffix+"@school.test")
	teamID := ownerUser["teamId"].(string)
	dEmail := "dee-rejoin-" + suffix + "@school.test"
	status, _, e := owner.call(t, "/api/v1/db/team/invite", map[string]any{"email": dEmail})
	require.Equal(t, 200, status, e)

	d := b.newBrowser(t)
	dUser := d.signIn(t, "Dee", dEmail)
	require.Equal(t, teamID, dUser["teamId"], "D joins at sign-in")
	status, data, e := d.call(t, "/api/v1/db/team/invite", map[string]any{"email": "anyone-" + suffix + "@elsewhere.test"})
	require.Equal(t, 200, status, e)
	backdoor := inviteToken(t, data["invite"].(map[string]any))
	status, _, e = d.call(t, "/api/v1/db/team/invite-link", map[string]any{})
	require.Equal(t, 403, status)
	require.Equal(t, "Only the team's owner can create invitation links.", e["message"])

	status, _, e = owner.call(t, "/api/v1/db/team/remove-member", map[string]any{"userId": dUser["id"]})
	require.Equal(t, 200, status, e)

	status, _, e = d.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": backdoor})
	require.Equal(t, 404, status)
	require.Equal(t, map[string]any{"code": "not_found", "message": "This invitation is no longer valid."}, e)
	status, data, e = d.call(t, "/api/v1/db/user/get", nil)
	require.Equal(t, 200, status, e)
	require.NotEqual(t, teamID, data["user"].(map[string]any)["team"].(map[string]any)["_id"], "D is outside the team")
	status, data, e = owner.call(t, "/api/v1/db/team/members", nil)
	require.Equal(t, 200, status, e)
	require.Len(t, data["members"], 1)
	require.Empty(t, data["invites"], "D's invite was revoked with D")
}

func TestAnEmailInviteRefusesAnotherSignedInEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	suffix := uuid.NewString()[:8]
	b.signIn(t, "Ada", "ada-bound-"+suffix+"@school.test")
	status, data, e := b.call(t, "/api/v1/db/team/invite", map[string]any{"email": "bea-bound-" + suffix + "@school.test"})
	require.Equal(t, 200, status, e)
	invite := data["invite"].(map[string]any)
	require.Equal(t, "email", invite["kind"])
	require.Nil(t, invite["expiresAt"])

	mallory := b.newBrowser(t)
	mUser := mallory.signIn(t, "Mallory", "mallory-bound-"+suffix+"@school.test")
	status, _, e = mallory.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": inviteToken(t, invite)})
	require.Equal(t, 403, status)
	require.Equal(t, "This invitation was sent to another email address. Sign in with that address to accept it.", e["message"])
	_, data, _ = mallory.call(t, "/api/v1/db/user/get", nil)
	require.Equal(t, mUser["teamId"], data["user"].(map[string]any)["team"].(map[string]any)["_id"])
}

func TestTheOwnerMakesListsAndRevokesInviteLinks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	suffix := uuid.NewString()[:8]
	owner := b.signIn(t, "Ada", "ada-links-"+suffix+"@school.test")
	before := time.Now()
	status, data, e := b.call(t, "/api/v1/db/team/invite-link", map[string]any{"teamId": owner["teamId"]})
	require.Equal(t, 200, status, e)
	link := data["invite"].(map[string]any)
	require.Equal(t, "link", link["kind"])
	require.Equal(t, "", link["email"])
	require.True(t, strings.HasPrefix(link["url"].(string), b.srv.URL+"/invite/"))
	expires, err := time.Parse(time.RFC3339Nano, link["expiresAt"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, before.Add(7*24*time.Hour), expires, time.Minute, "7 days by default")

	status, data, e = b.call(t, "/api/v1/db/team/members", nil)
	require.Equal(t, 200, status, e)
	listed := data["invites"].([]any)
	require.Len(t, listed, 1)
	require.Equal(t, link["_id"], listed[0].(map[string]any)["_id"])
	require.Equal(t, link["expiresAt"], listed[0].(map[string]any)["expiresAt"])
	require.NotContains(t, listed[0], "url", "the link is shown once")

	// Anyone signed in joins with it, once.
	guest := b.newBrowser(t)
	guest.signIn(t, "Guest", "guest-links-"+suffix+"@elsewhere.test")
	status, data, e = guest.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": inviteToken(t, link)})
	require.Equal(t, 200, status, e)
	require.Equal(t, owner["teamId"], data["team"].(map[string]any)["_id"])
	other := b.newBrowser(t)
	other.signIn(t, "Other", "other-links-"+suffix+"@elsewhere.test")
	status, _, e = other.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": inviteToken(t, link)})
	require.Equal(t, 400, status)
	require.Equal(t, "This invitation has already been used.", e["message"])

	// A revoked link is no longer valid.
	_, data, _ = b.call(t, "/api/v1/db/team/invite-link", map[string]any{})
	second := data["invite"].(map[string]any)
	status, _, e = b.call(t, "/api/v1/db/team/cancel-invite", map[string]any{"inviteId": second["_id"]})
	require.Equal(t, 200, status, e)
	status, _, e = other.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": inviteToken(t, second)})
	require.Equal(t, 404, status)
	require.Equal(t, "This invitation is no longer valid.", e["message"])
}

// The API remembers sessions for a moment (auth.SessionCacheTTL), and a
// session carries its user's team. A member removed from the team must
// lose the team's library with their very next request, and one who joins
// must see it with theirs.
func TestTeamChangesTakeEffectOnTheNextRequest(t *testing.T) {
	t.Parallel()
	b := setup(t)
	suffix := uuid.NewString()[:8]
	owner := b.browser
	owner.signIn(t, "Owner", "owner-next-"+suffix+"@school.test")
	status, _, e := owner.call(t, "/api/v1/db/rubric/put", okRubric())
	require.Equal(t, 200, status, e)
	rubrics := func(br *browser) int {
		status, data, e := br.call(t, "/api/v1/db/rubric/list", nil)
		require.Equal(t, 200, status, e)
		return len(data["rubrics"].([]any))
	}

	dEmail := "dee-next-" + suffix + "@school.test"
	d := b.newBrowser(t)
	dUser := d.signIn(t, "Dee", dEmail)
	require.Zero(t, rubrics(d), "not in the team yet") // the session is now remembered
	status, data, e := owner.call(t, "/api/v1/db/team/invite", map[string]any{"email": dEmail})
	require.Equal(t, 200, status, e)
	status, _, e = d.call(t, "/api/v1/db/team/accept-invite", map[string]any{"token": inviteToken(t, data["invite"].(map[string]any))})
	require.Equal(t, 200, status, e)
	require.Equal(t, 1, rubrics(d), "in the team at once")

	status, _, e = owner.call(t, "/api/v1/db/team/remove-member", map[string]any{"userId": dUser["id"]})
	require.Equal(t, 200, status, e)
	require.Zero(t, rubrics(d), "out of the team at once")
}
