// Package mdtext reads the text of Markdown as Markwell's rich-text editor
// (Tiptap's Markdown writer, components/markdown-editor in the frontend)
// writes it, for the converters that turn a document into something other
// than HTML (the Word export, the PDF feedback report, the spreadsheet
// export's prompt feedback: Text).
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

// Text is the text of a whole Markdown document for a converter that shows
// its structure as written (a spreadsheet cell): outside code, each
// backslash escape and character reference decoded once (as Unescape does),
// each line-break tag (BreakAt) and each backslash before a line end a line
// break; code spans (on one line) and fenced code blocks as they are, since
// Markdown decodes nothing in code. The markers of headings, lists, emphasis
// and tables stay. No markup is made from the decoded text.
func Text(s string) string {
	if !strings.ContainsAny(s, "\\&<") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	fence := ""
	for rest := s; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if f := fenceOf(line); fence == "" && f != "" {
			fence = f
			b.WriteString(line)
			continue
		} else if fence != "" {
			if f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(line, " ")[len(f):]) == "" {
				fence = ""
			}
			b.WriteString(line)
			continue
		}
		textLine(&b, line)
	}
	return b.String()
}

// fenceOf is the run of backticks or tildes (three or more) a fenced code
// block's line starts with, after up to three spaces, or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return ""
	}
	return t[:n]
}

// textLine writes the text of a line outside fenced code (Text).
func textLine(b *strings.Builder, line string) {
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && IsPunct(line[i+1]):
			b.WriteByte(line[i+1])
			i += 2
			continue
		case c == '\\' && i+1 < len(line) && (line[i+1] == '\n' || line[i+1] == '\r'):
			i++ // a hard line break: the line end follows
			continue
		case c == '&':
			if text, n := reference(line[i:]); n > 0 {
				b.WriteString(text)
				i += n
				continue
			}
		case c == '<':
			if n := BreakAt(line[i:]); n > 0 {
				b.WriteByte('\n')
				i += n
				continue
			}
		case c == '`':
			n := 1
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			if end := closingRun(line, i+n, n); end > 0 {
				b.WriteString(line[i:end])
				i = end
			} else {
				b.WriteString(line[i : i+n])
				i += n
			}
			continue
		}
		b.WriteByte(c)
		i++
	}
}

// closingRun is the end of the first run of exactly n backticks in line
// from from on, or 0 when there is none.
func closingRun(line string, from, n int) int {
	for j := from; j < len(line); {
		if line[j] != '`' {
			j++
			continue
		}
		k := j
		for k < len(line) && line[k] == '`' {
			k++
		}
		if k-j == n {
			return k
		}
		j = k
	}
	return 0
}
