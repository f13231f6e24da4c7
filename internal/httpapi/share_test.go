package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/store"
)

// Sharing answers a teacher's address and an address nobody uses alike; the
// share to the newcomer waits, shows in their notifications after their
// first sign-in, and can be copied.
func TestShareAnswersAlikeAndWaitsForANewcomer(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.libTeacher(t, "ada"), b.libTeacher(t, "bob")
	rub := ada.rubric(t, "Argument")
	essay := ada.assignment(t, "Essay", store.AssignmentTypeFeedback)
	newcomer := "newcomer-" + uuid.NewString()[:8] + "@school.test"

	answer := func(path string, body map[string]any, email string) (int, string, string) {
		t.Helper()
		body["email"] = strings.ToUpper(email)
		res, out := ada.do(t, "POST", path, body)
		raw, err := json.Marshal(out)
		require.NoError(t, err)
		return res.StatusCode, res.Header.Get("Content-Type"), strings.ReplaceAll(string(raw), email, "{email}")
	}
	for _, share := range []struct {
		path string
		body func() map[string]any
	}{
		{"/api/v1/db/share/rubric", func() map[string]any { return map[string]any{"rubricId": rub.String()} }},
		{"/api/v1/db/share/assignment", func() map[string]any { return map[string]any{"assignmentId": essay.String()} }},
	} {
		knownStatus, knownType, known := answer(share.path, share.body(), bob.email)
		unknownStatus, unknownType, unknown := answer(share.path, share.body(), newcomer)
		require.Equal(t, 200, knownStatus, known)
		require.Equal(t, knownStatus, unknownStatus, share.path)
		require.Equal(t, knownType, unknownType, share.path)
		require.Equal(t, known, unknown, share.path)
		require.JSONEq(t, `{"data":{"sharedWith":"{email}"}}`, unknown)
	}

	// The newcomer signs up: both shares are there, from Ada, and copy.
	nc := b.newBrowser(t)
	nc.signIn(t, "Newcomer", newcomer)
	status, data, e := nc.call(t, "/api/v1/db/notification/list", nil)
	require.Equal(t, 200, status, e)
	list := data["notifications"].([]any)
	require.Len(t, list, 2)
	for _, n := range list {
		require.Equal(t, map[string]any{"name": "ada", "email": ada.email}, n.(map[string]any)["sender"])
		require.Equal(t, "open", n.(map[string]any)["status"])
	}
	asgNote, rubNote := list[0].(map[string]any), list[1].(map[string]any)
	require.Equal(t, "shared-assignment", asgNote["kind"], "newest first")
	status, data, e = nc.call(t, "/api/v1/db/notification/copySharedAssignment", map[string]any{"notificationId": asgNote["_id"], "status": "closed"})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Essay", data["assignment"].(map[string]any)["name"])
	status, data, e = nc.call(t, "/api/v1/db/notification/copySharedRubric", map[string]any{"notificationId": rubNote["_id"], "status": "closed"})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Argument", data["rubric"].(map[string]any)["name"])
	_, data, _ = nc.call(t, "/api/v1/db/library/get", nil)
	require.Len(t, data["assignments"], 1)
	require.Len(t, data["rubrics"], 1)

	// Bob got his, as before.
	_, data, _ = bob.call(t, "/api/v1/db/notification/list", nil)
	require.Len(t, data["notifications"], 2)
}
