package llm_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
)

func TestSchemaInstructionsRoundTrip(t *testing.T) {
	t.Parallel()
	ins := llm.SchemaInstructions("grade_essay", criteriaSchema)
	require.Contains(t, ins, "JSON", "JSON mode requires the word in the prompt")
	require.Contains(t, ins, `"grade_essay"`)
	require.NotContains(t, ins, "\n  ", "the schema is compact")

	system := "Grade the essay.\nFence marker: abc123\n\n" + ins
	task, schema, ok := llm.ParseSchemaInstructions(system)
	require.True(t, ok)
	require.Equal(t, "grade_essay", task)
	want, err := json.Marshal(criteriaSchema)
	require.NoError(t, err)
	got, err := json.Marshal(schema)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))
	require.Equal(t, "Grade the essay.\nFence marker: abc123", llm.StripSchemaInstructions(system))
	require.Equal(t, "", llm.StripSchemaInstructions(ins))

	for _, s := range []string{"", "Grade the essay.", strings.Replace(ins, "{", "[", 1), strings.Replace(ins, "grade_essay", "grade essay", 1)} {
		_, _, ok := llm.ParseSchemaInstructions(s)
		require.False(t, ok, s)
		if s == "Grade the essay." {
			require.Equal(t, s, llm.StripSchemaInstructions(s))
		}
	}
}

func TestExtractJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, want string
	}{
		{"bare", `{"a":1}`, `{"a":1}`},
		{"white space", "\n  {\"a\": 1}\n", `{"a": 1}`},
		{"json fence", "```json\n{\"a\":1}\n```", `{"a":1}`},
		{"fence in prose", "Here is the grade:\n\n```json\n{\"a\":1}\n```\n\nLet me know if you need more.", `{"a":1}`},
		{"plain fence", "Sure.\n```\n{\"a\":1}\n```", `{"a":1}`},
		{"JSON fence upper case", "```JSON\n{\"a\":1}\n```", `{"a":1}`},
		{"json fence wins over an earlier object", "Like {\"x\":0} but:\n```json\n{\"a\":1}\n```", `{"a":1}`},
		{"fence of another language skipped", "```js\nif (x) { return 1; }\n```\nAnswer: {\"a\":1}", `{"a":1}`},
		{"broken fence falls back to the text", "```json\n{\"a\":\n```\nthen {\"a\":2}", `{"a":2}`},
		{"prose before and after", `The answer is {"a":1} as requested.`, `{"a":1}`},
		{"braces inside strings", `Result: {"quote":"a } and { b","n":{"m":"}"}} done`, `{"quote":"a } and { b","n":{"m":"}"}}`},
		{"a brace in prose before", `Use {curly} braces: {"a":[1,2]}`, `{"a":[1,2]}`},
		{"nested objects: the outer one", `{"a":{"b":{"c":1}}}`, `{"a":{"b":{"c":1}}}`},
		{"the first of two", `{"a":1} {"b":2}`, `{"a":1}`},
		{"unicode", `Voilà : {"é":"ü"} !`, `{"é":"ü"}`},
	}
	for _, tt := range tests {
		got, err := llm.ExtractJSON(tt.text)
		require.NoError(t, err, tt.name)
		require.Equal(t, tt.want, got, tt.name)
	}

	for name, text := range map[string]string{
		"empty":       "",
		"prose":       "I cannot grade this essay.",
		"an array":    `[{"a":1]`,
		"cut off":     `{"a": "unterminated`,
		"only braces": "{ {{ ] {",
		"fence":       "```json\n[1, 2]\n```",
	} {
		_, err := llm.ExtractJSON(text)
		require.ErrorIs(t, err, llm.ErrBadOutput, name)
	}
}

func TestExtractJSONBoundedTries(t *testing.T) {
	t.Parallel()
	// Many braces that start no object, each followed by a long almost-valid
	// tail: only a bounded number of starts is tried.
	tail := `"k":"` + strings.Repeat("x", 2000) + `"`
	text := strings.Repeat("{"+tail+" ", 5000) + `{"a":1}`
	start := time.Now()
	_, err := llm.ExtractJSON(text)
	require.ErrorIs(t, err, llm.ErrBadOutput, "the object after the bound is not reached")
	require.Less(t, time.Since(start), 2*time.Second)

	got, err := llm.ExtractJSON(strings.Repeat("{ ", 10) + `{"a":1}`)
	require.NoError(t, err, "a few stray braces before the object are fine")
	require.Equal(t, `{"a":1}`, got)
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "```json\n{\"a\":1}\n```", `x {"a":"}"} y`, "{{{", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := llm.ExtractJSON(text)
		if err != nil {
			require.ErrorIs(t, err, llm.ErrBadOutput)
			return
		}
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(got), &v), "the result is one JSON object")
		require.Contains(t, text, got, "the result is part of the answer")
	})
}
