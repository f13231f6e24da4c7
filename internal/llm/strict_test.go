package llm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
)

// strictObject is a strict object schema of props.
func strictObject(props map[string]any) map[string]any {
	req := []any{}
	for k := range props {
		req = append(req, k)
	}
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func TestCheckStrictAcceptsTheSubset(t *testing.T) {
	t.Parallel()
	schema := strictObject(map[string]any{
		"score":   map[string]any{"type": "integer", "minimum": 0, "maximum": 10, "description": "points"},
		"comment": map[string]any{"type": []any{"string", "null"}},
		"level":   map[string]any{"type": "string", "enum": []any{"good", "poor"}},
		"when":    map[string]any{"type": "string", "format": "date"},
		"items": map[string]any{"type": "array", "minItems": 1, "maxItems": 5,
			"items": strictObject(map[string]any{"text": map[string]any{"type": "string"}})},
		"either": map[string]any{"anyOf": []any{map[string]any{"type": "number"}, map[string]any{"$ref": "#/$defs/node"}}},
	})
	schema["$defs"] = map[string]any{"node": strictObject(map[string]any{
		"children": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/node"}},
	})}
	require.NoError(t, llm.CheckStrict(schema))
}

func TestCheckStrictRefuses(t *testing.T) {
	t.Parallel()
	str := map[string]any{"type": "string"}
	nested := func(inner map[string]any) map[string]any {
		return strictObject(map[string]any{"outer": map[string]any{"type": "array", "items": inner}})
	}
	deep := strictObject(map[string]any{"x": str})
	for range llm.MaxStrictDepth {
		deep = strictObject(map[string]any{"x": deep})
	}
	manyEnum := make([]any, llm.MaxStrictEnumValues+1)
	for i := range manyEnum {
		manyEnum[i] = fmt.Sprintf("v%d", i)
	}
	tests := map[string]struct {
		schema map[string]any
		want   string
	}{
		"nested object without additionalProperties": {
			nested(map[string]any{"type": "object", "properties": map[string]any{"a": str}, "required": []any{"a"}}),
			"$.outer[]: 'additionalProperties' is required to be supplied and to be false"},
		"additionalProperties true": {
			map[string]any{"type": "object", "properties": map[string]any{"a": str}, "required": []any{"a"}, "additionalProperties": true},
			"$: 'additionalProperties' is required"},
		"an optional property": {
			map[string]any{"type": "object", "properties": map[string]any{"a": str, "b": str}, "required": []any{"a"}, "additionalProperties": false},
			`missing "b"`},
		"required names no property": {
			map[string]any{"type": "object", "properties": map[string]any{"a": str}, "required": []any{"a", "c"}, "additionalProperties": false},
			`required lists "c", which is not a property`},
		"maxLength": {
			strictObject(map[string]any{"a": map[string]any{"type": "string", "maxLength": 200}}),
			`$.a: "maxLength" is not permitted for type string in strict mode`},
		"minimum on a string": {
			strictObject(map[string]any{"a": map[string]any{"type": "string", "minimum": 1}}),
			`$.a: "minimum" is not permitted for type string`},
		"uniqueItems": {
			strictObject(map[string]any{"a": map[string]any{"type": "array", "items": str, "uniqueItems": true}}),
			`"uniqueItems" is not permitted`},
		"allOf": {
			strictObject(map[string]any{"a": map[string]any{"allOf": []any{str}}}),
			`"allOf" is not permitted`},
		"root anyOf": {
			map[string]any{"anyOf": []any{strictObject(map[string]any{"a": str})}},
			"the root schema must be an object, not anyOf"},
		"root array": {
			map[string]any{"type": "array", "items": str},
			`the root schema must have type "object"`},
		"no type": {
			strictObject(map[string]any{"a": map[string]any{"description": "anything"}}),
			"$.a: every schema needs a type"},
		"unknown format": {
			strictObject(map[string]any{"a": map[string]any{"type": "string", "format": "uri"}}),
			`format "uri" is not supported`},
		"object without properties": {
			strictObject(map[string]any{"a": map[string]any{"type": "object", "required": []any{}, "additionalProperties": false}}),
			`$.a: an object schema needs "properties"`},
		"array without items": {
			strictObject(map[string]any{"a": map[string]any{"type": "array"}}),
			`$.a: an array needs "items"`},
		"too deep": {deep, "more than 10"},
		"too many enum values": {
			strictObject(map[string]any{"a": map[string]any{"type": "string", "enum": manyEnum}}),
			"1001 enum values, more than 1000"},
		"a reference to nothing": {
			strictObject(map[string]any{"a": map[string]any{"$ref": "#/$defs/missing"}}),
			`$ref "#/$defs/missing": not found`},
	}
	for name, tc := range tests {
		err := llm.CheckStrict(tc.schema)
		require.Error(t, err, name)
		require.True(t, strings.Contains(err.Error(), tc.want), "%s: %v", name, err)
	}
}
