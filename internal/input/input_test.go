package input_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/input"
)

func TestCheckJSONNamesTheFieldWithAControlCharacter(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`{"name":"a\u0000b"}`: "name cannot contain control characters (found U+0000)",
		`{"questions":[{"questionText":"ok"},{"questionText":"x\u0007"}]}`: "questions[1].questionText cannot contain control characters (found U+0007)",
		`{"newFolders":[{"name":"T","assignments":["a","b\u001b"]}]}`:      "newFolders[0].assignments[1] cannot contain control characters (found U+001B)",
		`{"a\u0001":"x"}`:                    "a\u0001 cannot contain control characters (found U+0001)",
		`["x","\u0000"]`:                     "[1] cannot contain control characters (found U+0000)",
		`{"a":{"b":[1,true,null,"\u0002"]}}`: "a.b[3] cannot contain control characters (found U+0002)",
	}
	for body, want := range cases {
		err := input.CheckJSON([]byte(body))
		require.Error(t, err, body)
		require.True(t, errors.Is(err, input.ErrControl), body)
		e := apperr.From(err)
		require.Equal(t, apperr.Invalid, e.Code, body)
		require.Equal(t, want, e.Message, body)
	}
}

func TestCheckJSONLetsOrdinaryTextThrough(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"context":"line one\nline two\r\n\ttabbed","n":3,"ok":true,"x":null}`,
		`{"name":"Ünïcødé – “quotes” ✓ 😀"}`,
		`{"escaped":"\\u0000 is written, not a NUL"}`,
		`not json at all`, // bind reports it
		``,
	} {
		require.NoError(t, input.CheckJSON([]byte(body)), body)
	}
}

func TestCheckJSONRefusesABodyNestedTooDeeply(t *testing.T) {
	t.Parallel()
	nested := func(n int, open, close string) []byte {
		return []byte(strings.Repeat(open, n) + "1" + strings.Repeat(close, n))
	}
	require.NoError(t, input.CheckJSON(nested(input.MaxDepth, "[", "]")))
	require.NoError(t, input.CheckJSON(nested(input.MaxDepth, `{"a":`, "}")))
	// Brackets inside strings are text.
	require.NoError(t, input.CheckJSON([]byte(`{"a":"`+strings.Repeat("[{", 1000)+`"}`)))
	for _, body := range [][]byte{
		nested(input.MaxDepth+1, "[", "]"),
		nested(input.MaxDepth+1, `{"a":`, "}"),
		[]byte(strings.Repeat("[", 4<<20)), // 4 MiB of opening brackets, never closed
		[]byte(`{"name":"a\u0000b","x":` + strings.Repeat("[", 100)),
	} {
		err := input.CheckJSON(body)
		require.ErrorIs(t, err, input.ErrTooDeep)
		e := apperr.From(err)
		require.Equal(t, apperr.Invalid, e.Code)
		require.Equal(t, "The request is nested more than 64 levels deep", e.Message)
	}
}

func TestCheckJSONFindsEveryEscapedControlCharacter(t *testing.T) {
	t.Parallel()
	// Each escape that decodes to a forbidden control character is found,
	// in any case of its hex digits; tab and line breaks are text.
	for _, esc := range []string{`\u0000`, `\u0008`, `\b`, `\f`, `\u001F`, `\u001f`, `\u000B`, `\u007f\u0001`} {
		require.ErrorIs(t, input.CheckJSON([]byte(`{"a":["x","`+esc+`"]}`)), input.ErrControl, esc)
	}
	for _, esc := range []string{`\t`, `\n`, `\r`, `\u0009`, `\u000A`, `\u000d`, `\u0020`, `\u0100`, `\\u0000`, `\"\u00e9`} {
		require.NoError(t, input.CheckJSON([]byte(`{"a":["x","`+esc+`"]}`)), esc)
	}
}

func TestCheckForm(t *testing.T) {
	t.Parallel()
	require.NoError(t, input.CheckForm([]byte("csrfToken=abc&callbackUrl=%2F&name=Ada+L")))
	err := input.CheckForm([]byte("csrfToken=abc&name=Ada%00"))
	require.ErrorIs(t, err, input.ErrControl)
	require.Equal(t, "name cannot contain control characters (found U+0000)", apperr.From(err).Message)
}

func TestNameStripsBidiOverrides(t *testing.T) {
	t.Parallel()
	require.Equal(t, "abcgpj.exe", input.Name("  abc\u202egpj.exe "))
	require.Equal(t, "left right", input.Name("\u2066left\u2069 \u202aright\u202c"))
	require.Equal(t, "Essay 1", input.Name("Essay 1"))
}

func TestLength(t *testing.T) {
	t.Parallel()
	require.NoError(t, input.Length("Name", "ééé", 3))
	err := input.Length("Context", "abcd", 3)
	require.Equal(t, "Context can be at most 3 characters", apperr.From(err).Message)
	err = input.Length("Context", string(make([]byte, input.MaxLongText+1)), input.MaxLongText)
	require.Equal(t, "Context can be at most 20,000 characters", apperr.From(err).Message)
}
