package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Validate reports whether v follows schema, for the subset of JSON Schema
// that strict structured output uses: type (one or a list), enum, const,
// properties, required, additionalProperties, items, minItems, maxItems,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength,
// anyOf and local $ref ("#/$defs/…"). Other keywords (format, pattern,
// description …) are not checked. v may be any value encoding/json can
// marshal; it is checked as JSON.
func Validate(schema map[string]any, v any) error {
	doc, err := canonical(v)
	if err != nil {
		return fmt.Errorf("value: %w", err)
	}
	return validateDecoded(schema, doc)
}

// validateDecoded is Validate of a doc encoding/json decoded into an any
// (already canonical: no second trip through JSON).
func validateDecoded(schema map[string]any, doc any) error {
	root, err := canonicalSchema(schema)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	s, ok := root.(map[string]any)
	if !ok {
		return fmt.Errorf("schema is not an object")
	}
	return validate(s, s, doc, "$", 0)
}

// maxCanonicalSchemas bounds the cache of canonical schemas; a full cache
// starts again empty.
const maxCanonicalSchemas = 256

// canonicalSchemas are the canonical forms of the schemas seen lately, by
// their JSON: every run of a class sends the same schema, and decoding it
// again for each answer (and for each strictness check) was a tenth of the
// grading job's CPU at L = 0. The forms are only read once cached
// (validate and the strict checker never write to a schema).
var canonicalSchemas struct {
	mu    sync.Mutex
	forms map[string]any
}

// canonicalSchema is canonical(schema), decoded once per distinct schema.
func canonicalSchema(schema map[string]any) (any, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	c := &canonicalSchemas
	c.mu.Lock()
	form, ok := c.forms[string(b)]
	c.mu.Unlock()
	if ok {
		return form, nil
	}
	if err := json.Unmarshal(b, &form); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.forms == nil || len(c.forms) >= maxCanonicalSchemas {
		c.forms = map[string]any{}
	}
	c.forms[string(b)] = form
	c.mu.Unlock()
	return form, nil
}

// canonical turns v into what encoding/json decodes into an any:
// map[string]any, []any, float64, string, bool or nil.
func canonical(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// maxRefDepth bounds $ref chains so a schema that refers to itself without
// consuming data cannot loop forever.
const maxRefDepth = 64

func validate(root, s map[string]any, v any, path string, refs int) error {
	if ref, ok := s["$ref"].(string); ok {
		if refs >= maxRefDepth {
			return fmt.Errorf("%s: $ref chain deeper than %d", path, maxRefDepth)
		}
		target, err := resolveRef(root, ref)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return validate(root, target, v, path, refs+1)
	}
	if branches, ok := s["anyOf"].([]any); ok {
		var errs []string
		for _, b := range branches {
			bs, ok := b.(map[string]any)
			if !ok {
				continue
			}
			err := validate(root, bs, v, path, refs)
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
		}
		return fmt.Errorf("%s: matches no anyOf branch (%s)", path, strings.Join(errs, "; "))
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		return fmt.Errorf("%s: %s is not the constant %s", path, show(v), show(c))
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonEqual(e, v) }) {
		return fmt.Errorf("%s: %s is not one of %s", path, show(v), show(enum))
	}
	if types := schemaTypes(s); len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		return fmt.Errorf("%s: %s is not of type %s", path, show(v), strings.Join(types, " or "))
	}
	switch x := v.(type) {
	case map[string]any:
		return validateObject(root, s, x, path)
	case []any:
		return validateArray(root, s, x, path)
	case float64:
		return validateNumber(s, x, path)
	case string:
		n := float64(utf8.RuneCountInString(x))
		if m, ok := s["minLength"].(float64); ok && n < m {
			return fmt.Errorf("%s: string shorter than minLength %v", path, m)
		}
		if m, ok := s["maxLength"].(float64); ok && n > m {
			return fmt.Errorf("%s: string longer than maxLength %v", path, m)
		}
	}
	return nil
}

// validateObject checks an object; its children start a fresh $ref count,
// since descending into data always makes progress.
func validateObject(root, s, obj map[string]any, path string) error {
	props, _ := s["properties"].(map[string]any)
	required, _ := s["required"].([]any)
	for _, r := range required {
		name, _ := r.(string)
		if _, ok := obj[name]; !ok {
			return fmt.Errorf("%s: missing required property %q", path, name)
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		child := path + "." + k
		if ps, ok := props[k].(map[string]any); ok {
			if err := validate(root, ps, obj[k], child, 0); err != nil {
				return err
			}
			continue
		}
		switch extra := s["additionalProperties"].(type) {
		case bool:
			if !extra {
				return fmt.Errorf("%s: property not allowed", child)
			}
		case map[string]any:
			if err := validate(root, extra, obj[k], child, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

func validateArray(root, s map[string]any, arr []any, path string) error {
	n := float64(len(arr))
	if m, ok := s["minItems"].(float64); ok && n < m {
		return fmt.Errorf("%s: %d items, fewer than minItems %v", path, len(arr), m)
	}
	if m, ok := s["maxItems"].(float64); ok && n > m {
		return fmt.Errorf("%s: %d items, more than maxItems %v", path, len(arr), m)
	}
	items, ok := s["items"].(map[string]any)
	if !ok {
		return nil
	}
	for i, item := range arr {
		if err := validate(root, items, item, fmt.Sprintf("%s[%d]", path, i), 0); err != nil {
			return err
		}
	}
	return nil
}

func validateNumber(s map[string]any, x float64, path string) error {
	if m, ok := s["minimum"].(float64); ok && x < m {
		return fmt.Errorf("%s: %v is below minimum %v", path, x, m)
	}
	if m, ok := s["maximum"].(float64); ok && x > m {
		return fmt.Errorf("%s: %v is above maximum %v", path, x, m)
	}
	if m, ok := s["exclusiveMinimum"].(float64); ok && x <= m {
		return fmt.Errorf("%s: %v is not above exclusiveMinimum %v", path, x, m)
	}
	if m, ok := s["exclusiveMaximum"].(float64); ok && x >= m {
		return fmt.Errorf("%s: %v is not below exclusiveMaximum %v", path, x, m)
	}
	return nil
}

// schemaTypes returns the schema's "type" as a list (empty when absent).
func schemaTypes(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if name, ok := x.(string); ok {
				out = append(out, name)
			}
		}
		return out
	}
	return nil
}

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	case "null":
		return v == nil
	}
	return false
}

// resolveRef finds a local reference such as "#/$defs/criterion".
func resolveRef(root map[string]any, ref string) (map[string]any, error) {
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("$ref %q: only local references are supported", ref)
	}
	var cur any = root
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(ref, "#"), "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: not found", ref)
		}
		if cur, ok = m[part]; !ok {
			return nil, fmt.Errorf("$ref %q: not found", ref)
		}
	}
	target, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("$ref %q: not a schema", ref)
	}
	return target, nil
}

func jsonEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// show renders v as short JSON for error messages.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
