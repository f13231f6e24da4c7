package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// adaWorld is one of everything in Ada's team, made through the API: the
// fixture of the cross-team probe (crossteam_test.go) and of the route
// matrix (matrix_test.go).
type adaWorld struct {
	// ada is Ada's signed-in browser; email is her address.
	ada   *browser
	email string
	// mark is in every name Ada's team gives (her own, the rubric's, the
	// assignment's, the folder's, the assistant's, the students'), so a body
	// that shows one of them contains it.
	mark string

	teamID, rubricID, assignmentID, bareAssignmentID, functionID string
	folderID, inviteID, userID, notificationID, fileURL          string
	assistantID, chatID                                          string
	// submissionID was submitted through the assignment's student link
	// (linkToken); viewToken is its view token and resultID its result.
	// otherSubmissionID, another student's work in the same assignment, has
	// otherViewToken.
	submissionID, resultID, viewToken, linkToken string
	otherSubmissionID, otherViewToken            string
	// pendingUpload is a file uploaded through the link, not yet submitted.
	pendingUpload string
	// samEmail is a teacher of a third team, who shared a rubric with Ada
	// (notificationID).
	samEmail string
}

// ids are the world's ids and tokens: a body that shows none of them and
// not mark shows nothing of Ada's team.
func (w adaWorld) ids() []string {
	return []string{w.teamID, w.rubricID, w.assignmentID, w.bareAssignmentID, w.functionID, w.folderID, w.inviteID,
		w.userID, w.notificationID, w.assistantID, w.chatID, w.submissionID, w.resultID, w.otherSubmissionID,
		w.viewToken, w.otherViewToken, w.linkToken, w.email}
}

// buildAdaWorld signs ada in as Ada (ada.{tag}@school.test) and makes her
// world. tag keeps the addresses of one test apart from another's.
func buildAdaWorld(t *testing.T, b *bundle, ada *browser, tag string) adaWorld {
	t.Helper()
	w := adaWorld{ada: ada, mark: "Zq" + strings.ReplaceAll(uuid.NewString()[:8], "-", ""),
		email: "ada." + tag + "@school.test", samEmail: "sam." + tag + "@school.test"}
	user := ada.signIn(t, "Ada "+w.mark, w.email)
	w.userID = user["id"].(string)
	w.teamID = user["teamId"].(string)

	data := func(res *http.Response, body map[string]any) map[string]any {
		t.Helper()
		require.Equal(t, 200, res.StatusCode, body)
		return body["data"].(map[string]any)
	}
	criteria := []map[string]any{{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear"}, "useRange": false}}
	w.rubricID = data(ada.do(t, "POST", "/api/v1/db/rubric/put", map[string]any{"name": "Essay rubric " + w.mark, "criteria": criteria}))["rubric"].(map[string]any)["_id"].(string)
	w.assignmentID = data(ada.do(t, "POST", "/api/v1/db/assignment/put", map[string]any{"name": "Essay " + w.mark, "type": "rubric-feedback", "provideInstantFeedback": true}))["assignment"].(map[string]any)["_id"].(string)
	w.functionID = data(ada.do(t, "POST", "/api/v1/db/function/put", map[string]any{"assignmentId": w.assignmentID, "rubricId": w.rubricID}))["function"].(map[string]any)["_id"].(string)
	w.bareAssignmentID = data(ada.do(t, "POST", "/api/v1/db/assignment/put", map[string]any{"name": "Draft " + w.mark, "type": "prompt"}))["assignment"].(map[string]any)["_id"].(string)
	w.folderID = data(ada.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": w.teamID, "folderName": "Term 1 " + w.mark}))["folder"].(map[string]any)["_id"].(string)
	data(ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": w.teamID, "newFolders": []map[string]any{
		{"_id": w.folderID, "name": "Term 1 " + w.mark, "assignments": []string{w.assignmentID}},
	}}))
	w.inviteID = data(ada.do(t, "POST", "/api/v1/db/team/invite", map[string]any{"email": "newcomer." + tag + "@school.test"}))["invite"].(map[string]any)["_id"].(string)
	up := data(ada.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "assignments/" + w.assignmentID + "/submissions/essay.txt", "fileType": "text/plain"}))
	w.fileURL = up["fileUrl"].(string)
	put, _ := rawRequest(t, "PUT", up["signedUrl"].(string), "text/plain", "name,answer\nLee,Rivers run to the sea.\n")
	require.Equal(t, 200, put.StatusCode)

	// Two students submit through the link; a third file waits unsubmitted.
	w.linkToken = data(ada.do(t, "POST", "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": w.assignmentID}))["token"].(string)
	submit := func(student string) (submissionID, resultID, viewToken string) {
		t.Helper()
		br := b.newBrowser(t)
		loc := br.linkUpload(t, w.linkToken, "essay.txt", "An essay by "+student)
		got := data(br.do(t, "POST", "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
			"linkToken": w.linkToken, "assignmentId": w.assignmentID,
			"submissions": []map[string]any{{"name": "essay.txt", "location": loc}},
			"studentName": student + " " + w.mark, "studentEmail": strings.ToLower(student) + "." + tag + "@pupils.test",
		}))
		return got["submissions"].([]any)[0].(map[string]any)["_id"].(string),
			got["functionResults"].([]any)[0].(map[string]any)["_id"].(string), got["viewToken"].(string)
	}
	w.submissionID, w.resultID, w.viewToken = submit("Sam")
	w.otherSubmissionID, _, w.otherViewToken = submit("Kim")
	w.pendingUpload = b.newBrowser(t).linkUpload(t, w.linkToken, "late.txt", "A late essay")

	asst := data(ada.do(t, "POST", "/api/v1/db/assistant/put", map[string]any{"title": "Planner " + w.mark, "description": "Plans", "systemPrompt": "You plan."}))
	w.assistantID = asst["assistant"].(map[string]any)["_id"].(string)
	chat := data(ada.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"assistantId": w.assistantID, "chatState": map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "Plan a lesson"}}, "document": "", "pastDocuments": []any{}}}))
	w.chatID = chat["chatDoc"].(map[string]any)["_id"].(string)

	// Sam, of a third team, shares a rubric with Ada: Ada has a notification.
	sam := b.newBrowser(t)
	sam.signIn(t, "Sam", w.samEmail)
	samRubric := data(sam.do(t, "POST", "/api/v1/db/rubric/put", map[string]any{"name": "Lab rubric", "criteria": criteria}))["rubric"].(map[string]any)["_id"].(string)
	data(sam.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": samRubric, "email": w.email}))
	notes := data(ada.do(t, "GET", "/api/v1/db/notification/list", nil))["notifications"].([]any)
	require.Len(t, notes, 1)
	w.notificationID = notes[0].(map[string]any)["_id"].(string)
	return w
}

// crossTeamProbes are, for every route that takes an id, a body naming
// Ada's things: sent by a teacher of another team they must answer 404.
// ownTeam is the sender's team, for the probes that name the sender's own
// team with Ada's ids.
func crossTeamProbes(w adaWorld, ownTeam string) map[string]any {
	validCriteria := []map[string]any{{"criterionDescription": "X", "levelDescriptions": []string{"Y"}, "useRange": false}}
	probes := map[string]any{
		"POST /api/v1/getSignedURL": map[string]any{"link": w.fileURL},
		// The operators' provider check names no team: every teacher gets
		// 404, as for /admin/jobs (TestModelCheckIsForOperators).
		"GET /api/v1/operator/model-check": map[string]any{},
		// The LTI operators' routes, the same (lti_test.go signs one in).
		"GET /api/v1/operator/lti":                   map[string]any{},
		"POST /api/v1/operator/lti/platforms":        map[string]any{"issuer": "https://lms.example", "clientId": "c"},
		"POST /api/v1/operator/lti/platforms/delete": map[string]any{"id": w.assignmentID},
		"POST /api/v1/operator/lti/rotate-key":       map[string]any{},
		// An assignment's LTI status; a deep-linking request is only its
		// teacher's (Ada has none: any id is not found); a pupil's launch
		// token opens only its own launch.
		"POST /api/v1/lti/assignment/status":                map[string]any{"assignmentId": w.assignmentID, "roster": true},
		"POST /api/v1/lti/deep-link/get":                    map[string]any{"id": w.assignmentID},
		"POST /api/v1/lti/deep-link/post":                   map[string]any{"id": w.assignmentID, "assignmentId": w.assignmentID},
		"POST /api/v1/lti/learner":                          map[string]any{"assignmentId": w.assignmentID, "token": "not-a-launch"},
		"POST /api/v1/operator/model-check":                 map[string]any{},
		"POST /api/v1/s3-upload":                            map[string]any{"fileName": "assignments/" + w.assignmentID + "/submissions/x.txt", "fileType": "text/plain"},
		"POST /api/v1/db/rubric/get":                        map[string]any{"rubricId": w.rubricID},
		"POST /api/v1/db/rubric/update":                     map[string]any{"rubricId": w.rubricID, "name": "Mine now", "criteria": validCriteria},
		"POST /api/v1/db/assignment/get":                    map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/export":                 map[string]any{"assignmentId": w.assignmentID, "format": "xlsx", "submissionIds": []string{w.submissionID}},
		"POST /api/v1/db/assignment/history":                map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/submission-rows":        map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/get-view-only":          map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/update":                 map[string]any{"id": w.assignmentID, "name": "Mine now", "type": "rubric-feedback"},
		"POST /api/v1/db/assignment/duplicate":              map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/function/get":                      map[string]any{"type": "rubric-feedback", "assignmentId": w.assignmentID},
		"POST /api/v1/db/function/get-view-only":            map[string]any{"type": "rubric-feedback", "assignmentId": w.assignmentID},
		"POST /api/v1/db/function/put":                      map[string]any{"assignmentId": w.bareAssignmentID, "prompt": "Be kind"},
		"POST /api/v1/db/function/update":                   map[string]any{"functionId": w.functionID, "assignmentId": w.assignmentID, "rubricId": w.rubricID},
		"POST /api/v1/db/team/create-folder":                map[string]any{"teamId": w.teamID, "folderName": "Mine"},
		"POST /api/v1/db/team/update-folders":               map[string]any{"teamId": ownTeam, "newFolders": []map[string]any{{"_id": w.folderID, "name": "Mine", "assignments": []string{}}}},
		"POST /api/v1/db/team/delete-assignment":            map[string]any{"teamId": ownTeam, "assignmentId": w.assignmentID},
		"POST /api/v1/db/team/delete-rubric":                map[string]any{"teamId": ownTeam, "rubricId": w.rubricID},
		"POST /api/v1/db/share/assignment":                  map[string]any{"assignmentId": w.assignmentID, "email": w.samEmail},
		"POST /api/v1/db/share/rubric":                      map[string]any{"rubricId": w.rubricID, "email": w.samEmail},
		"POST /api/v1/db/notification/copySharedAssignment": map[string]any{"notificationId": w.notificationID, "status": "closed"},
		"POST /api/v1/db/notification/copySharedRubric":     map[string]any{"notificationId": w.notificationID, "status": "closed"},
		"POST /api/v1/db/notification/dismiss":              map[string]any{"notificationId": w.notificationID},
		"POST /api/v1/db/team/invite":                       map[string]any{"teamId": w.teamID, "email": "friend." + w.mark + "@school.test"},
		"POST /api/v1/db/team/invite-link":                  map[string]any{"teamId": w.teamID},
		"POST /api/v1/db/team/cancel-invite":                map[string]any{"inviteId": w.inviteID},
		"POST /api/v1/db/team/remove-member":                map[string]any{"userId": w.userID},
		"POST /api/v1/db/team/leave":                        map[string]any{"teamId": w.teamID},
		"POST /api/v1/db/assignment/update-submissions":     map[string]any{"assignmentId": w.assignmentID, "submissions": []map[string]any{{"name": "x", "location": w.fileURL}}},
		"POST /api/v1/db/submission/get":                    map[string]any{"submissionId": w.submissionID},
		"POST /api/v1/db/submission/get-view-only":          map[string]any{"submissionId": w.submissionID},
		"POST /api/v1/db/submission/update":                 map[string]any{"submissionId": w.submissionID, "submission": map[string]any{"studentEmail": "eve@school.test"}},
		"POST /api/v1/db/assignment/student-link/get":       map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/student-link/update":    map[string]any{"assignmentId": w.assignmentID, "enabled": false, "rotate": true},
		"POST /api/v1/db/assignment/answer-boxes/get":       map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/answer-boxes/update":    map[string]any{"assignmentId": w.assignmentID, "boxes": []any{}},
		"POST /api/v1/db/submission/page-image":             map[string]any{"submissionId": w.submissionID, "page": 0},
		"POST /api/v1/db/submission/original/get":           map[string]any{"submissionId": w.submissionID},
		"POST /api/v1/db/submission/original/page":          map[string]any{"submissionId": w.submissionID, "page": 0},
		"POST /api/v1/db/submission/original/download":      map[string]any{"submissionId": w.submissionID},

		"POST /api/v1/db/assignment/delete-submission-and-function-result":   map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID, "frId": w.resultID},
		"POST /api/v1/db/assignment/delete-submissions-and-function-results": map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}, "frIds": []string{w.resultID}},
		"POST /api/v1/db/assignment/preview-csv":                             map[string]any{"assignmentId": w.assignmentID, "csvLocation": w.fileURL},
		"POST /api/v1/db/assignment/update-submissions-csv": map[string]any{"assignmentId": w.assignmentID, "csvLocation": w.fileURL,
			"submissionRole": "teacher", "parsedCSV": map[string]any{"nameColumn": 0, "emailColumn": -1, "questions": []map[string]any{{"question": 0, "column": 1}}}},
		"POST /api/v1/upload-and-read-pdf":   map[string]any{"fileLinks": []string{w.fileURL}},
		"POST /api/v1/upload-and-read-files": map[string]any{"fileLinks": []string{w.fileURL}, "fileNames": []string{"essay.txt"}},
		"POST /api/v1/db/assignment/update-submissions-from-google": map[string]any{"assignmentId": w.assignmentID,
			"classId": "c1", "courseworkId": "w1", "selectedStudentSubmissions": []string{"s1"}},
		"POST /api/v1/google/classroom/passback": map[string]any{"assignmentId": w.assignmentID,
			"submissionIds": []string{w.submissionID}, "grade": "draft", "comment": false, "returnToStudents": false},
		"POST /api/v1/google/classroom/passback/get": map[string]any{"assignmentId": w.assignmentID},

		// The grading routes (issue 9).
		"POST /api/v1/lambda/runFunctionOnMany":               map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}},
		"POST /api/v1/lambda/gradeOnePub":                     map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID, "processName": "RubricFeedbackProcess"},
		"POST /api/v1/db/functionResult/get":                  map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID},
		"POST /api/v1/db/functionResult/get-view-only":        map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID},
		"POST /api/v1/db/functionResult/update":               map[string]any{"_id": w.resultID, "submissionId": w.submissionID, "functionId": w.functionID, "criteriaLevels": []int{0}, "criteriaPoints": []float64{1}, "criteriaFeedback": []string{"Mine"}},
		"POST /api/v1/db/gradeFunction/toggleCriterion":       map[string]any{"gradeFunctionId": w.resultID, "questionIndexPath": []int{0}, "criterionIndex": 0},
		"POST /api/v1/db/rubricFeedbackFunctionResult/update": map[string]any{"functionResultId": w.resultID, "data": map[string]any{"isBenchmark": true}},
		"PUT /api/v1/db/promptFunctionResult/update":          map[string]any{"functionResultId": w.resultID, "data": map[string]any{"feedback": "Mine"}},
		"POST /api/v1/db/assignment/check-agreement":          map[string]any{"assignmentId": w.assignmentID},
		// Feedback reports (issue 21).
		"POST /api/v1/db/assignment/report/student":    map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID},
		"POST /api/v1/db/assignment/reports/start":     map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}},
		"POST /api/v1/db/assignment/reports/get":       map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/release":           map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}, "sendEmail": false},
		"POST /api/v1/db/assignment/release/list":      map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/release/revoke":    map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}},
		"POST /api/v1/db/assignment/release/links-csv": map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/ai-assist/generate-summary": map[string]any{"assignmentId": w.assignmentID,
			"criteriaBreakdown": []map[string]any{{"label": "Thesis", "successRate": 0.5, "averagePoints": 1, "maxPoints": 2}}},

		// Assistants and chats (issue 10).
		"POST /api/v1/db/assistant/update":          map[string]any{"assistantId": w.assistantID, "title": "Mine", "description": "d", "systemPrompt": "p"},
		"POST /api/v1/db/assistant/delete":          map[string]any{"assistantId": w.assistantID},
		"POST /api/v1/db/team/addSavedAssistant":    map[string]any{"assistantId": w.assistantID},
		"POST /api/v1/db/team/removeSavedAssistant": map[string]any{"teamId": w.teamID, "assistantId": w.assistantID},
		"PUT /api/v1/db/chat/put":                   map[string]any{"chatState": map[string]any{"chatId": w.chatID, "messages": []any{}}},
		"POST /api/v1/db/chat/delete":               map[string]any{"chatId": w.chatID},
		"POST /api/v1/chat/stream":                  map[string]any{"assistantId": w.assistantID, "messages": []map[string]any{{"role": "user", "content": "Write a letter"}}},
	}
	return probes
}

// noIDRoutes take no id of any team: their answers must not mention
// anything of Ada's. Each says why it has no cross-team probe.
var noIDRoutes = map[string]string{
	"GET /api/v1/db/user/get":                  "the session's own user",
	"GET /api/v1/db/team/members":              "the session's own team",
	"GET /api/v1/db/library/get":               "the session's own team",
	"GET /api/v1/db/rubric/list":               "the session's own team",
	"GET /api/v1/db/notification/list":         "the session's own notifications",
	"POST /api/v1/db/rubric/put":               "creates in the session's team",
	"POST /api/v1/db/assignment/put":           "creates in the session's team",
	"POST /api/v1/s3-public-asset-upload":      "public/ holds no team data",
	"POST /api/v1/s3-pub-upload":               "a student's call: the link token names the assignment",
	"POST /api/v1/student/link":                "a student's call: the link token names the assignment",
	"POST /api/v1/db/team/accept-invite":       "takes a secret token, not an id",
	"GET /api/v1/app-config":                   "the deployment's settings, no team data",
	"POST /api/v1/ai-assist/suggest-criteria":  "takes text only",
	"POST /api/v1/ai-assist/suggest-questions": "takes text only",

	"POST /api/v1/db/assignment/update-submissions-from-student": "a student's call: the link token names the assignment",

	"POST /api/v1/google/classroom/status":      "the session's own Google connection",
	"GET /api/v1/google/classroom/connect":      "the session's own Google connection",
	"GET /api/v1/google/classroom/callback":     "the session's own Google connection",
	"POST /api/v1/google/classroom/courses":     "the session's own Google Classroom",
	"POST /api/v1/google/classroom/coursework":  "takes Google Classroom ids, read with the session's own token",
	"POST /api/v1/google/classroom/submissions": "takes Google Classroom ids, read with the session's own token",

	"POST /api/v1/db/assistant/put":   "creates in the session's team",
	"POST /api/v1/db/assistant/list":  "the session's own team (TestAssistantsAndChatsOfOthersAreNotListed)",
	"PUT /api/v1/db/chat/get":         "the session's own chats (TestAssistantsAndChatsOfOthersAreNotListed)",
	"POST /api/v1/chat/download-docx": "takes markdown; another team's image is refused as any unknown one (TestDownloadDocx)",
	// Tools and workflows (built in, the same for every team).
	"GET /api/v1/catalog":                      "the built-in tools and workflows, the same for every team",
	"POST /api/v1/ai-assist/rubric-from-sheet": "takes text only; creates in the session's team (TestRubricFromSheetIsSavedInTheTeamsLibrary)",
}
