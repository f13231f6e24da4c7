package httpapi_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/report"
)

// The report routes: one student's PDF as a download, a class's run
// started once (409 while it runs), its state read back, bad bodies 400.
func TestReportRoutes(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice is not installed")
	}
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.reports@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Reflection", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	sub, _ := uploadSubmission(t, ada, asg)

	raw, err := json.Marshal(map[string]any{"assignmentId": asg, "submissionId": sub})
	require.NoError(t, err)
	res, err := ada.rawPost(t, "/api/v1/db/assignment/report/student", raw)
	require.NoError(t, err)
	pdf, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, string(pdf))
	require.Equal(t, "application/pdf", res.Header.Get("Content-Type"))
	// No student name: named after the whole file name, extension and all.
	require.Equal(t, `attachment; filename=essay.txt.pdf`, res.Header.Get("Content-Disposition"))
	require.Equal(t, "%PDF", string(pdf[:4]))

	status, data, e = ada.call(t, "/api/v1/db/assignment/reports/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Nil(t, data["report"], "no run yet")
	status, data, e = ada.call(t, "/api/v1/db/assignment/reports/start", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	run := data["report"].(map[string]any)
	require.Equal(t, "queued", run["status"])
	require.EqualValues(t, 1, run["total"])
	require.EqualValues(t, 0, run["done"])
	require.NotContains(t, run, "zipUrl")
	status, _, e = ada.call(t, "/api/v1/db/assignment/reports/start", map[string]any{"assignmentId": asg})
	require.Equal(t, 409, status)
	require.Equal(t, report.MsgRunning, e["message"])
	status, data, e = ada.call(t, "/api/v1/db/assignment/reports/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Equal(t, run["_id"], data["report"].(map[string]any)["_id"])

	status, _, _ = ada.call(t, "/api/v1/db/assignment/reports/start", map[string]any{"assignmentId": asg, "submissionIds": "all"})
	require.Equal(t, 400, status, "submissionIds is a list")
}
