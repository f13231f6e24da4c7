package report

import (
	"regexp"
	"strings"
)

// The small Markdown subset a prompt result's feedback is written in (the
// review screen's features/results/lib/markdown.ts): headings, bullet and
// numbered lists, fenced code, **bold**, *italic* and `code`. Everything
// else, raw HTML and links included, is text.
var (
	mdInline  = regexp.MustCompile("(`[^`\\n]+`|\\*\\*[^*\\n]+\\*\\*|__[^_\\n]+__|\\*[^*\\s][^*\\n]*\\*|_[^_\\s][^_\\n]*_)")
	mdHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdItem    = regexp.MustCompile(`^\s*([-*+]|\d{1,9}[.)])\s+(.*)$`)
	mdFence   = regexp.MustCompile("^\\s*```")
)

// markdown writes feedback in the Markdown subset: a paragraph per line, a
// heading in bold, a list item after its bullet or number, code as it is.
func (w *writer) markdown(s string) {
	inCode := false
	for _, line := range strings.Split(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n") {
		switch {
		case mdFence.MatchString(line):
			inCode = !inCode
			continue
		case inCode:
			w.para("Body", line)
			continue
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil {
			w.para("Question", m[2])
			continue
		}
		text, bullet := line, ""
		if m := mdItem.FindStringSubmatch(line); m != nil {
			text, bullet = m[2], m[1]
			if bullet == "-" || bullet == "*" || bullet == "+" {
				bullet = "•"
			}
		}
		w.raw(`<text:p text:style-name="` + styleFor("Body", text) + `">`)
		if bullet != "" {
			w.text(bullet + " ")
		}
		w.inline(text)
		w.raw(`</text:p>`)
	}
}

// inline writes a line with its bold, italic and code runs.
func (w *writer) inline(s string) {
	last := 0
	for _, m := range mdInline.FindAllStringIndex(s, -1) {
		w.text(s[last:m[0]])
		part := s[m[0]:m[1]]
		switch {
		case strings.HasPrefix(part, "`"):
			w.raw(`<text:span text:style-name="Code">`)
			w.text(part[1 : len(part)-1])
		case strings.HasPrefix(part, "**"), strings.HasPrefix(part, "__"):
			w.raw(`<text:span text:style-name="Strong">`)
			w.text(part[2 : len(part)-2])
		default:
			w.raw(`<text:span text:style-name="Emphasis">`)
			w.text(part[1 : len(part)-1])
		}
		w.raw(`</text:span>`)
		last = m[1]
	}
	w.text(s[last:])
}
