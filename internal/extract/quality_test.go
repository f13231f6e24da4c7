package extract_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

// warnings lists each page's warning, "" for a page without one.
func warnings(res extract.Result) []string {
	out := make([]string, len(res.Pages))
	for i, p := range res.Pages {
		out[i] = p.Warning
	}
	return out
}

// A poor scan (blurred, noisy, a low-quality JPEG) read by the real
// tesseract pool: OCR is unsure, and the teacher is told so, with the figure.
func TestQuality_BlurredPhotoReadByUnsureOCRIsDoubtful(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "blurred.jpg"), "homework.jpg", "image/jpeg")
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	p := res.Pages[0]
	require.Equal(t, extract.SourceOCR, p.Source)
	require.NotNil(t, p.Confidence)
	require.Less(t, *p.Confidence, extract.LowConfidence, p.Text)
	require.Regexp(t, `^Page 1 was read by OCR, which was unsure of it \(\d+%\): check it against the original$`, p.Warning)
	require.Contains(t, p.Warning, "("+strconv.Itoa(*p.Confidence)+"%)")
	require.Equal(t, []int{1}, res.Doubtful())
	require.Equal(t, "The text may be misread: check it against the original", res.Warning())
}

// The same scan as page 2 of a PDF whose page 1 has a text layer: only page
// 2 is doubtful, and the summary names it.
func TestQuality_PDFWithAPoorScanNamesThatPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "blurred-page.pdf"), "essay.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 2)
	require.Empty(t, res.Pages[0].Warning, "the text layer is what the page holds")
	require.Equal(t, extract.SourceOCR, res.Pages[1].Source)
	require.Contains(t, res.Pages[1].Warning, "Page 2 was read by OCR, which was unsure of it")
	require.Equal(t, []int{2}, res.Doubtful())
	require.Equal(t, "Page 2 may be misread: check it against the original", res.Warning())
}

// Clean print, typed documents and slides are not doubtful: the rules do
// not cry wolf on the files Markwell reads every day.
func TestQuality_CleanFilesHaveNoWarning(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, f := range []struct{ name, contentType string }{
		{"printed.png", "image/png"},
		{"photo-rotated.jpg", "image/jpeg"},
		{"text-3pages.pdf", "application/pdf"},
		{"scanned.pdf", "application/pdf"},
		{"report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
		{"slides.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
	} {
		res, err := extractFile(t, b.reader, fixture(t, f.name), f.name, f.contentType)
		require.NoError(t, err, f.name)
		require.Equal(t, make([]string, len(res.Pages)), warnings(res), f.name)
		require.Empty(t, res.Warning(), f.name)
	}
}

// The blank page of mixed.pdf is reported as a page without text, as
// before, not as a misread page.
func TestQuality_BlankPageIsNoTextNotMisread(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "mixed.pdf"), "mixed.pdf", "application/pdf")
	require.NoError(t, err)
	require.Empty(t, res.Doubtful())
	require.Equal(t, "No text found on 1 of 3 pages", res.Warning())
}

// A page reading only "Figure 1" between pages of 60 words is doubtful (its
// text may be in a form the reader missed); the title page ("Plant
// Energy") is not.
func TestQuality_ShortPageAmongLongOnesIsDoubtfulButTitlePageIsNot(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "short-page.pdf"), "report.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 4)
	require.Equal(t, "Plant Energy", res.Pages[0].Text)
	require.Equal(t, []string{"", "", "Only 2 words were found on page 3: check it against the original", ""}, warnings(res))
	require.Equal(t, "Page 3 may be misread: check it against the original", res.Warning())
}

// A one-page answer of two words typed in a word processor is what the
// pupil wrote; the same two words OCR'd from a photo may be all that OCR
// could make of a page of writing.
func TestQuality_ShortAnswerIsFineButAShortPhotoIsDoubtful(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "short-answer.pdf"), "answer.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, "Answer: chloroplasts", res.Text)
	require.Empty(t, res.Warning())

	res, err = extractFile(t, b.reader, fixture(t, "two-words.png"), "note.png", "image/png")
	require.NoError(t, err)
	require.Equal(t, "Chloroplasts, sunlight", flat(res.Text))
	require.NotNil(t, res.Pages[0].Confidence)
	require.GreaterOrEqual(t, *res.Pages[0].Confidence, extract.LowConfidence, "clean print: OCR is sure")
	require.Equal(t, []string{"Only 2 words were found on page 1: check it against the original"}, warnings(res))
	require.Equal(t, "The text may be misread: check it against the original", res.Warning())
}

// Greek saved in one encoding and read in another (iconv, Latin-1 → UTF-8)
// is garbled; the warning quotes some of it so the teacher sees what is
// meant. A text file's text is its original, so the warning says what is
// wrong without sending the teacher to an original, and no page is listed
// to check against one (the table's "Check page 1" link). The Greek itself
// is not garbled.
func TestQuality_DoubleEncodedTextIsGarbled(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, fixture(t, "greek-double-encoded.txt"), "essay.txt", "text/plain")
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	w := res.Pages[0].Warning
	require.True(t, strings.HasPrefix(w, "Some characters in this file look garbled (“Î"), w)
	require.True(t, strings.HasSuffix(w, "”), so words may be wrong or missing"), w)
	require.NotContains(t, w, "original")
	require.Equal(t, w, res.Warning(), "the file's warning is the page's, naming the file")
	require.Empty(t, res.Doubtful(), "no page to check against an original")

	res, err = extractFile(t, b.reader, fixture(t, "src/greek.txt"), "essay.txt", "text/plain")
	require.NoError(t, err)
	require.Contains(t, res.Text, "Ο κύκλος του νερού")
	require.Empty(t, res.Warning())
}

// The Latin-1 gibberish the old PDF reader made of Greek in an embedded
// TrueType font (issue 20), as the page text it was, is garbled; so are
// private-use letters and Cyrillic letters inside Latin words, the other
// marks of a broken font map. Units, prices, Spanish, maths and bullets
// are how people write.
func TestQuality_BrokenFontMapsAreGarbledButOrdinaryTextIsNot(t *testing.T) {
	t.Parallel()
	b := setup(t)
	read := func(text string) extract.Result {
		t.Helper()
		res, err := extractFile(t, b.reader, []byte(text), "page.txt", "text/plain")
		require.NoError(t, err)
		return res
	}
	for _, text := range []string{
		"¦¬Äµ ¼µÁ¹º¬ Ä¿Å ½µÁ¿Í ºÅº»¿Â Ä¿Å ½µÁ¿Í",
		"The \ue041\ue042\ue043 and \ue044\ue045 of the \ue046\ue047\ue048 cycle",
		"Thе watеr cyclе movеs watеr bеtwееn the oceans",
	} {
		res := read(text)
		require.Contains(t, res.Pages[0].Warning, "Some characters in this file look garbled (“", text)
	}
	for _, text := range []string{
		"It was 20°C at noon, ±0.5°C; the book cost £5 and ½ a loaf 75¢. ¿Qué tal? «Bonjour» said µ-law.",
		"The area is πr² and Δx → 0, so cosθ ≈ 1 for small θ; the speed is 3 m·s⁻¹.",
		"\uf0b7 Evaporation \uf0b7 Condensation \uf0b7 Precipitation \uf0b7 Collection",
		"水は海と空と陸の間を絶えず巡っています。太陽が海面を温め、水の一部を水蒸気に変えます。",
		"Вода движется между океанами, воздухом и сушей.",
	} {
		require.Empty(t, read(text).Warning(), text)
	}
}

// A text file with characters that could not be decoded (a file saved in a
// legacy encoding and converted badly) says so without quoting them or
// sending the teacher to an original.
func TestQuality_UndecodableTextFileSaysSoWithoutAnOriginal(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, []byte("The water cycle \ufffd moves \ufffd water \ufffd between the oceans"), "essay.txt", "text/plain")
	require.NoError(t, err)
	require.Equal(t, []string{"Some characters in this file could not be decoded, so words may be wrong or missing"}, warnings(res))
	require.Equal(t, "Some characters in this file could not be decoded, so words may be wrong or missing", res.Warning())
	require.Empty(t, res.Doubtful())
}

// The same garbled words in a Word file keep today's warning: its pages
// are drawn from the file, so page 1 is listed to check against them.
func TestQuality_GarbledWordFileStillSendsTheTeacherToTheOriginal(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := docxWith(t, documentStart+wordPara("¦¬Äµ ¼µÁ¹º¬ Ä¿Å ½µÁ¿Í ºÅº»¿Â Ä¿Å ½µÁ¿Í")+`</w:body></w:document>`)
	res, err := extractFile(t, b.reader, data, "essay.docx", docxType)
	require.NoError(t, err)
	require.Equal(t, []string{"Some characters on page 1 look garbled (“¦¬Äµ ¼µÁ¹º¬ ½µÁ¿Í”), so words may be wrong or missing: check it against the original"}, warnings(res))
	require.Equal(t, "The text may be misread: check it against the original", res.Warning())
	require.Equal(t, []int{1}, res.Doubtful())
}
