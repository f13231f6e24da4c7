package httpapi_test

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/export"
)

// The export route answers the file as a download named after the
// assignment, and refuses another format with the sentence the menu shows;
// what the file holds is proven in internal/export.
func TestExportRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.export@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Été: essay", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	sub, _ := uploadSubmission(t, ada, asg)

	post := func(body map[string]any) (int, string, string, []byte) {
		raw, err := json.Marshal(body)
		require.NoError(t, err)
		res, err := ada.rawPost(t, "/api/v1/db/assignment/export", raw)
		require.NoError(t, err)
		defer res.Body.Close()
		got, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), got
	}

	status, typ, disp, body := post(map[string]any{"assignmentId": asg, "format": "csv", "submissionIds": []string{sub}})
	require.Equal(t, 200, status, string(body))
	require.Equal(t, "text/csv; charset=utf-8", typ)
	require.Equal(t, `attachment; filename="_t__ essay - results.csv"; filename*=UTF-8''%C3%89t%C3%A9_%20essay%20-%20results.csv`, disp)
	require.Contains(t, string(body), "\ufeffStudent,Email,File,Source,Attempt,Status,Reviewed,Feedback\r\n")
	require.Contains(t, string(body), "essay.txt")

	status, typ, disp, body = post(map[string]any{"assignmentId": asg, "format": "xlsx", "includeFeedback": true})
	require.Equal(t, 200, status, string(body))
	require.Equal(t, export.TypeXLSX, typ)
	require.Contains(t, disp, `filename*=UTF-8''%C3%89t%C3%A9_%20essay%20-%20results.xlsx`)
	require.Equal(t, "PK", string(body[:2]))

	status, _, _, body = post(map[string]any{"assignmentId": asg, "format": "pdf"})
	require.Equal(t, 400, status)
	var refusal map[string]map[string]string
	require.NoError(t, json.Unmarshal(body, &refusal))
	require.Equal(t, "Choose CSV or Excel (XLSX).", refusal["error"]["message"])

	status, _, _, _ = post(map[string]any{"assignmentId": asg, "format": "csv", "submissionIds": []string{sub, "6f1c1e9e-0000-4000-8000-000000000000"}})
	require.Equal(t, 404, status, "an unknown row is not dropped")
}
