package extract_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/ocr"
)

// pool is the tests' shared OCR pool, two clients wide like a small ocr queue.
var pool *ocr.Pool

func TestMain(m *testing.M) {
	// Re-executes the test binary once with OMP_THREAD_LIMIT=1, as the worker does.
	if err := ocr.EnsureOpenMPThreadLimit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var err error
	if pool, err = ocr.NewPool(2); err != nil {
		fmt.Fprintln(os.Stderr, "OCR pool:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = pool.Close()
	os.Exit(code)
}

// Known content of the fixtures (see testdata/src).
var (
	essayPages = []string{
		"The Water Cycle Water moves between the oceans, the air and the land in a cycle that never stops. " +
			"The sun warms the surface of the sea and turns some of the water into vapour.",
		"Page two explains condensation. As the vapour rises it cools, and tiny droplets gather around specks of dust to form clouds.",
		"Page three explains precipitation. When the droplets grow heavy they fall as rain, snow or hail, " +
			"and rivers carry the water back to the sea.",
	}
	scanText = "Earthquakes happen when two plates of the crust slip past each other. The energy travels " +
		"through the ground as waves, and the strongest shaking is felt near the epicentre."
	printedText = "Photosynthesis is the process plants use to make their own food. Inside each leaf, tiny green " +
		"structures called chloroplasts capture energy from sunlight. The plant takes in carbon dioxide from the " +
		"air through small holes in its leaves and draws water up from the soil through its roots. Using the " +
		"energy of the light, it combines the water and the carbon dioxide to make glucose, a simple sugar that " +
		"feeds the plant and helps it grow. Oxygen is released as a waste product, and that oxygen is what " +
		"animals and people breathe."
)

type bundle struct {
	reader *extract.Reader // with OCR
	noOCR  *extract.Reader // the extract queue's reader: OCR left for later
}

func setup(t testing.TB) *bundle {
	t.Helper()
	return &bundle{
		reader: extract.New(extract.Options{OCR: pool, TempDir: t.TempDir()}),
		noOCR:  extract.New(extract.Options{TempDir: t.TempDir()}),
	}
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// extractFile runs a reader on bytes with a deadline far past any normal
// run, so a stalled reader fails the test instead of hanging it.
func extractFile(t testing.TB, r *extract.Reader, data []byte, name, contentType string) (extract.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.Extract(ctx, extract.Input{Name: name, ContentType: contentType, Body: bytes.NewReader(data)})
	require.NoError(t, ctx.Err(), "extraction ran into the test's deadline")
	return res, err
}

// requirePermanent checks err is a permanent failure with the reason.
func requirePermanent(t testing.TB, err error, reason string) {
	t.Helper()
	require.Error(t, err)
	got, ok := extract.Reason(err)
	require.True(t, ok, "want a permanent error, got %v", err)
	require.Equal(t, reason, got, "error: %v", err)
}

// flat collapses all whitespace, for comparing text whose line breaks
// depend on the page width.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// wordAccuracy is 1 − (word-level edit distance ÷ reference words), over
// lower-cased words stripped of punctuation, floored at 0.
func wordAccuracy(reference, got string) float64 {
	ref, hyp := normWords(reference), normWords(got)
	prev := make([]int, len(hyp)+1)
	cur := make([]int, len(hyp)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ref); i++ {
		cur[0] = i
		for j := 1; j <= len(hyp); j++ {
			cost := 1
			if ref[i-1] == hyp[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return max(0, 1-float64(prev[len(hyp)])/float64(len(ref)))
}

func normWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func TestWordAccuracy(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 1.0, wordAccuracy("The cat sat.", "the  cat\nsat"), 1e-9)
	require.InDelta(t, 0.75, wordAccuracy("one two three four", "one too three four"), 1e-9)
	require.InDelta(t, 0.75, wordAccuracy("one two three four", "one three four"), 1e-9)
	require.InDelta(t, 0.0, wordAccuracy("one two", "three four five six"), 1e-9, "insertions count against the text")
}

func TestExtract_PDFWithTextLayerReadsEachPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "text-3pages.pdf"), "essay.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, extract.KindPDF, res.Kind)
	require.Len(t, res.Pages, 3)
	for i, want := range essayPages {
		require.Equal(t, want, flat(res.Pages[i].Text), "page %d", i+1)
		require.Equal(t, extract.SourcePoppler, res.Pages[i].Source, "page %d comes from the text layer, read by pdftotext", i+1)
		require.Equal(t, i+1, res.Pages[i].Number)
	}
	require.Equal(t, flat(strings.Join(essayPages, " ")), flat(res.Text))
	require.Contains(t, res.Text, "vapour.\n\nPage two", "pages are separated by a blank line")
	require.Zero(t, res.EmptyPages)
	require.False(t, res.NeedsOCR())
	require.Empty(t, res.Problem())
}

func TestExtract_ScannedPDFIsReadByOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "scanned.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	require.Equal(t, extract.SourceOCR, res.Pages[0].Source)
	acc := wordAccuracy(scanText, res.Text)
	t.Logf("scanned page word accuracy %.1f%%", 100*acc)
	require.GreaterOrEqual(t, acc, 0.95, "OCR text: %q", res.Text)
}

func TestExtract_ScannedPDFWithoutOCRPoolAsksForOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "scanned.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
	require.True(t, res.Pages[0].NeedsOCR)
	require.Empty(t, res.Text)
	require.Equal(t, 1, res.EmptyPages)
}

func TestExtract_MixedPDFCountsPagesWithoutText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "mixed.pdf"), "mixed.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 3)
	require.Equal(t, extract.SourcePoppler, res.Pages[0].Source)
	require.Equal(t, essayPages[0], flat(res.Pages[0].Text))
	require.Equal(t, extract.SourceOCR, res.Pages[1].Source)
	require.GreaterOrEqual(t, wordAccuracy(scanText, res.Pages[1].Text), 0.95, "page 2: %q", res.Pages[1].Text)
	require.Empty(t, res.Pages[2].Text, "page 3 is blank")
	require.Equal(t, 1, res.EmptyPages)
	require.Equal(t, "No text found on 1 of 3 pages", res.Problem())
	require.False(t, res.NeedsOCR())
}

func TestExtract_PDFWithOnlyAnOwnerPasswordIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// AES-256 with only an owner password: poppler reads it.
	res, err := extractFile(t, b.noOCR, fixture(t, "restricted.pdf"), "restricted.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 3)
	for i, want := range essayPages {
		require.Equal(t, want, flat(res.Pages[i].Text), "page %d", i+1)
		require.Equal(t, extract.SourcePoppler, res.Pages[i].Source)
	}
}

func TestExtract_DOCXKeepsListsAndTables(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "report.docx"), "report.docx",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document")
	require.NoError(t, err)
	require.Equal(t, extract.KindDOCX, res.Kind)
	require.Equal(t, `Lab Report: Plant Growth
We grew three bean plants for two weeks and measured them every Monday.
Materials we used:
- Three bean seeds
- Potting soil and cups
- A ruler
Method:
1. Plant each seed in its own cup.
2. Water the cups every morning.
3. Measure the height each Monday.
Plant | Week 1 | Week 2
Sunny window | 4 cm | 9 cm
Dark cupboard | 2 cm | 3 cm
The plant by the sunny window grew the most.`, res.Text)
	require.Len(t, res.Pages, 1)
	require.Empty(t, res.Problem())
}

func TestExtract_PPTXReadsSlidesInOrderWithNotes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "slides.pptx"), "slides.pptx", "")
	require.NoError(t, err)
	require.Equal(t, extract.KindPPTX, res.Kind)
	require.Equal(t, `Slide 1
Volcanoes
- Magma rises through cracks in the crust
- Pressure builds until the volcano erupts

Notes: Ask the class who has seen a volcano.

Slide 2
Types of Volcano
- Shield volcanoes have gentle slopes
- Stratovolcanoes are steep and explosive

Notes: Mauna Loa is a shield volcano; Mount Fuji is a stratovolcano.

Slide 3
Staying Safe
Scientists watch for small earthquakes before an eruption.`, res.Text)
	require.Len(t, res.Pages, 3)
	require.Equal(t, "Staying Safe\nScientists watch for small earthquakes before an eruption.", res.Pages[2].Text)
}

func TestExtract_PNGOfPrintedTextReaches95PercentWordAccuracy(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "printed.png"), "page.png", "image/png")
	require.NoError(t, err)
	require.Equal(t, extract.KindPNG, res.Kind)
	require.Equal(t, extract.SourceOCR, res.Pages[0].Source)
	acc := wordAccuracy(printedText, res.Text)
	t.Logf("printed PNG word accuracy %.1f%% (%d words)", 100*acc, len(normWords(printedText)))
	require.GreaterOrEqual(t, acc, 0.95, "OCR text: %q", res.Text)
}

func TestExtract_JPEGIsTurnedUprightByItsEXIFOrientation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "photo-rotated.jpg"), "IMG_0001.JPG", "image/jpeg")
	require.NoError(t, err)
	require.Equal(t, extract.KindJPEG, res.Kind)
	acc := wordAccuracy(scanText, res.Text)
	t.Logf("rotated JPEG word accuracy %.1f%%", 100*acc)
	require.GreaterOrEqual(t, acc, 0.95, "OCR text: %q", res.Text)
}

func TestExtract_ImageWithoutOCRPoolAsksForOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, fixture(t, "printed.png"), "page.png", "image/png")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
}

func TestExtract_FormatComesFromTheBytesNotTheName(t *testing.T) {
	t.Parallel()
	b := setup(t)

	res, err := extractFile(t, b.reader, fixture(t, "printed.png"), "essay.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, extract.KindPNG, res.Kind, "a .pdf holding a PNG is read as a PNG")
	require.GreaterOrEqual(t, wordAccuracy(printedText, res.Text), 0.95)

	res, err = extractFile(t, b.noOCR, fixture(t, "text-3pages.pdf"), "photo.jpg", "image/jpeg")
	require.NoError(t, err)
	require.Equal(t, extract.KindPDF, res.Kind)
	require.Len(t, res.Pages, 3)

	res, err = extractFile(t, b.noOCR, fixture(t, "report.docx"), "slides.pptx", "text/plain")
	require.NoError(t, err)
	require.Equal(t, extract.KindDOCX, res.Kind)

	res, err = extractFile(t, b.noOCR, []byte("An essay saved with the wrong name."), "essay.docx", "")
	require.NoError(t, err)
	require.Equal(t, extract.KindText, res.Kind)
	require.Equal(t, "An essay saved with the wrong name.", res.Text)
}

func TestExtract_TextFilesInCommonEncodings(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tc := range []struct {
		name string
		data []byte
		ct   string
		want string
	}{
		{"utf-8", []byte("Café — “quoted”\r\nsecond line\n"), "", "Café — “quoted”\nsecond line"},
		{"utf-8 with BOM", []byte("\xef\xbb\xbfName,Answer\nAda,42\n"), "text/csv", "Name,Answer\nAda,42"},
		{"utf-16le with BOM", []byte("\xff\xfeH\x00i\x00 \x00\xe9\x00"), "", "Hi é"},
		{"windows-1252 named .txt", []byte("It\x92s \x93done\x94 \x96 caf\xe9"), "", "It’s “done” – café"},
	} {
		name := "notes.txt"
		res, err := extractFile(t, b.noOCR, tc.data, name, tc.ct)
		require.NoError(t, err, tc.name)
		require.Equal(t, extract.KindText, res.Kind, tc.name)
		require.Equal(t, tc.want, res.Text, tc.name)
	}
}

func TestExtract_WhitespaceOnlyFileReportsNoText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.noOCR, []byte(" \n\t\n"), "blank.txt", "text/plain")
	require.NoError(t, err)
	require.Equal(t, 1, res.EmptyPages)
	require.Equal(t, "No text found in this file", res.Problem())
}

func TestExtract_ContextCancelledIsNotPermanent(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := b.reader.Extract(ctx, extract.Input{Name: "scan.pdf", Body: bytes.NewReader(fixture(t, "scanned.pdf"))})
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, extract.IsPermanent(err), "a shutdown is retried, not blamed on the file")
}

func TestPlainText_ReadsTextAndRefusesOtherFormats(t *testing.T) {
	t.Parallel()
	res, err := extract.PlainText{}.Extract(context.Background(), extract.Input{
		Name: "a.txt", ContentType: "text/plain", Body: strings.NewReader("Plain essay."),
	})
	require.NoError(t, err)
	require.Equal(t, "Plain essay.", res.Text)

	_, err = extract.PlainText{}.Extract(context.Background(), extract.Input{
		Name: "a.pdf", ContentType: "application/pdf", Body: bytes.NewReader(fixture(t, "text-3pages.pdf")),
	})
	require.ErrorIs(t, err, extract.ErrUnsupported)
	require.True(t, extract.IsPermanent(err))
}
