package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/studentlink"
)

func TestASubmittedFileCannotBeReplacedThroughItsUploadURL(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.writeonce@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")

	// Sam uploads through the link and submits.
	sam := b.newBrowser(t)
	graded := "The essay that was graded."
	res, up := sam.do(t, "POST", "/api/v1/s3-pub-upload", map[string]any{
		"fileName": "essay.txt", "fileType": "text/plain", "fileSize": len(graded), "linkToken": token,
	})
	require.Equal(t, 200, res.StatusCode, up)
	signedURL := up["signedUrl"].(string)
	fileURL := up["data"].(map[string]any)["fileUrl"].(string)
	put, _ := rawRequest(t, "PUT", signedURL, "text/plain", graded)
	require.Equal(t, 200, put.StatusCode)
	status, _, e := sam.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": token, "assignmentId": asgID, "studentName": "Sam Student", "studentEmail": "sam@pupils.test",
		"submissions": []map[string]any{{"name": "essay.txt", "location": fileURL}},
	})
	require.Equal(t, 200, status, e)

	// Within the URL's 15 minutes, a second PUT of other bytes of the same size is refused.
	swapped := "Something else entirely!!!"
	require.Len(t, swapped, len(graded))
	put, body := rawRequest(t, "PUT", signedURL, "text/plain", swapped)
	require.Equal(t, http.StatusPreconditionFailed, put.StatusCode, body)
	var refusal struct {
		Error struct{ Code, Message string }
	}
	require.NoError(t, json.Unmarshal([]byte(body), &refusal), body)
	require.Equal(t, blob.MsgAlreadyUploaded, refusal.Error.Message)

	// The teacher downloads the bytes the grade was based on.
	status, data, e := b.call(t, "/api/v1/getSignedURL", map[string]any{"link": fileURL})
	require.Equal(t, 200, status, e)
	get, got := rawRequest(t, "GET", data["signedUrl"].(string), "", "")
	require.Equal(t, 200, get.StatusCode)
	require.Equal(t, graded, got)
}

func TestAFileFromARotatedLinkIsRefusedAtSubmit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.oldlink@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	sam := b.newBrowser(t)
	fileURL := sam.linkUpload(t, token, "essay.txt", "Sent through the first link.")

	status, data, e := b.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "rotate": true})
	require.Equal(t, 200, status, e)
	newToken := data["token"].(string)
	require.NotEqual(t, token, newToken)

	status, _, e = sam.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": newToken, "assignmentId": asgID, "studentName": "Sam Student", "studentEmail": "sam@pupils.test",
		"submissions": []map[string]any{{"name": "essay.txt", "location": fileURL}},
	})
	require.Equal(t, 400, status, e)
	require.Equal(t, studentlink.MsgOldLink, e["message"])
	require.False(t, strings.Contains(e["message"].(string), "\n"))
}
