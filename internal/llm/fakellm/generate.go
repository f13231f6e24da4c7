package fakellm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Generate builds a value that follows schema from simple measurements of
// text: strings quote or summarise its sentences, scores grow with its length,
// arrays hold one item per sentence (within minItems/maxItems, three at most
// when unbounded), enums are picked by the same length judgement. The result
// is the same for the same schema and text. It supports what [llm.Validate]
// checks.
func Generate(schema map[string]any, text string) (any, error) {
	root, err := canonicalSchema(schema)
	if err != nil {
		return nil, err
	}
	g := generator{root: root, facts: analyse(text)}
	return g.value(root, walk{quality: quality(g.facts.words, 250)}, 0)
}

func canonicalSchema(schema map[string]any) (map[string]any, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("encode schema: %w", err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("decode schema: %w", err)
	}
	if root == nil {
		return nil, errors.New("schema is not an object")
	}
	return root, nil
}

type generator struct {
	root  map[string]any
	facts facts
}

// walk is where the generator is: the nearest property name, whether it is
// inside an array item and which, and the quality judgement that applies.
type walk struct {
	name    string
	item    bool
	index   int
	quality float64
}

// maxDepth bounds nesting so recursive schemas end.
const maxDepth = 32

func (g generator) value(s map[string]any, w walk, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("schema nests deeper than %d at %q", maxDepth, w.name)
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := g.resolve(ref)
		if err != nil {
			return nil, err
		}
		return g.value(target, w, depth+1)
	}
	if branches, ok := s["anyOf"].([]any); ok {
		return g.anyOf(branches, w, depth)
	}
	if c, ok := s["const"]; ok {
		return c, nil
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[int(math.Round(w.quality*float64(len(enum)-1)))%len(enum)], nil
	}
	switch typeOf(s) {
	case "object":
		return g.object(s, w, depth)
	case "array":
		return g.array(s, w, depth)
	case "integer":
		return g.number(s, w, true), nil
	case "number":
		return g.number(s, w, false), nil
	case "boolean":
		return w.quality >= 0.6, nil
	case "null":
		return nil, nil
	default:
		return g.string(s, w), nil
	}
}

func (g generator) anyOf(branches []any, w walk, depth int) (any, error) {
	var null bool
	for _, b := range branches {
		bs, ok := b.(map[string]any)
		if !ok {
			continue
		}
		if typeOf(bs) == "null" {
			null = true
			continue
		}
		return g.value(bs, w, depth+1)
	}
	if null {
		return nil, nil
	}
	return nil, fmt.Errorf("anyOf at %q has no usable branch", w.name)
}

// typeOf picks the schema's type: the first non-null one listed, or one
// inferred from its keywords.
func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok && name != "null" {
				return name
			}
		}
		if len(t) > 0 {
			return "null"
		}
	}
	switch {
	case s["properties"] != nil:
		return "object"
	case s["items"] != nil:
		return "array"
	}
	return "string"
}

func (g generator) object(s map[string]any, w walk, depth int) (any, error) {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make(map[string]any, len(props))
	for _, name := range names {
		ps, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		v, err := g.value(ps, walk{name: name, item: w.item, index: w.index, quality: w.quality}, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

func (g generator) array(s map[string]any, w walk, depth int) (any, error) {
	lo, hasLo := number(s, "minItems")
	hi, hasHi := number(s, "maxItems")
	n := len(g.facts.sentences)
	if !hasHi {
		hi = max(3, lo)
	}
	n = min(n, int(hi))
	if hasLo {
		n = max(n, int(lo))
	}
	items, _ := s["items"].(map[string]any)
	out := make([]any, 0, n)
	for i := range n {
		iw := walk{name: w.name, item: true, index: i, quality: w.quality}
		if sent, ok := g.facts.sentenceAt(i); ok {
			iw.quality = quality(sent.Words, 25)
		}
		v, err := g.value(items, iw, depth+1)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func (g generator) number(s map[string]any, w walk, integer bool) float64 {
	words := nameWords(w.name)
	lo, hasLo := number(s, "minimum")
	hi, hasHi := number(s, "maximum")
	sent, _ := g.facts.sentenceAt(w.index)
	var x float64
	switch {
	case hasWord(words, "word"):
		x = float64(g.facts.words)
	case hasWord(words, "sentence"):
		x = float64(len(g.facts.sentences))
	case hasWord(words, "score", "point", "mark", "grade", "rating", "level", "percent", "percentage", "total"):
		bottom, top := 0.0, 10.0
		if hasLo {
			bottom = lo
		}
		if hasHi {
			top = hi
		} else if hasWord(words, "percent", "percentage") {
			top = 100
		}
		x = bottom + w.quality*(top-bottom)
	case hasWord(words, "start", "begin", "offset", "from"):
		x = float64(sent.Start)
	case hasWord(words, "end", "stop", "to"):
		x = float64(sent.End)
	case hasWord(words, "index"):
		x = float64(w.index)
	case hasWord(words, "position", "order", "number", "rank", "page", "line"):
		x = float64(w.index + 1)
	case hasLo:
		x = lo
	}
	if integer {
		x = math.Round(x)
	} else {
		x = math.Round(x*10) / 10
	}
	return clampNumber(s, x, integer)
}

// clampNumber keeps x within the schema's minimum/maximum, including the
// exclusive bounds.
func clampNumber(s map[string]any, x float64, integer bool) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	step := 0.1
	if integer {
		step = 1
	}
	if v, ok := number(s, "minimum"); ok {
		lo = v
	}
	if v, ok := number(s, "maximum"); ok {
		hi = v
	}
	if v, ok := number(s, "exclusiveMinimum"); ok {
		lo = math.Max(lo, v+step)
	}
	if v, ok := number(s, "exclusiveMaximum"); ok {
		hi = math.Min(hi, v-step)
	}
	if integer {
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	if lo > hi { // a narrow exclusive range: take its middle
		a, _ := number(s, "exclusiveMinimum")
		b, _ := number(s, "exclusiveMaximum")
		return (a + b) / 2
	}
	return math.Min(math.Max(x, lo), hi)
}

func (g generator) string(s map[string]any, w walk) string {
	out := g.text(s, w)
	if n, ok := number(s, "minLength"); ok {
		for utf8.RuneCountInString(out) < int(n) {
			out += "."
		}
	}
	if n, ok := number(s, "maxLength"); ok && utf8.RuneCountInString(out) > int(n) {
		out = string([]rune(out)[:int(n)])
	}
	return out
}

// text picks a string by the property's name and format.
func (g generator) text(s map[string]any, w walk) string {
	switch format, _ := s["format"].(string); format {
	case "date-time":
		return "2000-01-01T00:00:00Z"
	case "date":
		return "2000-01-01"
	case "time":
		return "00:00:00Z"
	case "email":
		return "demo@example.com"
	case "uri", "url":
		return "https://example.com/demo"
	case "uuid":
		return fmt.Sprintf("00000000-0000-4000-8000-%012d", w.index)
	}
	words := nameWords(w.name)
	sent, ok := g.facts.sentenceAt(w.index)
	switch {
	case len(words) > 0 && words[len(words)-1] == "id":
		return fmt.Sprintf("%s-%d", w.name, w.index+1)
	case !ok:
		return "Demo model: no text was given."
	case hasWord(words, "title", "name", "label", "heading", "criterion", "topic"):
		return titleFrom(sent.Text)
	case hasWord(words, "quote", "excerpt", "highlight", "snippet", "span", "evidence", "original") ||
		strings.EqualFold(w.name, "text"):
		return sent.Text
	case !w.item && hasWord(words, "summary", "overview", "feedback", "overall", "comment"):
		return g.facts.overview()
	default:
		return fmt.Sprintf("Demo model note on \"%s\" (%d words).", firstWords(sent.Text, 10), sent.Words)
	}
}

func (g generator) resolve(ref string) (map[string]any, error) {
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("$ref %q: only local references are supported", ref)
	}
	var cur any = g.root
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(ref, "#"), "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, _ := cur.(map[string]any)
		var ok bool
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

func number(s map[string]any, key string) (float64, bool) {
	v, ok := s[key].(float64)
	return v, ok
}

// nameWords splits a property name such as "criterionId" or "word_count"
// into lower-case words.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && !unicode.IsUpper(cur[len(cur)-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// hasWord reports whether words holds one of the candidates, singular or
// plural.
func hasWord(words []string, candidates ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return slices.Contains(candidates, w) || slices.Contains(candidates, strings.TrimSuffix(w, "s"))
	})
}
