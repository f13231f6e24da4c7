package chatdoc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, text, doc string
		ok                  bool
	}{
		{"no document", "Just an answer.", "Just an answer.", "", false},
		{"empty message", "", "", "", false},
		{"text before and after", "Here it is:\n<document>\n# Plan\n\nStep 1\n</document>\nWant changes?",
			"Here it is:\n\nWant changes?", "# Plan\n\nStep 1", true},
		{"only a document", "<document>Body</document>", "", "Body", true},
		{"upper case", "a<DOCUMENT>Body</DOCUMENT>b", "ab", "Body", true},
		{"mixed case", "a<DoCuMeNt>Body</dOcUmEnT>b", "ab", "Body", true},
		{"white space in tags", "a< document >Body</ document\n>b", "ab", "Body", true},
		{"white space around slash", "a<\tdocument>Body< / document>b", "ab", "Body", true},
		{"attributes are text", `<document id="1">x</document>`, `<document id="1">x</document>`, "", false},
		{"self-closing is text", "a<document/>b", "a<document/>b", "", false},
		{"other tag is text", "a <doc>x</doc> <documents> b", "a <doc>x</doc> <documents> b", "", false},
		{"less-than in prose", "if a < b and c<d", "if a < b and c<d", "", false},
		{"unclosed runs to the end", "Draft:\n<document>\n# Title\nCut off mid", "Draft:\n", "# Title\nCut off mid", true},
		{"unclosed after complete wins", "<document>v1</document> then <document>v2 partial",
			" then ", "v2 partial", true},
		{"repeated: last wins, all removed", "A<document>v1</document>B<document>v2</document>C", "ABC", "v2", true},
		{"nested kept in document", "x<document>a<document>b</document>c</document>y",
			"xy", "a<document>b</document>c", true},
		{"nested unclosed", "x<document>a<document>b</document>c", "x", "a<document>b</document>c", true},
		{"stray closing stays text", "a</document>b", "a</document>b", "", false},
		{"stray closing after section", "<document>d</document>a</document>b", "a</document>b", "d", true},
		{"empty document", "a<document></document>b", "ab", "", false},
		{"blank document", "a<document> \r\n\t</document>b", "ab", "", false},
		{"empty last section hides earlier", "<document>v1</document><document> </document>", "", "", false},
		{"CRLF", "Hi\r\n<document>\r\nLine 1\r\nLine 2\r\n</document>\r\nBye",
			"Hi\r\n\r\nBye", "Line 1\r\nLine 2", true},
		{"CRLF inside tag", "a<document\r\n>d</document\r\n>b", "ab", "d", true},
		{"unicode", "Voilà 😀<document>Élève — 日本語 😀</document>ñ", "Voilà 😀ñ", "Élève — 日本語 😀", true},
		{"partial tag at end is text", "see <docu", "see <docu", "", false},
		{"partial closing at end of document", "<document>body</docu", "", "body</docu", true},
		{"bare less-than at end", "a <", "a <", "", false},
		{"tag split by section gets a separator", "<doc<document>x</document>ument>",
			"<doc\u200bument>", "x", true},
		{"less-than before section gets a separator", "<<document>x</document>document>y",
			"<\u200bdocument>y", "x", true},
		{"no separator after complete text", "a<b<document>x</document>c", "a<bc", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, doc, ok := Split(tt.in)
			require.Equal(t, tt.text, text)
			require.Equal(t, tt.doc, doc)
			require.Equal(t, tt.ok, ok)
		})
	}
}

// TestStreamerHoldsPartialTags checks what a reader of the stream sees piece
// by piece: text up to a possible tag, never the tag's beginning.
func TestStreamerHoldsPartialTags(t *testing.T) {
	t.Parallel()
	var s Streamer
	require.Equal(t, "Here ", s.Write("Here <do"))
	require.Equal(t, "", s.Write("cum"))
	require.Equal(t, "", s.Write("ent>\n# Ti"))
	doc, in := s.Document()
	require.Equal(t, "# Ti", doc)
	require.True(t, in)
	require.Equal(t, "", s.Write("tle</doc"))
	doc, in = s.Document()
	require.Equal(t, "# Title", doc, "the partial closing tag is not shown in the document")
	require.True(t, in)
	require.Equal(t, "", s.Write("ument>"))
	doc, in = s.Document()
	require.Equal(t, "# Title", doc)
	require.False(t, in)
	require.Equal(t, " done <x ", s.Write(" done <x <"), "a '<' that cannot start a tag is released")
	require.Equal(t, "", s.Write("  "))
	require.Equal(t, "<  ", s.Close(), "a partial tag at the end is text")
	doc, in = s.Document()
	require.Equal(t, "# Title", doc)
	require.False(t, in)
}

func TestStreamerReleasesNonTag(t *testing.T) {
	t.Parallel()
	var s Streamer
	require.Equal(t, "a ", s.Write("a <docu"))
	require.Equal(t, "<documentary> b", s.Write("mentary> b"))
	require.Equal(t, "", s.Close())
}

func TestStreamerKeepsUTF8Whole(t *testing.T) {
	t.Parallel()
	msg := "é😀<document>日本</document>ü"
	var s Streamer
	var got strings.Builder
	for i := 0; i < len(msg); i++ {
		out := s.Write(msg[i : i+1])
		require.True(t, strings.ToValidUTF8(out, "?") == out, "piece %d returned invalid UTF-8 %q", i, out)
		got.WriteString(out)
		doc, _ := s.Document()
		require.True(t, strings.ToValidUTF8(doc, "?") == doc, "document %q", doc)
	}
	got.WriteString(s.Close())
	require.Equal(t, "é😀ü", got.String())
	doc, _ := s.Document()
	require.Equal(t, "日本", doc)
}

func TestStreamerCloseAndWriteAfterClose(t *testing.T) {
	t.Parallel()
	var s Streamer
	require.Equal(t, "", s.Write("<document>unfinished"))
	doc, in := s.Document()
	require.Equal(t, "unfinished", doc)
	require.True(t, in)
	require.Equal(t, "", s.Close())
	doc, in = s.Document()
	require.Equal(t, "unfinished", doc)
	require.False(t, in, "nothing is being written after Close")
	require.Equal(t, "", s.Close(), "Close is idempotent")
	require.Panics(t, func() { s.Write("more") })
}
