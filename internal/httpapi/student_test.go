package httpapi_test

import (
	"context"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/testdb"
)

// studentLinkService is the student link service of setup's router, with
// the configuration's student rate limits.
func studentLinkService(t *testing.T, cfg config.Config, blobs blob.Blob) *studentlink.Service {
	t.Helper()
	subs := submissionService(t, blobs)
	return &studentlink.Service{
		Pool: subs.Pool, Files: subs.Files, Submissions: subs,
		Limits: studentlink.Limits{
			Limiter: &ratelimit.Limiter{Pool: subs.Pool}, PerLink: cfg.StudentLimitLink, PerAddr: cfg.StudentLimitAddr,
			LinkGrowth: cfg.StudentLinkGrowth, LinkMax: cfg.StudentLinkMax,
			PerSubmitter: cfg.StudentLimitSubmitter, PerStudent: cfg.StudentLimitStudent,
		},
	}
}

// someLink makes an assignment in a team of its own with its student link
// on, straight in the database, and returns the link's token.
func someLink(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	id := someAssignment(t)
	teamID, err := store.Q.AssignmentTeamID(ctx, testdb.Pool(t), id)
	require.NoError(t, err)
	token := strings.ReplaceAll(uuid.NewString()+uuid.NewString(), "-", "")[:43]
	_, err = store.Q.UpdateStudentLink(ctx, testdb.Pool(t), store.UpdateStudentLinkParams{
		Rotate: true, NewToken: token, Enabled: pgtype.Bool{Bool: true, Valid: true}, ID: id, TeamID: teamID,
	})
	require.NoError(t, err)
	return token
}

// linkedAssignment is a prompt assignment of the signed-in teacher, with its
// prompt and its student link on.
func linkedAssignment(t *testing.T, teacher *browser, name string) (assignmentID, token string) {
	t.Helper()
	status, data, e := teacher.call(t, "/api/v1/db/assignment/put", map[string]any{"name": name, "type": "prompt", "provideInstantFeedback": true})
	require.Equal(t, 200, status, e)
	assignmentID = data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = teacher.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": assignmentID, "prompt": "Be kind"})
	require.Equal(t, 200, status, e)
	status, data, e = teacher.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": assignmentID})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["enabled"])
	return assignmentID, data["token"].(string)
}

// linkUpload uploads body through the link as a student's browser does and
// returns the file URL.
func (br *browser) linkUpload(t *testing.T, token, fileName, body string) string {
	t.Helper()
	res, up := br.do(t, "POST", "/api/v1/s3-pub-upload", map[string]any{
		"fileName": fileName, "fileType": "text/plain", "fileSize": len(body), "linkToken": token,
	})
	require.Equal(t, 200, res.StatusCode, up)
	put, _ := rawRequest(t, "PUT", up["signedUrl"].(string), "text/plain", body)
	require.Equal(t, 200, put.StatusCode)
	return up["data"].(map[string]any)["fileUrl"].(string)
}

// submitAs uploads body through the link and submits it as a student; it
// returns the answer's data.
func (br *browser) submitAs(t *testing.T, assignmentID, token, studentName, body string) map[string]any {
	t.Helper()
	fileURL := br.linkUpload(t, token, "essay.txt", body)
	status, data, e := br.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": token, "assignmentId": assignmentID,
		"submissions":    []map[string]any{{"name": "essay.txt", "location": fileURL}},
		"submissionRole": "student", "type": "prompt", "requiresTextractArray": []bool{false},
		"requiresPDFReadArray": []bool{false}, "requiresImageReadArray": []bool{false}, "isHandWritten": false,
		"studentName": studentName, "studentEmail": strings.ToLower(strings.ReplaceAll(studentName, " ", ".")) + "@pupils.test",
	})
	require.Equal(t, 200, status, e)
	return data
}

func TestTeacherTurnsTheStudentLinkOffAndRotatesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.studentlink@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	require.Len(t, token, 43)
	student := b.newBrowser(t)
	open := func(token string) (int, map[string]any, map[string]any) {
		return student.call(t, "/api/v1/student/link", map[string]any{"linkToken": token})
	}

	status, data, e := open(token)
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"assignment": map[string]any{
		"_id": asgID, "name": "Essay", "type": "prompt", "isHandWritten": false, "provideInstantFeedback": true,
		"allowResubmission": false,
	}}, data, "a student sees only the public part of the assignment")

	status, data, e = b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "enabled": false})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"enabled": false, "token": token, "allowResubmission": false}, data)
	requireLinkOff := func(status int, e map[string]any) {
		t.Helper()
		require.Equal(t, 404, status)
		require.Equal(t, map[string]any{"code": "not_found", "message": studentlink.MsgLinkOff}, e)
	}
	status, _, e = open(token)
	requireLinkOff(status, e)
	status, _, e = student.call(t, "/api/v1/s3-pub-upload", map[string]any{"fileName": "a.txt", "fileType": "text/plain", "fileSize": 1, "linkToken": token})
	requireLinkOff(status, e)
	status, _, e = student.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": token, "assignmentId": asgID, "studentName": "Sam", "studentEmail": "sam@pupils.test",
		"submissions": []map[string]any{{"name": "a.txt", "location": "assignments/" + asgID + "/submissions/student/0123456789abcdef-a.txt"}},
	})
	requireLinkOff(status, e)

	status, data, e = b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "enabled": true})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"enabled": true, "token": token, "allowResubmission": false}, data, "the same link works again")
	status, _, e = open(token)
	require.Equal(t, 200, status, e)

	status, data, e = b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "rotate": true})
	require.Equal(t, 200, status, e)
	rotated := data["token"].(string)
	require.NotEqual(t, token, rotated)
	status, _, e = open(token)
	requireLinkOff(status, e)
	status, _, e = open(rotated)
	require.Equal(t, 200, status, e)
	status, data, e = b.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"enabled": true, "token": rotated, "allowResubmission": false}, data)

	// Eve, of another team, neither sees nor changes Ada's link.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.studentlink@school.test")
	eve.missing(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	eve.missing(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "rotate": true, "enabled": false})
	status, _, e = open(rotated)
	require.Equal(t, 200, status, e, "Eve changed nothing")

	// The teacher's calls need a session.
	status, _, e = student.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 401, status, e)
}

// The student pages offer another submission only when the link takes one:
// student/link and the submission's answer carry allowResubmission (an added
// field; the spec's fields are unchanged).
func TestStudentLinkSaysWhetherResubmissionIsAllowed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.resubmitflag@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	student := b.newBrowser(t)
	allowed := func() any {
		t.Helper()
		status, data, e := student.call(t, "/api/v1/student/link", map[string]any{"linkToken": token})
		require.Equal(t, 200, status, e)
		return data["assignment"].(map[string]any)["allowResubmission"]
	}
	require.Equal(t, false, allowed(), "off by default")

	status, data, e := b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "allowResubmission": true})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["allowResubmission"])
	require.Equal(t, true, allowed())
	submitted := student.submitAs(t, asgID, token, "Sam Student", "Rivers run to the sea.")
	require.Equal(t, true, submitted["assignment"].(map[string]any)["allowResubmission"])

	status, _, e = b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "allowResubmission": false})
	require.Equal(t, 200, status, e)
	require.Equal(t, false, allowed())
}

func TestStudentSubmitsThroughTheLinkAndReadsOnlyTheirOwnWork(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.studentsubmit@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	otherAsgID, _ := linkedAssignment(t, b.browser, "Lab report")

	sam := b.newBrowser(t)
	// The folder a student names is ignored: the file goes to the link's assignment.
	res, up := sam.do(t, "POST", "/api/v1/s3-pub-upload", map[string]any{
		"fileName": "assignments/" + otherAsgID + "/submissions/essay.txt", "fileType": "text/plain", "fileSize": 5, "linkToken": token,
	})
	require.Equal(t, 200, res.StatusCode, up)
	require.Regexp(t, `/files/assignments/`+asgID+`/submissions/student/[0-9a-f]{16}-essay\.txt$`, up["data"].(map[string]any)["fileUrl"])

	data := sam.submitAs(t, asgID, token, "Sam Student", "Rivers run to the sea.")
	require.Equal(t, map[string]any{
		"_id": asgID, "name": "Essay", "type": "prompt", "isHandWritten": false, "provideInstantFeedback": true, "allowResubmission": false,
	}, data["assignment"])
	subs := data["submissions"].([]any)
	require.Len(t, subs, 1)
	sub := subs[0].(map[string]any)
	require.Equal(t, "student", sub["source"])
	require.Equal(t, "student", sub["submissionRole"])
	require.Equal(t, "queued", sub["status"])
	require.Equal(t, "Sam Student", sub["studentName"])
	require.Equal(t, "sam.student@pupils.test", sub["studentEmail"])
	results := data["functionResults"].([]any)
	require.Len(t, results, 1)
	require.Equal(t, sub["_id"], results[0].(map[string]any)["submission"])
	viewToken := data["viewToken"].(string)
	require.Len(t, viewToken, 43)
	var extractJobs int
	require.NoError(t, testdb.Pool(t).QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = 'extract_text' AND args->>'submission_id' = $1`, sub["_id"]).Scan(&extractJobs))
	require.Equal(t, 1, extractJobs, "the submission's text is queued for extraction")

	// The view token, in a fresh browser with no session, reads the
	// assignment's public part, and not its function (the prompt) before
	// the student has a result (TestStudentReadsOnlyWhatTheirResultPageShows).
	reader := b.newBrowser(t)
	view := func(path string, body map[string]any) (int, map[string]any, map[string]any) {
		body["viewToken"] = viewToken
		return reader.call(t, path, body)
	}
	status, got, e := view("/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	public := maps.Clone(data["assignment"].(map[string]any))
	delete(public, "allowResubmission") // the submission pages' field only
	require.Equal(t, public, got["assignment"], "no class summary, no list of submissions")
	status, got, e = view("/api/v1/db/function/get-view-only", map[string]any{"assignmentId": asgID, "type": "prompt"})
	require.Equal(t, 404, status, e)
	require.Nil(t, got)
	require.Equal(t, result.MsgFeedbackNotReady, e["message"])
	for _, probe := range []map[string]any{
		{"assignmentId": otherAsgID},
		{"assignmentId": uuid.NewString()},
		{"assignmentId": "not-a-uuid"},
		{},
	} {
		status, _, e = view("/api/v1/db/assignment/get-view-only", probe)
		require.Equal(t, 404, status, "%v: %v", probe, e)
		status, _, e = view("/api/v1/db/function/get-view-only", map[string]any{"assignmentId": probe["assignmentId"], "type": "prompt"})
		require.Equal(t, 404, status, "%v: %v", probe, e)
	}
	status, _, e = reader.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": asgID, "viewToken": strings.Repeat("A", 43)})
	require.Equal(t, 404, status, "an unknown token: %v", e)
	status, _, e = reader.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": asgID})
	require.Equal(t, 401, status, "no token, no session: %v", e)

	// The same file is not submitted twice.
	status, _, e = sam.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": token, "assignmentId": asgID, "studentName": "Sam", "studentEmail": "sam@pupils.test",
		"submissions": []map[string]any{{"name": "essay.txt", "location": sub["location"]}},
	})
	require.Equal(t, 400, status)
	require.Equal(t, studentlink.MsgFileSubmitted, e["message"])
}

func TestViewTokenReadsExactlyItsSubmission(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.viewtoken@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	sam := b.newBrowser(t).submitAs(t, asgID, token, "Sam Student", "Sam's essay")
	kim := b.newBrowser(t).submitAs(t, asgID, token, "Kim Student", "Kim's essay")
	samID := sam["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	kimID := kim["submissions"].([]any)[0].(map[string]any)["_id"].(string)

	reader := b.newBrowser(t)
	status, got, e := reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": samID, "viewToken": sam["viewToken"]})
	require.Equal(t, 200, status, e)
	require.Equal(t, samID, got["submission"].(map[string]any)["_id"])
	require.Equal(t, "Sam Student", got["submission"].(map[string]any)["studentName"])

	status, _, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": samID, "viewToken": kim["viewToken"]})
	require.Equal(t, 404, status, "Kim's token does not open Sam's work: %v", e)
	status, _, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": kimID, "viewToken": sam["viewToken"]})
	require.Equal(t, 404, status, e)
	status, _, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"viewToken": sam["viewToken"]})
	require.Equal(t, 404, status, "the submission must be named: %v", e)
	status, _, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": samID})
	require.Equal(t, 401, status, "no token: %v", e)

	// A view token opens none of the other routes that need a session.
	body := map[string]any{"viewToken": sam["viewToken"], "submissionId": samID, "assignmentId": asgID, "type": "prompt"}
	opened := map[string]bool{}
	for _, r := range b.router.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") || publicRoutes[r.Method+" "+r.Path] || r.Path == gradeOnePub {
			continue
		}
		var res *http.Response
		if r.Method == "GET" {
			res, _ = reader.do(t, "GET", r.Path, nil)
		} else {
			res, _ = reader.do(t, r.Method, r.Path, body)
		}
		if strings.HasPrefix(r.Path, "/api/v1/operator/") {
			// The operators' routes answer 404 to everyone else, as /admin/jobs.
			require.Equal(t, 404, res.StatusCode, "%s %s with a view token", r.Method, r.Path)
			continue
		}
		if r.Path == "/api/v1/db/function/get-view-only" {
			// opened, but only once Sam has a result (not yet)
			require.Equal(t, 404, res.StatusCode, "%s %s with a view token", r.Method, r.Path)
			opened[r.Path] = true
			continue
		}
		if res.StatusCode == 200 {
			opened[r.Path] = true
			continue
		}
		require.Equal(t, 401, res.StatusCode, "%s %s with a view token", r.Method, r.Path)
	}
	for path := range opened {
		require.True(t, strings.HasSuffix(path, "/get-view-only"), "a view token opened %s", path)
	}
	require.True(t, opened["/api/v1/db/submission/get-view-only"])
	require.True(t, opened["/api/v1/db/assignment/get-view-only"])
	require.True(t, opened["/api/v1/db/functionResult/get-view-only"])

	// The one write a view token opens: the student's instant feedback, for
	// its own submission only, started once.
	grade := map[string]any{"viewToken": sam["viewToken"], "submissionId": samID, "assignmentId": asgID, "processName": "PromptProcess"}
	for range 2 {
		status, got, e = reader.call(t, gradeOnePub, grade)
		require.Equal(t, 200, status, e)
		require.Equal(t, "grading", got["status"])
	}
	grade["processName"] = "GradeProcessV2"
	status, _, e = reader.call(t, gradeOnePub, grade)
	require.Equal(t, 400, status, "the process must be the assignment's: %v", e)
	grade["viewToken"] = kim["viewToken"]
	status, _, e = reader.call(t, gradeOnePub, grade)
	require.Equal(t, 404, status, "Kim's token does not grade Sam's work: %v", e)

	// A teacher's session wins over a token: Eve gets 404 for Sam's work.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.viewtoken@school.test")
	eve.missing(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": samID, "viewToken": sam["viewToken"]})
}

const gradeOnePub = "/api/v1/lambda/gradeOnePub"

// publicRoutes need no session: students use them by link.
var publicRoutes = map[string]bool{
	"GET /api/v1/app-config":                                     true,
	"POST /api/v1/s3-pub-upload":                                 true,
	"POST /api/v1/student/link":                                  true,
	"POST /api/v1/db/assignment/update-submissions-from-student": true,
	// A pupil's LTI launch token names the learner (lti_test.go).
	"POST /api/v1/lti/learner": true,
}

func TestStudentFilesMustComeThroughTheLink(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.studentfiles@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	_, otherToken := linkedAssignment(t, b.browser, "Lab report")
	student := b.newBrowser(t)

	// Uploads need a link that is on, and the file's size.
	for _, bad := range []any{nil, "", "nonsense", strings.Repeat("A", 43)} {
		status, _, e := student.call(t, "/api/v1/s3-pub-upload", map[string]any{"fileName": "a.txt", "fileType": "text/plain", "fileSize": 1, "linkToken": bad})
		require.Equal(t, 404, status, "%v", bad)
		require.Equal(t, studentlink.MsgLinkOff, e["message"])
	}
	student.refused(t, "/api/v1/s3-pub-upload", map[string]any{"fileName": "a.txt", "fileType": "text/plain", "linkToken": token},
		"fileSize is required: send the file's size in bytes with the upload request.")

	teacherURL := b.uploadFile(t, "/api/v1/s3-upload", "assignments/"+asgID+"/submissions/mine.txt", "text/plain", "Ada's own")
	otherLinkURL := student.linkUpload(t, otherToken, "lab.txt", "for the lab")
	ownURL := student.linkUpload(t, token, "essay.txt", "for the essay")
	submit := func(token, location string) (int, map[string]any) {
		status, _, e := student.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
			"linkToken": token, "assignmentId": asgID, "studentName": "Sam", "studentEmail": "sam@pupils.test",
			"submissions": []map[string]any{{"name": "essay.txt", "location": location}},
		})
		return status, e
	}
	status, e := submit(token, teacherURL)
	require.Equal(t, 404, status, "a key issued to the teacher: %v", e)
	status, e = submit(token, otherLinkURL)
	require.Equal(t, 400, status, "a key of another assignment's link: %v", e)
	require.Equal(t, "essay.txt was uploaded to another assignment.", e["message"])
	status, e = submit(token, "https://evil.example/essay.txt")
	require.Equal(t, 400, status, e)
	status, e = submit(otherToken, ownURL)
	require.Equal(t, 404, status, "another assignment's link: %v", e)
	require.Equal(t, studentlink.MsgLinkOff, e["message"])

	status, data, e := b.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	require.Empty(t, data["submissions"], "nothing was submitted")

	status, e = submit(token, ownURL)
	require.Equal(t, 200, status, e)
}

func TestStudentCallsAreRateLimited(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.StudentLimitAddr = ratelimit.Rule{Limit: 2, Window: time.Hour} })
	token := someLink(t)
	student := b.newBrowser(t)
	upload := map[string]any{"fileName": "a.txt", "fileType": "text/plain", "fileSize": 1, "linkToken": token}
	for range 2 {
		res, body := student.do(t, "POST", "/api/v1/s3-pub-upload", upload)
		require.Equal(t, 200, res.StatusCode, body)
	}
	res, body := student.do(t, "POST", "/api/v1/s3-pub-upload", upload)
	require.Equal(t, 429, res.StatusCode, body)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, map[string]any{"code": "rate_limited", "message": studentlink.MsgTooMany}, body["error"])
}
