package highlight

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Passage is one highlight to place: the highlight key, the passage of the
// text it covers, and the comment on it.
type Passage struct {
	Key, Text, Comment string
}

var (
	textEscaper    = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	commentEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
)

// placed is a passage at its byte range [start, end) of the text.
type placed struct {
	start, end int
	p          Passage
}

// Build returns text with each passage found verbatim wrapped in its tag, in
// the package's encoding. Passages not found in text, with a key not in keys
// (or not usable as a tag name), empty or only white space, or overlapping
// one already placed are dropped and counted. Passages are placed in order:
// each takes the first occurrence in text that does not overlap a passage
// placed before it, so the same passage given twice highlights its first two
// occurrences. Output is deterministic.
func Build(text string, passages []Passage, keys []string) (tagged string, dropped int) {
	var spans []placed // sorted by start, never overlapping
	for _, p := range passages {
		if !slices.Contains(keys, p.Key) || !isName(p.Key) || strings.TrimSpace(p.Text) == "" {
			dropped++
			continue
		}
		start, ok := firstFree(text, p.Text, spans)
		if !ok {
			dropped++
			continue
		}
		at := sort.Search(len(spans), func(i int) bool { return spans[i].start > start })
		spans = slices.Insert(spans, at, placed{start: start, end: start + len(p.Text), p: p})
	}

	var b strings.Builder
	b.Grow(len(text) + len(text)/8 + 64*len(spans))
	last := 0
	for _, s := range spans {
		textEscaper.WriteString(&b, text[last:s.start])
		b.WriteString("<" + s.p.Key + ` comment="`)
		commentEscaper.WriteString(&b, s.p.Comment)
		b.WriteString(`">`)
		textEscaper.WriteString(&b, text[s.start:s.end])
		b.WriteString("</" + s.p.Key + ">")
		last = s.end
	}
	textEscaper.WriteString(&b, text[last:])
	return b.String(), dropped
}

// firstFree returns the start of the first occurrence of passage in text
// that overlaps none of spans.
func firstFree(text, passage string, spans []placed) (int, bool) {
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], passage)
		if i < 0 {
			return 0, false
		}
		start := from + i
		if !overlaps(spans, start, start+len(passage)) {
			return start, true
		}
		_, size := utf8.DecodeRuneInString(text[start:])
		from = start + size
	}
	return 0, false
}

// overlaps reports whether [start, end) shares a byte with one of spans.
func overlaps(spans []placed, start, end int) bool {
	// The first span ending after start is the only one that can overlap.
	i := sort.Search(len(spans), func(i int) bool { return spans[i].end > start })
	return i < len(spans) && spans[i].start < end
}
