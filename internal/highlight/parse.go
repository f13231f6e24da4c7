package highlight

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a run of the plain text: highlighted by the item with the same ID
// and Key, or plain (Key "" and ID -1).
type Span struct {
	Text string
	Key  string // "" for plain text
	ID   int    // -1 for plain text
}

// Item is one highlight of a feedback result: its ID (its position among
// the highlights, from 0), its type (the highlight key), the comment and the
// passage it covers.
type Item struct {
	ID      int
	Type    string
	Comment string
	Text    string
}

// Parse turns a highlightedText into spans, in order (concatenating their
// Text gives [Plain]), and its feedback items. It never fails: anything that
// is not a well-formed tag is read as text. Texts and comments are
// unescaped plain text, to be rendered as text, never as HTML.
func Parse(tagged string) ([]Span, []Item) {
	toks, _ := lex(tagged, false)
	spans, items := []Span{}, []Item{}
	for _, t := range toks {
		if t.key == "" {
			if n := len(spans); n > 0 && spans[n-1].ID == -1 {
				spans[n-1].Text += t.text
			} else {
				spans = append(spans, Span{Text: t.text, ID: -1})
			}
			continue
		}
		id := len(items)
		items = append(items, Item{ID: id, Type: t.key, Comment: t.comment, Text: t.text})
		spans = append(spans, Span{Text: t.text, Key: t.key, ID: id})
	}
	return spans, items
}

// Plain returns the text of a highlightedText without its tags, unescaped.
func Plain(tagged string) string {
	toks, _ := lex(tagged, false)
	var b strings.Builder
	b.Grow(len(tagged))
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

// token is a run of text (key "") or a highlight, unescaped.
type token struct {
	text, key, comment string
}

// lex splits tagged into tokens. Where a "<" does not start a well-formed
// tag, strict lex stops and returns the problem; lenient lex reads the "<"
// as text and goes on.
func lex(tagged string, strict bool) ([]token, *problem) {
	var toks []token
	textStart := 0 // start of the pending run of text
	flush := func(end int) {
		if end > textStart {
			toks = append(toks, token{text: unescape(tagged[textStart:end])})
		}
	}
	for i := 0; i < len(tagged); {
		k := strings.IndexByte(tagged[i:], '<')
		if k < 0 {
			break
		}
		i += k
		tag, end, prob := tagAt(tagged, i)
		if prob != nil {
			if strict {
				return toks, prob
			}
			i++
			continue
		}
		flush(i)
		toks = append(toks, tag)
		i, textStart = end, end
	}
	flush(len(tagged))
	return toks, nil
}

// tagAt reads the tag starting at s[i] == '<' and returns it with the
// offset just after it, or the reason it is not a well-formed tag.
func tagAt(s string, i int) (token, int, *problem) {
	j := i + 1
	if strings.HasPrefix(s[j:], "/") {
		if name, n := readName(s, j+1); name != "" && strings.HasPrefix(s[n:], ">") {
			return token{}, 0, &problem{kind: strayClose, key: name}
		}
		return token{}, 0, &problem{kind: bareLess}
	}
	key, j := readName(s, j)
	if key == "" {
		return token{}, 0, &problem{kind: bareLess}
	}
	const attr = ` comment="`
	if !strings.HasPrefix(s[j:], attr) {
		return token{}, 0, &problem{kind: malformed, key: key}
	}
	j += len(attr)
	q := strings.IndexAny(s[j:], `"<`)
	if q < 0 || s[j+q] == '<' || !strings.HasPrefix(s[j+q:], `">`) {
		return token{}, 0, &problem{kind: malformed, key: key}
	}
	comment := s[j : j+q]
	j += q + len(`">`)
	c := strings.IndexByte(s[j:], '<')
	if c < 0 {
		return token{}, 0, &problem{kind: unclosed, key: key}
	}
	inner, c := s[j:j+c], j+c
	if closing := "</" + key + ">"; strings.HasPrefix(s[c:], closing) {
		if inner == "" {
			return token{}, 0, &problem{kind: empty, key: key}
		}
		return token{text: unescape(inner), key: key, comment: unescape(comment)}, c + len(closing), nil
	}
	if strings.HasPrefix(s[c:], "</") {
		if other, n := readName(s, c+2); other != "" && strings.HasPrefix(s[n:], ">") {
			return token{}, 0, &problem{kind: mismatched, key: key, other: other}
		}
		return token{}, 0, &problem{kind: unclosed, key: key}
	}
	if other, _ := readName(s, c+1); other != "" {
		return token{}, 0, &problem{kind: nested, key: key, other: other}
	}
	return token{}, 0, &problem{kind: unclosed, key: key}
}

// readName reads a tag name (a letter, then letters and digits) at s[i] and
// returns it with the offset after it; the name is "" when s[i] is not a
// letter.
func readName(s string, i int) (string, int) {
	j := i
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsLetter(r) && (j == i || !unicode.IsDigit(r)) {
			break
		}
		j += size
	}
	return s[i:j], j
}

// isName reports whether key can be written as a tag name.
func isName(key string) bool {
	name, end := readName(key, 0)
	return name != "" && end == len(key)
}

// entities are the escapes reading understands.
var entities = []struct{ esc, char string }{
	{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", `"`}, {"&apos;", "'"}, {"&#39;", "'"},
}

// unescape replaces the escapes of the encoding, once, left to right; any
// other "&" stays as it is.
func unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		k := strings.IndexByte(s, '&')
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:k])
		s = s[k:]
		char, n := "&", 1
		for _, e := range entities {
			if strings.HasPrefix(s, e.esc) {
				char, n = e.char, len(e.esc)
				break
			}
		}
		b.WriteString(char)
		s = s[n:]
	}
}
