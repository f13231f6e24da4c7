package llm

import (
	"fmt"
	"slices"
	"strings"
)

// The limits strict structured output puts on a schema (OpenAI's published
// ones, which the other providers that offer strict mode follow or exceed).
const (
	// MaxStrictDepth is how deeply objects may nest.
	MaxStrictDepth = 10
	// MaxStrictProperties is how many object properties a schema may have
	// in all.
	MaxStrictProperties = 5000
	// MaxStrictEnumValues is how many enum values a schema may have in all.
	MaxStrictEnumValues = 1000
	// MaxStrictStringSize is the total length of property names, $defs
	// names, enum values and const values.
	MaxStrictStringSize = 120_000
)

// strictKeywords are the keywords strict structured output accepts, per
// kind of schema; a keyword outside its list is refused.
var (
	strictCommon  = []string{"type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs"}
	strictObject  = []string{"properties", "required", "additionalProperties"}
	strictArray   = []string{"items", "minItems", "maxItems"}
	strictString  = []string{"pattern", "format"}
	strictNumber  = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
	strictTypes   = []string{"object", "array", "string", "number", "integer", "boolean", "null"}
	strictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)

// CheckStrict reports whether schema fits the subset of JSON Schema that
// strict structured output accepts: the root is an object (not anyOf);
// every object sets "additionalProperties": false and lists every property
// in "required" (an optional value is nullable instead); only the keywords
// of that subset are used, each where it applies; and the size stays within
// the published limits ([MaxStrictDepth] …). The error names the first
// problem and where it is, as a strict provider's 400 does.
func CheckStrict(schema map[string]any) error {
	root, err := canonicalSchema(schema)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	s, ok := root.(map[string]any)
	if !ok {
		return fmt.Errorf("schema is not an object")
	}
	if _, ok := s["anyOf"]; ok {
		return fmt.Errorf("$: the root schema must be an object, not anyOf")
	}
	if !slices.Equal(schemaTypes(s), []string{"object"}) {
		return fmt.Errorf("$: the root schema must have type \"object\"")
	}
	c := &strictChecker{root: s}
	if defs, ok := s["$defs"].(map[string]any); ok {
		for _, name := range sortedNames(defs) {
			c.strings += len(name)
			def, ok := defs[name].(map[string]any)
			if !ok {
				return fmt.Errorf("$defs.%s: not a schema", name)
			}
			if err := c.check(def, "$defs."+name, 0); err != nil {
				return err
			}
		}
	}
	if err := c.check(s, "$", 0); err != nil {
		return err
	}
	switch {
	case c.properties > MaxStrictProperties:
		return fmt.Errorf("$: %d object properties, more than %d", c.properties, MaxStrictProperties)
	case c.enums > MaxStrictEnumValues:
		return fmt.Errorf("$: %d enum values, more than %d", c.enums, MaxStrictEnumValues)
	case c.strings > MaxStrictStringSize:
		return fmt.Errorf("$: property names, enum and const values total %d characters, more than %d", c.strings, MaxStrictStringSize)
	}
	return nil
}

type strictChecker struct {
	root       map[string]any
	properties int
	enums      int
	strings    int
}

// check checks one schema at path; depth counts the objects it is nested in.
func (c *strictChecker) check(s map[string]any, path string, depth int) error {
	types := schemaTypes(s)
	for _, t := range types {
		if !slices.Contains(strictTypes, t) {
			return fmt.Errorf("%s: type %q is not supported", path, t)
		}
	}
	if t, ok := s["type"]; ok && len(types) == 0 {
		return fmt.Errorf("%s: type %s is not a type name or a list of them", path, show(t))
	}
	if err := c.keywords(s, path, types); err != nil {
		return err
	}
	if ref, ok := s["$ref"]; ok {
		name, _ := ref.(string)
		if _, err := resolveRef(c.root, name); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(s) > 2 || (len(s) == 2 && s["description"] == nil) {
			return fmt.Errorf("%s: $ref may only stand with a description", path)
		}
		return nil
	}
	if enum, ok := s["enum"]; ok {
		values, ok := enum.([]any)
		if !ok || len(values) == 0 {
			return fmt.Errorf("%s: enum must be a non-empty list", path)
		}
		c.enums += len(values)
		for _, v := range values {
			c.strings += len(fmt.Sprint(v))
		}
	}
	if v, ok := s["const"]; ok {
		c.strings += len(fmt.Sprint(v))
	}
	if branches, ok := s["anyOf"]; ok {
		list, ok := branches.([]any)
		if !ok || len(list) == 0 {
			return fmt.Errorf("%s: anyOf must be a non-empty list", path)
		}
		for i, b := range list {
			bs, ok := b.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.anyOf[%d]: not a schema", path, i)
			}
			if err := c.check(bs, fmt.Sprintf("%s.anyOf[%d]", path, i), depth); err != nil {
				return err
			}
		}
		return nil
	}
	if len(types) == 0 && s["enum"] == nil && s["const"] == nil {
		return fmt.Errorf("%s: every schema needs a type (or enum, const, anyOf or $ref)", path)
	}
	if slices.Contains(types, "object") {
		if err := c.object(s, path, depth+1); err != nil {
			return err
		}
	}
	if slices.Contains(types, "array") {
		items, ok := s["items"].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an array needs \"items\" as a schema", path)
		}
		if err := c.check(items, path+"[]", depth); err != nil {
			return err
		}
	}
	if f, ok := s["format"]; ok && !slices.Contains(strictFormats, fmt.Sprint(f)) {
		return fmt.Errorf("%s: format %s is not supported", path, show(f))
	}
	return nil
}

// keywords refuses a keyword strict mode does not accept, or one that does
// not apply to the schema's types.
func (c *strictChecker) keywords(s map[string]any, path string, types []string) error {
	allowed := slices.Clone(strictCommon)
	if path == "$" {
		allowed = append(allowed, "$schema")
	}
	for _, t := range types {
		switch t {
		case "object":
			allowed = append(allowed, strictObject...)
		case "array":
			allowed = append(allowed, strictArray...)
		case "string":
			allowed = append(allowed, strictString...)
		case "number", "integer":
			allowed = append(allowed, strictNumber...)
		}
	}
	for _, k := range sortedNames(s) {
		if !slices.Contains(allowed, k) {
			if len(types) > 0 {
				return fmt.Errorf("%s: %q is not permitted for type %s in strict mode", path, k, strings.Join(types, " or "))
			}
			return fmt.Errorf("%s: %q is not permitted in strict mode", path, k)
		}
	}
	if _, ok := s["$defs"]; ok && path != "$" {
		return fmt.Errorf("%s: $defs are only allowed at the root", path)
	}
	return nil
}

// object checks an object schema nested depth objects deep.
func (c *strictChecker) object(s map[string]any, path string, depth int) error {
	if depth > MaxStrictDepth {
		return fmt.Errorf("%s: objects nested %d deep, more than %d", path, depth, MaxStrictDepth)
	}
	if extra, ok := s["additionalProperties"]; !ok || extra != false {
		return fmt.Errorf("%s: 'additionalProperties' is required to be supplied and to be false", path)
	}
	p, ok := s["properties"]
	if !ok {
		return fmt.Errorf("%s: an object schema needs \"properties\" (an empty object when it has none)", path)
	}
	props, _ := p.(map[string]any)
	if props == nil {
		return fmt.Errorf("%s: properties must be an object, got %s", path, show(p))
	}
	var required []string
	if r, ok := s["required"]; ok {
		list, ok := r.([]any)
		if !ok {
			return fmt.Errorf("%s: required must be a list", path)
		}
		for _, x := range list {
			name, ok := x.(string)
			if !ok {
				return fmt.Errorf("%s: required lists %s, not a property name", path, show(x))
			}
			if slices.Contains(required, name) {
				return fmt.Errorf("%s: required lists %q twice", path, name)
			}
			required = append(required, name)
		}
	}
	for _, name := range sortedNames(props) {
		if !slices.Contains(required, name) {
			return fmt.Errorf("%s: 'required' is required to be supplied and to be an array including every key in properties: missing %q", path, name)
		}
	}
	for _, name := range required {
		if _, ok := props[name]; !ok {
			return fmt.Errorf("%s: required lists %q, which is not a property", path, name)
		}
	}
	c.properties += len(props)
	for _, name := range sortedNames(props) {
		c.strings += len(name)
		ps, ok := props[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s.%s: not a schema", path, name)
		}
		if err := c.check(ps, path+"."+name, depth); err != nil {
			return err
		}
	}
	return nil
}

func sortedNames(m map[string]any) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
