package extract_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/pdftest"
)

// A scanned page that also carries a line of real text (a phone scanner
// app's stamp, a typed header) is read by OCR, not only the line: see
// pdfpicture.go. testdata/stamped-scan.pdf is printed.png scanned onto an
// A4 page with "Scanned with CamScanner" in 8 pt grey at its foot.

func TestExtract_ScanWithAStampLineIsReadByOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "stamped-scan.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	p := res.Pages[0]
	require.Equal(t, extract.SourceOCR, p.Source, "the page's picture is read, not only its stamp")
	acc := wordAccuracy(printedText, p.Text)
	t.Logf("stamped scan word accuracy %.1f%%", 100*acc)
	require.GreaterOrEqual(t, acc, 0.9, "OCR text: %q", p.Text)
	require.Contains(t, p.Text, "CamScanner", "OCR of the whole page reads the stamp too")
	require.NotNil(t, p.Confidence)
	require.Empty(t, res.Warning())
}

func TestExtract_ScanWithAStampLineWithoutOCRPoolKeepsTheLineAndAsksForOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "stamped-scan.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR(), "the extract queue hands the page to OCR")
	p := res.Pages[0]
	require.True(t, p.NeedsOCR)
	require.Equal(t, "Scanned with CamScanner", p.Text, "stored with the pages read so far while OCR waits")
	require.Equal(t, extract.SourcePoppler, p.Source)
	require.Zero(t, res.EmptyPages)
}

func TestExtract_SearchableScanKeepsItsTextLayer(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// tesseract's searchable PDF of the same page: the picture and an
	// invisible text layer of every word. Read once, by poppler.
	for _, r := range []*extract.Reader{b.reader, b.noOCR} {
		res, err := extractFile(t, r, fixture(t, "searchable-scan.pdf"), "scan.pdf", "application/pdf")
		require.NoError(t, err)
		require.False(t, res.NeedsOCR())
		require.Equal(t, extract.SourcePoppler, res.Pages[0].Source)
		require.GreaterOrEqual(t, wordAccuracy(printedText, res.Text), 0.95, res.Text)
	}
}

func TestExtract_ShortTextPagesWithoutAPictureAreNotOCRd(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "short-answer.pdf"), "answer.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, "Answer: chloroplasts", res.Text)
	require.Equal(t, extract.SourcePoppler, res.Pages[0].Source)

	// A title page and a page of only "Figure 1" between pages of text.
	res, err = extractFile(t, b.noOCR, fixture(t, "short-page.pdf"), "report.pdf", "application/pdf")
	require.NoError(t, err)
	require.False(t, res.NeedsOCR())
	for _, p := range res.Pages {
		require.Equal(t, extract.SourcePoppler, p.Source, "page %d", p.Number)
	}
}

func TestExtract_FewWordsBesideASmallPictureAreNotOCRd(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// A school logo over a ninth of the page beside a heading; a picture
	// over two thirds of each side (0.44 of the page) is not a scan either.
	for _, side := range []float64{1.0 / 3, 2.0 / 3} {
		res, err := extractFile(t, b.noOCR, picturePagesPDF(picturePage{"Year 9 Science", side}), "logo.pdf", "application/pdf")
		require.NoError(t, err)
		require.False(t, res.NeedsOCR(), "picture %.2f of each side", side)
		require.Equal(t, "Year 9 Science", res.Text)
	}
	// Over 0.8 of each side (0.64 of the page) it is.
	res, err := extractFile(t, b.noOCR, picturePagesPDF(picturePage{"Year 9 Science", 0.8}), "logo.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
}

// TestExtract_PicturePagesShareTheOCRBudget: pages of a few words over a
// picture count in Limits' OCR budget after the pages without text; past
// it they keep their text layer, and the file is still read.
func TestExtract_PicturePagesShareTheOCRBudget(t *testing.T) {
	t.Parallel()
	// 2 A4 pages drawn at the default RenderPixels.
	two := extract.Limits{MaxScanPixels: 2 * 3508 * 3508 * 210 / 297}
	r := extract.New(extract.Options{Limits: two, TempDir: t.TempDir()})
	stamp := picturePage{"Scanned with CamScanner", 1}
	res, err := extractFile(t, r, picturePagesPDF(stamp, stamp, stamp), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	var waiting []int
	for _, p := range res.Pages {
		if p.NeedsOCR {
			waiting = append(waiting, p.Number)
		}
		require.Equal(t, "Scanned with CamScanner", p.Text, "page %d", p.Number)
	}
	require.Equal(t, []int{1, 2}, waiting, "page 3 is past the budget")

	// A page without text comes first, wherever it is.
	res, err = extractFile(t, r, picturePagesPDF(stamp, stamp, picturePage{"", 1}), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, res.Pages[0].NeedsOCR)
	require.False(t, res.Pages[1].NeedsOCR)
	require.True(t, res.Pages[2].NeedsOCR)

	// Pages without text past the budget still refuse the file.
	empty := picturePage{"", 1}
	_, err = extractFile(t, r, picturePagesPDF(stamp, empty, empty, empty), "scan.pdf", "application/pdf")
	requirePermanent(t, err, "This PDF has 3 pages without text to read by OCR, more than the 2 Markwell reads in one file: split it into smaller files")
}

// TestExtract_TextPDFRunsNoPictureCheck: pdfimages runs only for a file
// with a page of few words, once for all of them, so a text PDF is read as
// fast as before.
func TestExtract_TextPDFRunsNoPictureCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	for _, tool := range []string{"pdftoppm", "pdfinfo"} {
		path, err := exec.LookPath(tool)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(path, filepath.Join(dir, tool)))
	}
	pdfimages, err := exec.LookPath("pdfimages")
	require.NoError(t, err)
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %q\nexec %q \"$@\"\n", calls, pdfimages)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pdfimages"), []byte(script), 0o755))
	r := extract.New(extract.Options{PdftoppmPath: filepath.Join(dir, "pdftoppm"), TempDir: t.TempDir()})
	count := func() int {
		data, err := os.ReadFile(calls)
		if errors.Is(err, os.ErrNotExist) {
			return 0
		}
		require.NoError(t, err)
		return strings.Count(string(data), "\n")
	}

	_, err = extractFile(t, r, fixture(t, "text-3pages.pdf"), "essay.pdf", "application/pdf")
	require.NoError(t, err)
	require.Zero(t, count(), "every page has 20 words or more")
	// A title page and a page of only "Figure 1": one run for both.
	_, err = extractFile(t, r, fixture(t, "short-page.pdf"), "report.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, 1, count())
	res, err := extractFile(t, r, fixture(t, "stamped-scan.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR(), "the tools beside PdftoppmPath are the ones run")
	require.Equal(t, 2, count())
}

// wordsOCR is an OCR that reads the same text on every image, or fails.
type wordsOCR struct {
	text string
	err  error
}

func (o wordsOCR) Text(context.Context, []byte) (string, error) { return o.text, o.err }

func TestExtract_PicturePageKeepsItsTextLayerWhenOCRReadsLess(t *testing.T) {
	t.Parallel()
	data := fixture(t, "stamped-scan.pdf")
	read := func(o extract.OCR) (extract.Result, error) {
		return extractFile(t, extract.New(extract.Options{OCR: o, TempDir: t.TempDir()}), data, "scan.pdf", "application/pdf")
	}
	// A photo without writing behind the words: OCR finds nothing, or
	// not clearly more than the text layer.
	for _, text := range []string{"", "Scanned with CamScanner", "Scanned wth CamScanner and a few more words"} {
		res, err := read(wordsOCR{text: text})
		require.NoError(t, err)
		require.Equal(t, "Scanned with CamScanner", res.Text, "OCR read %q", text)
		require.Equal(t, extract.SourcePoppler, res.Pages[0].Source)
		require.False(t, res.NeedsOCR())
	}
	res, err := read(wordsOCR{text: "Scanned with CamScanner and a few more words, now clearly more"})
	require.NoError(t, err)
	require.Equal(t, extract.SourceOCR, res.Pages[0].Source)

	// An OCR that fails fails the attempt, as for a page without text: the
	// job is retried, and the first pass's pages stay stored meanwhile.
	broken := errors.New("tesseract crashed")
	_, err = read(wordsOCR{err: broken})
	require.ErrorIs(t, err, broken)
	require.False(t, extract.IsPermanent(err))
}

// picturePage is a page of picturePagesPDF: a line of text (none when "")
// at its foot, over a blank picture covering side of its width and height
// (none when 0).
type picturePage struct {
	text string
	side float64
}

// picturePagesPDF writes a PDF of A4 pages, each with its picture (a
// 100 × 140 grey image, stretched) and its line of text in Helvetica 8 pt.
func picturePagesPDF(pages ...picturePage) []byte {
	img := bytes.Repeat([]byte{0xff}, 100*140)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the page tree, below
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 100 /Height 140 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length %d >>\nstream\n%s\nendstream", len(img), img),
	}
	var kids []string
	for _, p := range pages {
		var content strings.Builder
		if p.side > 0 {
			fmt.Fprintf(&content, "q %.2f 0 0 %.2f 20 20 cm /Im1 Do Q\n", 595*p.side, 842*p.side)
		}
		if p.text != "" {
			fmt.Fprintf(&content, "BT /F1 8 Tf 440 12 Td (%s) Tj ET\n", p.text)
		}
		objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()))
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "+
			"/Resources << /Font << /F1 3 0 R >> /XObject << /Im1 4 0 R >> >> >>", len(objs)))
		kids = append(kids, fmt.Sprintf("%d 0 R", len(objs)))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return pdftest.Assemble(objs)
}
