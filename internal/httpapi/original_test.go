package httpapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/original"
	"github.com/markwell/markwell/internal/testdb"
)

// addSubmission uploads a file to a grade assignment and adds it as a
// submission named name; it returns the submission's id.
func addSubmission(t *testing.T, br *browser, asg, name, body string) string {
	t.Helper()
	url := uploadFile(t, br, asg, name, body)
	status, data, e := br.call(t, "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg, "submissions": []map[string]any{{"name": name, "location": url}}, "submissionRole": "teacher",
	})
	require.Equal(t, 200, status, e)
	return data["submissions"].([]any)[0].(map[string]any)["_id"].(string)
}

// getOriginal asks for a submission's original and requires 200.
func getOriginal(t *testing.T, br *browser, sub string) map[string]any {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/db/submission/original/get", map[string]any{"submissionId": sub})
	require.Equal(t, 200, status, e)
	return data["original"].(map[string]any)
}

// fetch GETs a signed URL and returns the response with its body read.
func fetch(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, body
}

func TestOriginalBesideTheText(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Fatal("soffice is not installed: install the Debian packages libreoffice-writer-nogui and libreoffice-impress-nogui (scripts/bootstrap.sh does)")
	}
	b := setup(t)
	ctx := context.Background()
	ada := b.browser
	ada.signIn(t, "Ada", "ada.original@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essays", "type": "grade"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)

	docx, err := os.ReadFile("../extract/testdata/report.docx")
	require.NoError(t, err)
	pdf, err := os.ReadFile("../extract/testdata/text-3pages.pdf")
	require.NoError(t, err)
	photo := testPNG(t, 300, 400)
	subDOCX := addSubmission(t, ada, asg, "report.docx", string(docx))
	subPDF := addSubmission(t, ada, asg, "essay.pdf", string(pdf))
	subPNG := addSubmission(t, ada, asg, "photo.png", photo)
	subText := addSubmission(t, ada, asg, "notes.txt", "Plants make food from light.")

	// The photo was read by OCR, unsure of it: the page asks to be checked.
	_, err = testdb.Pool(t).Exec(ctx, `UPDATE submissions SET extract_status = 'ready', page_count = 1,
		pages = '[{"text": "Pigtosynthesis", "source": "ocr", "confidence": 41}]' WHERE id = $1`, subPNG)
	require.NoError(t, err)
	o := getOriginal(t, ada, subPNG)
	require.Equal(t, "pages", o["kind"])
	require.Equal(t, "png", o["format"])
	require.Equal(t, 1.0, o["pageCount"])
	require.Equal(t, []any{map[string]any{"number": 1.0, "check": true, "confidence": 41.0}}, o["pages"])
	status, data, e = ada.call(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": subPNG, "page": 0})
	require.Equal(t, 200, status, e)
	require.Equal(t, 300, download(t, data["url"].(string)).X)

	// A PDF not read yet: its pages are counted from the file; none is marked.
	o = getOriginal(t, ada, subPDF)
	require.Equal(t, "pages", o["kind"])
	require.Equal(t, 3.0, o["pageCount"])
	require.Equal(t, false, o["converted"])
	require.Equal(t, false, o["pages"].([]any)[2].(map[string]any)["check"])
	status, data, e = ada.call(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": subPDF, "page": 2})
	require.Equal(t, 200, status, e)
	require.Greater(t, download(t, data["url"].(string)).Y, 500, "a page at 100 dpi")
	_, err = testdb.Pool(t).Exec(ctx, `UPDATE submissions SET extract_status = 'ready', page_count = 3 WHERE id = $1`, subPDF)
	require.NoError(t, err)
	status, _, e = ada.call(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": subPDF, "page": 3})
	require.Equal(t, 400, status)
	require.Equal(t, "This submission has no such page", e["message"])

	// A Word file: converted by LibreOffice, once, and kept.
	o = getOriginal(t, ada, subDOCX)
	require.Equal(t, "pages", o["kind"], o["problem"])
	require.Equal(t, "docx", o["format"])
	require.Equal(t, true, o["converted"])
	require.GreaterOrEqual(t, o["pageCount"], 1.0)
	status, data, e = ada.call(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": subDOCX, "page": 0})
	require.Equal(t, 200, status, e)
	size := download(t, data["url"].(string))
	require.Greater(t, size.Y, size.X, "a portrait page")
	_, err = b.blobs.Stat(ctx, "assignments/"+asg+"/submissions/pages/"+subDOCX+"/original.pdf")
	require.NoError(t, err, "the converted PDF is kept beside the page images")

	// A PowerPoint file: one page per slide.
	pptx, err := os.ReadFile("../extract/testdata/slides.pptx")
	require.NoError(t, err)
	o = getOriginal(t, ada, addSubmission(t, ada, asg, "slides.pptx", string(pptx)))
	require.Equal(t, "pages", o["kind"], o["problem"])
	require.Equal(t, "pptx", o["format"])
	require.Equal(t, 3.0, o["pageCount"], "3 slides")

	// OpenDocument and Word 97–2003 files are shown the same way.
	for _, f := range []struct {
		name  string
		pages float64
	}{{"lesson.odp", 2}, {"lesson.doc", 1}} {
		data, err := os.ReadFile("../extract/testdata/converted/" + f.name)
		require.NoError(t, err)
		o = getOriginal(t, ada, addSubmission(t, ada, asg, f.name, string(data)))
		require.Equal(t, "pages", o["kind"], "%s: %v", f.name, o["problem"])
		require.Equal(t, f.name[len("lesson."):], o["format"])
		require.Equal(t, true, o["converted"])
		require.Equal(t, f.pages, o["pageCount"], f.name)
	}

	// A text file: the text is the original.
	o = getOriginal(t, ada, subText)
	require.Equal(t, "text", o["kind"])
	require.Equal(t, 0.0, o["pageCount"])

	// Download original: the file itself, under its name; a renamed one keeps its extension.
	status, data, e = ada.call(t, "/api/v1/db/submission/original/download", map[string]any{"submissionId": subDOCX})
	require.Equal(t, 200, status, e)
	require.Equal(t, "report.docx", data["fileName"])
	res, body := fetch(t, data["url"].(string))
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, docx, body)
	require.Equal(t, "attachment; filename=report.docx", res.Header.Get("Content-Disposition"))
	status, _, e = ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": subPNG, "submission": map[string]any{"name": "Ada Lovelace"}})
	require.Equal(t, 200, status, e)
	status, data, e = ada.call(t, "/api/v1/db/submission/original/download", map[string]any{"submissionId": subPNG})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Ada Lovelace.png", data["fileName"])
	res, body = fetch(t, data["url"].(string))
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, photo, string(body))
	require.Equal(t, `attachment; filename="Ada Lovelace.png"`, res.Header.Get("Content-Disposition"), "an image downloads too")

	// Another team's teacher: every id is not found.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.original@school.test")
	for _, sub := range []string{subDOCX, subPNG} {
		eve.missing(t, "/api/v1/db/submission/original/get", map[string]any{"submissionId": sub})
		eve.missing(t, "/api/v1/db/submission/original/page", map[string]any{"submissionId": sub, "page": 0})
		eve.missing(t, "/api/v1/db/submission/original/download", map[string]any{"submissionId": sub})
	}
	// Without a session, a student's view token opens none of it.
	anon := b.newBrowser(t)
	for _, path := range []string{"get", "page", "download"} {
		status, _, _ := anon.call(t, "/api/v1/db/submission/original/"+path, map[string]any{"submissionId": subPNG, "page": 0, "viewToken": "made-up"})
		require.Equal(t, 401, status, path)
	}
}

// countingOffice is a converter that fails every conversion with err and
// counts the calls.
type countingOffice struct {
	calls atomic.Int32
	err   error
}

func (c *countingOffice) ToPDF(context.Context, []byte, string) ([]byte, error) {
	c.calls.Add(1)
	return nil, c.err
}

// docxWithNotes is a Word file whose footnotes part holds n footnotes.
func docxWithNotes(t *testing.T, n int) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	part := func(name, body string) {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = io.WriteString(w, body)
		require.NoError(t, err)
	}
	const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	part("[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`)
	part("word/document.xml", `<?xml version="1.0"?><w:document `+ns+`><w:body><w:p><w:r><w:t>Notes.</w:t></w:r></w:p></w:body></w:document>`)
	var notes strings.Builder
	for i := range n {
		fmt.Fprintf(&notes, `<w:footnote w:id="%d"><w:p><w:r><w:t>n</w:t></w:r></w:p></w:footnote>`, i+1)
	}
	part("word/footnotes.xml", `<?xml version="1.0"?><w:footnotes `+ns+`>`+notes.String()+`</w:footnotes>`)
	require.NoError(t, zw.Close())
	return buf.String()
}

// A Word file LibreOffice could not convert in time is not converted again
// on every view (each try held the only conversion slot for 90 s), and one
// whose thousands of notes would hold it that long is not converted at all.
func TestOriginalConversionFailuresAreKept(t *testing.T) {
	t.Parallel()
	b := setup(t)
	slow := &countingOffice{err: office.ErrTimeout}
	b.originals.Office = slow
	ada := b.browser
	ada.signIn(t, "Ada", "ada.convert@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Essays", "type": "grade"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)

	docx, err := os.ReadFile("../extract/testdata/report.docx")
	require.NoError(t, err)
	sub := addSubmission(t, ada, asg, "report.docx", string(docx))
	for range 3 {
		o := getOriginal(t, ada, sub)
		require.Equal(t, "none", o["kind"])
		require.Equal(t, original.MsgConvertSlow, o["problem"])
	}
	require.Equal(t, int32(1), slow.calls.Load(), "converted once, the failure kept")

	noted := addSubmission(t, ada, asg, "notes.docx", docxWithNotes(t, original.MaxNotes+1))
	o := getOriginal(t, ada, noted)
	require.Equal(t, original.MsgTooManyNotes, o["problem"])
	require.Equal(t, int32(1), slow.calls.Load(), "a document with too many notes is not converted")
	fine := addSubmission(t, ada, asg, "few-notes.docx", docxWithNotes(t, 20))
	require.Equal(t, original.MsgConvertSlow, getOriginal(t, ada, fine)["problem"])
	require.Equal(t, int32(2), slow.calls.Load(), "a few notes are converted as usual")
}
