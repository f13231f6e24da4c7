package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
)

// The route matrix: every /api route, enumerated from the router, called by
// five kinds of caller, each of which must get exactly its outcome below.
// docs/security.md ("Route matrix") says how to read and extend it.

// The callers, the matrix's columns.
const (
	owner      = iota // Ada, signed in: her team (A) owns every id the bodies name
	otherTeam         // Bea, signed in, of another team (B), sending the same ids
	student           // no session; A's student link token and the view token of the submission the bodies name
	otherToken        // no session; the view token of another submission of the same assignment
	anonymous         // no session, no token (a CSRF token, so that 401 and not 403 is what is tested)
	numCallers
)

var callerNames = [numCallers]string{"owner", "otherTeam", "student", "otherToken", "anonymous"}

// The outcome classes: the status each caller must get.
const (
	allowed   = 200 // it works (the owner: the route does its job)
	moved     = 302 // a browser navigation sent on (Google's consent page, or back into the app)
	invalid   = 400 // refused as a bad request; the answer shows nothing of A's
	unauth    = 401 // "Please sign in to continue."
	notFound  = 404 // not found: another team's id, a token that does not open it, a link that is off
	conflict  = 409 // refused for the state of A's things (a rubric an assignment still uses)
	forbidden = 403
)

// routeMatrix is, for every /api route, the outcome of each caller, in the
// order owner, otherTeam, student, otherToken, anonymous. Callers other than
// the owner must never see anything of A's (an id, a token, a name) in an
// answer, except the student in the answers it is allowed (its own work).
var routeMatrix = map[string][numCallers]int{
	// Public: the deployment's settings.
	"GET /api/v1/app-config": {allowed, allowed, allowed, allowed, allowed},

	// The operators' provider check: nobody here is an operator, so every
	// caller gets 404, as for /admin/jobs (modelcheck_test.go signs one in).
	"GET /api/v1/operator/model-check":  {notFound, notFound, notFound, notFound, notFound},
	"POST /api/v1/operator/model-check": {notFound, notFound, notFound, notFound, notFound},
	// LTI's operator routes: the same (lti_test.go signs an operator in).
	"GET /api/v1/operator/lti":                   {notFound, notFound, notFound, notFound, notFound},
	"POST /api/v1/operator/lti/platforms":        {notFound, notFound, notFound, notFound, notFound},
	"POST /api/v1/operator/lti/platforms/delete": {notFound, notFound, notFound, notFound, notFound},
	"POST /api/v1/operator/lti/rotate-key":       {notFound, notFound, notFound, notFound, notFound},

	// LTI's platform-facing routes (docs/lti.md): the public JWKS and
	// Canvas configuration; the login and the launch refuse anything but
	// a registered platform's messages with an HTML page (400), for every
	// caller alike; no session, CSRF token or link token opens them.
	"GET /api/lti/jwks":    {allowed, allowed, allowed, allowed, allowed},
	"GET /api/lti/config":  {allowed, allowed, allowed, allowed, allowed},
	"GET /api/lti/login":   {invalid, invalid, invalid, invalid, invalid},
	"POST /api/lti/login":  {invalid, invalid, invalid, invalid, invalid},
	"POST /api/lti/launch": {invalid, invalid, invalid, invalid, invalid},
	// A teacher launch waiting for its account: only the launching
	// browser's cookie finds it (lti_test.go), so every caller here is told
	// the launch expired.
	"GET /api/lti/link":  {invalid, invalid, invalid, invalid, invalid},
	"POST /api/lti/link": {invalid, invalid, invalid, invalid, invalid},
	// A pupil's launch token opens their name and email; a made-up one
	// nothing, for anyone.
	"POST /api/v1/lti/learner": {notFound, notFound, notFound, notFound, notFound},
	// A teacher's own deep-linking request: Ada has none, so any id is
	// not found, for her as for another team.
	"POST /api/v1/lti/deep-link/get":  {notFound, notFound, unauth, unauth, unauth},
	"POST /api/v1/lti/deep-link/post": {notFound, notFound, unauth, unauth, unauth},
	// An assignment's LTI status: team-scoped.
	"POST /api/v1/lti/assignment/status": {allowed, notFound, unauth, unauth, unauth},

	// A student's calls by link: only the link token opens them (a teacher's
	// session is no link token).
	"POST /api/v1/student/link":                                  {notFound, notFound, allowed, notFound, notFound},
	"POST /api/v1/s3-pub-upload":                                 {notFound, notFound, allowed, notFound, notFound},
	"POST /api/v1/db/assignment/update-submissions-from-student": {notFound, notFound, allowed, notFound, notFound},

	// The view-only reads: a view token opens its own submission and that
	// submission's assignment; another submission's token of the same
	// assignment therefore opens the assignment (its public part), never
	// the submission or its result. The function (the part of the
	// definition a result page needs) opens only once the token's own
	// result is finished: nobody's is in this world. What a student is
	// sent is checked against studentBodyKeys (studentview_test.go).
	"POST /api/v1/db/assignment/get-view-only":     {allowed, notFound, allowed, allowed, unauth},
	"POST /api/v1/db/function/get-view-only":       {allowed, notFound, notFound, notFound, unauth},
	"POST /api/v1/db/submission/get-view-only":     {allowed, notFound, allowed, notFound, unauth},
	"POST /api/v1/db/functionResult/get-view-only": {allowed, notFound, allowed, notFound, unauth},
	// The one write a view token opens: instant feedback on its own work.
	"POST /api/v1/lambda/gradeOnePub": {allowed, notFound, allowed, notFound, unauth},

	// The session's own things: any teacher, nothing of A's.
	"GET /api/v1/catalog":                      {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/db/library/get":               {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/db/notification/list":         {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/db/rubric/list":               {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/db/team/members":              {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/db/user/get":                  {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/db/rubric/put":               {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/put":           {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/db/assistant/put":            {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/db/assistant/list":           {allowed, allowed, unauth, unauth, unauth},
	"PUT /api/v1/db/chat/get":                  {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/chat/download-docx":          {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/s3-public-asset-upload":      {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/ai-assist/suggest-criteria":  {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/ai-assist/suggest-questions": {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/ai-assist/rubric-from-sheet": {allowed, allowed, unauth, unauth, unauth},
	"POST /api/v1/google/classroom/status":     {allowed, allowed, unauth, unauth, unauth},
	"GET /api/v1/google/classroom/connect":     {moved, moved, unauth, unauth, unauth},
	"GET /api/v1/google/classroom/callback":    {moved, moved, unauth, unauth, unauth},
	// Not connected to Google Classroom: "connect first", for everyone.
	"POST /api/v1/google/classroom/courses":     {invalid, invalid, unauth, unauth, unauth},
	"POST /api/v1/google/classroom/coursework":  {invalid, invalid, unauth, unauth, unauth},
	"POST /api/v1/google/classroom/submissions": {invalid, invalid, unauth, unauth, unauth},
	// A made-up invitation token: nobody's.
	"POST /api/v1/db/team/accept-invite": {notFound, notFound, unauth, unauth, unauth},

	// Team-scoped: A's ids. The owner gets the route's answer, another team
	// 404, everyone without a session 401. Where the owner's answer is not
	// 200, the probe (crossTeamProbes) is refused for a reason of its own,
	// after the team check, which the comment gives.
	"POST /api/v1/getSignedURL":                         {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/s3-upload":                            {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/upload-and-read-files":                {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/upload-and-read-pdf":                  {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/rubric/get":                        {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/rubric/update":                     {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/delete-rubric":                {conflict, notFound, unauth, unauth, unauth}, // Ada's assignment grades against the rubric
	"POST /api/v1/db/assignment/get":                    {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/export":                 {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/history":                {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/submission-rows":        {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/update":                 {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/duplicate":              {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/delete-assignment":            {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/function/get":                      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/function/put":                      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/function/update":                   {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/create-folder":                {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/update-folders":               {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/share/assignment":                  {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/share/rubric":                      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/notification/copySharedRubric":     {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/notification/copySharedAssignment": {invalid, notFound, unauth, unauth, unauth}, // the notification shares a rubric
	"POST /api/v1/db/notification/dismiss":              {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/invite":                       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/invite-link":                  {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/cancel-invite":                {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/remove-member":                {invalid, notFound, unauth, unauth, unauth}, // the probe names Ada: nobody removes themselves
	"POST /api/v1/db/team/leave":                        {invalid, notFound, unauth, unauth, unauth}, // Ada is her team's only owner
	"POST /api/v1/db/assignment/student-link/get":       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/student-link/update":    {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/answer-boxes/get":       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/answer-boxes/update":    {invalid, notFound, unauth, unauth, unauth}, // not a handwritten assignment
	"POST /api/v1/db/assignment/update-submissions":     {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/preview-csv":            {invalid, notFound, unauth, unauth, unauth}, // CSV uploads are for other assignment types
	"POST /api/v1/db/assignment/update-submissions-csv": {invalid, notFound, unauth, unauth, unauth}, // the same
	// Not connected to Google Classroom.
	"POST /api/v1/db/assignment/update-submissions-from-google": {invalid, notFound, unauth, unauth, unauth},
	// Grades back to Classroom: Ada's assignment was not imported from it.
	"POST /api/v1/google/classroom/passback":                             {invalid, notFound, unauth, unauth, unauth},
	"POST /api/v1/google/classroom/passback/get":                         {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/delete-submission-and-function-result":   {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/delete-submissions-and-function-results": {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/submission/get":                                     {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/submission/update":                                  {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/submission/page-image":                              {invalid, notFound, unauth, unauth, unauth}, // a text submission has no pages
	"POST /api/v1/db/submission/original/get":                            {allowed, notFound, unauth, unauth, unauth}, // a text file: the text is the original
	"POST /api/v1/db/submission/original/page":                           {invalid, notFound, unauth, unauth, unauth}, // a text submission has no pages
	"POST /api/v1/db/submission/original/download":                       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/lambda/runFunctionOnMany":                              {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/functionResult/get":                                 {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/functionResult/update":                              {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/gradeFunction/toggleCriterion":                      {invalid, notFound, unauth, unauth, unauth}, // a rubric-feedback result has no criteria booleans
	"POST /api/v1/db/rubricFeedbackFunctionResult/update":                {allowed, notFound, unauth, unauth, unauth},
	"PUT /api/v1/db/promptFunctionResult/update":                         {http.StatusConflict, notFound, unauth, unauth, unauth}, // not a prompt result
	"POST /api/v1/db/assignment/check-agreement":                         {invalid, notFound, unauth, unauth, unauth},             // nothing graded yet
	// Releasing results to students (issue 21): nothing is finished in this
	// world, so the owner's release of the probed row is refused (400, "only
	// graded, annotated or reviewed results"); listing, revoking a row never
	// released and the links CSV answer.
	"POST /api/v1/db/assignment/release":           {invalid, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/release/list":      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/release/revoke":    {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/release/links-csv": {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/ai-assist/generate-summary":      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/report/student":    {allowed, notFound, unauth, unauth, unauth}, // a PDF (LibreOffice)
	"POST /api/v1/db/assignment/reports/start":     {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assignment/reports/get":       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assistant/update":             {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/assistant/delete":             {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/addSavedAssistant":       {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/team/removeSavedAssistant":    {allowed, notFound, unauth, unauth, unauth},
	"PUT /api/v1/db/chat/put":                      {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/db/chat/delete":                  {allowed, notFound, unauth, unauth, unauth},
	"POST /api/v1/chat/stream":                     {allowed, notFound, unauth, unauth, unauth},
}

// freshWorld are the routes whose owner call (and whose team-blind call in
// the test of the test) changes A's world for the rows after it: deletes,
// leaving the team, rotating the student link, answering the notification.
// Each of those calls gets a world of its own.
var freshWorld = map[string]bool{
	"POST /api/v1/db/team/delete-assignment":                             true,
	"POST /api/v1/db/team/delete-rubric":                                 true,
	"POST /api/v1/db/assignment/delete-submission-and-function-result":   true,
	"POST /api/v1/db/assignment/delete-submissions-and-function-results": true,
	"POST /api/v1/db/team/cancel-invite":                                 true,
	"POST /api/v1/db/team/remove-member":                                 true,
	"POST /api/v1/db/team/leave":                                         true,
	"POST /api/v1/db/assistant/delete":                                   true,
	"POST /api/v1/db/chat/delete":                                        true,
	"POST /api/v1/db/notification/dismiss":                               true,
	"POST /api/v1/db/notification/copySharedAssignment":                  true,
	"POST /api/v1/db/notification/copySharedRubric":                      true,
	"POST /api/v1/db/assignment/student-link/update":                     true,
	"POST /api/v1/db/team/removeSavedAssistant":                          true,
	// The student's instant feedback (gradeOnePub, in the student's row)
	// leaves the result with the AI: the owner's edits would wait (409).
	"POST /api/v1/db/functionResult/update":         true,
	"POST /api/v1/db/gradeFunction/toggleCriterion": true,
}

// ownBodies are the bodies of the routes that take no id of another team
// (noIDRoutes, world_test.go); the routes that do send crossTeamProbes.
func ownBodies(w adaWorld) map[string]any {
	criteria := []map[string]any{{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear"}, "useRange": false}}
	return map[string]any{
		"POST /api/v1/db/rubric/put":               map[string]any{"name": "Own rubric", "criteria": criteria},
		"POST /api/v1/db/assignment/put":           map[string]any{"name": "Own essay", "type": "prompt"},
		"POST /api/v1/s3-public-asset-upload":      map[string]any{"fileName": "public/logo.png", "fileType": "image/png"},
		"POST /api/v1/s3-pub-upload":               map[string]any{"fileName": "essay.txt", "fileType": "text/plain", "fileSize": 5},
		"POST /api/v1/student/link":                map[string]any{},
		"POST /api/v1/db/team/accept-invite":       map[string]any{"token": "no-such-invitation"},
		"POST /api/v1/ai-assist/suggest-criteria":  map[string]any{"question": "Explain photosynthesis."},
		"POST /api/v1/ai-assist/suggest-questions": map[string]any{"assignmentText": "Write about rivers."},
		"POST /api/v1/ai-assist/rubric-from-sheet": map[string]any{"assignmentText": "Write about rivers."},
		"POST /api/v1/db/assignment/update-submissions-from-student": map[string]any{"assignmentId": w.assignmentID,
			"submissions": []map[string]any{{"name": "late.txt", "location": w.pendingUpload}},
			"studentName": "Lee Student", "studentEmail": "lee@pupils.test"},
		"POST /api/v1/google/classroom/status":      map[string]any{},
		"POST /api/v1/google/classroom/courses":     map[string]any{},
		"POST /api/v1/google/classroom/coursework":  map[string]any{"classId": "c1"},
		"POST /api/v1/google/classroom/submissions": map[string]any{"classId": "c1", "courseworkId": "w1"},
		"POST /api/v1/db/assistant/put":             map[string]any{"title": "Own", "description": "d", "systemPrompt": "p"},
		"POST /api/v1/db/assistant/list":            map[string]any{},
		"PUT /api/v1/db/chat/get":                   map[string]any{},
		"POST /api/v1/chat/download-docx":           map[string]any{"markdown": "# Notes"},
	}
}

// matrixFixture is Ada's world and the four other callers' browsers.
type matrixFixture struct {
	b       *bundle
	w       adaWorld
	callers [numCallers]*browser
	// bodies are each caller's body for each route.
	bodies [numCallers]map[string]any
}

var matrixWorlds atomic.Int64

// newMatrixFixture builds Ada's world (as ada, a fresh browser unless given)
// and signs Bea in to a team of her own.
func newMatrixFixture(t *testing.T, b *bundle) *matrixFixture {
	t.Helper()
	tag := fmt.Sprintf("matrix%d-%s", matrixWorlds.Add(1), uuid.NewString()[:8])
	f := &matrixFixture{b: b, w: buildAdaWorld(t, b, b.newBrowser(t), tag)}
	f.callers[owner] = f.w.ada
	bea := b.newBrowser(t)
	beaTeam := bea.signIn(t, "Bea", "bea."+tag+"@school.test")["teamId"].(string)
	f.callers[otherTeam] = bea
	for _, who := range []int{student, otherToken, anonymous} {
		f.callers[who] = b.newBrowser(t)
	}
	with := func(ownTeam string, extra map[string]any) map[string]any {
		m := crossTeamProbes(f.w, ownTeam)
		maps.Copy(m, ownBodies(f.w))
		for route, body := range m {
			body := maps.Clone(body.(map[string]any))
			maps.Copy(body, extra)
			m[route] = body
		}
		return m
	}
	f.bodies[owner] = with(f.w.teamID, nil)
	f.bodies[otherTeam] = with(beaTeam, nil)
	f.bodies[student] = with("", map[string]any{"linkToken": f.w.linkToken, "viewToken": f.w.viewToken})
	f.bodies[otherToken] = with("", map[string]any{"viewToken": f.w.otherViewToken})
	f.bodies[anonymous] = with("", nil)
	return f
}

// send calls route as who, at base (the test server, or a team-blind one),
// and returns the status and everything the caller is shown: the body and
// any Location.
func (f *matrixFixture) send(t *testing.T, who int, base, route string) (int, string) {
	t.Helper()
	method, path, _ := strings.Cut(route, " ")
	br := f.callers[who]
	var body io.Reader
	if method != "GET" {
		raw, err := json.Marshal(f.bodies[who][route])
		require.NoError(t, err)
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, base+path, body)
	require.NoError(t, err)
	if method != "GET" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(httpapi.CSRFHeader, br.csrfToken(t))
	}
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	if cookie(res, httpapi.CSRFCookie) != nil {
		br.csrf = ""
	}
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(raw) + "\n" + res.Header.Get("Location")
}

// check calls route as who and returns what is wrong with the answer
// against the matrix ("" when nothing), and whether the caller got a 2xx or
// saw A's data when it must not (what a lost team check gives).
func (f *matrixFixture) check(t *testing.T, who int, base, route string) (problem string, status int, breach bool) {
	t.Helper()
	want := routeMatrix[route][who]
	status, shown := f.send(t, who, base, route)
	var problems []string
	if status != want {
		problems = append(problems, fmt.Sprintf("status %d, want %d", status, want))
		breach = status/100 == 2
	}
	if (who == student || who == otherToken) && status == allowed {
		// A student is sent what their result page shows, no other field.
		raw := shown[:strings.LastIndex(shown, "\n")]
		var body struct {
			Data any `json:"data"`
		}
		if err := json.Unmarshal([]byte(raw), &body); err != nil {
			problems = append(problems, "the answer is not JSON")
		}
		problems = append(problems, studentBodyProblems(route, body.Data)...)
	}
	secret := append(f.w.ids(), f.w.mark)
	switch {
	case who == student && want == allowed:
		// A student sees its own work, never another student's.
		secret = []string{f.w.otherSubmissionID, f.w.otherViewToken, "Kim", f.w.email, f.w.inviteID}
	case who == otherToken && want == allowed:
		// Kim's token sees Kim's assignment, never Sam's work.
		secret = []string{f.w.submissionID, f.w.resultID, f.w.viewToken, "Sam", f.w.email, f.w.inviteID}
	}
	if who != owner {
		for _, s := range secret {
			if strings.Contains(shown, s) {
				problems = append(problems, fmt.Sprintf("the answer shows A's %q", s))
				breach = true
			}
		}
	}
	if len(problems) > 0 {
		if len(shown) > 300 {
			shown = shown[:300] + "…"
		}
		problem = strings.Join(problems, "; ") + ": " + shown
	}
	return problem, status, breach
}

// apiRoutes are the router's /api routes, as "METHOD /path", sorted.
func apiRoutes(b *bundle) []string {
	var out []string
	for _, r := range b.router.Routes() {
		if strings.HasPrefix(r.Path, "/api/") && !strings.HasPrefix(r.Path, "/api/auth/") {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestRouteMatrix calls every /api route as each of the five callers and
// checks each gets its outcome in routeMatrix, and that nobody but the owner
// (and the student, in its own answers) sees anything of A's. A route with
// no row fails the test.
func TestRouteMatrix(t *testing.T) {
	t.Parallel()
	b := setup(t)
	routes := apiRoutes(b)
	var missing []string
	for _, r := range routes {
		if _, ok := routeMatrix[r]; !ok {
			missing = append(missing, r)
		}
	}
	for r := range routeMatrix {
		require.Contains(t, routes, r, "routeMatrix has a row for a route the router does not have")
	}
	f := newMatrixFixture(t, b)
	if len(missing) > 0 {
		// Say what each caller gets today, as rows to review and paste.
		var rows []string
		for _, r := range missing {
			var got [numCallers]int
			for _, who := range []int{otherTeam, student, otherToken, anonymous, owner} {
				if who == owner && freshWorld[r] {
					got[who], _ = newMatrixFixture(t, b).send(t, who, b.srv.URL, r)
					continue
				}
				got[who], _ = f.send(t, who, b.srv.URL, r)
			}
			rows = append(rows, fmt.Sprintf("%q: {%d, %d, %d, %d, %d},", r, got[0], got[1], got[2], got[3], got[4]))
		}
		t.Fatalf("these routes have no row in routeMatrix; today they answer:\n%s", strings.Join(rows, "\n"))
	}

	// The callers who own nothing first: a refusal changes nothing.
	for _, who := range []int{otherTeam, student, otherToken, anonymous} {
		for _, r := range routes {
			if p, _, _ := f.check(t, who, b.srv.URL, r); p != "" {
				t.Errorf("%s as %s: %s", r, callerNames[who], p)
			}
		}
	}
	// Then the owner, whose calls change A's world.
	for _, r := range routes {
		if !freshWorld[r] {
			if p, _, _ := f.check(t, owner, b.srv.URL, r); p != "" {
				t.Errorf("%s as %s: %s", r, callerNames[owner], p)
			}
		}
	}
	for r := range freshWorld {
		t.Run(strings.ReplaceAll(r, "/", "_"), func(t *testing.T) {
			t.Parallel()
			if p, _, _ := newMatrixFixture(t, b).check(t, owner, b.srv.URL, r); p != "" {
				t.Errorf("%s as %s: %s", r, callerNames[owner], p)
			}
		})
	}
}

// blindServer serves the router team-blind as A's team (see
// httpapi.TeamBlind): every request sent to it is answered as if its
// handler had lost its team check.
func (f *matrixFixture) blindServer(t *testing.T) string {
	t.Helper()
	teamA := uuid.MustParse(f.w.teamID)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.b.router.ServeHTTP(w, r.WithContext(httpapi.TeamBlind(r.Context(), teamA)))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// notTeamBlindable are the team-scoped routes (otherTeam: 404) that the
// test of the test cannot make team-blind by swapping the caller's team, and
// why. The test fails if one of them becomes catchable: then remove it.
var notTeamBlindable = map[string]string{
	// A second, user-level check stands behind the team check: team-blind,
	// Bea is still refused (403 or 404) and sees nothing of A's.
	"POST /api/v1/db/assistant/update":   "only the assistant's author or the team's owner may change it (403)",
	"POST /api/v1/db/assistant/delete":   "only the assistant's author or the team's owner may delete it (403)",
	"POST /api/v1/db/team/invite-link":   "only the team's owner makes link invitations (403)",
	"POST /api/v1/db/team/remove-member": "only the team's owner removes members (403)",
	"POST /api/v1/db/team/invite":        "the invitation is inserted only when its maker's own row is in the team (CreateInvite): 404",
	// User-scoped, not team-scoped: the rows belong to one teacher
	// ("WHERE user_id = …"), which swapping the team does not change.
	"PUT /api/v1/db/chat/put":                           "a chat is its author's (user_id)",
	"POST /api/v1/db/chat/delete":                       "a chat is its author's (user_id)",
	"POST /api/v1/db/notification/dismiss":              "a notification is its recipient's (user_id)",
	"POST /api/v1/db/notification/copySharedRubric":     "a notification is its recipient's (user_id)",
	"POST /api/v1/db/notification/copySharedAssignment": "a notification is its recipient's (user_id)",
}

// TestRouteMatrixCatchesATeamBlindHandler is the test of the test: for each
// team-scoped route (the rows where otherTeam gets 404 and the owner does
// not: the student link's routes, which a session does not open, are not
// team-scoped), it sends Bea's row
// to a server that answers that one request team-blind (the handler sees
// A's team, as if it had forgotten "WHERE team_id = …", and compares no
// teamId) and requires the matrix to fail the row: Bea now gets a 2xx or
// sees A's data.
func TestRouteMatrixCatchesATeamBlindHandler(t *testing.T) {
	t.Parallel()
	b := setup(t)
	f := newMatrixFixture(t, b)
	blind := f.blindServer(t)
	var scoped []string
	for _, r := range apiRoutes(b) {
		if row := routeMatrix[r]; row[otherTeam] == notFound && row[owner] != notFound {
			scoped = append(scoped, r)
		}
	}
	require.NotEmpty(t, scoped)
	var breached, refused atomic.Int64
	verify := func(t *testing.T, f *matrixFixture, base, r string) {
		t.Helper()
		// The row holds as written (the handler has its team check) …
		p, _, breach := f.check(t, otherTeam, f.b.srv.URL, r)
		require.Empty(t, p, "%s: the matrix row fails even with the team check", r)
		require.False(t, breach)
		// … and fails when the handler loses it: Bea gets a 2xx or sees A's
		// data, or, where the probe is refused even for the owner (a 400 of
		// its own, see routeMatrix), Bea gets the owner's refusal instead of
		// 404: the team check was all that told her apart.
		p, status, breach := f.check(t, otherTeam, base, r)
		want := routeMatrix[r][owner]
		if why, ok := notTeamBlindable[r]; ok {
			if breach || want/100 != 2 && status == want {
				t.Errorf("%s is listed as not team-blindable (%s) but the matrix caught it: remove it from notTeamBlindable", r, why)
			}
			return
		}
		switch {
		case p == "":
			t.Errorf("%s: the matrix did not notice a team-blind handler", r)
		case breach:
			breached.Add(1)
		case want/100 != 2 && status == want:
			refused.Add(1)
		default:
			t.Errorf("%s team-blind: want a 2xx, A's data or the owner's %d; got %s", r, want, p)
		}
	}
	for _, r := range scoped {
		if !freshWorld[r] {
			verify(t, f, blind, r)
		}
	}
	t.Run("fresh", func(t *testing.T) {
		for _, r := range scoped {
			if freshWorld[r] {
				t.Run(strings.ReplaceAll(r, "/", "_"), func(t *testing.T) {
					t.Parallel()
					g := newMatrixFixture(t, b)
					verify(t, g, g.blindServer(t), r)
				})
			}
		}
	})
	t.Logf("team-blind, the matrix failed on %d of %d team-scoped routes (%d with a 2xx or A's data, %d with the owner's own refusal); %d cannot be made team-blind by swapping the team (notTeamBlindable)",
		breached.Load()+refused.Load(), len(scoped), breached.Load(), refused.Load(), len(notTeamBlindable))
	require.Equal(t, len(scoped)-len(notTeamBlindable), int(breached.Load()+refused.Load()))
}
