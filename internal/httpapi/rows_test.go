package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The table's page: team-scoped, refused in words when it asks a sort or a
// status that does not exist, and answered 304 to a poll after which
// nothing in the class changed, a page again once something did.
func TestSubmissionRowsRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.rows@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Year 9 essays", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	first, _ := uploadSubmission(t, ada, asg)
	second, _ := uploadSubmission(t, ada, asg)
	status, _, e = ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": second, "submission": map[string]any{"name": "Brook's essay", "studentEmail": "brook@school.test"}})
	require.Equal(t, 200, status, e)

	const path = "/api/v1/db/assignment/submission-rows"
	status, data, e = ada.call(t, path, map[string]any{"assignmentId": asg, "sort": "name", "limit": 1, "ids": true})
	require.Equal(t, 200, status, e)
	require.EqualValues(t, 2, data["total"])
	rows := data["rows"].([]any)
	require.Len(t, rows, 1)
	require.Equal(t, "Brook's essay", rows[0].(map[string]any)["name"])
	require.NotEmpty(t, rows[0].(map[string]any)["location"], "the page's rows are whole, not only what they were sorted by")
	require.Equal(t, []any{second, first}, data["submissionIds"])
	require.NotEmpty(t, data["version"])

	status, data, e = ada.call(t, path, map[string]any{"assignmentId": asg, "search": "BROOK@"})
	require.Equal(t, 200, status, e)
	require.EqualValues(t, 1, data["total"])
	require.NotContains(t, data, "submissionIds", "only when asked")

	status, _, e = ada.call(t, path, map[string]any{"assignmentId": asg, "sort": "colour"})
	require.Equal(t, 400, status)
	require.Contains(t, e["message"], "sort must be one of")
	status, _, e = ada.call(t, path, map[string]any{"assignmentId": asg, "status": "done"})
	require.Equal(t, 400, status)
	require.Contains(t, e["message"], "status must be all or one of")

	// A poll with the last version: nothing changed, 304.
	res, _ := ada.do(t, "POST", path, map[string]any{"assignmentId": asg})
	require.Equal(t, 200, res.StatusCode)
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)
	res, _ = ada.do(t, "POST", path, map[string]any{"assignmentId": asg}, "If-None-Match", etag)
	require.Equal(t, 304, res.StatusCode)

	// Another team's teacher with the same version gets 404, never a 304.
	bea := b.newBrowser(t)
	bea.signIn(t, "Bea", "bea.rows@other.test")
	res, _ = bea.do(t, "POST", path, map[string]any{"assignmentId": asg}, "If-None-Match", etag)
	require.Equal(t, 404, res.StatusCode)

	// A change to a submission: the whole page again.
	status, _, e = ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": first, "submission": map[string]any{"name": "Ash's essay"}})
	require.Equal(t, 200, status, e)
	res, got := ada.do(t, "POST", path, map[string]any{"assignmentId": asg, "sort": "name"}, "If-None-Match", etag)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "Ash's essay", got["data"].(map[string]any)["rows"].([]any)[0].(map[string]any)["name"])
	require.NotEqual(t, etag, res.Header.Get("ETag"))
}

// assignment/get with light leaves out a large class's lists, not a small one's.
func TestAssignmentGetLightKeepsASmallClass(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.light@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Small class", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	uploadSubmission(t, ada, asg)
	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg, "light": true})
	require.Equal(t, 200, status, e)
	require.Len(t, data["submissions"], 1)
	require.NotContains(t, data, "partial")
}
