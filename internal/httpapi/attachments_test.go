package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// fixtureText is an extraction fixture's bytes, as a string for uploadFile.
func fixtureText(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", name))
	require.NoError(t, err)
	return string(data)
}

func TestChatAttachmentsAreReadThroughTheExtractors(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	ada.signIn(t, "Ada", "ada.attach@school.test")
	pdf := ada.uploadFile(t, "/api/v1/s3-upload", "chats/essay.pdf", "application/pdf", fixtureText(t, "text-3pages.pdf"))
	docx := ada.uploadFile(t, "/api/v1/s3-upload", "chats/report.docx",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document", fixtureText(t, "report.docx"))
	scan := ada.uploadFile(t, "/api/v1/s3-upload", "chats/scan.pdf", "application/pdf", fixtureText(t, "scanned.pdf"))

	status, data, e := ada.call(t, "/api/v1/upload-and-read-files", map[string]any{
		"fileLinks": []string{pdf, docx, scan}, "fileNames": []string{"Essay.pdf", "Report.docx", "Scan.pdf"},
	})
	require.Equal(t, 200, status, e)
	require.Equal(t, false, data["error"])
	texts := data["textArray"].([]any)
	require.Len(t, texts, 3)
	require.Contains(t, strings.Join(strings.Fields(texts[0].(string)), " "), "The Water Cycle Water moves between the oceans")
	require.True(t, strings.HasPrefix(texts[1].(string), "Lab Report: Plant Growth"), texts[1])
	require.Equal(t, "[No text found in Scan.pdf]", texts[2])
	require.Equal(t, []any{float64(2)}, data["noText"], "the scan is named as having no text")

	// The PDF call reads PDFs and flags anything else.
	status, data, e = ada.call(t, "/api/v1/upload-and-read-pdf", map[string]any{"fileLinks": []string{pdf, docx}})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["error"])
	require.Equal(t, "Could not read report.docx.", data["message"])
	texts = data["textArray"].([]any)
	require.Contains(t, texts[0], "Water Cycle")
	require.Equal(t, "[report.docx is not a PDF]", texts[1])
	require.Equal(t, []any{map[string]any{"index": float64(1), "name": "report.docx", "reason": "report.docx is not a PDF."}}, data["failures"])
}

func TestChatAttachmentsOfOtherTeamsAndOutsideURLsAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	ada.signIn(t, "Ada", "ada.attach-refused@school.test")
	adas := ada.uploadFile(t, "/api/v1/s3-upload", "chats/secret.txt", "text/plain", "Ada's secret notes")
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.attach-refused@school.test")
	eves := eve.uploadFile(t, "/api/v1/s3-upload", "chats/mine.txt", "text/plain", "Eve's notes")

	for _, path := range []string{"/api/v1/upload-and-read-pdf", "/api/v1/upload-and-read-files"} {
		// Ada's file is not found for Eve, even beside her own.
		eve.missing(t, path, map[string]any{"fileLinks": []string{eves, adas}})

		var hits atomic.Int32
		outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			t.Errorf("the server fetched %s", r.URL)
		}))
		for _, link := range []string{"https://evil.example/x.pdf", outside.URL + "/x.pdf"} {
			status, _, e := eve.call(t, path, map[string]any{"fileLinks": []string{eves, link}})
			require.Equal(t, 400, status, "%s %s", path, link)
			require.Equal(t, "invalid", e["code"])
			require.Equal(t, "x.pdf is not a file uploaded to Markwell.", e["message"])
		}
		outside.Close()
		require.Zero(t, hits.Load(), "no outside address was fetched")

		links := make([]string, 11)
		for i := range links {
			links[i] = eves
		}
		eve.refused(t, path, map[string]any{"fileLinks": links}, "At most 10 files can be read at once.")
		eve.refused(t, path, map[string]any{"fileLinks": []string{}}, "fileLinks must list at least one file.")
	}

	// Signed out, nothing is read.
	res, _ := b.newBrowser(t).do(t, "POST", "/api/v1/upload-and-read-files", map[string]any{"fileLinks": []string{adas}})
	require.Equal(t, 401, res.StatusCode)
}
