package highlight_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/highlight"
)

// FuzzParse checks that Parse never panics, that its spans and items agree
// with each other and with Plain, and that writing the spans back with Build
// reads the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"plain text",
		`<grammar comment="c">x</grammar>`,
		`a &lt; b &amp;amp; <grammar comment="&quot;q&quot;">t</grammar> &`,
		`<grammar comment="o">a <spelling comment="i">b</spelling> c</grammar>`,
		`<grammar comment="c">y</spelling></grammar>`,
		"<g comment=\"\r\n\">\r\n</g>",
		`<日本 comment="🙂">語</日本>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tagged string) {
		spans, items := highlight.Parse(tagged)
		var joined strings.Builder
		rebuilt := ""
		canRebuild := true
		next := 0
		for i, s := range spans {
			joined.WriteString(s.Text)
			require.NotEmpty(t, s.Text, "span %d is empty", i)
			if s.ID == -1 {
				require.Empty(t, s.Key)
				require.False(t, i > 0 && spans[i-1].ID == -1, "adjacent plain spans are merged")
				part, _ := highlight.Build(s.Text, nil, nil)
				rebuilt += part
				continue
			}
			require.Equal(t, next, s.ID, "ids are given in order")
			it := items[next]
			require.Equal(t, s.Key, it.Type)
			require.Equal(t, s.Text, it.Text)
			next++
			part, dropped := highlight.Build(s.Text, []highlight.Passage{{Key: s.Key, Text: s.Text, Comment: it.Comment}}, []string{s.Key})
			canRebuild = canRebuild && dropped == 0 // Build drops blank passages that Parse reads
			rebuilt += part
		}
		require.Len(t, items, next)
		require.Equal(t, joined.String(), highlight.Plain(tagged))
		if canRebuild {
			again, againItems := highlight.Parse(rebuilt)
			require.Equal(t, spans, again)
			require.Equal(t, items, againItems)
			keys := make([]string, 0, len(items))
			for _, it := range items {
				keys = append(keys, it.Type)
			}
			require.NoError(t, highlight.Validate(rebuilt, keys, joined.String()))
		}
		_ = highlight.Validate(tagged, []string{"grammar"}, joined.String()) // must not panic
	})
}

// FuzzBuildParse checks that Build keeps the student's text (Plain gives it
// back), that every passage it did not drop reads back as an item with its
// passage and comment, and that Validate accepts what Build wrote.
func FuzzBuildParse(f *testing.F) {
	f.Add("He went to there house.", "there", "Use 'their' here", "house", "", uint8(0), uint8(1))
	f.Add(`a < b & "c" <grammar comment="x">d</grammar>`, `<grammar comment="x">`, `"&<>`, "d", "c", uint8(0), uint8(0))
	f.Add("its its its", "its", "1", "its", "2", uint8(0), uint8(0))
	f.Add("Ça va 🙂\r\nbien", "🙂\r\n", "😀", "Ç", "&amp;", uint8(1), uint8(2))
	f.Add("x", "", "", "x", "", uint8(3), uint8(0))
	keys := []string{"grammar", "spelling", "idea2"}
	key := func(k uint8) string {
		if int(k) < len(keys) {
			return keys[k]
		}
		return "unknown"
	}
	f.Fuzz(func(t *testing.T, text, p1, c1, p2, c2 string, k1, k2 uint8) {
		passages := []highlight.Passage{{Key: key(k1), Text: p1, Comment: c1}, {Key: key(k2), Text: p2, Comment: c2}}
		tagged, dropped := highlight.Build(text, passages, keys)
		require.Equal(t, text, highlight.Plain(tagged))
		_, items := highlight.Parse(tagged)
		require.Len(t, items, len(passages)-dropped)
		for _, it := range items {
			found := false
			for _, p := range passages {
				found = found || (p.Key == it.Type && p.Text == it.Text && p.Comment == it.Comment)
			}
			require.True(t, found, "item %+v is none of the passages", it)
		}
		require.NoError(t, highlight.Validate(tagged, keys, text))
	})
}
