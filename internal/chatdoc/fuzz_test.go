package chatdoc

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

var fuzzSeeds = []string{
	"",
	"plain answer",
	"Here:\n<document>\n# Plan\n</document>\nMore?",
	"<document>unclosed",
	"<DOCUMENT>v1</Document>x< document >v2</ document >",
	"a<document>b<document>c</document>d</document>e",
	"</document>stray",
	"<doc<document>x</document>ument>",
	"<<document>x</document>document>",
	"<document></docu",
	"é😀<document>日本\r\n</document>ü",
	"< / document >< \tdocument\r\n>",
}

// hasOpeningTag reports whether s contains a complete opening tag.
func hasOpeningTag(s string) bool {
	b := []byte(s)
	for i := range b {
		if b[i] != '<' {
			continue
		}
		if m, closing, _ := matchTag(b[i:]); m == full && !closing {
			return true
		}
	}
	return false
}

func FuzzSplit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		text, doc, ok := Split(msg)
		require.LessOrEqual(t, len(text)+len(doc), len(msg))
		require.Equal(t, doc != "", ok)
		require.Equal(t, strings.TrimSpace(doc), doc)
		require.False(t, hasOpeningTag(text), "opening tag left in text %q", text)
		if !hasOpeningTag(msg) {
			require.False(t, ok)
			require.Equal(t, msg, text, "a message without an opening tag is all text")
		}
		if utf8.ValidString(msg) {
			require.True(t, utf8.ValidString(text), "text %q", text)
			require.True(t, utf8.ValidString(doc), "document %q", doc)
		}
		// The text is stable: splitting it again finds nothing more.
		text2, doc2, ok2 := Split(text)
		require.Equal(t, text, text2)
		require.Empty(t, doc2)
		require.False(t, ok2)
	})
}

// pieces cuts msg at lengths taken in turn from cuts (each 1 to 16 bytes);
// with no cuts, msg is sent one byte at a time.
func pieces(msg string, cuts []byte) []string {
	var out []string
	for i, k := 0, 0; i < len(msg); k++ {
		n := 1
		if len(cuts) > 0 {
			n = int(cuts[k%len(cuts)]%16) + 1
		}
		n = min(n, len(msg)-i)
		out = append(out, msg[i:i+n])
		i += n
	}
	return out
}

func FuzzStreamer(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, []byte{})
		f.Add(s, []byte{2, 5, 0, 9})
		f.Add(s, []byte{3})
	}
	f.Fuzz(func(t *testing.T, msg string, cuts []byte) {
		wantText, wantDoc, _ := Split(msg)
		var s Streamer
		var got bytes.Buffer
		for _, p := range pieces(msg, cuts) {
			out := s.Write(p)
			got.WriteString(out)
			require.True(t, strings.HasPrefix(wantText, got.String()),
				"streamed text %q is not a prefix of %q", got.String(), wantText)
			if utf8.ValidString(msg) {
				require.True(t, utf8.ValidString(out), "piece text %q", out)
			}
			doc, in := s.Document()
			if in && utf8.ValidString(msg) {
				require.True(t, utf8.ValidString(doc), "document so far %q", doc)
			}
		}
		got.WriteString(s.Close())
		require.Equal(t, wantText, got.String())
		doc, in := s.Document()
		require.Equal(t, wantDoc, doc)
		require.False(t, in)
	})
}
