package highlight_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/highlight"
)

// plain is a span of plain text.
func plain(s string) highlight.Span { return highlight.Span{Text: s, ID: -1} }

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		tagged    string
		wantSpans []highlight.Span
		wantItems []highlight.Item
	}{
		{name: "empty", tagged: "", wantSpans: []highlight.Span{}, wantItems: []highlight.Item{}},
		{
			name: "text only", tagged: "Just words.",
			wantSpans: []highlight.Span{plain("Just words.")}, wantItems: []highlight.Item{},
		},
		{
			name:   "highlights with ids in order",
			tagged: `<grammar comment="c1">A</grammar> b <spelling comment="c2">C</spelling><grammar comment="c3">D</grammar>.`,
			wantSpans: []highlight.Span{
				{Text: "A", Key: "grammar", ID: 0}, plain(" b "),
				{Text: "C", Key: "spelling", ID: 1}, {Text: "D", Key: "grammar", ID: 2}, plain("."),
			},
			wantItems: []highlight.Item{
				{ID: 0, Type: "grammar", Comment: "c1", Text: "A"},
				{ID: 1, Type: "spelling", Comment: "c2", Text: "C"},
				{ID: 2, Type: "grammar", Comment: "c3", Text: "D"},
			},
		},
		{
			name:      "entities are read once; unknown ones and bare & stay",
			tagged:    `&amp;lt; &lt;b&gt; &quot;q&quot; &#39;s &apos; &nbsp; & &amp`,
			wantSpans: []highlight.Span{plain(`&lt; <b> "q" 's ' &nbsp; & &amp`)},
			wantItems: []highlight.Item{},
		},
		{
			name:      "comparison signs are text",
			tagged:    "a < b, 3 <4, <3 love, a<-b, x > y",
			wantSpans: []highlight.Span{plain("a < b, 3 <4, <3 love, a<-b, x > y")},
			wantItems: []highlight.Item{},
		},
		{
			name:      "unclosed tag is text",
			tagged:    `x <grammar comment="c">y`,
			wantSpans: []highlight.Span{plain(`x <grammar comment="c">y`)},
			wantItems: []highlight.Item{},
		},
		{
			name:      "mismatched tag is text",
			tagged:    `<grammar comment="c">y</spelling>`,
			wantSpans: []highlight.Span{plain(`<grammar comment="c">y</spelling>`)},
			wantItems: []highlight.Item{},
		},
		{
			name:   "nested: the outer tag is text, the inner one is read",
			tagged: `<grammar comment="o">a <spelling comment="i">b</spelling> c</grammar>`,
			wantSpans: []highlight.Span{
				plain(`<grammar comment="o">a `), {Text: "b", Key: "spelling", ID: 0}, plain(` c</grammar>`),
			},
			wantItems: []highlight.Item{{ID: 0, Type: "spelling", Comment: "i", Text: "b"}},
		},
		{
			name: "unknown shapes are text",
			tagged: `<grammar>a</grammar><grammar comment='c'>b</grammar><grammar  comment="c">c</grammar>` +
				`<grammar comment="c" x="y">d</grammar><grammar comment="c">e</grammar ><grammar comment="c"></grammar>` +
				`<b>bold</b><grammar comment="a"b">f</grammar><grammar-x comment="c">g</grammar-x>`,
			wantSpans: []highlight.Span{plain(
				`<grammar>a</grammar><grammar comment='c'>b</grammar><grammar  comment="c">c</grammar>` +
					`<grammar comment="c" x="y">d</grammar><grammar comment="c">e</grammar ><grammar comment="c"></grammar>` +
					`<b>bold</b><grammar comment="a"b">f</grammar><grammar-x comment="c">g</grammar-x>`)},
			wantItems: []highlight.Item{},
		},
		{
			name:   "a stray closing tag is text",
			tagged: `</grammar>ok <grammar comment="">x</grammar>`,
			wantSpans: []highlight.Span{
				plain(`</grammar>ok `), {Text: "x", Key: "grammar", ID: 0},
			},
			wantItems: []highlight.Item{{ID: 0, Type: "grammar", Text: "x"}},
		},
		{
			name:   "unicode keys, comments and text; CRLF kept",
			tagged: "Ligne\r\n<grammaire comment=\"accord → pluriel 🙂\">les chat</grammaire>\r\n",
			wantSpans: []highlight.Span{
				plain("Ligne\r\n"), {Text: "les chat", Key: "grammaire", ID: 0}, plain("\r\n"),
			},
			wantItems: []highlight.Item{{ID: 0, Type: "grammaire", Comment: "accord → pluriel 🙂", Text: "les chat"}},
		},
		{
			name:      "comment spanning lines, with escapes",
			tagged:    "<grammar comment=\"line 1\nline &quot;2&quot; &lt;3\">t</grammar>",
			wantSpans: []highlight.Span{{Text: "t", Key: "grammar", ID: 0}},
			wantItems: []highlight.Item{{ID: 0, Type: "grammar", Comment: "line 1\nline \"2\" <3", Text: "t"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spans, items := highlight.Parse(tc.tagged)
			require.Equal(t, tc.wantSpans, spans)
			require.Equal(t, tc.wantItems, items)
			var joined string
			for _, s := range spans {
				joined += s.Text
			}
			require.Equal(t, joined, highlight.Plain(tc.tagged))
		})
	}
}
