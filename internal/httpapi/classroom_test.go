package httpapi_test

import (
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/classroom/classroomtest"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/testdb"
)

// classroomService is the Google Classroom import cfg describes: not
// configured unless a test sets the Google client (see withFakeGoogle).
func classroomService(t *testing.T, cfg config.Config, blobs blob.Blob) *classroom.Service {
	t.Helper()
	svc, err := classroom.FromConfig(cfg, testdb.Pool(t), blobs, submissionService(t, blobs), slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return svc
}

// withFakeGoogle configures Google sign-in and Classroom import against g.
func withFakeGoogle(g *classroomtest.Google) func(*config.Config) {
	return func(c *config.Config) {
		c.GoogleClientID, c.GoogleClientSecret = classroomtest.ClientID, classroomtest.ClientSecret
		c.GoogleClassroomEnabled, c.GoogleAPIBaseURL = true, g.URL()
	}
}

func TestClassroomNotConfigured(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.classroom-off@school.test")

	status, data, e := ada.call(t, "/api/v1/google/classroom/status", map[string]any{})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"configured": false, "connected": false, "reason": "Google sign-in is not configured on this server", "canSendGrades": false}, data)

	res, _ := ada.do(t, "GET", "/api/v1/google/classroom/connect?returnTo="+url.QueryEscape("/assignments/1?tab=x"), nil)
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, "/assignments/1?googleClassroom=not-configured&tab=x", res.Header.Get("Location"))

	ada.refused(t, "/api/v1/google/classroom/courses", map[string]any{}, "Google sign-in is not configured on this server")

	res, _ = b.newBrowser(t).do(t, "POST", "/api/v1/google/classroom/status", map[string]any{})
	require.Equal(t, 401, res.StatusCode, "signed out")
}

func TestClassroomConnectListAndImport(t *testing.T) {
	t.Parallel()
	g := classroomtest.New(t)
	g.Seed()
	b := setup(t, withFakeGoogle(g))
	g.SetRedirectURI(b.srv.URL + classroom.CallbackPath)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.classroom@school.test")

	status, data, e := ada.call(t, "/api/v1/google/classroom/status", map[string]any{})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"configured": true, "connected": false, "reason": classroom.MsgNotConnected, "canSendGrades": false}, data)
	status, _, e = ada.call(t, "/api/v1/google/classroom/courses", map[string]any{})
	require.Equal(t, 409, status)
	require.Equal(t, classroom.MsgNotConnected, e["message"])

	// Connect: off to Google's consent with a flow cookie for the callback only.
	res, _ := ada.do(t, "GET", "/api/v1/google/classroom/connect?returnTo=/assignments/7", nil)
	require.Equal(t, 302, res.StatusCode)
	consent := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(consent, g.URL()+"/o/oauth2/auth?"), consent)
	flow := cookie(res, httpapi.ClassroomFlowCookie)
	require.NotNil(t, flow)
	require.True(t, flow.HttpOnly)
	require.Equal(t, classroom.CallbackPath, flow.Path)
	u, err := url.Parse(consent)
	require.NoError(t, err)
	callback := classroom.CallbackPath + "?" + url.Values{"state": {u.Query().Get("state")}, "code": {g.Approve(consent)}}.Encode()

	// Eve, signed in elsewhere, cannot finish Ada's consent.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.classroom@school.test")
	res, _ = eve.do(t, "GET", callback, nil)
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, "/?googleClassroom=failed", res.Header.Get("Location"))

	res, _ = ada.do(t, "GET", callback, nil)
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, "/assignments/7?googleClassroom=connected", res.Header.Get("Location"))
	require.Empty(t, ada.jarCookie(t, httpapi.ClassroomFlowCookie), "the flow cookie is spent")
	res, _ = ada.do(t, "GET", callback, nil)
	require.Equal(t, "/?googleClassroom=failed", res.Header.Get("Location"), "a callback works once")

	_, data, _ = ada.call(t, "/api/v1/google/classroom/status", map[string]any{})
	require.Equal(t, map[string]any{"configured": true, "connected": true, "reason": "", "canSendGrades": true}, data)
	_, data, _ = eve.call(t, "/api/v1/google/classroom/status", map[string]any{})
	require.Equal(t, false, data["connected"])

	// The picker.
	status, data, e = ada.call(t, "/api/v1/google/classroom/courses", map[string]any{})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"id": "c1", "name": "Biology", "section": "Period 3"}, data["courses"].([]any)[0])
	require.Len(t, data["courses"], 3)
	status, data, e = ada.call(t, "/api/v1/google/classroom/coursework", map[string]any{"classId": "c1"})
	require.Equal(t, 200, status, e)
	require.Equal(t, []any{map[string]any{"id": "w1", "title": "Lab report"}, map[string]any{"id": "w2", "title": "Reading quiz"}}, data["coursework"])
	status, data, e = ada.call(t, "/api/v1/google/classroom/submissions", map[string]any{"classId": "c1", "courseworkId": "w1"})
	require.Equal(t, 200, status, e)
	subs := data["submissions"].([]any)
	require.Len(t, subs, 3)
	require.Equal(t, map[string]any{"id": "s1", "studentName": "Ada Lovelace", "studentEmail": "ada@students.test", "state": "TURNED_IN",
		"attachments": []any{map[string]any{"id": "d-doc", "title": "Ada's report", "mimeType": "application/vnd.google-apps.document"}}}, subs[0])
	ada.refused(t, "/api/v1/google/classroom/submissions", map[string]any{"classId": "c1"}, classroom.MsgWorkRequired)

	// The import.
	status, data, e = ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Lab", "type": "feedback"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	body := map[string]any{"assignmentId": asg, "type": "feedback", "classId": "c1", "courseworkId": "w1", "selectedStudentSubmissions": []string{"s1", "s2"}}
	status, data, e = ada.call(t, "/api/v1/db/assignment/update-submissions-from-google", body)
	require.Equal(t, 200, status, e)
	require.Len(t, data["submissions"], 2)
	require.Len(t, data["functionResults"], 2)
	names := []string{}
	for _, s := range data["submissions"].([]any) {
		sub := s.(map[string]any)
		require.Equal(t, "google", sub["source"])
		require.Equal(t, "queued", sub["status"])
		names = append(names, sub["name"].(string)+" by "+sub["studentName"].(string))
	}
	require.ElementsMatch(t, []string{"Ada's report.pdf by Ada Lovelace", "ben.pdf by Ben Okafor"}, names)
	require.Len(t, data["skipped"], 2, "Ben's video and the file Drive no longer shows")

	status, data, e = ada.call(t, "/api/v1/db/assignment/update-submissions-from-google", body)
	require.Equal(t, 200, status, e)
	require.Empty(t, data["submissions"], "a second import creates nothing")
	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Len(t, data["submissions"], 2)

	// Eve, connected to her own Google account, cannot import into Ada's assignment.
	status, _, _ = eve.call(t, "/api/v1/db/assignment/update-submissions-from-google", body)
	require.Equal(t, 404, status)

	// Grades back: nothing is graded yet, so each row says so and the run
	// is done at once (no call to Google).
	status, data, e = ada.call(t, "/api/v1/google/classroom/passback/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Nil(t, data["passback"])
	pb := map[string]any{"assignmentId": asg, "grade": "assigned", "comment": false, "returnToStudents": true}
	status, data, e = ada.call(t, "/api/v1/google/classroom/passback", pb)
	require.Equal(t, 200, status, e)
	run := data["passback"].(map[string]any)
	require.Equal(t, "done", run["status"])
	require.Equal(t, float64(2), run["total"])
	require.Equal(t, float64(2), run["done"])
	for _, s := range run["students"].([]any) {
		st := s.(map[string]any)
		require.Equal(t, "failed", st["state"])
		require.Equal(t, classroom.MsgNotFinished, st["error"])
		require.NotEmpty(t, st["submissionId"])
		require.NotEmpty(t, st["studentName"])
	}
	status, data, e = ada.call(t, "/api/v1/google/classroom/passback/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Equal(t, run["_id"], data["passback"].(map[string]any)["_id"])
	ada.refused(t, "/api/v1/google/classroom/passback", map[string]any{"assignmentId": asg, "grade": "draft", "comment": true}, classroom.MsgNoComments)
	ada.refused(t, "/api/v1/google/classroom/passback", map[string]any{"assignmentId": asg, "grade": "final"}, classroom.MsgGradeKind)
	status, _, _ = eve.call(t, "/api/v1/google/classroom/passback", pb)
	require.Equal(t, 404, status)
	status, _, _ = eve.call(t, "/api/v1/google/classroom/passback/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 404, status)
}
