package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOtherTeamsIDsAreNotFoundOnEveryRoute enumerates the router: every
// signed-in /api/v1 route must have a probe (crossTeamProbes, world_test.go)
// or say why it takes no id (noIDRoutes), so a route added later without
// one fails this test. Eve, of another team, sends Ada's ids to each and
// gets 404; Ada's library is unchanged afterwards. The route matrix
// (matrix_test.go) checks the same routes for every kind of caller.
func TestOtherTeamsIDsAreNotFoundOnEveryRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := buildAdaWorld(t, b, b.browser, "crossteam")
	_, before := b.do(t, "GET", "/api/v1/db/library/get", nil)
	_, rosterBefore := b.do(t, "GET", "/api/v1/db/team/members", nil)
	_, subBefore := b.do(t, "POST", "/api/v1/db/submission/get", map[string]any{"submissionId": w.submissionID})

	eve := b.newBrowser(t)
	eveUser := eve.signIn(t, "Eve", "eve.crossteam@school.test")
	probes := crossTeamProbes(w, eveUser["teamId"].(string))

	adaIDs := w.ids()
	for _, r := range b.router.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		name := r.Method + " " + r.Path
		if why, ok := noIDRoutes[name]; ok {
			if r.Method == "GET" {
				res, body := eve.do(t, "GET", r.Path, nil)
				// 302: a browser navigation (the Google Classroom connect) back to this site
				require.Contains(t, []int{200, 302}, res.StatusCode, name)
				raw, _ := json.Marshal(body)
				raw = append(raw, res.Header.Get("Location")...)
				for _, id := range append(adaIDs, w.mark) {
					require.NotContains(t, string(raw), id, "%s (%s) shows Ada's %s", name, why, id)
				}
			}
			continue
		}
		body, ok := probes[name]
		require.True(t, ok, "route %s has no cross-team probe: add one to crossTeamProbes (world_test.go)", name)
		res, got := eve.do(t, r.Method, r.Path, body)
		require.Equal(t, 404, res.StatusCode, "%s with Ada's ids: %v", name, got)
		require.Equal(t, "not_found", got["error"].(map[string]any)["code"], name)
	}

	_, after := b.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Equal(t, before, after, "Ada's library is unchanged")
	_, rosterAfter := b.do(t, "GET", "/api/v1/db/team/members", nil)
	require.Equal(t, rosterBefore, rosterAfter, "Ada's team is unchanged")
	_, asg := b.do(t, "POST", "/api/v1/db/assignment/get", map[string]any{"assignmentId": w.assignmentID})
	subs := asg["data"].(map[string]any)["submissions"].([]any)
	require.Len(t, subs, 2, "Ada's submissions are still there")
	_, subAfter := b.do(t, "POST", "/api/v1/db/submission/get", map[string]any{"submissionId": w.submissionID})
	require.Equal(t, subBefore, subAfter, "and unchanged")
	_, notes := b.do(t, "GET", "/api/v1/db/notification/list", nil)
	require.Equal(t, "open", notes["data"].(map[string]any)["notifications"].([]any)[0].(map[string]any)["status"])
}
