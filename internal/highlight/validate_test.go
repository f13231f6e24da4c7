package highlight_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/highlight"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	const student = "He said \"a < b\" &\r\nwent to there house."
	tests := []struct {
		name    string
		tagged  string
		wantErr string
	}{
		{
			name:   "edited comments and highlights",
			tagged: "He said <spelling comment=\"new &quot;c&quot;\">\"a &lt; b\"</spelling> &amp;\r\nwent to <grammar comment=\"their\">there</grammar> house.",
		},
		{name: "all highlights removed", tagged: "He said \"a &lt; b\" &amp;\r\nwent to there house."},
		{name: "line breaks may come back as LF", tagged: "He said \"a &lt; b\" &amp;\nwent to there house."},
		{
			name:    "unknown key",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <style comment=\"x\">there</style> house.",
			wantErr: "<style> is not one of this assignment's highlighters.",
		},
		{
			name:    "words changed",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar comment=\"x\">their</grammar> house.",
			wantErr: highlight.MsgTextChanged,
		},
		{
			name:    "unescaped less-than",
			tagged:  "He said \"a < b\" &amp;\r\nwent to there house.",
			wantErr: `The text has a "<" that does not start a highlight; write it as &lt;.`,
		},
		{
			name:    "unclosed",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar comment=\"x\">there house.",
			wantErr: "The highlight <grammar> is not closed with </grammar>.",
		},
		{
			name:    "mismatched",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar comment=\"x\">there</spelling> house.",
			wantErr: "The highlight <grammar> is closed with </spelling>; it must be closed with </grammar>.",
		},
		{
			name:    "nested",
			tagged:  "He said \"a &lt; b\" &amp;\r\n<grammar comment=\"x\">went to <spelling comment=\"y\">there</spelling></grammar> house.",
			wantErr: "Highlights cannot be inside one another: <spelling> starts inside <grammar>.",
		},
		{
			name:    "stray closing tag",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to there</grammar> house.",
			wantErr: "The closing tag </grammar> has no opening tag.",
		},
		{
			name:    "empty highlight",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar comment=\"x\"></grammar>there house.",
			wantErr: "The highlight <grammar> must cover some text.",
		},
		{
			name:    "raw quote in comment",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar comment=\"say \"their\"\">there</grammar> house.",
			wantErr: `The highlight <grammar> is not written correctly: it must look like <grammar comment="…">text</grammar>, with any " in the comment written as &quot;.`,
		},
		{
			name:    "no comment",
			tagged:  "He said \"a &lt; b\" &amp;\r\nwent to <grammar>there</grammar> house.",
			wantErr: `The highlight <grammar> is not written correctly: it must look like <grammar comment="…">text</grammar>, with any " in the comment written as &quot;.`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := highlight.Validate(tc.tagged, keys, student)
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			var ae *apperr.Error
			require.True(t, errors.As(err, &ae), "want an apperr.Error, got %v", err)
			require.Equal(t, apperr.Invalid, ae.Code)
			require.Equal(t, tc.wantErr, ae.Message)
		})
	}
}

func TestValidateAcceptsWhatBuildWrites(t *testing.T) {
	t.Parallel()
	text := "<grammar comment=\"x\">fake</grammar> & 🙂 \"quoted\""
	tagged, dropped := highlight.Build(text, []highlight.Passage{
		{Key: "grammar", Text: "fake", Comment: `"<>&`},
		{Key: "spelling", Text: "🙂", Comment: "emoji"},
	}, keys)
	require.Zero(t, dropped)
	require.NoError(t, highlight.Validate(tagged, keys, text))
	require.Error(t, highlight.Validate(tagged, []string{"grammar"}, text), "spelling is no longer a highlighter")
}
