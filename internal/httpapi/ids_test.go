package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
)

// TestIDsInBodies pins how the signed-in routes read the ids (and the
// teamId) a client sends: a malformed, empty, null or missing id is not
// found, an id that is not a JSON string is a body that does not fit (400),
// an absent teamId is the session's team and any other teamId is not found.
// Ada sends each to her own routes, with her own ids elsewhere in the body.
func TestIDsInBodies(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, w := idWorld(t, b)
	ids := strings.NewReplacer("{team}", w["team"], "{rubric}", w["rubric"], "{asg}", w["asg"],
		"{bare}", w["bare"], "{fn}", w["fn"], "{folder}", w["folder"], "{invite}", w["invite"],
		"{user}", w["user"], "{note}", w["note"], "{samEmail}", w["samEmail"], "{other}", uuid.NewString(),
		"{sub}", w["sub"], "{fr}", w["fr"])
	const noList = "newFolders must be the list of folders"
	criteria := `[{"criterionDescription":"X","levelDescriptions":["Y"],"useRange":false}]`

	// Each required id, with the rest of a body that would otherwise do.
	required := []struct{ path, field, rest string }{
		{"/api/v1/db/team/cancel-invite", "inviteId", `"teamId":"{team}"`},
		{"/api/v1/db/team/remove-member", "userId", `"teamId":"{team}"`},
		{"/api/v1/db/team/delete-assignment", "assignmentId", `"teamId":"{team}"`},
		{"/api/v1/db/team/delete-rubric", "rubricId", `"teamId":"{team}"`},
		{"/api/v1/db/assignment/duplicate", "assignmentId", ``},
		{"/api/v1/db/share/assignment", "assignmentId", `"email":"{samEmail}"`},
		{"/api/v1/db/share/rubric", "rubricId", `"email":"{samEmail}"`},
		{"/api/v1/db/notification/copySharedAssignment", "notificationId", `"status":"closed"`},
		{"/api/v1/db/notification/copySharedRubric", "notificationId", `"status":"closed"`},
		{"/api/v1/db/notification/dismiss", "notificationId", ``},
		{"/api/v1/db/rubric/update", "rubricId", `"name":"R","criteria":` + criteria},
		{"/api/v1/db/rubric/get", "rubricId", ``},
		{"/api/v1/db/assignment/update", "id", `"name":"E","type":"rubric-feedback"`},
		{"/api/v1/db/assignment/get", "assignmentId", ``},
		{"/api/v1/db/assignment/history", "assignmentId", ``},
		{"/api/v1/db/assignment/get-view-only", "assignmentId", ``},
		{"/api/v1/db/function/put", "assignmentId", `"prompt":"Be kind"`},
		{"/api/v1/db/function/update", "functionId", `"assignmentId":"{asg}","rubricId":"{rubric}"`},
		{"/api/v1/db/function/get", "assignmentId", `"type":"rubric-feedback"`},
		{"/api/v1/db/function/get-view-only", "assignmentId", `"type":"rubric-feedback"`},
		{"/api/v1/db/assignment/student-link/get", "assignmentId", ``},
		{"/api/v1/db/assignment/student-link/update", "assignmentId", `"enabled":true`},
		{"/api/v1/db/assignment/answer-boxes/get", "assignmentId", ``},
		{"/api/v1/db/assignment/answer-boxes/update", "assignmentId", `"boxes":[]`},
		{"/api/v1/db/submission/page-image", "submissionId", `"page":0`},
		{"/api/v1/db/submission/original/get", "submissionId", ``},
		{"/api/v1/db/submission/original/page", "submissionId", `"page":0`},
		{"/api/v1/db/submission/original/download", "submissionId", ``},
		{"/api/v1/db/assignment/update-submissions", "assignmentId", `"submissions":[{"name":"x","location":"x"}]`},
		{"/api/v1/db/submission/get", "submissionId", ``},
		{"/api/v1/db/submission/get-view-only", "submissionId", ``},
		{"/api/v1/db/submission/update", "submissionId", `"submission":{"studentEmail":"sam@school.test"}`},
		{"/api/v1/db/assignment/delete-submission-and-function-result", "submissionId", `"assignmentId":"{asg}","frId":"{fr}"`},
		{"/api/v1/db/assignment/delete-submission-and-function-result", "assignmentId", `"submissionId":"{sub}","frId":"{fr}"`},
		{"/api/v1/db/assignment/delete-submissions-and-function-results", "assignmentId", `"submissionIds":["{sub}"],"frIds":["{fr}"]`},
		{"/api/v1/db/assignment/preview-csv", "assignmentId", `"csvLocation":"x"`},
		{"/api/v1/db/assignment/update-submissions-csv", "assignmentId", `"csvLocation":"x","parsedCSV":{"nameColumn":0,"questions":[{"question":0,"column":1}]}`},
	}
	forms := []struct {
		value  string // raw JSON; "" leaves the field out
		status int
	}{
		{`"not-a-uuid"`, 404}, {`""`, 404}, {`null`, 404}, {``, 404},
		{`"00000000-0000-0000-0000-000000000000"`, 404}, {`"{other}"`, 404},
		{`5`, 400}, {`{"x":1}`, 400}, {`["{asg}"]`, 400}, {`true`, 400},
	}
	type probe struct {
		path, body string
		status     int
		message    string // when not the status's usual one
	}
	var probes []probe
	for _, r := range required {
		for _, f := range forms {
			var fields []string
			if f.value != "" {
				fields = append(fields, fmt.Sprintf("%q:%s", r.field, f.value))
			}
			if r.rest != "" {
				fields = append(fields, r.rest)
			}
			probes = append(probes, probe{r.path, "{" + strings.Join(fields, ",") + "}", f.status, ""})
		}
	}

	probes = append(probes,
		// teamId: absent is the session's team; anything else but the
		// session's team is not found; not a string is a bad body.
		probe{"/api/v1/db/team/create-folder", `{"teamId":"not-a-uuid","folderName":"T"}`, 404, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"00000000-0000-0000-0000-000000000000","folderName":"T"}`, 404, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"{other}","folderName":"T"}`, 404, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":5,"folderName":"T"}`, 400, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"","folderName":"T1"}`, 200, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":null,"folderName":"T2"}`, 200, ""},
		probe{"/api/v1/db/team/create-folder", `{"folderName":"T3"}`, 200, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"{team}","folderName":"T4"}`, 200, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"` + strings.ToUpper(w["team"]) + `","folderName":"T5"}`, 200, ""},
		probe{"/api/v1/db/team/invite", `{"teamId":"not-a-uuid","email":"x-{other}@school.test"}`, 404, ""},
		probe{"/api/v1/db/team/invite", `{"teamId":"{other}","email":"x-{other}@school.test"}`, 404, ""},
		probe{"/api/v1/db/team/invite", `{"teamId":[],"email":"x-{other}@school.test"}`, 400, ""},
		probe{"/api/v1/db/team/invite-link", `{"teamId":"not-a-uuid"}`, 404, ""},
		probe{"/api/v1/db/team/invite-link", `{"teamId":"{other}"}`, 404, ""},
		probe{"/api/v1/db/team/invite-link", `{"teamId":5}`, 400, ""},
		probe{"/api/v1/db/team/leave", `{"teamId":"not-a-uuid"}`, 404, ""},
		probe{"/api/v1/db/team/leave", `{"teamId":"{other}"}`, 404, ""},
		probe{"/api/v1/db/team/leave", `{"teamId":5}`, 400, ""},
		probe{"/api/v1/db/team/delete-assignment", `{"teamId":"not-a-uuid","assignmentId":"{bare}"}`, 404, ""},
		probe{"/api/v1/db/team/delete-rubric", `{"teamId":"{other}","rubricId":"{rubric}"}`, 404, ""},
		probe{"/api/v1/db/team/cancel-invite", `{"teamId":"{other}","inviteId":"{invite}"}`, 404, ""},
		probe{"/api/v1/db/team/remove-member", `{"teamId":"{other}","userId":"{user}"}`, 404, ""},

		// update-folders: the list must be there; folder ids are optional,
		// the ids of the assignments in them are not.
		probe{"/api/v1/db/team/update-folders", `{"teamId":"{team}"}`, 400, noList},
		probe{"/api/v1/db/team/update-folders", `{"teamId":"{team}","newFolders":null}`, 400, noList},
		probe{"/api/v1/db/team/update-folders", `{"teamId":"{other}"}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"teamId":"not-a-uuid","newFolders":null}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":5}`, 400, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"not-a-uuid","name":"F"}]}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":5,"name":"F"}]}`, 400, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"{folder}","name":"F","assignments":["not-a-uuid"]}]}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"{folder}","name":"F","assignments":[""]}]}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"{folder}","name":"F","assignments":[null]}]}`, 404, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"{folder}","name":"F","assignments":[5]}]}`, 400, ""},
		probe{"/api/v1/db/team/update-folders", `{"newFolders":[{"_id":"{folder}","name":"F","assignments":["{asg}"]}]}`, 200, ""},
		probe{"/api/v1/db/team/update-folders", `{"teamId":null,"newFolders":[{"_id":null,"name":"G","assignments":["{asg}"]}]}`, 200, ""},
		probe{"/api/v1/db/team/update-folders", `{"teamId":"","newFolders":[{"_id":"","name":"H","assignments":["{asg}"]}]}`, 200, ""},

		// function/update: the assignment id is optional.
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","rubricId":"{rubric}"}`, 200, ""},
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","assignmentId":"","rubricId":"{rubric}"}`, 200, ""},
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","assignmentId":null,"rubricId":"{rubric}"}`, 200, ""},
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","assignmentId":"00000000-0000-0000-0000-000000000000","rubricId":"{rubric}"}`, 200, ""},
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","assignmentId":"not-a-uuid","rubricId":"{rubric}"}`, 404, ""},
		probe{"/api/v1/db/function/update", `{"functionId":"{fn}","assignmentId":5,"rubricId":"{rubric}"}`, 400, ""},

		// Any form uuid.Parse reads is an id.
		probe{"/api/v1/db/assignment/get", `{"assignmentId":"` + strings.ToUpper(w["asg"]) + `"}`, 200, ""},
		probe{"/api/v1/db/assignment/get", `{"assignmentId":"{` + w["asg"] + `}"}`, 200, ""},
		probe{"/api/v1/db/assignment/get", `{"assignmentId":"urn:uuid:{asg}"}`, 200, ""},
		probe{"/api/v1/db/assignment/get", `{"assignmentId":"` + strings.ReplaceAll(w["asg"], "-", "") + `"}`, 200, ""},

		// Lists of ids: each must be an id, malformed ones are not found;
		// frId is optional.
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":["not-a-uuid"]}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":["{sub}","{other}"]}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":["{sub}",""]}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":["{sub}"],"frIds":["not-a-uuid"]}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":["{sub}"],"frIds":["{other}"]}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":[5]}`, 400, ""},
		probe{"/api/v1/db/assignment/delete-submissions-and-function-results", `{"assignmentId":"{asg}","submissionIds":"{sub}"}`, 400, ""},
		probe{"/api/v1/db/assignment/delete-submission-and-function-result", `{"assignmentId":"{asg}","submissionId":"{sub}","frId":"not-a-uuid"}`, 404, ""},
		probe{"/api/v1/db/assignment/delete-submission-and-function-result", `{"assignmentId":"{asg}","submissionId":"{sub}","frId":5}`, 400, ""},
		probe{"/api/v1/db/submission/get", `{"submissionId":"{sub}"}`, 200, ""},
		probe{"/api/v1/db/assignment/delete-submission-and-function-result", `{"assignmentId":"{asg}","submissionId":"{sub}","frId":null}`, 200, ""},

		// A malformed id is not found, whatever else is wrong with the body;
		// a body that is not JSON at all is refused.
		probe{"/api/v1/db/rubric/update", `{"rubricId":"not-a-uuid","name":"","criteria":[]}`, 404, ""},
		probe{"/api/v1/db/assignment/update", `{"id":"not-a-uuid","name":"","type":"nonsense"}`, 404, ""},
		probe{"/api/v1/db/function/put", `{"assignmentId":"","rubricId":"not-a-uuid"}`, 404, ""},
		probe{"/api/v1/db/share/assignment", `{"assignmentId":"not-a-uuid","email":5}`, 404, ""},
		probe{"/api/v1/db/team/create-folder", `{"teamId":"not-a-uuid","folderName":5}`, 404, ""},
		probe{"/api/v1/db/assignment/get", `{"assignmentId":"not-a-uuid"`, 400, ""},
		probe{"/api/v1/db/assignment/get", ``, 400, ""},
	)

	for _, p := range probes {
		body := ids.Replace(p.body)
		res, got := ada.send(t, "POST", p.path, []byte(body), "application/json", httpapi.CSRFHeader, ada.csrfToken(t))
		require.Equal(t, p.status, res.StatusCode, "%s %s: %v", p.path, body, got)
		if p.status == 200 {
			require.Contains(t, got, "data", "%s %s", p.path, body)
			continue
		}
		want := map[string]any{"code": "not_found", "message": "Not found"}
		if p.status == 400 {
			want = map[string]any{"code": "invalid", "message": "Request body must be valid JSON"}
		}
		if p.message != "" {
			want["message"] = p.message
		}
		require.Equal(t, map[string]any{"error": want}, got, "%s %s", p.path, body)
	}
}

// idWorld signs Ada in and makes one of everything in her team, with a
// rubric Sam shared with her; it returns Ada's browser and the ids by name.
func idWorld(t *testing.T, b *bundle) (*browser, map[string]string) {
	t.Helper()
	ada, sam := b.newBrowser(t), b.newBrowser(t)
	suffix := uuid.NewString()[:8]
	user := ada.signIn(t, "Ada", "ada-ids-"+suffix+"@school.test")
	w := map[string]string{"user": user["id"].(string), "team": user["teamId"].(string), "samEmail": "sam-ids-" + suffix + "@school.test"}
	sam.signIn(t, "Sam", w["samEmail"])
	made := func(br *browser, path string, body map[string]any, key string) string {
		t.Helper()
		status, data, e := br.call(t, path, body)
		require.Equal(t, 200, status, "%s: %v", path, e)
		return data[key].(map[string]any)["_id"].(string)
	}
	criteria := []map[string]any{{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear"}, "useRange": false}}
	w["rubric"] = made(ada, "/api/v1/db/rubric/put", map[string]any{"name": "Essay rubric", "criteria": criteria}, "rubric")
	w["asg"] = made(ada, "/api/v1/db/assignment/put", map[string]any{"name": "Essay", "type": "rubric-feedback"}, "assignment")
	w["bare"] = made(ada, "/api/v1/db/assignment/put", map[string]any{"name": "Draft", "type": "prompt"}, "assignment")
	w["fn"] = made(ada, "/api/v1/db/function/put", map[string]any{"assignmentId": w["asg"], "rubricId": w["rubric"]}, "function")
	w["folder"] = made(ada, "/api/v1/db/team/create-folder", map[string]any{"folderName": "Term 1"}, "folder")
	w["invite"] = made(ada, "/api/v1/db/team/invite", map[string]any{"email": "newcomer-ids-" + suffix + "@school.test"}, "invite")
	samRubric := made(sam, "/api/v1/db/rubric/put", map[string]any{"name": "Lab rubric", "criteria": criteria}, "rubric")
	status, _, e := sam.call(t, "/api/v1/db/share/rubric", map[string]any{"rubricId": samRubric, "email": user["email"]})
	require.Equal(t, 200, status, e)
	status, data, e := ada.call(t, "/api/v1/db/notification/list", nil)
	require.Equal(t, 200, status, e)
	w["note"] = data["notifications"].([]any)[0].(map[string]any)["_id"].(string)
	w["sub"], w["fr"] = uploadSubmission(t, ada, w["asg"])
	return ada, w
}
