package extract_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

// OCR failed on every attempt: the file is finished with what was read
// without it, and the teacher is told what is missing.

// A Word file's typed text stands; its picture is named missing, on the
// page and for the whole file, and the page is one to check.
func TestWithoutOCR_WordFileKeepsItsTypedTextAndNamesThePicture(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPara(typedAfter), fixture(t, "printed.png"))
	waiting, err := extractFile(t, b.noOCR, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.True(t, waiting.NeedsOCR())

	res, ok := waiting.WithoutOCR("OCR")
	require.True(t, ok, "the typed text stands")
	require.False(t, res.NeedsOCR())
	require.Equal(t, typedBefore+"\n\n"+typedAfter, res.Text)
	require.Len(t, res.Pages, 1)
	require.Equal(t, extract.SourceFile, res.Pages[0].Source)
	require.Equal(t, "A picture on page 1 could not be read by OCR, so its words are missing: check it against the original", res.Pages[0].Warning)
	require.Equal(t, []int{1}, res.Doubtful())
	require.Equal(t, "A picture in this file could not be read by OCR, so its words are missing: check it against the original", res.Warning())
	require.True(t, waiting.Pages[0].NeedsOCR, "the result it came from is left as it was")

	two := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPicture("rId2"), fixture(t, "printed.png"), fixture(t, "printed.png"))
	waiting, err = extractFile(t, b.noOCR, two, "homework.docx", docxType)
	require.NoError(t, err)
	res, ok = waiting.WithoutOCR("the AI model")
	require.True(t, ok)
	require.Equal(t, "2 pictures on page 1 could not be read by the AI model, so their words are missing: check them against the original", res.Pages[0].Warning)
	require.Equal(t, "2 pictures in this file could not be read by the AI model, so their words are missing: check them against the original", res.Warning())
}

// A PDF of a text page, a scanned page and a blank page: the text page
// stands, and the two pages that waited for OCR are named, not counted as
// "No text found".
func TestWithoutOCR_PDFKeepsItsTextPagesAndNamesTheOthers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	waiting, err := extractFile(t, b.noOCR, fixture(t, "mixed.pdf"), "mixed.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, waiting.NeedsOCR())

	res, ok := waiting.WithoutOCR("OCR")
	require.True(t, ok)
	require.False(t, res.NeedsOCR())
	require.Equal(t, waiting.Text, res.Text, "the text page's text, as it was stored")
	require.Equal(t, []string{"",
		"Page 2 could not be read by OCR, so its words are missing: check it against the original",
		"Page 3 could not be read by OCR, so its words are missing: check it against the original",
	}, warnings(res))
	require.Equal(t, []int{2, 3}, res.Doubtful())
	require.Empty(t, res.Problem())
	require.Equal(t, "Pages 2 and 3 could not be read by OCR, so their words are missing: check them against the original", res.Warning())
}

// A scan has no text without OCR, or only words OCR would have replaced (a
// scanner app's stamp): nothing stands.
func TestWithoutOCR_ScanHasNothingToKeep(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, f := range []struct{ file, contentType string }{
		{"scanned.pdf", "application/pdf"},
		{"stamped-scan.pdf", "application/pdf"},
		{"printed.png", "image/png"},
		{"scan-3pages.tif", "image/tiff"},
	} {
		waiting, err := extractFile(t, b.noOCR, fixture(t, f.file), f.file, f.contentType)
		require.NoError(t, err, f.file)
		require.True(t, waiting.NeedsOCR(), f.file)
		_, ok := waiting.WithoutOCR("OCR")
		require.False(t, ok, f.file)
	}
}

// A file that waited for nothing is left as it is.
func TestWithoutOCR_FileThatWaitedForNothingIsUnchanged(t *testing.T) {
	t.Parallel()
	b := setup(t)
	read, err := extractFile(t, b.noOCR, fixture(t, "text-3pages.pdf"), "essay.pdf", "application/pdf")
	require.NoError(t, err)
	res, ok := read.WithoutOCR("OCR")
	require.True(t, ok)
	require.Equal(t, read.Text, res.Text)
	require.Equal(t, warnings(read), warnings(res))
	require.Equal(t, read.Warning(), res.Warning())
}
