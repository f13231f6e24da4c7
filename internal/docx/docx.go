// Package docx exports a markdown document as a Word (.docx) file.
//
// The markdown is parsed with goldmark (CommonMark + GFM tables and strikethrough) and the AST is walked into a
// gomutex/godocx document. Text is the Markdown source decoded exactly once (backslash escapes, entity and
// character references, as Markwell's editor writes "&" as "&amp;"; package mdtext) and escaped once for XML by
// godocx. Raw HTML is never interpreted: it is written as literal text, except that a "<br>" tag is a line break.
// Images are taken from data: URLs or from an ImageSource supplied by the caller; this package never fetches
// anything over the network.
package docx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gomutex/godocx"
	gdocx "github.com/gomutex/godocx/docx"
	"github.com/gomutex/godocx/wml/ctypes"
	"github.com/gomutex/godocx/wml/stypes"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/markwell/markwell/internal/mdtext"
)

// ImageSource returns the bytes and content type of an image the document names; the caller decides what is
// allowed (Markwell's own storage keys, data: URLs). The package itself never fetches a URL over the network.
type ImageSource func(ctx context.Context, src string) (data []byte, contentType string, err error)

// MsgImageFailed is the spec's message for an image that could not be fetched.
const MsgImageFailed = "Fetch image was failed"

// FileName is the download's name (spec §9).
const FileName = "downloaded.docx"

// MaxImageBytes is the largest image, in bytes, that is embedded in a document.
const MaxImageBytes = 10 << 20

// MaxImages is the largest number of images a single document may embed.
const MaxImages = 50

// ImageError names the image that failed (Src) and wraps the cause; Error() starts with MsgImageFailed.
type ImageError struct {
	Src string
	Err error
}

// Error returns MsgImageFailed followed by the image's source and the cause.
func (e *ImageError) Error() string {
	return fmt.Sprintf("%s: %s: %v", MsgImageFailed, shortSrc(e.Src), e.Err)
}

// Unwrap returns the cause.
func (e *ImageError) Unwrap() error { return e.Err }

// shortSrc keeps data: URLs readable in messages.
func shortSrc(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Twips used for indentation (1 inch = 1440 twips).
const (
	quoteIndent = 720
	listIndent  = 720
	codeFont    = "Courier New"
)

var parser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))

// Options of an export.
type Options struct {
	// Images reads the images the document names that are not data: URLs; nil refuses them (*ImageError).
	Images ImageSource
	// Limits bound the export; zero fields take DefaultLimits.
	Limits Limits
}

// FromMarkdown writes md as a .docx to w: headings 1–6, paragraphs, bold, italic, bold-italic, inline code and code
// blocks (monospace), block quotes (indented), nested bulleted and numbered lists, GFM tables, links (real
// hyperlinks, external relationship), horizontal rules, hard line breaks, and images (data: URLs decoded here; any
// other src goes to images, nil images → *ImageError). Raw HTML in the markdown is written as text, never
// interpreted. Nothing is written to w when the export fails (for example on an *ImageError). It is Write with
// DefaultLimits.
func FromMarkdown(ctx context.Context, w io.Writer, md string, images ImageSource) error {
	return Write(ctx, w, md, Options{Images: images})
}

// Write is FromMarkdown with options. The conversion (Render) runs in its own goroutine and Write returns as soon
// as ctx ends, with ctx's error, even while the conversion is inside a step that does not watch ctx (an image
// source, goldmark's parse); the conversion then stops at its next check and its output is dropped.
func Write(ctx context.Context, w io.Writer, md string, o Options) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	type result struct {
		doc []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		doc, err := Render(ctx, md, o)
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return r.err
		}
		if _, err := w.Write(r.doc); err != nil {
			return fmt.Errorf("docx: write: %w", err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Render converts md on the calling goroutine and returns the .docx. The source is checked first (prescan) so
// that goldmark's parse, which cannot be stopped, is bounded; the walk then checks ctx at every node and each
// limit as it goes. A document past a limit is a *LimitError; a failed image an *ImageError; an ended ctx its
// error.
func Render(ctx context.Context, md string, o Options) ([]byte, error) {
	lim := o.Limits.withDefaults()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src := []byte(md)
	if err := prescan(src, lim); err != nil {
		return nil, err
	}
	root, err := godocx.NewDocument()
	if err != nil {
		return nil, fmt.Errorf("docx: new document: %w", err)
	}
	doc := parser.Parser().Parse(text.NewReader(src))
	b := &builder{ctx: ctx, lim: lim, root: root, src: src, images: o.Images}
	if err := b.blocks(doc); err != nil {
		return nil, err
	}
	if err := b.enter(); err != nil { // the last paragraphs, and ctx once more before the write
		return nil, err
	}
	b.flush()
	out := &cappedBuffer{max: lim.OutputBytes}
	if err := root.Write(out); err != nil {
		if out.full {
			return nil, lim.tooLargeOutput()
		}
		return nil, fmt.Errorf("docx: write: %w", err)
	}
	return out.buf.Bytes(), nil
}

// cappedBuffer is a buffer that refuses to grow past max bytes.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	full bool
}

var errOutputFull = errors.New("docx: output limit reached")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.full = true
		return 0, errOutputFull
	}
	return c.buf.Write(p)
}

// builder walks the goldmark AST into a godocx document.
type builder struct {
	ctx    context.Context
	lim    Limits
	root   *gdocx.RootDoc
	src    []byte
	images ImageSource
	quote  int // block quote depth
	lists  int // list depth
	// counts of what the limits cap
	nParas, nLinks, nLists, nItems, nCells, nCodeLines int
	media                                              media
	// the run text is being written into (see text)
	cur      *ctypes.Run
	curPara  *gdocx.Paragraph
	curStyle style
	curText  *ctypes.Text
	pend     strings.Builder
}

// listCtx is the list a paragraph belongs to: numId and level, and whether this paragraph carries the number.
type listCtx struct {
	numID, level int
	first        bool
	depth        int // number of enclosing lists (0 = none)
}

// enter is called for every node the walk renders: it stops the walk when ctx has ended or the document has
// more paragraphs than its limit.
func (b *builder) enter() error {
	if b.nParas > b.lim.Paragraphs {
		return b.lim.tooManyParagraphs()
	}
	return b.ctx.Err()
}

// blocks renders every child block of n.
func (b *builder) blocks(n ast.Node) error {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if err := b.block(c, nil); err != nil {
			return err
		}
	}
	return nil
}

// para adds a body paragraph indented for the current quote depth and list context.
func (b *builder) para(lc *listCtx) *gdocx.Paragraph {
	b.nParas++
	p := b.root.AddEmptyParagraph()
	left := b.quote * quoteIndent
	switch {
	case lc != nil && lc.first:
		p.Numbering(lc.numID, lc.level)
		if left > 0 {
			left += (lc.level + 1) * listIndent
			hang := uint64(360)
			p.Indent(&ctypes.Indent{Left: &left, Hanging: &hang})
		}
		return p
	case lc != nil:
		left += (lc.level + 1) * listIndent
	}
	if left > 0 {
		p.Indent(&ctypes.Indent{Left: &left})
	}
	return p
}

// block renders one block node; lc is non-nil inside a list item.
func (b *builder) block(n ast.Node, lc *listCtx) error {
	if err := b.enter(); err != nil {
		return err
	}
	switch n := n.(type) {
	case *ast.Heading:
		p := b.para(nil)
		p.Style("Heading" + strconv.Itoa(min(max(n.Level, 1), 6)))
		return b.inlines(p, n, style{})
	case *ast.Paragraph, *ast.TextBlock:
		p := b.para(lc)
		if lc != nil {
			lc.first = false
		}
		return b.inlines(p, n, style{})
	case *ast.ThematicBreak:
		p := b.para(nil)
		if p.GetCT().Property == nil {
			p.GetCT().Property = ctypes.DefaultParaProperty()
		}
		sz, space, color := 6, "1", "auto"
		p.GetCT().Property.Border = &ctypes.ParaBorder{Bottom: &ctypes.Border{
			Val: stypes.BorderStyleSingle, Size: &sz, Space: &space, Color: &color}}
		return nil
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		if lc != nil {
			defer func() { lc.first = false }()
		}
		return b.code(b.para(lc), n)
	case *ast.HTMLBlock:
		if lc != nil {
			defer func() { lc.first = false }()
		}
		return b.rawHTMLBlock(b.para(lc), n)
	case *ast.Blockquote:
		if b.quote+b.lists >= b.lim.Depth {
			return b.lim.tooDeep()
		}
		b.quote++
		defer func() { b.quote-- }()
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if err := b.block(c, lc); err != nil {
				return err
			}
		}
		return nil
	case *ast.List:
		return b.list(n, lc)
	case *east.Table:
		return b.table(n)
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if err := b.block(c, lc); err != nil {
				return err
			}
		}
		return nil
	}
}

// list renders a (possibly nested) list with its own numbering instance; level is the nesting depth.
func (b *builder) list(n *ast.List, parent *listCtx) error {
	if b.quote+b.lists >= b.lim.Depth {
		return b.lim.tooDeep()
	}
	if b.nLists++; b.nLists > b.lim.Lists {
		return b.lim.tooManyLists()
	}
	b.lists++
	defer func() { b.lists-- }()
	abstract := 2 // godocx: 2 = multilevel bullets
	if n.IsOrdered() {
		abstract = 1 // godocx: 1 = multilevel decimal / letter / roman
	}
	level := 0
	if parent != nil {
		level = min(parent.depth, 8)
	}
	numID := b.root.NewListInstance(abstract)
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		if b.nItems++; b.nItems > b.lim.ListItems {
			return b.lim.tooManyListItems()
		}
		lc := &listCtx{numID: numID, level: level, first: true, depth: level + 1}
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			if err := b.block(c, lc); err != nil {
				return err
			}
		}
		if lc.first { // empty item: still show its marker
			b.para(lc)
		}
	}
	return nil
}

// table renders a GFM table with a grid style; header cells are bold.
func (b *builder) table(n *east.Table) error {
	if rows := n.ChildCount(); rows > b.lim.TableRows {
		return b.lim.tooManyRows()
	}
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		cols := row.ChildCount()
		if cols > b.lim.TableColumns {
			return b.lim.tooManyColumns()
		}
		if b.nCells += cols; b.nCells > b.lim.TableCells {
			return b.lim.tooManyCells()
		}
	}
	t := b.root.AddTable()
	t.Style("TableGrid")
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		_, header := row.(*east.TableHeader)
		r := t.AddRow()
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			if err := b.enter(); err != nil {
				return err
			}
			b.nParas++
			p := r.AddCell().AddEmptyPara()
			if err := b.inlines(p, cell, style{bold: header}); err != nil {
				return err
			}
		}
	}
	b.nParas++
	b.root.AddEmptyParagraph() // Word merges adjacent tables; keep a separator
	return nil
}

// code writes a code block as one monospace paragraph with a line break per source line (a run per line).
func (b *builder) code(p *gdocx.Paragraph, n ast.Node) error {
	lines := n.Lines()
	if b.nCodeLines += lines.Len(); b.nCodeLines > b.lim.CodeLines {
		return b.lim.tooManyCodeLines()
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := string(seg.Value(b.src))
		line = trimNewline(line)
		r := p.AddText(line)
		r.Font(codeFont)
		if i < lines.Len()-1 {
			r.AddBreak(nil)
		}
	}
	return nil
}

// rawHTMLBlock writes an HTML block's source as literal text, one line per source line (counted as code lines),
// with a line break for each "<br>" tag.
func (b *builder) rawHTMLBlock(p *gdocx.Paragraph, n *ast.HTMLBlock) error {
	if b.nCodeLines += n.Lines().Len() + 1; b.nCodeLines > b.lim.CodeLines {
		return b.lim.tooManyCodeLines()
	}
	var lines []string
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		lines = append(lines, trimNewline(string(seg.Value(b.src))))
	}
	if n.HasClosure() {
		lines = append(lines, trimNewline(string(n.ClosureLine.Value(b.src))))
	}
	// A "<br>" tag is a line break (the editor writes one so in a table cell); everything else is the text
	// written.
	var parts []string
	for _, l := range lines {
		parts = append(parts, mdtext.SplitBreaks(l)...)
	}
	for i, l := range parts {
		r := p.AddText(l)
		if i < len(parts)-1 {
			r.AddBreak(nil)
		}
	}
	return nil
}

func trimNewline(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
