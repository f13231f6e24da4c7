package extract_test

import (
	"archive/zip"
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/office/officetest"
)

// lessonWords are the words of testdata/converted/lesson.fodt, which
// LibreOffice saved as the ODT, RTF and DOC fixtures.
const lessonText = `The Water Cycle
Water evaporates from the ocean when the sun warms it.
The vapour cools, condenses into clouds and falls as rain.
- Evaporation
- Condensation
- Precipitation
Monday | 12 mm
Tuesday | 7 mm
Zoë wrote: «l’eau s’évapore» — and in Greek, το νερό εξατμίζεται.`

func TestExtract_ConvertedDocumentsKeepTheirWords(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	r := extract.New(extract.Options{TempDir: t.TempDir()})
	for _, tc := range []struct {
		file, contentType string
		kind              extract.Kind
	}{
		{"lesson.odt", "application/vnd.oasis.opendocument.text", extract.KindODT},
		{"lesson.rtf", "application/rtf", extract.KindRTF},
		{"lesson.doc", "application/msword", extract.KindDOC},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			res, err := extractFile(t, r, fixture(t, "converted/"+tc.file), tc.file, tc.contentType)
			require.NoError(t, err)
			require.Equal(t, tc.kind, res.Kind)
			require.Equal(t, lessonText, res.Text)
			require.Len(t, res.Pages, 1)
			require.Equal(t, extract.SourceFile, res.Pages[0].Source)
			require.Empty(t, res.Problem())
		})
	}
}

func TestExtract_ConvertedPresentationsKeepSlidesAndNotes(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	r := extract.New(extract.Options{TempDir: t.TempDir()})
	for _, tc := range []struct {
		file string
		kind extract.Kind
	}{
		{"lesson.odp", extract.KindODP},
		{"lesson.ppt", extract.KindPPT},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			// No name or type: the bytes say what it is.
			res, err := extractFile(t, r, fixture(t, "converted/"+tc.file), "upload", "")
			require.NoError(t, err)
			require.Equal(t, tc.kind, res.Kind)
			require.Equal(t, `Slide 1
Glaciers
- Snow compacts into dense blue ice
- Ice flows slowly downhill under its weight

Notes: Show the photograph of the Aletsch glacier.

Slide 2
Moraines
Rocks carried by the ice are dropped as moraines.`, res.Text)
			require.Len(t, res.Pages, 2)
		})
	}
}

func TestExtract_PasswordProtectedDOCIsRefusedWithASentence(t *testing.T) {
	t.Parallel()
	// Told from its header: LibreOffice is not asked.
	r := extract.New(extract.Options{Converter: office.LibreOffice{Path: "/nonexistent/soffice"}})
	_, err := extractFile(t, r, fixture(t, "converted/protected.doc"), "essay.doc", "application/msword")
	requirePermanent(t, err, extract.ReasonOfficePassword)
}

func TestExtract_HangingConversionIsKilledAndFailsWithASentence(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	// A LibreOffice that never finishes, with a child of its own as soffice has.
	tool := officetest.HangingSoffice(t, pids)
	r := extract.New(extract.Options{
		Converter: office.LibreOffice{Path: tool, TempDir: dir},
		Limits:    extract.Limits{ConvertTimeout: time.Second},
	})
	start := time.Now()
	_, err := extractFile(t, r, fixture(t, "converted/lesson.rtf"), "essay.rtf", "")
	requirePermanent(t, err, "This file took too long to convert. Please save it as PDF or Word and upload it again.")
	require.Less(t, time.Since(start), 5*time.Second)
	for _, pid := range officetest.PIDs(t, pids) {
		require.Eventually(t, func() bool { return !officetest.Alive(pid) }, 2*time.Second, 20*time.Millisecond,
			"process %d of the conversion is left running", pid)
	}
}

func TestExtract_WithoutLibreOfficeSaysSo(t *testing.T) {
	t.Parallel()
	r := extract.New(extract.Options{Converter: office.LibreOffice{Path: filepath.Join(t.TempDir(), "soffice")}})
	_, err := extractFile(t, r, fixture(t, "converted/lesson.odt"), "essay.odt", "")
	requirePermanent(t, err, extract.ReasonNoConverter)
}

func TestExtract_FileTooLargeToConvertIsRefusedBeforeLibreOffice(t *testing.T) {
	t.Parallel()
	r := extract.New(extract.Options{
		Converter: office.LibreOffice{Path: "/nonexistent/soffice"},
		Limits:    extract.Limits{MaxConvertBytes: 1 << 20},
	})
	rtf := []byte(`{\rtf1\ansi ` + strings.Repeat(`A long essay. `, 100_000) + `}`)
	_, err := extractFile(t, r, rtf, "essay.rtf", "")
	requirePermanent(t, err, "This file is larger than 1 MB, which is too large to convert. Please save it as PDF or Word and upload it again.")
	require.ErrorIs(t, err, extract.ErrTooLarge)
}

// Files other people made, from the test data of the Go module
// github.com/richardlehane/mscfb v1.0.4 (Apache-2.0; see
// testdata/converted/README.md): a Word 97–2003 research-notes document
// saved by Word, and a two-slide PowerPoint 97–2003 file.
func TestExtract_ThirdPartyDOCAndPPT(t *testing.T) {
	t.Parallel()
	officetest.NeedSoffice(t)
	r := extract.New(extract.Options{TempDir: t.TempDir()})
	t.Run("doc", func(t *testing.T) {
		t.Parallel()
		res, err := extractFile(t, r, fixture(t, "converted/mscfb-novpapplan.doc"), "notes.doc", "application/msword")
		require.NoError(t, err)
		require.Equal(t, extract.KindDOC, res.Kind)
		require.True(t, strings.HasPrefix(res.Text,
			"AIM: This research will offer some wider insights into the character of British imperialism during this period."), res.Text[:200])
		for _, want := range []string{
			// Curly quotes and dashes survive the conversion.
			"Ch2 p. 4“that forgetfulness of self and of self-interest which prompts Englishmen under all conceivable circumstances to ‘play the game’ – to sacrifice all",
			"Hutton had a favourable opinion of the trader John Dunn who had taken several Zulu wives",
			"[221] fine material in Colonial troops",
		} {
			require.Contains(t, res.Text, want)
		}
		require.Greater(t, len(strings.Fields(res.Text)), 3000, "the whole document, not its first page")
	})
	t.Run("ppt", func(t *testing.T) {
		t.Parallel()
		res, err := extractFile(t, r, fixture(t, "converted/mscfb-test.ppt"), "talk.ppt", "")
		require.NoError(t, err)
		require.Equal(t, extract.KindPPT, res.Kind)
		require.Len(t, res.Pages, 2)
		require.True(t, strings.HasPrefix(res.Text, "Slide 1\nTest\nLorem ipsum dolor sit amet, consectetuer adipiscing elit,"), res.Text)
		require.True(t, strings.HasSuffix(res.Text, "fiant sollemnes in futurum.\n\nSlide 2\nTest 2"), res.Text)
	})
}

func TestSniff_SpreadsheetInAnOLE2FileIsNotRead(t *testing.T) {
	t.Parallel()
	_, err := extract.Sniff(fixture(t, "converted/mscfb-test.xls"), "marks.xls", "application/vnd.ms-excel")
	requirePermanent(t, err, extract.ReasonUnsupported)
}

func TestSniff_ConvertedKindsComeFromTheBytes(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]extract.Kind{
		"lesson.odt": extract.KindODT, "lesson.odp": extract.KindODP, "lesson.rtf": extract.KindRTF,
		"lesson.doc": extract.KindDOC, "lesson.ppt": extract.KindPPT,
		"mscfb-novpapplan.doc": extract.KindDOC, "mscfb-test.ppt": extract.KindPPT,
	} {
		// Named as something else: the bytes decide.
		kind, err := extract.Sniff(fixture(t, "converted/"+file), "essay.pdf", "application/pdf")
		require.NoError(t, err, file)
		require.Equal(t, want, kind, file)
	}
	// An OpenDocument spreadsheet is not read.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	require.NoError(t, err)
	_, _ = w.Write([]byte("application/vnd.oasis.opendocument.spreadsheet"))
	require.NoError(t, zw.Close())
	_, err = extract.Sniff(buf.Bytes(), "marks.ods", "")
	requirePermanent(t, err, extract.ReasonUnsupported)
}
