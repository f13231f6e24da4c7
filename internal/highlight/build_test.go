package highlight_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/highlight"
)

var keys = []string{"grammar", "spelling", "idea2"}

func TestBuild(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		text        string
		passages    []highlight.Passage
		keys        []string
		want        string
		wantDropped int
	}{
		{
			name:     "one passage",
			text:     "He went to there house.",
			passages: []highlight.Passage{{Key: "grammar", Text: "there", Comment: "Use 'their' here"}},
			want:     `He went to <grammar comment="Use 'their' here">there</grammar> house.`,
		},
		{
			name: "passages are written in text order whatever their order",
			text: "Alpha beta gamma.",
			passages: []highlight.Passage{
				{Key: "spelling", Text: "gamma", Comment: "g"},
				{Key: "grammar", Text: "Alpha", Comment: "a"},
			},
			want: `<grammar comment="a">Alpha</grammar> beta <spelling comment="g">gamma</spelling>.`,
		},
		{
			name: "student text, passage and comment are escaped",
			text: `if a < b && c > "d" then`,
			passages: []highlight.Passage{
				{Key: "grammar", Text: `c > "d"`, Comment: `say "greater" & <mean> it`},
			},
			want: `if a &lt; b &amp;&amp; <grammar comment="say &quot;greater&quot; &amp; &lt;mean&gt; it">c &gt; "d"</grammar> then`,
		},
		{
			name: "a student's fake tag stays text",
			text: `I wrote <grammar comment="x">ok</grammar> myself`,
			want: `I wrote &lt;grammar comment="x"&gt;ok&lt;/grammar&gt; myself`,
		},
		{
			name:        "unknown key dropped",
			text:        "Some text.",
			passages:    []highlight.Passage{{Key: "style", Text: "Some", Comment: "c"}},
			want:        "Some text.",
			wantDropped: 1,
		},
		{
			name:        "a key in keys that cannot be a tag name is dropped",
			text:        "Some text.",
			passages:    []highlight.Passage{{Key: "bad key", Text: "Some"}, {Key: "", Text: "text"}},
			keys:        []string{"bad key", ""},
			want:        "Some text.",
			wantDropped: 2,
		},
		{
			name:        "not found dropped",
			text:        "Some text.",
			passages:    []highlight.Passage{{Key: "grammar", Text: "other words"}, {Key: "grammar", Text: "some"}},
			want:        "Some text.",
			wantDropped: 2,
		},
		{
			name:        "empty and blank passages dropped",
			text:        "Some text.",
			passages:    []highlight.Passage{{Key: "grammar", Text: ""}, {Key: "grammar", Text: " "}},
			want:        "Some text.",
			wantDropped: 2,
		},
		{
			name: "overlapping dropped, first placed wins",
			text: "The quick brown fox.",
			passages: []highlight.Passage{
				{Key: "grammar", Text: "quick brown", Comment: "1"},
				{Key: "spelling", Text: "brown fox", Comment: "2"},
				{Key: "spelling", Text: "quick", Comment: "3"},
				{Key: "idea2", Text: "fox", Comment: "4"},
			},
			want:        `The <grammar comment="1">quick brown</grammar> <idea2 comment="4">fox</idea2>.`,
			wantDropped: 2,
		},
		{
			name: "repeated passage takes the next free occurrence",
			text: "its its its",
			passages: []highlight.Passage{
				{Key: "grammar", Text: "its", Comment: "1"},
				{Key: "grammar", Text: "its", Comment: "2"},
			},
			want: `<grammar comment="1">its</grammar> <grammar comment="2">its</grammar> its`,
		},
		{
			name: "an occurrence overlapping a placed passage is skipped for a later one",
			text: "red apple, red",
			passages: []highlight.Passage{
				{Key: "grammar", Text: "red apple", Comment: "1"},
				{Key: "spelling", Text: "red", Comment: "2"},
			},
			want: `<grammar comment="1">red apple</grammar>, <spelling comment="2">red</spelling>`,
		},
		{
			name: "unicode and emoji",
			text: "Ça va 🙂 très bien, 日本語も。",
			passages: []highlight.Passage{
				{Key: "grammar", Text: "très", Comment: "accent ✓"},
				{Key: "spelling", Text: "🙂", Comment: "emoji"},
				{Key: "idea2", Text: "日本語", Comment: "日本"},
			},
			want: `Ça va <spelling comment="emoji">🙂</spelling> <grammar comment="accent ✓">très</grammar> bien, <idea2 comment="日本">日本語</idea2>も。`,
		},
		{
			name:     "CRLF kept, passage across a line break",
			text:     "First line\r\nsecond line\r\n",
			passages: []highlight.Passage{{Key: "grammar", Text: "line\r\nsecond", Comment: "join"}},
			want:     "First <grammar comment=\"join\">line\r\nsecond</grammar> line\r\n",
		},
		{
			name:        "passage with LF does not match CRLF text",
			text:        "First line\r\nsecond",
			passages:    []highlight.Passage{{Key: "grammar", Text: "line\nsecond"}},
			want:        "First line\r\nsecond",
			wantDropped: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			k := keys
			if tc.keys != nil {
				k = tc.keys
			}
			got, dropped := highlight.Build(tc.text, tc.passages, k)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.wantDropped, dropped)
			require.Equal(t, tc.text, highlight.Plain(got), "Plain must give the student's text back")
			again, _ := highlight.Build(tc.text, tc.passages, k)
			require.Equal(t, got, again, "Build is deterministic")
		})
	}
}

func TestBuildParseRoundTrip(t *testing.T) {
	t.Parallel()
	text := `x < y & "q" <spelling comment="fake">z</spelling> &amp; done`
	passages := []highlight.Passage{
		{Key: "grammar", Text: `x < y`, Comment: `a "b" <c> & d &quot;`},
		{Key: "spelling", Text: `&amp;`, Comment: ""},
	}
	tagged, dropped := highlight.Build(text, passages, keys)
	require.Zero(t, dropped)

	spans, items := highlight.Parse(tagged)
	require.Equal(t, []highlight.Item{
		{ID: 0, Type: "grammar", Comment: `a "b" <c> & d &quot;`, Text: `x < y`},
		{ID: 1, Type: "spelling", Comment: "", Text: `&amp;`},
	}, items)
	require.Equal(t, []highlight.Span{
		{Text: `x < y`, Key: "grammar", ID: 0},
		{Text: ` & "q" <spelling comment="fake">z</spelling> `, ID: -1},
		{Text: `&amp;`, Key: "spelling", ID: 1},
		{Text: ` done`, ID: -1},
	}, spans)
	require.Equal(t, text, highlight.Plain(tagged))
	require.NoError(t, highlight.Validate(tagged, keys, text))
}
