package extract

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Real Word and PowerPoint files (see testdata/README.md for where each
// comes from): the text a teacher sees beyond the body, each part once.

func readFixture(t *testing.T, name string) Result {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	res, err := New(Options{}).ExtractBytes(t.Context(), data, name, "")
	require.NoError(t, err, name)
	return res
}

// requireOnce fails unless each phrase occurs exactly once in text.
func requireOnce(t *testing.T, text string, phrases ...string) {
	t.Helper()
	for _, p := range phrases {
		require.Equal(t, 1, strings.Count(text, p), "%q in:\n%s", p, text)
	}
}

func TestDOCXFootnotesAndEndnotes(t *testing.T) {
	t.Parallel()
	// Word 2010 (mammoth's footnotes.docx): two footnotes, and a separator
	// and continuation separator that hold no text.
	res := readFixture(t, "footnotes.docx")
	require.Equal(t, KindDOCX, res.Kind)
	require.Equal(t, "Ouch[1].[2]\n\nFootnotes\n[1] A tachyon walks into a bar.\n[2] Fin.", res.Text)

	// LibreOffice (mammoth's endnotes.docx): endnotes numbered i, ii as the
	// section asks.
	res = readFixture(t, "endnotes.docx")
	require.Equal(t, "Ouch[i].[ii]\n\nEndnotes\n[i] A tachyon walks into a bar.\n[ii] Fin.", res.Text)

	// A pupil's essay saved by LibreOffice with both kinds: the marks stand
	// where the notes are referenced, the notes follow the body.
	res = readFixture(t, "history.docx")
	body, notes, ok := strings.Cut(res.Text, "\n\nFootnotes\n")
	require.True(t, ok, res.Text)
	require.Contains(t, body, "march quickly between towns[1].\nMerchants used the same roads to carry grain, wine and olive oil[2], and messengers")
	require.Contains(t, body, "still follow the old Roman routes[i].")
	require.Equal(t, "[1] A legion was a unit of about five thousand soldiers.\n"+
		"[2] Most heavy goods still went by sea or river.\n\n"+
		"Endnotes\n[i] Source: our class textbook, chapter four.", notes)
	requireOnce(t, res.Text, "A legion was", "Most heavy goods", "class textbook")
}

func TestDOCXTextBoxes(t *testing.T) {
	t.Parallel()
	// Word 2010 writes a text box twice: as DrawingML in mc:Choice and as
	// VML in mc:Fallback. One copy is read.
	res := readFixture(t, "text-box.docx")
	require.Equal(t, "Datum plane", res.Text)

	// LibreOffice does the same; the box's text comes where it is anchored,
	// before its paragraph.
	res = readFixture(t, "history.docx")
	require.Contains(t, res.Text, "Why did the Roman Empire build roads?\n"+
		"Key fact: the network grew to about eighty thousand kilometres of paved road.\n"+
		"The Romans built roads")
	requireOnce(t, res.Text, "Key fact")
}

func TestDOCXHeadersFooters(t *testing.T) {
	t.Parallel()
	// Word 2007 (Apache POI's DiffFirstPageHeadFoot.docx): a first page with
	// its own header and footer, then three-column ones on the other pages.
	res := readFixture(t, "headers-first-page.docx")
	require.Equal(t, `Header: I am the header on the first page, and I’m nice and simple

Header: First header column!	Mid header	Right header!

This is a sample word document. It has two pages. It has a simple header and footer, which is different to all the other pages.

HEADING TEXT

More on page one

End of page 1

This is page two. It also has a three column heading, and a three column footer.

Footer: The footer of the first page

Footer: Footer Left	Footer Middle	Footer Right`, res.Text)

	// Odd and even pages (POI's PageSpecificHeadFoot.docx): both headers and
	// footers once each; the even footer's "Page 2" is a page-number field,
	// left out, and its words stay.
	res = readFixture(t, "headers-odd-even.docx")
	head, _, _ := strings.Cut(res.Text, "\n\nThis is a sample")
	require.Equal(t, "Header: August 20, 2008 | [ODD Page Header text]\n\n"+
		"Header: [This is an Even Page, with a Header] | August 20, 2008", head)
	require.True(t, strings.HasSuffix(res.Text, "simple footer.\n\n"+
		"Footer: Footer Left\tFooter Middle\tFooter Right\n\n"+
		"Footer: This is a simple footer on the second page"), res.Text)
	require.NotContains(t, res.Text, "Page 2")

	// LibreOffice: the header's page number is left out and its name stays;
	// the footer says only "Page 1 of 1", so it is not shown at all.
	res = readFixture(t, "history.docx")
	require.True(t, strings.HasPrefix(res.Text, "Header: Amara Okafor, Year 9 History\n\nWhy did"), res.Text)
	require.NotContains(t, res.Text, "Footer")
	require.NotContains(t, res.Text, "Page")
}

func TestHeaderTextLeavesOutPageNumbers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Page \x01 of \x01":                 "",
		"\x01/\x01":                         "",
		" | Page \x01 | ":                   "",
		"Essay\tpage \x01":                  "Essay",
		"Anna Smith, 9B\nPrinted \x01":      "Anna Smith, 9B\nPrinted",
		"Page 3 of my notes":                "Page 3 of my notes", // typed, not a field
		"Pages of history, p. \x01 of \x01": "Pages of history,",
	} {
		require.Equal(t, want, headerText(in), "%q", in)
	}
}

func TestPPTXSmartArt(t *testing.T) {
	t.Parallel()
	// PowerPoint 2016 for Mac (POI's smartart-rotated-text.pptx): a slide
	// that is only a SmartArt diagram, "jkl" a child of "ghi". Its text is
	// read once from the diagram's data, not again from its drawing.
	res := readFixture(t, "smartart.pptx")
	require.Equal(t, KindPPTX, res.Kind)
	require.Equal(t, "Slide 1\n- abc\n- def\n- ghi\n  - jkl", res.Text)
	require.Empty(t, res.Problem(), "the slide has text")
	require.Zero(t, res.EmptyPages)

	// Text boxes first, then the diagram.
	res = readFixture(t, "smartart-with-text.pptx")
	require.True(t, strings.HasPrefix(res.Text, "Slide 1\nThis file contains a SmartArt diagram\nTesting:\n"), res.Text)
	require.True(t, strings.HasSuffix(res.Text, "Shapes are styled with theme\n- abc\n- def\n- ghi"), res.Text)
	requireOnce(t, res.Text, "abc", "def", "ghi")
}

func TestPPTXChartTitle(t *testing.T) {
	t.Parallel()
	// LibreOffice Impress: a chart with a title and two axis titles, after
	// the slide's own text. Its category axis hides its labels (Walk, Bus,
	// Car), so they are not read, nor are its numbers.
	res := readFixture(t, "chart.pptx")
	require.Equal(t, "Slide 1\nOur class survey\nMost of us walk to school.\n"+
		"Chart: How we travel to school\nChart axis: Way of travel\nChart axis: Number of pupils", res.Text)

	// PowerPoint (POI's bar-chart.pptx): a title with no text of its own
	// shows the only series' name, as PowerPoint and LibreOffice draw it;
	// the legend names the series and the axis labels the categories.
	res = readFixture(t, "chart-auto-title.pptx")
	require.Equal(t, "Slide 1\nMy Bar Chart\nChart: Sales\nChart series: Sales\n"+
		"Chart categories: 1st Qtr, 2nd Qtr, 3rd Qtr, 4th Qtr", res.Text)
}

func TestDOCXNotesAndHeadersCountTowardsTheTextLimit(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 40) // 200 bytes: under the limit of 300 alone, over it twice
	rels := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>` +
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>`
	for name, parts := range map[string][2]string{
		"footnote": {`<w:footnoteReference w:id="1"/>`, ""},
		"header":   {"", `<w:sectPr><w:headerReference w:type="default" r:id="rId2"/></w:sectPr>`},
	} {
		data := officePackage(t,
			[2]string{"[Content_Types].xml", fuzzContentTypes},
			[2]string{"_rels/.rels", fmt.Sprintf(fuzzRels, "officeDocument", "word/document.xml")},
			[2]string{"word/_rels/document.xml.rels", rels},
			[2]string{"word/document.xml", `<w:document xmlns:w="w" xmlns:r="r"><w:body><w:p><w:r><w:t>` + long + `</w:t>` + parts[0] + `</w:r></w:p>` + parts[1] + `</w:body></w:document>`},
			[2]string{"word/footnotes.xml", `<w:footnotes xmlns:w="w"><w:footnote w:id="1"><w:p><w:r><w:t>` + long + `</w:t></w:r></w:p></w:footnote></w:footnotes>`},
			[2]string{"word/header1.xml", `<w:hdr xmlns:w="w"><w:p><w:r><w:t>` + long + `</w:t></w:r></w:p></w:hdr>`},
		)
		res, err := New(Options{}).ExtractBytes(t.Context(), data, "essay.docx", "")
		require.NoError(t, err, name)
		require.Equal(t, 2, strings.Count(res.Text, strings.TrimSpace(long)), name)

		_, err = New(Options{Limits: Limits{MaxTextBytes: 300}}).ExtractBytes(t.Context(), data, "essay.docx", "")
		require.ErrorIs(t, err, ErrTooLarge, "%s: notes and headers count towards the limit, as the body does", name)
	}
}
