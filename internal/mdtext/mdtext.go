// Package mdtext reads the text of Markdown as Markwell's rich-text editor
// (Tiptap's Markdown writer, components/markdown-editor in the frontend)
// writes it, for the converters that turn a document into something other
// than HTML (the Word export, the PDF feedback report).
//
// The editor writes what the teacher typed as Markdown source: "&", "<" and
// ">" as the entity references "&amp;", "&lt;" and "&gt;", the characters
// Markdown would read as formatting (\ ` * _ [ ] ~) after a backslash, a
// line break inside a table cell as "<br>", a line break elsewhere as two
// spaces (or a backslash) before the end of the line, and an empty
// paragraph after another as "&nbsp;". A converter that writes XML must
// decode that source exactly once (Unescape) and then escape the text once
// for XML: decoding nothing shows "&amp;" to the reader, decoding twice turns
// a typed "&lt;b&gt;" into markup. No markup is ever made from the decoded
// text; it is text.
package mdtext

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/util"
)

// IsPunct reports whether c is ASCII punctuation: what a backslash escapes
// in CommonMark.
func IsPunct(c byte) bool {
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~')
}

// Unescape is the text of a run of Markdown source outside code: each
// backslash escape of ASCII punctuation is its character, each entity
// reference ("&amp;", "&nbsp;", any HTML5 name) and numeric character
// reference ("&#60;", "&#x3C;") its characters, in one pass, as CommonMark
// reads them: what an escape or a reference produces is never read again,
// so "&amp;lt;" is "&lt;" and "\&amp;" is "&amp;". A reference to U+0000,
// a surrogate or past U+10FFFF is U+FFFD. Anything else is kept as it is,
// a lone "&" or "\" included.
func Unescape(s string) string {
	i := strings.IndexAny(s, `\&`)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && IsPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '&':
			if text, n := reference(s[i:]); n > 0 {
				b.WriteString(text)
				i += n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// reference reads an entity or numeric character reference at the start of
// s ("&…;"): its characters and its length, or n = 0 when there is none.
func reference(s string) (text string, n int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 40 { // the longest HTML5 entity name has 31 letters
		return "", 0
	}
	body := s[1:end]
	if body[0] == '#' {
		digits, base, most := body[1:], 10, 7
		if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
			digits, base, most = digits[1:], 16, 6
		}
		if len(digits) == 0 || len(digits) > most {
			return "", 0
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return "", 0
		}
		r := rune(v)
		if v == 0 || v > utf8.MaxRune || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		return string(r), end + 1
	}
	for j := 0; j < len(body); j++ {
		if c := body[j]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", 0
		}
	}
	e, ok := util.LookUpHTML5EntityByName(body)
	if !ok {
		return "", 0
	}
	return string(e.Characters), end + 1
}

// BreakAt is the length of the line-break tag at the start of s ("<br>",
// "<br/>", "<br />", in any letter case, with any space before the end), or
// 0 when s does not start with one. The editor writes a line break inside a
// table cell so; a converter writes a line break for it. An escaped
// "&lt;br&gt;" is what a teacher typed and stays text.
func BreakAt(s string) int {
	if len(s) < 4 || s[0] != '<' || (s[1] != 'b' && s[1] != 'B') || (s[2] != 'r' && s[2] != 'R') {
		return 0
	}
	i := 3
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i < len(s) && s[i] == '>' {
		return i + 1
	}
	return 0
}

// SplitBreaks splits s at its line-break tags (BreakAt).
func SplitBreaks(s string) []string {
	var parts []string
	last := 0
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if n := BreakAt(s[i:]); n > 0 {
			parts = append(parts, s[last:i])
			last = i + n
			i = last
		} else {
			i++
		}
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		i += j
	}
	return append(parts, s[last:])
}
