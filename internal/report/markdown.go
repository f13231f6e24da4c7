package report

import (
	"regexp"
	"strings"

	"github.com/markwell/markwell/internal/mdtext"
)

// The small Markdown subset a prompt result's feedback is written in (the
// review screen's features/results/lib/markdown.ts): headings, bullet and
// numbered lists, fenced code, **bold**, *italic* and `code`. Everything
// else, raw HTML and links included, is text.
//
// The teacher edits that feedback in the rich-text editor, which saves
// Markdown source (package mdtext): what was typed comes back with "&", "<"
// and ">" as entity references and * _ ` \ [ ] ~ after a backslash, a line
// break as two spaces or a backslash before the end of the line (or "<br>"),
// and paragraphs apart by one or more blank lines. The report decodes that
// source once and writes the text, escaped once for XML: "&amp;" prints as
// "&", "&lt;script&gt;" as "<script>", never as markup.
var (
	mdHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdItem    = regexp.MustCompile(`^\s*([-*+]|\d{1,9}[.)])\s+(.*)$`)
	mdFence   = regexp.MustCompile("^\\s*```")
)

// markdown writes feedback in the Markdown subset: a heading in bold, a
// list item after its bullet or number, code as it is, and a paragraph for
// each run of lines between blank lines (a run of blank lines is one
// paragraph break), its lines kept apart by line breaks.
func (w *writer) markdown(s string) {
	inCode := false
	var para []string
	flush := func() {
		if len(para) > 0 {
			w.inlinePara("Body", strings.Join(para, "\n"))
		}
		para = nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n") {
		switch {
		case mdFence.MatchString(line):
			flush()
			inCode = !inCode
			continue
		case inCode:
			w.para("Body", line)
			continue
		case strings.TrimSpace(line) == "":
			flush()
			continue
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil {
			flush()
			w.inlinePara("Question", m[2])
			continue
		}
		if m := mdItem.FindStringSubmatch(line); m != nil {
			flush()
			bullet := m[1]
			if bullet == "-" || bullet == "*" || bullet == "+" {
				bullet = "•"
			}
			w.inlinePara("Body", bullet+" "+endOfLine(m[2]))
			continue
		}
		para = append(para, strings.TrimLeft(endOfLine(line), " \t"))
	}
	flush()
}

// endOfLine is a line without what marks a hard line break at its end (two
// or more spaces, or a backslash): the paragraph breaks the line anyway.
func endOfLine(line string) string {
	line = strings.TrimRight(line, " \t")
	if strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) {
		line = strings.TrimSuffix(line, `\`)
	}
	return line
}

// inlinePara writes a paragraph of s with its bold, italic and code runs,
// its direction taken from its decoded text.
func (w *writer) inlinePara(style, s string) {
	w.raw(`<text:p text:style-name="` + styleFor(style, mdtext.Unescape(s)) + `">`)
	w.inline(s)
	w.raw(`</text:p>`)
}

// inline writes Markdown source with its bold, italic and code runs: a
// backslash-escaped character is never a delimiter, the text outside code
// is decoded once (mdtext.Unescape), a "<br>" tag is a line break, and code
// is written as it is.
func (w *writer) inline(s string) {
	var plain strings.Builder // source of the text not yet written
	text := func() {
		w.text(mdtext.Unescape(plain.String()))
		plain.Reset()
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) && mdtext.IsPunct(s[i+1]) {
			plain.WriteString(s[i : i+2])
			i += 2
			continue
		}
		if n := mdtext.BreakAt(s[i:]); n > 0 {
			text()
			w.text("\n")
			i += n
			continue
		}
		if style, inner, end := span(s, i); end > 0 {
			text()
			w.raw(`<text:span text:style-name="` + style + `">`)
			if style == "Code" {
				w.text(inner)
			} else {
				w.text(mdtext.Unescape(inner))
			}
			w.raw(`</text:span>`)
			i = end
			continue
		}
		plain.WriteByte(c)
		i++
	}
	text()
}

// span reads a run that starts at s[i]: `code`, **bold** or __bold__,
// *italic* or _italic_, on one line, not empty, an italic not starting with
// a space. It returns the run's style, its source between the delimiters
// and where it ends, or end = 0 when no run starts there. Inside bold and
// italic a backslash-escaped delimiter is text, not the run's end.
func span(s string, i int) (style, inner string, end int) {
	switch {
	case s[i] == '`':
		j := strings.IndexAny(s[i+1:], "`\n")
		if j > 0 && s[i+1+j] == '`' {
			return "Code", s[i+1 : i+1+j], i + j + 2
		}
	case strings.HasPrefix(s[i:], "**"), strings.HasPrefix(s[i:], "__"):
		if j := closing(s, i+2, s[i]); j > i+2 && strings.HasPrefix(s[j:], s[i:i+2]) {
			return "Strong", s[i+2 : j], j + 2
		}
	}
	if s[i] == '*' || s[i] == '_' {
		if i+1 < len(s) && s[i+1] != s[i] && s[i+1] != ' ' && s[i+1] != '\t' && s[i+1] != '\n' {
			if j := closing(s, i+1, s[i]); j > i+1 {
				return "Emphasis", s[i+1 : j], j + 1
			}
		}
	}
	return "", "", 0
}

// closing is the index of the first d at or after from that is not
// backslash-escaped, or -1 when a line ends first.
func closing(s string, from int, d byte) int {
	for k := from; k < len(s); k++ {
		switch {
		case s[k] == '\\' && k+1 < len(s) && mdtext.IsPunct(s[k+1]):
			k++
		case s[k] == d:
			return k
		case s[k] == '\n':
			return -1
		}
	}
	return -1
}
