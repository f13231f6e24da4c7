package httpapi_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOriginalOfScansAndPhotos: a multi-page TIFF is shown page by page, and
// HEIC, WebP and GIF photos as one page each, drawn upright.
func TestOriginalOfScansAndPhotos(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	ada.signIn(t, "Ada", "ada.scans@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Rivers", "type": "grade"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	fixture := func(name string) string {
		data, err := os.ReadFile("../extract/testdata/" + name)
		require.NoError(t, err)
		return string(data)
	}
	page := func(sub string, n int) (int, map[string]any, map[string]any) {
		return ada.call(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": sub, "page": n})
	}

	// A 3-page scan: three pages, each its own image.
	scan := addSubmission(t, ada, asg, "scan.tif", fixture("scan-3pages.tif"))
	o := getOriginal(t, ada, scan)
	require.Equal(t, "pages", o["kind"], o["problem"])
	require.Equal(t, "tiff", o["format"])
	require.Equal(t, 3.0, o["pageCount"])
	require.Len(t, o["pages"], 3)
	for n := range 3 {
		status, data, e := page(scan, n)
		require.Equal(t, 200, status, e)
		require.Equal(t, 1520, download(t, data["url"].(string)).X, "page %d", n+1)
	}
	status, _, e = page(scan, 3)
	require.Equal(t, 400, status)
	require.Equal(t, "This submission has no such page", e["message"])

	for _, tc := range []struct{ file, name, format string }{
		{"photo-irot.heic", "IMG_4032.HEIC", "heic"}, // stored sideways, shown upright
		{"printed.webp", "answer.webp", "webp"},
		{"printed.gif", "answer.gif", "gif"},
	} {
		sub := addSubmission(t, ada, asg, tc.name, fixture(tc.file))
		o := getOriginal(t, ada, sub)
		require.Equal(t, "pages", o["kind"], tc.file)
		require.Equal(t, tc.format, o["format"], tc.file)
		require.Equal(t, 1.0, o["pageCount"], tc.file)
		status, data, e := page(sub, 0)
		require.Equal(t, 200, status, e)
		size := download(t, data["url"].(string))
		require.Equal(t, 1520, size.X, "%s: a line of text, upright", tc.file)
		require.Less(t, size.Y, size.X, tc.file)
	}
}
