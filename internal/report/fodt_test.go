package report

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// wellFormed fails unless doc is well-formed XML, and returns its text.
func wellFormed(t *testing.T, doc []byte) string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(doc)))
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			require.ErrorContains(t, err, "EOF")
			return text.String()
		}
		if c, ok := tok.(xml.CharData); ok {
			text.Write(c)
		}
	}
}

func TestFODTEscapesEverything(t *testing.T) {
	hostile := `</text:p><text:p>injected</text:p> & "quotes" <script>` + "\x00\x01\x1b\ufffe" + string([]byte{0xff}) + "end"
	tot, most := 1.0, 2.0
	doc := FODT(Report{
		Assignment: hostile, Student: hostile, Overall: hostile, Feedback: hostile, Total: &tot, Max: &most,
		Work:       []Span{{Text: hostile, ID: -1}, {Text: hostile, ID: 0}},
		Highlights: []Highlight{{Title: hostile, Color: `"><x`, Comment: hostile}},
		Questions:  []Question{{Label: "Question 1", Text: hostile, Feedback: hostile, Criteria: []Criterion{{Description: hostile, Points: 1}}}},
		Rubric:     []RubricRow{{Criterion: hostile, Level: hostile, Feedback: hostile}},
	})
	text := wellFormed(t, doc)
	require.Contains(t, text, `</text:p><text:p>injected</text:p> & "quotes" <script>end`)
	require.NotContains(t, string(doc), "<text:p>injected")
	require.NotContains(t, string(doc), "<script>")
}

func TestFODTRightToLeftAndSpaces(t *testing.T) {
	doc := string(FODT(Report{Assignment: "A", Student: "S", Overall: "مرحبا بالعالم\nHello", Work: []Span{{Text: "a   b\tc", ID: -1}}}))
	require.Contains(t, doc, `<text:p text:style-name="BodyRTL">مرحبا بالعالم</text:p><text:p text:style-name="Body">Hello</text:p>`)
	require.Contains(t, doc, `a <text:s text:c="2"/>b<text:tab/>c`)
}

func TestFileNames(t *testing.T) {
	n := fileNames{}
	require.Equal(t, "Ana.pdf", n.take("Ana"))
	require.Equal(t, "ana (2).pdf", n.take("ana"))
	require.Equal(t, "a_b_c.pdf", n.take("a/b\\c"))
	require.Equal(t, "Student.pdf", n.take(" .. "))
	require.Equal(t, "Ярослава.pdf", n.take("Ярослава"))
}

func TestFODTPromptFeedbackMarkdown(t *testing.T) {
	doc := FODT(Report{Assignment: "A", Student: "S", Feedback: "## Strengths\n- **Clear** thesis\n1. Use *more* `evidence`\n<img src=x onerror=alert(1)>\n```\ncode <b>\n```"})
	text := wellFormed(t, doc)
	require.Contains(t, string(doc), `<text:p text:style-name="Question">Strengths</text:p>`)
	require.Contains(t, string(doc), `• <text:span text:style-name="Strong">Clear</text:span> thesis`)
	require.Contains(t, string(doc), `1. Use <text:span text:style-name="Emphasis">more</text:span> <text:span text:style-name="Code">evidence</text:span>`)
	require.Contains(t, text, `<img src=x onerror=alert(1)>`)
	require.Contains(t, text, `code <b>`)
	require.NotContains(t, text, "```")
}

func TestFODTFootnoteAfterThePassage(t *testing.T) {
	doc := string(FODT(Report{Assignment: "A", Student: "S",
		Work:       []Span{{Text: "Start ", ID: -1}, {Text: "two\nlines\n", ID: 0}, {Text: "after", ID: -1}},
		Highlights: []Highlight{{Title: "Grammar", Color: "red-500", Comment: "Note"}}}))
	require.Contains(t, doc, `<text:span text:style-name="hl-red">lines</text:span><text:note text:id="ftn1"`)
	require.Contains(t, doc, `<text:p text:style-name="Body">after</text:p>`)
	require.Equal(t, 1, strings.Count(doc, "<text:note "))
}

// editorFeedback is a prompt result's feedback as the review screen's editor
// saves it (Tiptap's Markdown): "&", "<" and ">" typed by the teacher as
// entity references, "*" after a backslash, blank lines between paragraphs
// (four newlines for one empty line typed), a hard break as two spaces, a
// table cell's break as "<br>", and a literally typed "&amp;".
const editorFeedback = "Amara, your opening question frames the essay well.\n\n\n\n" +
	"Next step: add a second example &amp; explain it. &lt;script&gt;x&lt;/script&gt; Thanks.\n\n" +
	"## Quotes &quot;&amp;&quot; more\n\n" +
	"- Say &quot;hi&quot;, it&#39;s \\*not\\* **bold &amp; brave**, a typed &amp;amp; stays\n\n" +
	"First line  \nsecond line<br>third line, `a &amp; <b>` as written"

func TestFODTPromptFeedbackFromTheEditor(t *testing.T) {
	doc := FODT(Report{Assignment: "A", Student: "S", Status: "reviewed", Feedback: editorFeedback})
	text := wellFormed(t, doc)
	s := string(doc)

	// Decoded once, escaped once: the teacher's characters, never markup.
	require.Contains(t, text, "Next step: add a second example & explain it. <script>x</script> Thanks.")
	require.Contains(t, s, "Next step: add a second example &amp; explain it. &lt;script&gt;x&lt;/script&gt; Thanks.")
	require.NotContains(t, s, "&amp;amp;lt;")
	require.NotContains(t, s, "<script")
	require.Contains(t, s, `<text:p text:style-name="Question">Quotes &quot;&amp;&quot; more</text:p>`)
	require.Contains(t, text, `• Say "hi", it's *not* bold & brave, a typed &amp; stays`)
	require.Contains(t, s, `<text:span text:style-name="Strong">bold &amp; brave</text:span>`)
	require.NotContains(t, s, `<text:span text:style-name="Emphasis">not`)
	require.Contains(t, s, `First line<text:line-break/>second line<text:line-break/>third line, `+
		`<text:span text:style-name="Code">a &amp;amp; &lt;b&gt;</text:span> as written`)

	// A run of blank lines is one paragraph break: no empty paragraph between.
	require.Contains(t, s, `<text:p text:style-name="Body">Amara, your opening question frames the essay well.</text:p>`+
		`<text:p text:style-name="Body">Next step:`)
	require.NotContains(t, s, `<text:p text:style-name="Body"></text:p>`)
}
