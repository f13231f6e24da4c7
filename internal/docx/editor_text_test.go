package docx

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// editorMarkdown is a chat document as the app's editor (Tiptap's Markdown writer) saves it after a teacher typed
// "&", "<notes>", quotes, "*" and a literal "&amp;", a line break in a table cell (written "<br>"), a hard break
// (two spaces), blank lines between paragraphs and an empty paragraph ("&nbsp;").
const editorMarkdown = "# Plan &amp; notes\n\n" +
	"- Read the text &amp; pupils compare &lt;notes&gt;\n" +
	"- Say &quot;hi&quot;, it&#39;s \\*not\\* bold, a typed &amp;amp; stays\n\n" +
	"| Kind &amp; type | Notes |\n| --- | --- |\n| A &lt;b&gt; | line one<br>line two |\n\n" +
	"First paragraph.\n\n\n\n" +
	"Second paragraph  \nafter a break, `code &amp; <kept>` and <script>x</script> and &lt;br&gt; typed\n\n" +
	"&nbsp;\n\n" +
	"Last &#1; end"

func TestFromMarkdownEditorTextDecodedOnce(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, FromMarkdown(context.Background(), &buf, editorMarkdown, nil))
	d := openDocx(t, buf.Bytes()) // fails unless word/document.xml is well-formed

	require.Equal(t, "Heading1", d.para(t, "Plan").Style)
	require.Equal(t, "Plan & notes", d.para(t, "Plan").text())
	require.Equal(t, "Read the text & pupils compare <notes>", d.para(t, "Read the text").text())
	require.Equal(t, `Say "hi", it's *not* bold, a typed &amp; stays`, d.para(t, "Say").text())

	require.Len(t, d.Tables, 1)
	require.Equal(t, []string{"Kind & type", "Notes"}, d.Tables[0][0])
	require.Equal(t, "A <b>", d.Tables[0][1][0])
	require.Equal(t, "line one\nline two", d.para(t, "line one").text(), "<br> in a cell is a line break")

	// Blank lines are one paragraph break: the second paragraph follows the first directly.
	var texts []string
	for _, p := range d.Paras {
		texts = append(texts, p.text())
	}
	first := strings.Index(strings.Join(texts, "\x00"), "First paragraph.\x00Second paragraph")
	require.GreaterOrEqual(t, first, 0, "paragraphs: %q", texts)
	require.Equal(t, "Second paragraph\nafter a break, code &amp; <kept> and <script>x</script> and <br> typed",
		d.para(t, "Second paragraph").text(), "code is kept as written; markup and a typed <br> are text")
	require.Contains(t, texts, "\u00a0", "the editor's empty paragraph")
	require.Equal(t, "Last \ufffd end", d.para(t, "Last").text(), "a character XML cannot carry is replaced")

	xml := string(d.Files["word/document.xml"])
	require.NotContains(t, xml, "<script", "markup never becomes an element")
	require.NotContains(t, xml, "&amp;lt;notes")
	require.Equal(t, 2, strings.Count(xml, "&amp;amp;"), "only the typed \"&amp;\" and the code span's are shown as \"&amp;\"")
}
