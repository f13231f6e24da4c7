package docx

import (
	"net/url"
	"strings"

	gdocx "github.com/gomutex/godocx/docx"
	"github.com/gomutex/godocx/wml/ctypes"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/markwell/markwell/internal/mdtext"
)

// style is the character formatting inherited by an inline node's text.
type style struct {
	bold, italic, code, strike bool
}

// text writes s with st's formatting at the end of p. Text goes into p's last run when that run is the text's
// run and has the same formatting, so a stretch of same-formatted text is one run whatever the number of source
// lines it spans (a run per line would cost a document of short lines hundreds of megabytes and seconds).
func (b *builder) text(p *gdocx.Paragraph, s string, st style) {
	kids := p.GetCT().Children
	if b.cur == nil || b.curPara != p || b.curStyle != st || len(kids) == 0 || kids[len(kids)-1].Run != b.cur {
		b.flush()
		b.run(p, "", st)
		kids = p.GetCT().Children
		b.cur, b.curPara, b.curStyle = kids[len(kids)-1].Run, p, st
		b.curText = b.cur.Children[0].Text
	}
	if b.curText == nil { // after a line break
		b.curText = ctypes.TextFromString("")
		b.cur.Children = append(b.cur.Children, ctypes.RunChild{Text: b.curText})
	}
	b.pend.WriteString(s)
}

// lineBreak ends the line of text in p's last run (written with st's formatting).
func (b *builder) lineBreak(p *gdocx.Paragraph, st style) {
	b.text(p, "", st)
	b.flush()
	b.cur.Children = append(b.cur.Children, ctypes.RunChild{Break: &ctypes.Break{}})
}

// flush stores the text gathered by text in its run.
func (b *builder) flush() {
	if b.curText == nil {
		return
	}
	s := b.pend.String()
	b.pend.Reset()
	*b.curText = *ctypes.TextFromString(s)
	b.curText = nil
}

// run adds a run of text with st's formatting to p.
func (b *builder) run(p *gdocx.Paragraph, s string, st style) *gdocx.Run {
	r := p.AddText(s)
	if st.bold {
		r.Bold(true)
	}
	if st.italic {
		r.Italic(true)
	}
	if st.strike {
		r.Strike(true)
	}
	if st.code {
		r.Font(codeFont)
	}
	return r
}

// inlines renders n's inline children into p.
func (b *builder) inlines(p *gdocx.Paragraph, n ast.Node, st style) error {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if err := b.inline(p, c, st); err != nil {
			return err
		}
	}
	return nil
}

// inline renders one inline node.
func (b *builder) inline(p *gdocx.Paragraph, n ast.Node, st style) error {
	if err := b.enter(); err != nil {
		return err
	}
	switch n := n.(type) {
	case *ast.Text:
		b.text(p, b.textOf(n), st)
		switch {
		case n.HardLineBreak():
			b.lineBreak(p, st)
		case n.SoftLineBreak():
			b.text(p, " ", st)
		}
	case *ast.String:
		b.text(p, stringOf(n), st)
	case *ast.Emphasis:
		inner := st
		if n.Level >= 2 {
			inner.bold = true
		} else {
			inner.italic = true
		}
		return b.inlines(p, n, inner)
	case *east.Strikethrough:
		inner := st
		inner.strike = true
		return b.inlines(p, n, inner)
	case *ast.CodeSpan:
		inner := st
		inner.code = true
		b.text(p, b.plain(n), inner)
	case *ast.RawHTML:
		// A line break the editor wrote as "<br>" (in a table cell) is a line break; any other markup is
		// shown as the characters written, never interpreted.
		if raw := b.rawHTML(n); mdtext.BreakAt(raw) == len(raw) {
			b.lineBreak(p, st)
		} else {
			b.text(p, raw, st)
		}
	case *ast.Link:
		if b.nLinks++; b.nLinks > b.lim.Links {
			return b.lim.tooManyLinks()
		}
		b.link(p, mdtext.Unescape(string(n.Destination)), b.plain(n), st)
	case *ast.AutoLink:
		if b.nLinks++; b.nLinks > b.lim.Links {
			return b.lim.tooManyLinks()
		}
		dest := string(n.URL(b.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		b.link(p, dest, string(n.Label(b.src)), st)
	case *ast.Image:
		return b.image(p, n)
	default:
		return b.inlines(p, n, st)
	}
	return nil
}

// link adds a real hyperlink (external relationship) for http(s) and mailto targets; any other target (javascript:,
// relative paths) is written as plain text so the document never carries an active link of an unknown kind.
func (b *builder) link(p *gdocx.Paragraph, dest, label string, st style) {
	if label == "" {
		label = dest
	}
	u, err := url.Parse(dest)
	if err != nil || !(u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "mailto") {
		b.text(p, label, st)
		return
	}
	h := p.AddLink(label, u.String())
	if st.bold {
		h.Bold(true)
	}
	if st.italic {
		h.Italic(true)
	}
	if st.code {
		h.Font(codeFont)
	}
}

// textOf is the text of a text node: Markdown source decoded once (backslash escapes, entity and character
// references: the editor writes a typed "&" as "&amp;" and "*" as "\*"), and the characters of a code span as they
// are. godocx escapes the text once more for XML, so "&amp;" in the source is "&" in Word, and a typed "<notes>" is
// the text "<notes>".
func (b *builder) textOf(n *ast.Text) string {
	v := string(n.Segment.Value(b.src))
	if n.IsRaw() {
		return v
	}
	return mdtext.Unescape(v)
}

// stringOf is the text of a string node, decoded as textOf does unless it is code or raw.
func stringOf(n *ast.String) string {
	if n.IsCode() || n.IsRaw() {
		return string(n.Value)
	}
	return mdtext.Unescape(string(n.Value))
}

// rawHTML is the source of an inline HTML node.
func (b *builder) rawHTML(n *ast.RawHTML) string {
	var sb strings.Builder
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		sb.Write(seg.Value(b.src))
	}
	return sb.String()
}

// plain returns the text of n's descendants, used where formatting cannot be kept (link labels, code spans).
func (b *builder) plain(n ast.Node) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			sb.WriteString(b.textOf(c))
			if c.SoftLineBreak() || c.HardLineBreak() {
				sb.WriteByte(' ')
			}
		case *ast.String:
			sb.WriteString(stringOf(c))
		case *ast.RawHTML:
			if raw := b.rawHTML(c); mdtext.BreakAt(raw) == len(raw) {
				sb.WriteByte(' ')
			} else {
				sb.WriteString(raw)
			}
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}
