package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/testdb"
)

// releaseService is the release service over the router's store, email as
// the configuration says.
func releaseService(t *testing.T, cfg config.Config) *release.Service {
	t.Helper()
	links, err := release.NewLinks(cfg.SecretKey, cfg.PublicURL)
	require.NoError(t, err)
	return &release.Service{Pool: testdb.Pool(t), Jobs: insertClient(t), Links: links, EmailEnabled: cfg.EmailEnabled()}
}

// finish gives a submission's result a finished status and feedback, as
// grading would.
func finish(t *testing.T, submissionID, feedback string) {
	t.Helper()
	_, err := testdb.Pool(t).Exec(context.Background(),
		`UPDATE function_results SET status = 'graded', feedback = $2 WHERE submission_id = $1`, submissionID, feedback)
	require.NoError(t, err)
}

func TestAReleasedLinkOpensExactlyThatResultUntilRevoked(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.release@school.test")
	status, data, e := b.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "prompt", "provideInstantFeedback": false})
	require.Equal(t, 200, status, e)
	asgID := data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = b.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asgID, "prompt": "Be kind"})
	require.Equal(t, 200, status, e)
	status, data, e = b.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	token := data["token"].(string)
	sam := b.newBrowser(t).submitAs(t, asgID, token, "Sam Student", "Sam's essay")
	kim := b.newBrowser(t).submitAs(t, asgID, token, "Kim Student", "Kim's essay")
	samID := sam["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	kimID := kim["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	finish(t, samID, "Sam: a clear argument.")
	finish(t, kimID, "Kim: more evidence.")

	status, data, e = b.call(t, "/api/v1/app-config", nil)
	require.Equal(t, 200, status, e)
	require.Equal(t, false, data["emailEnabled"], "no SMTP here")

	// Before release, Sam's own view token (instant feedback off) shows
	// the status only, and says it is not released.
	reader := b.newBrowser(t)
	result := func(viewToken any, submissionID string) (int, map[string]any) {
		status, data, e := reader.call(t, "/api/v1/db/functionResult/get-view-only", map[string]any{"submissionId": submissionID, "viewToken": viewToken})
		if status != 200 {
			return status, e
		}
		return status, data["functionResult"].(map[string]any)
	}
	status, fr := result(sam["viewToken"], samID)
	require.Equal(t, 200, status, fr)
	require.Equal(t, map[string]any{"status": "graded", "released": false}, fr, "no feedback before release")
	status, _, e = reader.call(t, "/api/v1/db/function/get-view-only", map[string]any{"assignmentId": asgID, "viewToken": sam["viewToken"], "type": "prompt"})
	require.Equal(t, 404, status)
	require.Equal(t, release.MsgNotReleased, e["message"])

	// Release Sam's result: a link, no email.
	b.refused(t, "/api/v1/db/assignment/release", map[string]any{"assignmentId": asgID, "submissionIds": []string{samID}, "sendEmail": true}, release.MsgEmailOff)
	status, data, e = b.call(t, "/api/v1/db/assignment/release", map[string]any{"assignmentId": asgID, "submissionIds": []string{samID}, "sendEmail": false})
	require.Equal(t, 200, status, e)
	require.Equal(t, float64(0), data["skipped"])
	require.Equal(t, float64(0), data["skippedNotReviewed"])
	require.Equal(t, float64(0), data["skippedNotGraded"])
	rel := data["releases"].([]any)[0].(map[string]any)
	require.Equal(t, samID, rel["submissionId"])
	require.Equal(t, "released", rel["state"])
	require.Equal(t, "none", rel["email"])
	link := rel["link"].(string)
	releaseToken, ok := strings.CutPrefix(link, b.srv.URL+"/results/")
	require.True(t, ok, link)

	// The link, in a fresh browser: Sam's result and nothing else.
	status, got, e := reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": samID, "viewToken": releaseToken})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Sam Student", got["submission"].(map[string]any)["studentName"])
	status, fr = result(releaseToken, samID)
	require.Equal(t, 200, status, fr)
	require.Equal(t, "Sam: a clear argument.", fr["feedback"])
	require.Equal(t, true, fr["released"])
	status, _, e = reader.call(t, "/api/v1/db/function/get-view-only", map[string]any{"assignmentId": asgID, "viewToken": releaseToken, "type": "prompt"})
	require.Equal(t, 200, status, e)
	status, _, e = reader.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": asgID, "viewToken": releaseToken})
	require.Equal(t, 200, status, e)
	// The page at /results/<token> knows only the token: the ids may be
	// left out, and the answers give them.
	status, got, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"viewToken": releaseToken})
	require.Equal(t, 200, status, e)
	require.Equal(t, samID, got["submission"].(map[string]any)["_id"])
	status, got, e = reader.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"viewToken": releaseToken})
	require.Equal(t, 200, status, e)
	require.Equal(t, asgID, got["assignment"].(map[string]any)["_id"])
	status, _ = result(releaseToken, kimID)
	require.Equal(t, 404, status, "Sam's link does not open Kim's result")
	status, _, _ = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": kimID, "viewToken": releaseToken})
	require.Equal(t, 404, status)
	status, _, _ = reader.call(t, gradeOnePub, map[string]any{"viewToken": releaseToken, "submissionId": samID, "assignmentId": asgID, "processName": "PromptProcess"})
	require.Equal(t, 404, status, "a released link reads; it runs nothing")
	// Kim, not released, still sees her status only.
	status, fr = result(kim["viewToken"], kimID)
	require.Equal(t, 200, status)
	require.Equal(t, map[string]any{"status": "graded", "released": false}, fr)
	// Sam's own view token now shows the feedback too.
	status, fr = result(sam["viewToken"], samID)
	require.Equal(t, 200, status)
	require.Equal(t, "Sam: a clear argument.", fr["feedback"])

	// The list and the links CSV.
	status, data, e = b.call(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	require.Len(t, data["releases"], 2)
	// A page of the table asks for its rows only: Kim's, unreleased, and
	// nothing for an id that is not a submission of the assignment.
	status, data, e = b.call(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID, "submissionIds": []string{kimID, asgID}})
	require.Equal(t, 200, status, e)
	require.Len(t, data["releases"], 1)
	require.Equal(t, kimID, data["releases"].([]any)[0].(map[string]any)["submissionId"])
	require.Equal(t, "not-released", data["releases"].([]any)[0].(map[string]any)["state"])
	status, data, e = b.call(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID, "submissionIds": []string{}})
	require.Equal(t, 200, status, e)
	require.Empty(t, data["releases"])
	tooMany := make([]string, 1001)
	for i := range tooMany {
		tooMany[i] = samID
	}
	b.refused(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID, "submissionIds": tooMany},
		"Ask for the releases of at most 1,000 submissions at a time.")
	b.missing(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID, "submissionIds": []string{"not-an-id"}})
	res, raw := rawRequestWithBrowser(t, b.browser, "/api/v1/db/assignment/release/links-csv", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, res.StatusCode, raw)
	require.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename="Essay - links.csv"`, res.Header.Get("Content-Disposition"))
	require.Contains(t, raw, "Sam Student,sam.student@pupils.test,"+link)
	require.NotContains(t, raw, "Kim")

	// Eve, of another team, can do nothing with Ada's releases.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.release@school.test")
	eve.missing(t, "/api/v1/db/assignment/release", map[string]any{"assignmentId": asgID, "submissionIds": []string{kimID}})
	eve.missing(t, "/api/v1/db/assignment/release/revoke", map[string]any{"assignmentId": asgID, "submissionIds": []string{samID}})
	eve.missing(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID})
	eve.missing(t, "/api/v1/db/assignment/release/list", map[string]any{"assignmentId": asgID, "submissionIds": []string{samID}})
	eve.missing(t, "/api/v1/db/assignment/release/links-csv", map[string]any{"assignmentId": asgID})
	status, _ = result(releaseToken, samID)
	require.Equal(t, 200, status, "Eve changed nothing")

	// Revoke: the link is dead at once, and Sam's own token is back to
	// the status only.
	status, data, e = b.call(t, "/api/v1/db/assignment/release/revoke", map[string]any{"assignmentId": asgID, "submissionIds": []string{samID}})
	require.Equal(t, 200, status, e)
	require.Equal(t, "revoked", data["releases"].([]any)[0].(map[string]any)["state"])
	status, _ = result(releaseToken, samID)
	require.Equal(t, 404, status, "a revoked link is not found")
	status, _, _ = reader.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": asgID, "viewToken": releaseToken})
	require.Equal(t, 404, status)
	status, fr = result(sam["viewToken"], samID)
	require.Equal(t, 200, status)
	require.Equal(t, map[string]any{"status": "graded", "released": false}, fr)
}

// rawRequestWithBrowser posts a JSON body as br (session and CSRF token)
// and returns the answer's body as text: for downloads.
func rawRequestWithBrowser(t *testing.T, br *browser, path string, body any) (*http.Response, string) {
	t.Helper()
	j, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest("POST", br.b.srv.URL+path, bytes.NewReader(j))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.CSRFHeader, br.csrfToken(t))
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer func() { _ = res.Body.Close() }()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(raw)
}
