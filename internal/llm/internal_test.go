package llm

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"missing", nil, DefaultRetryAfter},
		{"seconds", map[string]string{"Retry-After": "12"}, 12 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{"milliseconds win", map[string]string{"Retry-After": "12", "Retry-After-Ms": "250"}, 250 * time.Millisecond},
		{"http date", map[string]string{"Retry-After": "Sun, 01 Mar 2026 12:01:30 GMT"}, 90 * time.Second},
		{"date in the past", map[string]string{"Retry-After": "Sun, 01 Mar 2026 11:00:00 GMT"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, DefaultRetryAfter},
		{"negative", map[string]string{"Retry-After": "-3"}, DefaultRetryAfter},
		{"bad ms falls back to seconds", map[string]string{"Retry-After-Ms": "x", "Retry-After": "2"}, 2 * time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		require.Equal(t, tt.want, parseRetryAfter(h, now), tt.name)
	}
}

func TestValidateRejects(t *testing.T) {
	t.Parallel()
	schema := map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"items", "kind"},
		"properties": map[string]any{
			"kind":  map[string]any{"enum": []string{"a", "b"}},
			"items": map[string]any{"type": "array", "maxItems": 2, "items": map[string]any{"$ref": "#/$defs/item"}},
			"note":  map[string]any{"type": []string{"string", "null"}, "maxLength": 3},
		},
		"$defs": map[string]any{"item": map[string]any{"type": "integer", "minimum": 1, "maximum": 5}},
	}
	require.NoError(t, Validate(schema, map[string]any{"kind": "a", "items": []int{1, 5}, "note": nil}))
	tests := map[string]any{
		"missing required":    map[string]any{"kind": "a"},
		"extra property":      map[string]any{"kind": "a", "items": []int{}, "other": 1},
		"not in enum":         map[string]any{"kind": "c", "items": []int{}},
		"too many items":      map[string]any{"kind": "a", "items": []int{1, 2, 3}},
		"below minimum":       map[string]any{"kind": "a", "items": []int{0}},
		"not an integer":      map[string]any{"kind": "a", "items": []float64{1.5}},
		"wrong type":          map[string]any{"kind": "a", "items": "1,2"},
		"string too long":     map[string]any{"kind": "a", "items": []int{}, "note": "long"},
		"not an object":       []int{1},
		"nullable wrong type": map[string]any{"kind": "a", "items": []int{}, "note": 3},
	}
	for name, v := range tests {
		require.Error(t, Validate(schema, v), name)
	}
}

func TestStripCodeFence(t *testing.T) {
	t.Parallel()
	require.Equal(t, `{"a":1}`, stripCodeFence("```json\n{\"a\":1}\n```"))
	require.Equal(t, `{"a":1}`, stripCodeFence("```{\"a\":1}```"))
	require.Equal(t, `{"a":1}`, stripCodeFence(" {\"a\":1} "))
}
