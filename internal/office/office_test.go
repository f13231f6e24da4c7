package office_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/office/officetest"
)

// odt builds an OpenDocument text file around the body of content.xml.
func odt(t *testing.T, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	require.NoError(t, err)
	_, _ = w.Write([]byte("application/vnd.oasis.opendocument.text"))
	for name, text := range map[string]string{
		"META-INF/manifest.xml": `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>
<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`,
		"content.xml": `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3">
<office:body><office:text>` + body + `</office:text></office:body></office:document-content>`,
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, _ = w.Write([]byte(text))
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// docxText is the text runs of a converted Word file's document.xml.
func docxText(t *testing.T, docx []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	require.NoError(t, err)
	f, err := zr.Open("word/document.xml")
	require.NoError(t, err, "a Word file")
	defer f.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(f)
	require.NoError(t, err)
	return b.String()
}

func TestConvert_ODTToDOCX(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	out, err := office.LibreOffice{TempDir: t.TempDir()}.Convert(t.Context(),
		odt(t, `<text:p>Photosynthesis needs sunlight.</text:p>`), "odt", office.ToDOCX)
	require.NoError(t, err)
	require.Contains(t, docxText(t, out), "Photosynthesis needs sunlight.")
}

func TestConvert_DamagedFileIsNotConverted(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	tmp := t.TempDir()
	// An OLE2 header and nothing a reader can use: without the import filter
	// named, LibreOffice would read it as plain text.
	junk := append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), bytes.Repeat([]byte{0x5a}, 4096)...)
	_, err := office.LibreOffice{TempDir: tmp}.Convert(t.Context(), junk, "ppt", office.ToPPTX)
	require.ErrorIs(t, err, office.ErrNotConverted)
	left, _ := os.ReadDir(tmp)
	require.Empty(t, left, "the conversion's folder is removed")
}

// TestConvert_LinkedPictureIsNotFetched converts a document that links a
// picture at an address the test serves: LibreOffice with its default
// settings fetches it (OPTIONS, GET, HEAD) while converting; the sandbox
// must not, with the namespace and with the profile's blocks alone.
func TestConvert_LinkedPictureIsNotFetched(t *testing.T) {
	officetest.NeedSoffice(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.NotFound(w, nil)
	}))
	defer srv.Close()
	doc := odt(t, `<text:p>Before the picture.</text:p><text:p><draw:frame draw:name="p" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char">`+
		`<draw:image xlink:href="`+srv.URL+`/linked.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`)
	for _, shared := range []bool{false, true} {
		for _, target := range []string{office.ToDOCX, office.ToPDF} {
			out, err := office.LibreOffice{TempDir: t.TempDir(), SharedNetwork: shared}.Convert(t.Context(), doc, "odt", target)
			require.NoError(t, err, "shared network %v, %s", shared, target)
			require.NotEmpty(t, out)
			require.Zero(t, hits.Load(), "shared network %v, %s: LibreOffice fetched the linked picture", shared, target)
		}
	}
	t.Logf("conversions ran with: %s (uid %d)", office.Isolation(), os.Geteuid())
	if os.Geteuid() == 0 {
		require.Equal(t, "network namespace", office.Isolation(), "root may make a network namespace")
	}
}

func TestConvert_HangingLibreOfficeIsKilledWithItsChildren(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	// Like soffice, a script that starts the real work as a child.
	tool := officetest.HangingSoffice(t, pids)
	for _, shared := range []bool{false, true} {
		start := time.Now()
		_, err := office.LibreOffice{Path: tool, TempDir: t.TempDir(), Timeout: time.Second, SharedNetwork: shared}.
			Convert(t.Context(), []byte("{\\rtf1 hi}"), "rtf", office.ToDOCX)
		require.ErrorIs(t, err, office.ErrTimeout)
		require.Less(t, time.Since(start), 4*time.Second, "killed at its timeout, not waited for")
		for _, pid := range officetest.PIDs(t, pids) {
			require.Eventually(t, func() bool { return !officetest.Alive(pid) }, 2*time.Second, 20*time.Millisecond,
				"process %d of the group is left running", pid)
		}
	}
}

func TestConvert_CancelledContextIsNotATimeout(t *testing.T) {
	t.Parallel()
	tool := officetest.FakeSoffice(t, `sleep 300`)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err := office.LibreOffice{Path: tool, TempDir: t.TempDir(), Timeout: time.Minute}.Convert(ctx, []byte("x"), "rtf", office.ToDOCX)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the caller's deadline: worth another attempt")
	require.NotErrorIs(t, err, office.ErrTimeout)
}

func TestConvert_OutputPastTheCapIsKilled(t *testing.T) {
	t.Parallel()
	// Writes into --outdir without end, as a document that expands would.
	tool := officetest.FakeSoffice(t, `while [ "$1" != "--outdir" ]; do shift; done; mkdir -p "$2"; cat /dev/zero > "$2/document.docx"`)
	start := time.Now()
	_, err := office.LibreOffice{Path: tool, TempDir: t.TempDir(), Timeout: 30 * time.Second, MaxOutputBytes: 1 << 20}.
		Convert(t.Context(), []byte("{\\rtf1 hi}"), "rtf", office.ToDOCX)
	require.ErrorIs(t, err, office.ErrTooLarge)
	require.Less(t, time.Since(start), 10*time.Second, "killed when the cap is passed, not at the timeout")
}

func TestConvert_WithoutLibreOfficeSaysSo(t *testing.T) {
	t.Parallel()
	_, err := office.LibreOffice{Path: filepath.Join(t.TempDir(), "no-soffice")}.Convert(t.Context(), []byte("x"), "odt", office.ToDOCX)
	require.ErrorIs(t, err, office.ErrNotInstalled)
}

func TestConvert_OnlyPlainExtensions(t *testing.T) {
	t.Parallel()
	tool := officetest.FakeSoffice(t, `exit 0`)
	for _, ext := range []string{"", "../x", "odt;rm", "ODT x"} {
		_, err := office.LibreOffice{Path: tool}.Convert(t.Context(), []byte("x"), ext, office.ToDOCX)
		require.Error(t, err, ext)
		require.False(t, errors.Is(err, office.ErrNotConverted), ext)
	}
}
