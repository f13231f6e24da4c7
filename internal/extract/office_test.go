package extract

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// seedArgs reads the arguments of a committed fuzz seed, so the seed corpus
// doubles as fixtures with known text.
func seedArgs(t *testing.T, target, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/fuzz/" + target + "/" + name)
	require.NoError(t, err)
	var args []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")"))
		require.NoError(t, err, "%s/%s", target, name)
		args = append(args, s)
	}
	return args
}

func docxPackage(t *testing.T, document string) []byte {
	return officePackage(t,
		[2]string{"[Content_Types].xml", fuzzContentTypes},
		[2]string{"_rels/.rels", fmt.Sprintf(fuzzRels, "officeDocument", "word/document.xml")},
		[2]string{"word/document.xml", document})
}

func TestReadDOCX_NestedTablesTextBoxesAndTrackedChanges(t *testing.T) {
	t.Parallel()
	res, err := New(Options{}).ExtractBytes(t.Context(), docxPackage(t, seedArgs(t, "FuzzDOCXBody", "list-table-textbox")[0]), "", "")
	require.NoError(t, err)
	require.Equal(t, KindDOCX, res.Kind)
	require.Equal(t, strings.Join([]string{
		"- Item",     // numbered paragraph without numbering.xml: a bullet
		"A | nested", // a table inside a cell flattens into the cell
		"Box",        // text box once, not again from mc:Fallback
		"after",      //
		"kept",       // inserted text stays, deleted text and field codes go
	}, "\n"), res.Text)
}

// Word's Insert Symbol writes "5°C" as 5, w:sym Symbol F0B0, C: the symbol
// is read as the character its font draws.
func TestReadDOCX_SymbolsInsertedFromSymbolAndWingdings(t *testing.T) {
	t.Parallel()
	sym := func(font, char string) string {
		return `<w:r><w:sym w:font="` + font + `" w:char="` + char + `"/></w:r>`
	}
	run := func(s string) string { return `<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r>` }
	body := `<w:p>` + run("It rose by 5") + sym("Symbol", "F0B0") + run("C, ") + sym("Symbol", "F044") + run("T ") +
		sym("Symbol", "F0BB") + run(" 3") + sym("Symbol", "F0B1") + run("1.") + `</w:p>` +
		`<w:p>` + sym("Wingdings", "F0FC") + run(" done ") + sym("Wingdings", "F0FB") + run(" not done ") +
		sym("Wingdings", "F0FE") + sym("Wingdings", "F0A8") + run(" ") + sym("Calibri", "00B0") + sym("Unknown Font", "F041") + `</w:p>`
	document := `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `</w:body></w:document>`
	res, err := New(Options{}).ExtractBytes(t.Context(), docxPackage(t, document), "", "")
	require.NoError(t, err)
	require.Equal(t, "It rose by 5°C, ΔT ≈ 3±1.\n✓ done ✗ not done ☑◻ °", res.Text)
}

func TestReadDOCX_MalformedXMLIsDamaged(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"unclosed", "entity"} {
		_, err := New(Options{}).ExtractBytes(t.Context(), docxPackage(t, seedArgs(t, "FuzzDOCXBody", name)[0]), "", "")
		reason, ok := Reason(err)
		require.True(t, ok, name)
		require.Equal(t, ReasonDOCXDamaged, reason, name)
	}
}

func TestReadPPTX_PlaceholdersNumberingTablesAndNotes(t *testing.T) {
	t.Parallel()
	a := seedArgs(t, "FuzzPPTXSlide", "title-bullets-table")
	data := officePackage(t,
		[2]string{"[Content_Types].xml", fuzzContentTypes},
		[2]string{"_rels/.rels", fmt.Sprintf(fuzzRels, "officeDocument", "ppt/presentation.xml")},
		[2]string{"ppt/presentation.xml", `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`},
		[2]string{"ppt/_rels/presentation.xml.rels", fmt.Sprintf(fuzzRels, "slide", "slides/slide1.xml")},
		[2]string{"ppt/slides/slide1.xml", a[0]},
		[2]string{"ppt/slides/_rels/slide1.xml.rels", fmt.Sprintf(fuzzRels, "notesSlide", "../notesSlides/notesSlide1.xml")},
		[2]string{"ppt/notesSlides/notesSlide1.xml", a[1]},
	)
	res, err := New(Options{}).ExtractBytes(t.Context(), data, "", "")
	require.NoError(t, err)
	require.Equal(t, KindPPTX, res.Kind)
	require.Equal(t, "Slide 1\nTitle\n  a) one\ntwo\n3\nx | y\n\nNotes: Speak slowly.", res.Text,
		"title first; level-1 auto-number; the notes' slide image and number are left out")
}

func TestListLabels(t *testing.T) {
	t.Parallel()
	n := &numbering{
		levels: map[string]*[9]numLevel{"1": {
			{format: "decimal", text: "%1.", start: 1},
			{format: "lowerLetter", text: "%1.%2)", start: 1},
			{format: "bullet", text: "\uf0b7", start: 1},
		}},
		counters: map[string]*[9]int{}, started: map[string]*[9]bool{},
	}
	var got []string
	for _, lvl := range []int{0, 1, 1, 2, 0, 1} {
		got = append(got, n.label("1", lvl))
	}
	require.Equal(t, []string{"1. ", "1.a) ", "1.b) ", "- ", "2. ", "2.a) "}, got)
	require.Equal(t, "xiv", formatNumber(14, "lowerRoman"))
	require.Equal(t, "BB", formatNumber(28, "upperLetter"), "Word repeats the letter: aa, bb")
	require.Equal(t, "(iv)", autoNumber(4, "romanLcParenBoth"))
}

func TestZipEntryCountReadsTheEndRecord(t *testing.T) {
	t.Parallel()
	data := docxPackage(t, "<x/>")
	n, err := zipEntryCount(data)
	require.NoError(t, err)
	require.Equal(t, uint64(3), n)
	_, err = zipEntryCount(data[:len(data)-10])
	require.Error(t, err, "a cut-off archive has no end record")
}
