package fakellm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
)

const sample = "Photosynthesis turns light into sugar. Plants need water!\nLeaves hold chlorophyll, which is green. Roots take up minerals from the soil."

func TestGenerate(t *testing.T) {
	t.Parallel()
	obj := func(props map[string]any) map[string]any {
		required := make([]string, 0, len(props))
		for k := range props {
			required = append(required, k)
		}
		return map[string]any{"type": "object", "additionalProperties": false, "required": required, "properties": props}
	}
	tests := []struct {
		name   string
		schema map[string]any
		text   string
		check  func(t *testing.T, v map[string]any)
	}{
		{
			name:   "enum picks a listed value",
			schema: obj(map[string]any{"level": map[string]any{"type": "string", "enum": []any{"low", "mid", "high"}}}),
			text:   sample,
			check: func(t *testing.T, v map[string]any) {
				require.Equal(t, "mid", v["level"], "a short text sits in the middle")
			},
		},
		{
			name: "integers and numbers stay within bounds",
			schema: obj(map[string]any{
				"score":     map[string]any{"type": "integer", "minimum": 2, "maximum": 4},
				"points":    map[string]any{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
				"wordCount": map[string]any{"type": "integer", "maximum": 10},
				"other":     map[string]any{"type": "integer", "minimum": 7},
			}),
			text: sample,
			check: func(t *testing.T, v map[string]any) {
				require.Equal(t, 3.0, v["score"])
				require.Greater(t, v["points"], 0.0)
				require.Less(t, v["points"], 1.0)
				require.Equal(t, 10.0, v["wordCount"], "22 words, capped at the maximum")
				require.Equal(t, 7.0, v["other"])
			},
		},
		{
			name: "arrays follow the sentences within min and max items",
			schema: obj(map[string]any{
				"quotes": map[string]any{"type": "array", "minItems": 1, "maxItems": 2, "items": map[string]any{"type": "string"}},
				"notes":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"tags":   map[string]any{"type": "array", "minItems": 6, "items": map[string]any{"type": "string"}},
			}),
			text: sample,
			check: func(t *testing.T, v map[string]any) {
				require.Len(t, v["quotes"], 2)
				require.Equal(t, "Photosynthesis turns light into sugar.", v["quotes"].([]any)[0])
				require.Len(t, v["notes"], 3, "unbounded arrays stop at three")
				require.Len(t, v["tags"], 6)
			},
		},
		{
			name: "no text still meets minItems",
			schema: obj(map[string]any{
				"items": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{"type": "string"}},
				"more":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			}),
			text: "",
			check: func(t *testing.T, v map[string]any) {
				require.Len(t, v["items"], 1)
				require.Empty(t, v["more"])
			},
		},
		{
			name: "nested $defs and nullable types",
			schema: map[string]any{
				"type": "object", "additionalProperties": false, "required": []any{"criteria", "note"},
				"properties": map[string]any{
					"criteria": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/criterion"}},
					"note":     map[string]any{"anyOf": []any{map[string]any{"type": "null"}, map[string]any{"type": "string"}}},
				},
				"$defs": map[string]any{"criterion": obj(map[string]any{
					"title":    map[string]any{"type": "string"},
					"quote":    map[string]any{"type": "string"},
					"start":    map[string]any{"type": "integer"},
					"end":      map[string]any{"type": "integer"},
					"feedback": map[string]any{"type": []any{"string", "null"}},
					"met":      map[string]any{"type": "boolean"},
				})},
			},
			text: sample,
			check: func(t *testing.T, v map[string]any) {
				require.IsType(t, "", v["note"])
				runes := []rune(sample)
				for _, c := range v["criteria"].([]any) {
					c := c.(map[string]any)
					start, end := int(c["start"].(float64)), int(c["end"].(float64))
					require.Equal(t, c["quote"], string(runes[start:end]), "offsets locate the quote")
					require.NotEmpty(t, c["title"])
					require.True(t, strings.HasPrefix(c["feedback"].(string), "Demo model"))
				}
			},
		},
		{
			name: "string lengths, consts and formats",
			schema: obj(map[string]any{
				"summary":    map[string]any{"type": "string", "maxLength": 20},
				"code":       map[string]any{"type": "string", "minLength": 80},
				"kind":       map[string]any{"const": "essay"},
				"created_at": map[string]any{"type": "string", "format": "date-time"},
				"student_id": map[string]any{"type": "string"},
			}),
			text: sample,
			check: func(t *testing.T, v map[string]any) {
				require.Len(t, []rune(v["summary"].(string)), 20)
				require.GreaterOrEqual(t, len([]rune(v["code"].(string))), 80)
				require.Equal(t, "essay", v["kind"])
				require.Equal(t, "2000-01-01T00:00:00Z", v["created_at"])
				require.Equal(t, "student_id-1", v["student_id"])
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := Generate(tt.schema, tt.text)
			require.NoError(t, err)
			require.NoError(t, llm.Validate(tt.schema, v))
			again, err := Generate(tt.schema, tt.text)
			require.NoError(t, err)
			require.Equal(t, v, again, "deterministic")
			tt.check(t, v.(map[string]any))
		})
	}
}

func TestGenerateRejectsUnusableSchemas(t *testing.T) {
	t.Parallel()
	tests := map[string]map[string]any{
		"remote ref":    {"$ref": "https://example.com/schema.json"},
		"missing ref":   {"$ref": "#/$defs/nothing"},
		"endless ref":   {"$ref": "#"},
		"empty anyOf":   {"anyOf": []any{}},
		"endless items": {"type": "array", "minItems": 1, "items": map[string]any{"$ref": "#"}},
	}
	for name, schema := range tests {
		_, err := Generate(schema, sample)
		require.Error(t, err, name)
	}
}

func TestAnalyse(t *testing.T) {
	t.Parallel()
	f := analyse("  First one.  Second?\n\nThird line without stop\nLast!")
	var texts []string
	for _, s := range f.sentences {
		texts = append(texts, s.Text)
	}
	require.Equal(t, []string{"First one.", "Second?", "Third line without stop", "Last!"}, texts)
	require.Equal(t, 2, f.sentences[0].Start)
	require.Equal(t, 12, f.sentences[0].End)
	require.Equal(t, 8, f.words)
}
