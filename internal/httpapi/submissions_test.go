package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

// insertClient is a River client that only inserts jobs, as the API's.
func insertClient(t *testing.T) *queue.Client {
	t.Helper()
	c, err := queue.NewInsertClient(testdb.Pool(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return c
}

// submissionService is the submissions service over the router's store.
func submissionService(t *testing.T, blobs blob.Blob) *submission.Service {
	t.Helper()
	pool := testdb.Pool(t)
	return &submission.Service{Pool: pool, Jobs: insertClient(t), Files: &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}}
}

// uploadFile uploads body as name to an assignment's submissions folder as
// the browser does (s3-upload, then a PUT to the signed URL) and returns the
// file URL.
func uploadFile(t *testing.T, br *browser, assignmentID, name, body string) string {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/s3-upload", map[string]any{
		"fileName": "assignments/" + assignmentID + "/submissions/" + name, "fileType": "text/plain", "fileSize": len(body),
	})
	require.Equal(t, 200, status, e)
	signed := data["signedUrl"].(string)
	put, err := http.NewRequest("PUT", signed, strings.NewReader(body))
	require.NoError(t, err)
	put.Header.Set("Content-Type", "text/plain")
	res, err := http.DefaultClient.Do(put)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	return data["fileUrl"].(string)
}

// uploadSubmission uploads one file and adds it to the assignment; it
// returns the submission's id and its function result's.
func uploadSubmission(t *testing.T, br *browser, assignmentID string) (submissionID, resultID string) {
	t.Helper()
	url := uploadFile(t, br, assignmentID, "essay.txt", "An essay.")
	status, data, e := br.call(t, "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": assignmentID, "submissions": []map[string]any{{"name": "essay.txt", "location": url}}, "submissionRole": "teacher",
	})
	require.Equal(t, 200, status, e)
	return data["submissions"].([]any)[0].(map[string]any)["_id"].(string),
		data["functionResults"].([]any)[0].(map[string]any)["_id"].(string)
}

func TestTeacherUploadsReadsEditsAndDeletesSubmissions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.submissions@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "feedback"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)

	var uploads []map[string]any
	for _, n := range []string{"one.txt", "two.txt", "three.txt"} {
		uploads = append(uploads, map[string]any{"name": n, "location": uploadFile(t, ada, asg, n, "Text of "+n)})
	}
	status, data, e = ada.call(t, "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg, "submissions": uploads, "submissionRole": "teacher", "type": "feedback",
		"requiresTextractArray": []bool{true, true, true}, "requiresPDFReadArray": []bool{false, false, false},
		"requiresImageReadArray": []bool{false, false, false}, "isHandWritten": false,
	})
	require.Equal(t, 200, status, e)
	subs := data["submissions"].([]any)
	require.Len(t, subs, 3)
	require.Len(t, data["functionResults"].([]any), 3)
	first := subs[0].(map[string]any)
	require.Equal(t, "one.txt", first["name"])
	require.Equal(t, "queued", first["status"])
	require.Equal(t, "upload", first["source"])
	require.Regexp(t, `^assignments/`+asg+`/submissions/[0-9a-f]{16}-one\.txt$`, first["location"], "the blob key, not a URL")

	// The page's one polling call lists them, without their text.
	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	listed := data["submissions"].([]any)
	require.Len(t, listed, 3)
	require.Equal(t, []any{"one.txt", "two.txt", "three.txt"}, []any{listed[0].(map[string]any)["name"], listed[1].(map[string]any)["name"], listed[2].(map[string]any)["name"]})
	require.NotContains(t, listed[0], "text")
	require.Len(t, data["assignment"].(map[string]any)["submissions"].([]any), 3)
	require.Len(t, data["functionResults"].([]any), 3)

	id := first["_id"].(string)
	for _, path := range []string{"/api/v1/db/submission/get", "/api/v1/db/submission/get-view-only"} {
		status, data, e = ada.call(t, path, map[string]any{"submissionId": id})
		require.Equal(t, 200, status, e)
		got := data["submission"].(map[string]any)
		require.Equal(t, "one.txt", got["name"], path)
		require.Equal(t, "", got["text"], "not read yet")
		require.Equal(t, []any{}, got["pages"])
	}

	// Setting the student's email, as the table's menu does.
	status, data, e = ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": id, "submission": map[string]any{"studentEmail": "Sam@School.test"}})
	require.Equal(t, 200, status, e)
	require.Equal(t, "sam@school.test", data["submission"].(map[string]any)["studentEmail"])
	res, body := ada.do(t, "POST", "/api/v1/db/submission/update", map[string]any{"submissionId": id, "submission": map[string]any{"studentEmail": "sam at school"}})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, map[string]any{"code": "invalid", "message": "Please enter a valid email address"}, body["error"])

	// A file from elsewhere is refused and adds nothing.
	res, body = ada.do(t, "POST", "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg, "submissions": []map[string]any{{"name": "x.pdf", "location": "https://evil.example/x.pdf"}},
	})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, "x.pdf is not a file uploaded to Markwell.", body["error"].(map[string]any)["message"])

	// Delete one, then the rest.
	fr := func(i int) string {
		_, data, _ := ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
		for _, r := range data["functionResults"].([]any) {
			if r.(map[string]any)["submission"] == subs[i].(map[string]any)["_id"] {
				return r.(map[string]any)["_id"].(string)
			}
		}
		t.Fatalf("no result for submission %d", i)
		return ""
	}
	status, data, e = ada.call(t, "/api/v1/db/assignment/delete-submission-and-function-result", map[string]any{
		"assignmentId": asg, "submissionId": id, "frId": fr(0), "type": "feedback",
	})
	require.Equal(t, 200, status, e)
	require.Equal(t, float64(1), data["deleted"])
	rest := []string{subs[1].(map[string]any)["_id"].(string), subs[2].(map[string]any)["_id"].(string)}
	status, data, e = ada.call(t, "/api/v1/db/assignment/delete-submissions-and-function-results", map[string]any{
		"assignmentId": asg, "submissionIds": rest, "frIds": []string{fr(1), fr(2)}, "type": "feedback",
	})
	require.Equal(t, 200, status, e)
	require.Equal(t, float64(2), data["deleted"])
	_, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Empty(t, data["submissions"])
	require.Empty(t, data["functionResults"])
	res, _ = ada.do(t, "POST", "/api/v1/db/submission/get", map[string]any{"submissionId": id})
	require.Equal(t, 404, res.StatusCode, "a deleted submission is gone")
}

func TestSubmissionsOfAnotherTeamAreNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, eve := b.newBrowser(t), b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.subs-crossteam@school.test")
	eve.signIn(t, "Eve", "eve.subs-crossteam@school.test")
	_, data, _ := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "feedback"})
	asg := data["assignment"].(map[string]any)["_id"].(string)
	_, data, _ = eve.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Mine", "type": "feedback"})
	evesAsg := data["assignment"].(map[string]any)["_id"].(string)
	sub, fr := uploadSubmission(t, ada, asg)
	adasFile := uploadFile(t, ada, asg, "second.txt", "Second")

	for _, p := range []struct {
		path string
		body map[string]any
	}{
		// Ada's file added to Eve's own assignment.
		{"/api/v1/db/assignment/update-submissions", map[string]any{"assignmentId": evesAsg, "submissions": []map[string]any{{"name": "s", "location": adasFile}}}},
		{"/api/v1/db/assignment/update-submissions", map[string]any{"assignmentId": asg, "submissions": []map[string]any{{"name": "s", "location": adasFile}}}},
		{"/api/v1/db/submission/get", map[string]any{"submissionId": sub}},
		{"/api/v1/db/submission/get-view-only", map[string]any{"submissionId": sub}},
		{"/api/v1/db/submission/update", map[string]any{"submissionId": sub, "submission": map[string]any{"studentEmail": "eve@school.test"}}},
		{"/api/v1/db/assignment/delete-submission-and-function-result", map[string]any{"assignmentId": asg, "submissionId": sub, "frId": fr}},
		{"/api/v1/db/assignment/delete-submission-and-function-result", map[string]any{"assignmentId": evesAsg, "submissionId": sub}},
		{"/api/v1/db/assignment/delete-submissions-and-function-results", map[string]any{"assignmentId": asg, "submissionIds": []string{sub}, "frIds": []string{fr}}},
	} {
		res, body := eve.do(t, "POST", p.path, p.body)
		require.Equal(t, 404, res.StatusCode, "%s %v: %v", p.path, p.body, body)
	}
	_, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Len(t, data["submissions"], 1, "Ada's submission is still there")
	require.Equal(t, "", data["submissions"].([]any)[0].(map[string]any)["studentEmail"], "and unchanged")
	_, data, _ = eve.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": evesAsg})
	require.Empty(t, data["submissions"], "Eve got nothing of Ada's")
}
