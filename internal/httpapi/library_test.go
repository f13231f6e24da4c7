package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

// libTeacher is a signed-in browser with its user's ids.
type libTeacher struct {
	*browser
	userID, teamID uuid.UUID
	email          string
}

func (b *bundle) libTeacher(t *testing.T, name string) libTeacher {
	t.Helper()
	br := b.newBrowser(t)
	email := name + "-" + uuid.NewString()[:8] + "@school.test"
	u := br.signIn(t, name, email)
	return libTeacher{browser: br, userID: uuid.MustParse(u["id"].(string)), teamID: uuid.MustParse(u["teamId"].(string)), email: email}
}

func (tc libTeacher) assignment(t *testing.T, name string, typ store.AssignmentType) uuid.UUID {
	t.Helper()
	a, err := store.Q.CreateAssignment(context.Background(), testdb.Pool(t), store.CreateAssignmentParams{TeamID: tc.teamID, Name: name, Type: typ})
	require.NoError(t, err)
	return a.ID
}

func (tc libTeacher) rubric(t *testing.T, name string) uuid.UUID {
	t.Helper()
	r, err := store.Q.CreateRubric(context.Background(), testdb.Pool(t), store.CreateRubricParams{
		TeamID: tc.teamID, Name: name,
		Criteria: json.RawMessage(`[{"criterionDescription":"Argument","levelDescriptions":["weak","strong"],"useRange":false}]`),
	})
	require.NoError(t, err)
	return r.ID
}

// libData is the data of a success body.
func libData(body map[string]any) map[string]any {
	d, _ := body["data"].(map[string]any)
	return d
}

func TestLibraryRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.libTeacher(t, "ada"), b.libTeacher(t, "bob")
	essay := ada.assignment(t, "Essay", store.AssignmentTypeGrade)
	rub := ada.rubric(t, "Argument")
	_, err := store.Q.CreateFunction(context.Background(), testdb.Pool(t), store.CreateFunctionParams{
		TeamID: ada.teamID, AssignmentID: essay, Type: store.AssignmentTypeGrade,
		Highlights: json.RawMessage(`[]`), Questions: json.RawMessage(`[]`),
	})
	require.NoError(t, err)
	team := ada.teamID.String()

	res, body := ada.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": team, "folderName": " Term 1 "})
	require.Equal(t, 200, res.StatusCode, body)
	folder := libData(body)["folder"].(map[string]any)
	require.Equal(t, "Term 1", folder["name"])
	require.Equal(t, []any{}, folder["assignments"])
	folderID := folder["_id"].(string)

	res, body = ada.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": team, "folderName": "  "})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, "Folder name cannot be empty", body["error"].(map[string]any)["message"])
	res, _ = ada.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": bob.teamID.String(), "folderName": "X"})
	require.Equal(t, 404, res.StatusCode, "another team's id")

	// Move the essay in.
	res, body = ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": team, "newFolders": []any{
		map[string]any{"_id": folderID, "name": "Term 1", "assignments": []string{essay.String()}},
	}})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []any{map[string]any{"_id": folderID, "name": "Term 1", "assignments": []any{essay.String()}}}, libData(body)["folders"])

	for _, bad := range []struct {
		status  int
		message string
		folders []any
	}{
		{400, "An assignment can sit in at most one folder", []any{
			map[string]any{"_id": folderID, "name": "Term 1", "assignments": []string{essay.String()}},
			map[string]any{"name": "Term 2", "assignments": []string{essay.String()}},
		}},
		{404, "Not found", []any{map[string]any{"_id": "not-a-uuid", "name": "Term 1"}}},
		{404, "Not found", []any{map[string]any{"name": "New", "assignments": []string{bob.assignment(t, "Bob's", store.AssignmentTypePrompt).String()}}}},
	} {
		res, body = ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": team, "newFolders": bad.folders})
		require.Equal(t, bad.status, res.StatusCode, body)
		require.Equal(t, bad.message, body["error"].(map[string]any)["message"])
	}

	res, body = ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": team})
	require.Equal(t, 400, res.StatusCode, "a missing list deletes nothing")
	res, _ = ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": bob.teamID.String(), "newFolders": []any{}})
	require.Equal(t, 404, res.StatusCode, "another team's id")

	// The library shows it all.
	res, body = ada.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Equal(t, 200, res.StatusCode, body)
	lib := libData(body)
	require.Len(t, lib["assignments"], 1)
	a := lib["assignments"].([]any)[0].(map[string]any)
	require.Equal(t, essay.String(), a["_id"])
	require.Equal(t, folderID, a["folderId"])
	require.Equal(t, []any{}, a["submissions"])
	require.Len(t, lib["rubrics"], 1)
	require.Equal(t, "Argument", lib["rubrics"].([]any)[0].(map[string]any)["name"])
	require.Len(t, lib["folders"], 1)

	// Duplicate: next to the original.
	res, body = ada.do(t, "POST", "/api/v1/db/assignment/duplicate", map[string]any{"assignmentId": essay.String()})
	require.Equal(t, 200, res.StatusCode, body)
	cp := libData(body)["assignment"].(map[string]any)
	require.Equal(t, "Copy of Essay", cp["name"])
	require.Equal(t, folderID, cp["folderId"])
	res, _ = bob.do(t, "POST", "/api/v1/db/assignment/duplicate", map[string]any{"assignmentId": essay.String()})
	require.Equal(t, 404, res.StatusCode)
	res, _ = ada.do(t, "POST", "/api/v1/db/assignment/duplicate", map[string]any{"assignmentId": "nope"})
	require.Equal(t, 404, res.StatusCode)

	// Deleting the folder keeps its assignments.
	res, body = ada.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"teamId": team, "newFolders": []any{}})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, []any{}, libData(body)["folders"])
	_, body = ada.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Len(t, libData(body)["assignments"], 2)

	// Deletes: another team's ids, or a body naming another team, are 404.
	res, _ = bob.do(t, "POST", "/api/v1/db/team/delete-assignment", map[string]any{"teamId": bob.teamID.String(), "assignmentId": essay.String()})
	require.Equal(t, 404, res.StatusCode)
	res, _ = ada.do(t, "POST", "/api/v1/db/team/delete-assignment", map[string]any{"teamId": bob.teamID.String(), "assignmentId": essay.String()})
	require.Equal(t, 404, res.StatusCode)
	res, _ = bob.do(t, "POST", "/api/v1/db/team/delete-rubric", map[string]any{"teamId": bob.teamID.String(), "rubricId": rub.String()})
	require.Equal(t, 404, res.StatusCode)
	res, body = ada.do(t, "POST", "/api/v1/db/team/delete-assignment", map[string]any{"teamId": team, "assignmentId": essay.String()})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, map[string]any{"success": true}, libData(body))
	res, body = ada.do(t, "POST", "/api/v1/db/team/delete-rubric", map[string]any{"teamId": team, "rubricId": rub.String()})
	require.Equal(t, 200, res.StatusCode, body)
	_, body = ada.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Len(t, libData(body)["assignments"], 1)
	require.Len(t, libData(body)["rubrics"], 0)
}

func TestDeleteRubricInUseRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.libTeacher(t, "ada"), b.libTeacher(t, "bob")
	essay := ada.assignment(t, "Essay 3", store.AssignmentTypeRubricFeedback)
	rub := ada.rubric(t, "Argument")
	_, err := store.Q.CreateFunction(context.Background(), testdb.Pool(t), store.CreateFunctionParams{
		TeamID: ada.teamID, AssignmentID: essay, Type: store.AssignmentTypeRubricFeedback,
		Highlights: json.RawMessage(`[]`), Questions: json.RawMessage(`[]`), RubricID: uuid.NullUUID{UUID: rub, Valid: true},
	})
	require.NoError(t, err)
	team := ada.teamID.String()

	res, body := ada.do(t, "POST", "/api/v1/db/team/delete-rubric", map[string]any{"teamId": team, "rubricId": rub.String()})
	require.Equal(t, 409, res.StatusCode, body)
	require.Equal(t, map[string]any{"code": "conflict", "message": "This rubric is used by “Essay 3”. Choose another rubric for it or delete it first."}, body["error"])
	_, body = ada.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Len(t, libData(body)["rubrics"], 1)

	// Another team learns nothing of it.
	res, body = bob.do(t, "POST", "/api/v1/db/team/delete-rubric", map[string]any{"teamId": bob.teamID.String(), "rubricId": rub.String()})
	require.Equal(t, 404, res.StatusCode, body)
	require.NotContains(t, fmt.Sprint(body), "Essay 3")

	res, body = ada.do(t, "POST", "/api/v1/db/team/delete-assignment", map[string]any{"teamId": team, "assignmentId": essay.String()})
	require.Equal(t, 200, res.StatusCode, body)
	res, body = ada.do(t, "POST", "/api/v1/db/team/delete-rubric", map[string]any{"teamId": team, "rubricId": rub.String()})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, map[string]any{"success": true}, libData(body))
}

func TestShareRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.libTeacher(t, "ada"), b.libTeacher(t, "bob")
	rub := ada.rubric(t, "Argument")
	essay := ada.assignment(t, "Essay", store.AssignmentTypeRubricFeedback)
	_, err := store.Q.CreateFunction(context.Background(), testdb.Pool(t), store.CreateFunctionParams{
		TeamID: ada.teamID, AssignmentID: essay, Type: store.AssignmentTypeRubricFeedback,
		Highlights: json.RawMessage(`[]`), Questions: json.RawMessage(`[]`), RubricID: uuid.NullUUID{UUID: rub, Valid: true},
	})
	require.NoError(t, err)

	res, body := ada.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": rub.String(), "email": ada.email})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, ada.email+" is in your team already.", body["error"].(map[string]any)["message"])
	res, _ = bob.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": rub.String(), "email": ada.email})
	require.Equal(t, 404, res.StatusCode)

	res, body = ada.do(t, "POST", "/api/v1/db/share/assignment", map[string]any{"assignmentId": essay.String(), "email": bob.email})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, map[string]any{"sharedWith": bob.email}, libData(body))
	res, body = ada.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": rub.String(), "email": bob.email})
	require.Equal(t, 200, res.StatusCode, body)

	res, body = bob.do(t, "GET", "/api/v1/db/notification/list", nil)
	require.Equal(t, 200, res.StatusCode, body)
	list := libData(body)["notifications"].([]any)
	require.Len(t, list, 2)
	rn, an := list[0].(map[string]any), list[1].(map[string]any)
	require.Equal(t, "shared-rubric", rn["kind"])
	require.Equal(t, "open", rn["status"])
	require.Equal(t, map[string]any{"name": "ada", "email": ada.email}, rn["sender"])
	require.Equal(t, map[string]any{"_id": rub.String(), "name": "Argument"}, rn["item"])
	require.Equal(t, map[string]any{"_id": essay.String(), "name": "Essay", "type": "rubric-feedback"}, an["item"])
	require.Contains(t, an, "createdAt")

	_, body = ada.do(t, "GET", "/api/v1/db/notification/list", nil)
	require.Equal(t, []any{}, libData(body)["notifications"])
	res, _ = ada.do(t, "POST", "/api/v1/db/notification/copySharedAssignment", map[string]any{"notificationId": an["_id"], "status": "closed"})
	require.Equal(t, 404, res.StatusCode, "another user's notification")

	res, body = bob.do(t, "POST", "/api/v1/db/notification/copySharedAssignment", map[string]any{"notificationId": rn["_id"], "status": "closed"})
	require.Equal(t, 400, res.StatusCode, body)

	res, body = bob.do(t, "POST", "/api/v1/db/notification/copySharedAssignment", map[string]any{"notificationId": an["_id"], "status": "closed"})
	require.Equal(t, 200, res.StatusCode, body)
	cp := libData(body)["assignment"].(map[string]any)
	require.Equal(t, "Essay", cp["name"])
	require.NotEqual(t, essay.String(), cp["_id"])
	res, body = bob.do(t, "POST", "/api/v1/db/notification/copySharedAssignment", map[string]any{"notificationId": an["_id"], "status": "closed"})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, "This item has already been copied.", body["error"].(map[string]any)["message"])

	res, body = bob.do(t, "POST", "/api/v1/db/notification/copySharedRubric", map[string]any{"notificationId": rn["_id"], "status": "closed"})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "Argument", libData(body)["rubric"].(map[string]any)["name"])

	// Bob has the assignment and two rubrics: the one the assignment brought
	// and the one shared on its own.
	_, body = bob.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Len(t, libData(body)["assignments"], 1)
	require.Len(t, libData(body)["rubrics"], 2)

	res, body = bob.do(t, "POST", "/api/v1/db/notification/dismiss", map[string]any{"notificationId": rn["_id"]})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, map[string]any{"success": true}, libData(body))
	res, _ = ada.do(t, "POST", "/api/v1/db/notification/dismiss", map[string]any{"notificationId": rn["_id"]})
	require.Equal(t, 404, res.StatusCode)
	res, _ = bob.do(t, "POST", "/api/v1/db/notification/dismiss", map[string]any{"notificationId": "x"})
	require.Equal(t, 404, res.StatusCode)
}

func TestLibraryRoutesNeedASession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, path := range []string{"/api/v1/db/library/get", "/api/v1/db/notification/list"} {
		res, _ := b.do(t, "GET", path, nil)
		require.Equal(t, 401, res.StatusCode, path)
	}
}
