package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// adaWorld is one of everything in Ada's team, made through the API.
type adaWorld struct {
	teamID, rubricID, assignmentID, bareAssignmentID, functionID string
	folderID, inviteID, userID, notificationID, fileURL          string
	submissionID, resultID                                       string
}

func buildAdaWorld(t *testing.T, b *bundle) adaWorld {
	t.Helper()
	var w adaWorld
	ada := b.browser
	user := ada.signIn(t, "Ada", "ada.crossteam@school.test")
	w.userID = user["id"].(string)
	w.teamID = user["teamId"].(string)

	data := func(res *http.Response, body map[string]any) map[string]any {
		t.Helper()
		require.Equal(t, 200, res.StatusCode, body)
		return body["data"].(map[string]any)
	}
	criteria := []map[string]any{{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear"}, "useRange": false}}
	w.rubricID = data(ada.do(t, "POST", "/api/v1/db/rubric/put", map[string]any{"name": "Essay rubric", "criteria": criteria}))["rubric"].(map[string]any)["_id"].(string)
	w.assignmentID = data(ada.do(t, "POST", "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "rubric-feedback"}))["assignment"].(map[string]any)["_id"].(string)
	w.functionID = data(ada.do(t, "POST", "/api/v1/db/function/put", map[string]any{"assignmentId": w.assignmentID, "rubricId": w.rubricID}))["function"].(map[string]any)["_id"].(string)
	w.bareAssignmentID = data(ada.do(t, "POST", "/api/v1/db/assignment/put", map[string]any{"name": "Draft", "type": "prompt"}))["assignment"].(map[string]any)["_id"].(string)
	w.folderID = data(ada.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": w.teamID, "folderName": "Term 1"}))["folder"].(map[string]any)["_id"].(string)
	data(ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": w.teamID, "newFolders": []map[string]any{
		{"_id": w.folderID, "name": "Term 1", "assignments": []string{w.assignmentID}},
	}}))
	w.inviteID = data(ada.do(t, "POST", "/api/v1/db/team/invite", map[string]any{"email": "newcomer.crossteam@school.test"}))["invite"].(map[string]any)["_id"].(string)
	up := data(ada.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "assignments/" + w.assignmentID + "/submissions/essay.txt", "fileType": "text/plain"}))
	w.fileURL = up["fileUrl"].(string)
	w.submissionID, w.resultID = uploadSubmission(t, ada, w.assignmentID)

	// Sam, of a third team, shares a rubric with Ada: Ada has a notification.
	sam := b.newBrowser(t)
	sam.signIn(t, "Sam", "sam.crossteam@school.test")
	samRubric := data(sam.do(t, "POST", "/api/v1/db/rubric/put", map[string]any{"name": "Lab rubric", "criteria": criteria}))["rubric"].(map[string]any)["_id"].(string)
	data(sam.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": samRubric, "email": "ada.crossteam@school.test"}))
	notes := data(ada.do(t, "GET", "/api/v1/db/notification/list", nil))["notifications"].([]any)
	require.Len(t, notes, 1)
	w.notificationID = notes[0].(map[string]any)["_id"].(string)
	return w
}

// TestOtherTeamsIDsAreNotFoundOnEveryRoute enumerates the router: every
// signed-in /api/v1 route must have a probe here, so a route added later
// without one fails this test. Eve, of another team, sends Ada's ids to
// each and gets 404; Ada's library is unchanged afterwards.
func TestOtherTeamsIDsAreNotFoundOnEveryRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	w := buildAdaWorld(t, b)
	assistantID, chatID := adaAssistantAndChat(t, b)
	_, before := b.do(t, "GET", "/api/v1/db/library/get", nil)
	_, rosterBefore := b.do(t, "GET", "/api/v1/db/team/members", nil)

	eve := b.newBrowser(t)
	eveUser := eve.signIn(t, "Eve", "eve.crossteam@school.test")
	eveTeam := eveUser["teamId"].(string)
	validCriteria := []map[string]any{{"criterionDescription": "X", "levelDescriptions": []string{"Y"}, "useRange": false}}

	// Each probe sends Ada's ids (or Ada's teamId) and must get 404.
	probes := map[string]any{
		"POST /api/v1/getSignedURL":                         map[string]any{"link": w.fileURL},
		"POST /api/v1/s3-upload":                            map[string]any{"fileName": "assignments/" + w.assignmentID + "/submissions/x.txt", "fileType": "text/plain"},
		"POST /api/v1/db/rubric/get":                        map[string]any{"rubricId": w.rubricID},
		"POST /api/v1/db/rubric/update":                     map[string]any{"rubricId": w.rubricID, "name": "Mine now", "criteria": validCriteria},
		"POST /api/v1/db/assignment/get":                    map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/get-view-only":          map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/assignment/update":                 map[string]any{"id": w.assignmentID, "name": "Mine now", "type": "rubric-feedback"},
		"POST /api/v1/db/assignment/duplicate":              map[string]any{"assignmentId": w.assignmentID},
		"POST /api/v1/db/function/get":                      map[string]any{"type": "rubric-feedback", "assignmentId": w.assignmentID},
		"POST /api/v1/db/function/get-view-only":            map[string]any{"type": "rubric-feedback", "assignmentId": w.assignmentID},
		"POST /api/v1/db/function/put":                      map[string]any{"assignmentId": w.bareAssignmentID, "prompt": "Be kind"},
		"POST /api/v1/db/function/update":                   map[string]any{"functionId": w.functionID, "assignmentId": w.assignmentID, "rubricId": w.rubricID},
		"POST /api/v1/db/team/create-folder":                map[string]any{"teamId": w.teamID, "folderName": "Mine"},
		"POST /api/v1/db/team/update-folders":               map[string]any{"teamId": eveTeam, "newFolders": []map[string]any{{"_id": w.folderID, "name": "Mine", "assignments": []string{}}}},
		"POST /api/v1/db/team/delete-assignment":            map[string]any{"teamId": eveTeam, "assignmentId": w.assignmentID},
		"POST /api/v1/db/team/delete-rubric":                map[string]any{"teamId": eveTeam, "rubricId": w.rubricID},
		"POST /api/v1/db/share/assignment":                  map[string]any{"assignmentId": w.assignmentID, "email": "sam.crossteam@school.test"},
		"POST /api/v1/db/share/rubric":                      map[string]any{"rubricId": w.rubricID, "email": "sam.crossteam@school.test"},
		"POST /api/v1/db/notification/copySharedAssignment": map[string]any{"notificationId": w.notificationID, "status": "closed"},
		"POST /api/v1/db/notification/copySharedRubric":     map[string]any{"notificationId": w.notificationID, "status": "closed"},
		"POST /api/v1/db/notification/dismiss":              map[string]any{"notificationId": w.notificationID},
		"POST /api/v1/db/team/invite":                       map[string]any{"teamId": w.teamID, "email": "friend.crossteam@school.test"},
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
	}
	probes["POST /api/v1/db/assignment/delete-submission-and-function-result"] = map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID, "frId": w.resultID}
	probes["POST /api/v1/db/assignment/delete-submissions-and-function-results"] = map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}, "frIds": []string{w.resultID}}
	probes["POST /api/v1/db/assignment/preview-csv"] = map[string]any{"assignmentId": w.assignmentID, "csvLocation": w.fileURL}
	probes["POST /api/v1/db/assignment/update-submissions-csv"] = map[string]any{"assignmentId": w.assignmentID, "csvLocation": w.fileURL,
		"submissionRole": "teacher", "parsedCSV": map[string]any{"nameColumn": 0, "emailColumn": -1, "questions": []map[string]any{{"question": 0, "column": 1}}}}

	// Routes that take no id of any team: their answers must not mention
	// anything of Ada's. Each says why it has no probe.
	noIDs := map[string]string{
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
	}
	probes["POST /api/v1/upload-and-read-pdf"] = map[string]any{"fileLinks": []string{w.fileURL}}
	probes["POST /api/v1/upload-and-read-files"] = map[string]any{"fileLinks": []string{w.fileURL}, "fileNames": []string{"essay.txt"}}
	probes["POST /api/v1/db/assignment/update-submissions-from-google"] = map[string]any{"assignmentId": w.assignmentID,
		"classId": "c1", "courseworkId": "w1", "selectedStudentSubmissions": []string{"s1"}}

	// The grading routes (issue 9).
	probes["POST /api/v1/lambda/runFunctionOnMany"] = map[string]any{"assignmentId": w.assignmentID, "submissionIds": []string{w.submissionID}}
	probes["POST /api/v1/lambda/gradeOnePub"] = map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID, "processName": "RubricFeedbackProcess"}
	probes["POST /api/v1/db/functionResult/get"] = map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID}
	probes["POST /api/v1/db/functionResult/get-view-only"] = map[string]any{"assignmentId": w.assignmentID, "submissionId": w.submissionID}
	probes["POST /api/v1/db/functionResult/update"] = map[string]any{"_id": w.resultID, "submissionId": w.submissionID, "functionId": w.functionID,
		"criteriaLevels": []int{0}, "criteriaPoints": []float64{1}, "criteriaFeedback": []string{"Mine"}}
	probes["POST /api/v1/db/gradeFunction/toggleCriterion"] = map[string]any{"gradeFunctionId": w.resultID, "questionIndexPath": []int{0}, "criterionIndex": 0}
	probes["POST /api/v1/db/rubricFeedbackFunctionResult/update"] = map[string]any{"functionResultId": w.resultID, "data": map[string]any{"isBenchmark": true}}
	probes["PUT /api/v1/db/promptFunctionResult/update"] = map[string]any{"functionResultId": w.resultID, "data": map[string]any{"feedback": "Mine"}}
	probes["POST /api/v1/db/assignment/check-agreement"] = map[string]any{"assignmentId": w.assignmentID}
	probes["POST /api/v1/ai-assist/generate-summary"] = map[string]any{"assignmentId": w.assignmentID,
		"criteriaBreakdown": []map[string]any{{"label": "Thesis", "successRate": 0.5, "averagePoints": 1, "maxPoints": 2}}}

	// Assistants and chats (issue 10).
	probes["POST /api/v1/db/assistant/update"] = map[string]any{"assistantId": assistantID, "title": "Mine", "description": "d", "systemPrompt": "p"}
	probes["POST /api/v1/db/assistant/delete"] = map[string]any{"assistantId": assistantID}
	probes["POST /api/v1/db/team/addSavedAssistant"] = map[string]any{"assistantId": assistantID}
	probes["POST /api/v1/db/team/removeSavedAssistant"] = map[string]any{"teamId": w.teamID, "assistantId": assistantID}
	probes["PUT /api/v1/db/chat/put"] = map[string]any{"chatState": map[string]any{"chatId": chatID, "messages": []any{}}}
	probes["POST /api/v1/db/chat/delete"] = map[string]any{"chatId": chatID}
	probes["POST /api/v1/chat/stream"] = map[string]any{"assistantId": assistantID, "messages": []map[string]any{{"role": "user", "content": "Write a letter"}}}
	noIDs["POST /api/v1/db/assistant/put"] = "creates in the session's team"
	noIDs["POST /api/v1/db/assistant/list"] = "the session's own team (TestAssistantsAndChatsOfOthersAreNotListed)"
	noIDs["PUT /api/v1/db/chat/get"] = "the session's own chats (TestAssistantsAndChatsOfOthersAreNotListed)"
	noIDs["POST /api/v1/chat/download-docx"] = "takes markdown; another team's image is refused as any unknown one (TestDownloadDocx)"
	// Tools and workflows (built in, the same for every team).
	noIDs["GET /api/v1/catalog"] = "the built-in tools and workflows, the same for every team"
	noIDs["POST /api/v1/ai-assist/rubric-from-sheet"] = "takes text only; creates in the session's team (TestRubricFromSheetIsSavedInTheTeamsLibrary)"

	adaIDs := []string{w.teamID, w.rubricID, w.assignmentID, w.bareAssignmentID, w.functionID, w.folderID, w.inviteID, w.userID, w.notificationID, w.submissionID, w.resultID}
	for _, r := range b.router.Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		name := r.Method + " " + r.Path
		if why, ok := noIDs[name]; ok {
			if r.Method == "GET" {
				res, body := eve.do(t, "GET", r.Path, nil)
				// 302: a browser navigation (the Google Classroom connect) back to this site
				require.Contains(t, []int{200, 302}, res.StatusCode, name)
				raw, _ := json.Marshal(body)
				raw = append(raw, res.Header.Get("Location")...)
				for _, id := range adaIDs {
					require.NotContains(t, string(raw), id, "%s (%s) shows Ada's %s", name, why, id)
				}
			}
			continue
		}
		body, ok := probes[name]
		require.True(t, ok, "route %s has no cross-team probe: add one to this test", name)
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
	require.Len(t, subs, 1, "Ada's submission is still there")
	require.Equal(t, "", subs[0].(map[string]any)["studentEmail"], "and unchanged")
	_, notes := b.do(t, "GET", "/api/v1/db/notification/list", nil)
	require.Equal(t, "open", notes["data"].(map[string]any)["notifications"].([]any)[0].(map[string]any)["status"])
}
