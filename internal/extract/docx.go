package extract

import (
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// errTooMuchText stops a reader whose text passed Limits.MaxTextBytes.
var errTooMuchText = errors.New("text exceeds the limit")

// readDOCX reads a Word file: paragraphs in order, list items with their
// bullet ("- ") or number ("1. "), table rows as cells joined by " | ", text
// boxes where they are anchored, footnote and endnote marks ("[1]", "[i]")
// where they are referenced with the notes listed after the body under
// "Footnotes" and "Endnotes", and each distinct header and footer that says
// more than a page number once ("Header: …" first, "Footer: …" last).
// Symbols Word's Insert Symbol wrote in a symbol font (w:sym) are mapped to
// Unicode (symbols.go). Deleted tracked changes, field codes, comments and
// the duplicate fallback copies of text boxes are left out. The body's pictures are read by OCR
// where they stand (see pictures.go); without OCR the typed text is kept and
// the page is marked NeedsOCR.
func (r *Reader) readDOCX(ctx context.Context, data []byte) (Result, error) {
	z, err := openZip(data, r.lim)
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	text, pictures, err := r.docxText(z)
	if errors.Is(err, errTooMuchText) {
		return Result{}, r.lim.tooMuchText()
	}
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	page := Page{Text: text, Source: SourceFile}
	if err := r.newPictureReader(z).fill(ctx, &page, pictures); err != nil {
		return Result{}, err
	}
	return Result{Pages: []Page{page}}, nil
}

// docxText returns the file's text with a picture mark where each of the
// body's pictures stands, and the pictures' part names by mark index ("" for
// a relationship that names no part).
func (r *Reader) docxText(z *zipArchive) (string, []string, error) {
	main, err := z.mainPartName()
	if err != nil {
		return "", nil, err
	}
	if main == "" || z.file(main) == nil {
		main = "word/document.xml"
	}
	rels, err := z.rels(main)
	if err != nil {
		return "", nil, err
	}
	num, err := readNumbering(z, relTarget(rels, "/numbering"))
	if err != nil {
		return "", nil, err
	}
	styles, err := readStyleNumbering(z, relTarget(rels, "/styles"))
	if err != nil {
		return "", nil, err
	}
	set, err := readDOCXSettings(z, relTarget(rels, "/settings"))
	if err != nil {
		return "", nil, err
	}
	size := 0 // text bytes of every part, against Limits.MaxTextBytes
	newWalker := func() *docxWalker {
		return &docxWalker{num: num, styles: styles, max: r.lim.MaxTextBytes, size: &size}
	}
	notes := map[string]*docxNotes{
		"footnoteReference": {heading: "Footnotes", fmtDefault: "decimal"},
		"endnoteReference":  {heading: "Endnotes", fmtDefault: "lowerRoman"},
	}
	for ref, part := range map[string]string{"footnoteReference": "/footnotes", "endnoteReference": "/endnotes"} {
		n := notes[ref]
		n.fmt, n.start = set.note(ref)
		w := newWalker()
		w.notes = map[string]string{}
		if err := w.walkPart(z, relTarget(rels, part)); err != nil {
			return "", nil, err
		}
		n.text = w.notes
	}
	w := newWalker()
	w.refs = notes
	w.pictures = pictureNumbers{byID: map[string]int{}}
	if err := w.walkPart(z, main); err != nil {
		return "", nil, err
	}
	if !w.seen {
		return "", nil, errors.New("no main document part")
	}
	var blocks []string
	headers, footers, err := docxHeadersFooters(z, rels, w.sections, set.evenAndOdd, newWalker)
	if err != nil {
		return "", nil, err
	}
	blocks = append(blocks, headers...)
	blocks = append(blocks, w.resolveNoteMarks(w.out.String()))
	for _, ref := range []string{"footnoteReference", "endnoteReference"} {
		if list := notes[ref].list(); list != "" {
			blocks = append(blocks, list)
		}
	}
	blocks = append(blocks, footers...)
	parts := make([]string, len(w.pictures.ids))
	for i, id := range w.pictures.ids {
		parts[i] = rels[id].Target
	}
	return strings.Join(blocks, "\n\n"), parts, nil
}

// docxSkipped are elements whose subtree holds no visible text: deletions,
// old formatting of tracked changes, and mc:Fallback (a second copy of what
// mc:Choice holds). Field codes (w:instrText) are read but never written.
var docxSkipped = map[string]bool{
	"Fallback": true, "del": true, "moveFrom": true, "delText": true,
	"delInstrText": true, "pPrChange": true, "rPrChange": true, "sectPrChange": true,
	"tblPrChange": true, "trPrChange": true, "tcPrChange": true, "numberingChange": true,
}

type docxFrameKind int

const (
	frameParagraph docxFrameKind = iota
	frameTable
	frameRow
	frameCell
)

// docxFrame is one open paragraph, table, row or cell.
type docxFrame struct {
	kind     docxFrameKind
	text     strings.Builder // paragraph text
	numID    string          // paragraph numbering, "" for none
	ilvl     int
	style    string
	hasNumPr bool
	parts    []string // a row's cells or a cell's paragraphs
	pictures []int    // a paragraph's pictures, as indexes of docxWalker.pictureIDs
}

// docxField is an open field: complex (w:fldChar begin … end) or simple
// (w:fldSimple).
type docxField struct {
	simple  bool
	result  bool // past w:fldChar separate: its runs are the shown result
	dropped bool // its result was left out
	instr   strings.Builder
}

// docxSection is the header and footer references of one section.
type docxSection struct {
	titlePg bool
	refs    []docxHdrRef
}

type docxHdrRef struct {
	footer bool
	typ    string // default, first, even
	id     string // relationship id
}

// maxDocxFieldDepth bounds the open-field stack of a hostile file.
const maxDocxFieldDepth = 64

// docxWalker streams a WordprocessingML part (document, notes, header or
// footer) into lines of text.
type docxWalker struct {
	num    *numbering
	styles map[string]numRef
	max    int
	size   *int // text bytes written by every walker of the file
	out    strings.Builder
	stack  []*docxFrame
	skip   int
	inRun  int
	inText bool
	inPPr  bool
	seen   bool // the part exists

	// The document: its note references and its sections.
	refs     map[string]*docxNotes // "footnoteReference" → footnotes
	mark     *docxNoteRef          // a custom note mark being read
	notePr   string                // the open w:footnotePr or w:endnotePr of a section
	sect     *docxSection
	sections []docxSection

	// A notes part: note id → text.
	notes     map[string]string
	noteID    string
	noteStart int

	// Headers and footers leave out page numbers and dates.
	dropPageFields bool
	fields         []*docxField
	inInstr        bool

	// The document's pictures (the body's only: a header's are logos),
	// by relationship id, each placed as a picture mark; nil in other parts.
	pictures pictureNumbers
}

// walkPart walks a part; an absent part is no text.
func (w *docxWalker) walkPart(z *zipArchive, part string) error {
	if part == "" {
		return nil
	}
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return err
	}
	w.seen = true
	return w.walk(d)
}

func (w *docxWalker) walk(d *xml.Decoder) error {
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if w.skip > 0 || docxSkipped[t.Name.Local] || w.separatorNote(t) {
				w.skip++
				continue
			}
			w.start(t)
		case xml.EndElement:
			if w.skip > 0 {
				w.skip--
				continue
			}
			if err := w.end(t.Name.Local); err != nil {
				return err
			}
		case xml.CharData:
			if w.skip > 0 {
				continue
			}
			if w.inInstr && len(w.fields) > 0 {
				if f := w.fields[len(w.fields)-1]; f.instr.Len() < 256 {
					f.instr.Write(t)
				}
			}
			if !w.inText {
				continue
			}
			if w.dropPageFields {
				if f := w.pageField(); f != nil {
					if p := w.paragraph(); p != nil && !f.dropped {
						p.text.WriteByte(droppedField)
					}
					f.dropped = true
					continue
				}
			}
			if p := w.paragraph(); p != nil {
				p.text.Write(t)
				if w.mark != nil && w.mark.mark.Len() < 16 {
					w.mark.mark.Write(t)
				}
				if p.text.Len() > w.max {
					return errTooMuchText
				}
			}
		}
	}
}

// separatorNote is a notes part's separator line entry, which holds no text.
func (w *docxWalker) separatorNote(t xml.StartElement) bool {
	if w.notes == nil || (t.Name.Local != "footnote" && t.Name.Local != "endnote") {
		return false
	}
	typ := attr(t, "type")
	return typ != "" && typ != "normal"
}

func (w *docxWalker) start(t xml.StartElement) {
	p := w.paragraph()
	switch t.Name.Local {
	case "p":
		w.stack = append(w.stack, &docxFrame{kind: frameParagraph})
	case "pPr":
		w.inPPr = w.top(frameParagraph)
	case "pStyle":
		if w.inPPr {
			p.style = attr(t, "val")
		}
	case "numPr":
		if w.inPPr {
			p.hasNumPr = true
		}
	case "numId":
		if w.inPPr {
			p.numID = attr(t, "val")
		}
	case "ilvl":
		if w.inPPr {
			p.ilvl, _ = strconv.Atoi(attr(t, "val"))
		}
	case "r":
		w.inRun++
	case "t":
		w.inText = w.inRun > 0
	case "tab", "ptab":
		w.write(p, "\t")
	case "br", "cr":
		w.write(p, "\n")
	case "noBreakHyphen":
		w.write(p, "-")
	case "sym":
		w.write(p, symbolText(attr(t, "font"), attr(t, "char")))
	case "blip": // a:blip r:embed, a DrawingML picture
		w.picture(p, nsAttr(t, "embed"))
	case "imagedata": // v:imagedata r:id, a VML picture (Word 2003 and older)
		w.picture(p, nsAttr(t, "id"))
	case "tbl":
		w.stack = append(w.stack, &docxFrame{kind: frameTable})
	case "tr":
		w.stack = append(w.stack, &docxFrame{kind: frameRow})
	case "tc":
		w.stack = append(w.stack, &docxFrame{kind: frameCell})
	case "footnoteReference", "endnoteReference":
		w.noteReference(p, t)
	case "footnote", "endnote":
		if w.notes != nil {
			w.noteID, w.noteStart = attr(t, "id"), w.out.Len()
		}
	case "fldChar":
		switch attr(t, "fldCharType") {
		case "begin":
			w.pushField(&docxField{})
		case "separate":
			if f := w.lastField(false); f != nil {
				f.result = true
			}
		case "end":
			w.popField(false)
		}
	case "fldSimple":
		f := &docxField{simple: true, result: true}
		f.instr.WriteString(attr(t, "instr"))
		w.pushField(f)
	case "instrText":
		w.inInstr = true
	case "sectPr":
		w.sect = &docxSection{}
	case "headerReference", "footerReference":
		if w.sect != nil {
			w.sect.refs = append(w.sect.refs, docxHdrRef{footer: t.Name.Local == "footerReference", typ: attr(t, "type"), id: attr(t, "id")})
		}
	case "titlePg":
		if w.sect != nil {
			w.sect.titlePg = onOff(t)
		}
	case "footnotePr", "endnotePr":
		if w.sect != nil {
			w.notePr = strings.TrimSuffix(t.Name.Local, "Pr") + "Reference"
		}
	case "numFmt", "numStart":
		if n := w.refs[w.notePr]; n != nil {
			if t.Name.Local == "numFmt" {
				n.sectFmt = attr(t, "val")
			} else if v, err := strconv.Atoi(attr(t, "val")); err == nil {
				n.sectStart = v
			}
		}
	}
}

func (w *docxWalker) end(local string) error {
	switch local {
	case "pPr":
		w.inPPr = false
	case "r":
		w.inRun = max(0, w.inRun-1)
		w.mark = nil
	case "t":
		w.inText = false
	case "instrText":
		w.inInstr = false
	case "fldSimple":
		w.popField(true)
	case "p":
		f := w.pop(frameParagraph)
		if f == nil {
			return nil
		}
		if err := w.emit(w.listPrefix(f) + strings.TrimSpace(f.text.String())); err != nil {
			return err
		}
		for _, i := range f.pictures { // after the paragraph's words, each a paragraph of its own
			if err := w.emit(pictureMark(i)); err != nil {
				return err
			}
		}
	case "tc":
		if f := w.pop(frameCell); f != nil {
			if row := w.nearest(frameRow); row != nil {
				row.parts = append(row.parts, strings.Join(f.parts, " "))
			}
		}
	case "tr":
		if f := w.pop(frameRow); f != nil && strings.TrimSpace(strings.Join(f.parts, "")) != "" {
			return w.emit(strings.Join(f.parts, " | "))
		}
	case "tbl":
		w.pop(frameTable)
	case "footnote", "endnote":
		if w.notes != nil && w.noteID != "" {
			w.notes[w.noteID] = strings.TrimSpace(w.out.String()[w.noteStart:])
			w.noteID = ""
		}
	case "sectPr":
		if w.sect != nil {
			w.sections = append(w.sections, *w.sect)
			w.sect = nil
		}
	case "footnotePr", "endnotePr":
		w.notePr = ""
	}
	return nil
}

// noteReference writes a numbered note's mark ("\x00f3\x00", replaced by its
// label once the section's number format is known: XML text can hold no
// NUL). A custom mark is the run's own text, which follows.
func (w *docxWalker) noteReference(p *docxFrame, t xml.StartElement) {
	n := w.refs[t.Name.Local]
	if n == nil || p == nil || w.inRun == 0 {
		return
	}
	custom := attr(t, "customMarkFollows")
	ref := n.reference(attr(t, "id"), custom == "1" || custom == "true" || custom == "on")
	if ref.custom {
		w.mark = ref
		return
	}
	p.text.WriteString("\x00" + t.Name.Local[:1] + strconv.Itoa(ref.index) + "\x00")
}

// picture records a picture placed in paragraph p by relationship id; a
// picture met twice keeps its first index, so it is read once.
func (w *docxWalker) picture(p *docxFrame, id string) {
	if p == nil {
		return
	}
	if i, ok := w.pictures.number(id); ok {
		p.pictures = append(p.pictures, i)
	}
}

func (w *docxWalker) pushField(f *docxField) {
	if len(w.fields) < maxDocxFieldDepth {
		w.fields = append(w.fields, f)
	}
}

func (w *docxWalker) lastField(simple bool) *docxField {
	for i := len(w.fields) - 1; i >= 0; i-- {
		if w.fields[i].simple == simple {
			return w.fields[i]
		}
	}
	return nil
}

func (w *docxWalker) popField(simple bool) {
	for i := len(w.fields) - 1; i >= 0; i-- {
		if w.fields[i].simple == simple {
			w.fields = append(w.fields[:i], w.fields[i+1:]...)
			return
		}
	}
}

// droppedField stands where a page number or date was left out of a header
// ("Page \x01 of \x01"); XML text can hold no U+0001.
const droppedField = '\x01'

// pageField returns the open field whose shown result is being read when it
// is a page number, page count or date, whose value depends on the page or
// the day the file is opened; nil otherwise.
func (w *docxWalker) pageField() *docxField {
	for _, f := range w.fields {
		if !f.result {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimSpace(f.instr.String()), " ")
		switch strings.ToUpper(name) {
		case "PAGE", "NUMPAGES", "SECTIONPAGES", "SECTION", "DATE", "TIME":
			return f
		}
	}
	return nil
}

// write adds text to the open paragraph when inside a run (w:tab and w:br
// also appear in paragraph properties, where they are not text).
func (w *docxWalker) write(p *docxFrame, s string) {
	if p != nil && w.inRun > 0 {
		p.text.WriteString(s)
	}
}

// emit hands a finished line to the innermost cell, or to the output. A
// text box inside a paragraph writes its lines to the output directly.
func (w *docxWalker) emit(line string) error {
	if i := w.innermost(frameCell, frameParagraph); i >= 0 && w.stack[i].kind == frameCell {
		if line = strings.TrimSpace(line); line != "" {
			w.stack[i].parts = append(w.stack[i].parts, line)
		}
		return nil
	}
	w.out.WriteString(line)
	w.out.WriteByte('\n')
	if *w.size += len(line) + 1; *w.size > w.max {
		return errTooMuchText
	}
	return nil
}

// innermost returns the index of the innermost open frame of one of the
// kinds, or -1.
func (w *docxWalker) innermost(kinds ...docxFrameKind) int {
	for i := len(w.stack) - 1; i >= 0; i-- {
		for _, k := range kinds {
			if w.stack[i].kind == k {
				return i
			}
		}
	}
	return -1
}

func (w *docxWalker) top(kind docxFrameKind) bool {
	return len(w.stack) > 0 && w.stack[len(w.stack)-1].kind == kind
}

func (w *docxWalker) nearest(kind docxFrameKind) *docxFrame {
	if i := w.innermost(kind); i >= 0 {
		return w.stack[i]
	}
	return nil
}

func (w *docxWalker) paragraph() *docxFrame { return w.nearest(frameParagraph) }

// pop closes the innermost frame of a kind, and any frames a malformed
// file left open above it.
func (w *docxWalker) pop(kind docxFrameKind) *docxFrame {
	i := w.innermost(kind)
	if i < 0 {
		return nil
	}
	f := w.stack[i]
	w.stack = w.stack[:i]
	return f
}

// listPrefix is a list item's bullet or number, indented by level.
func (w *docxWalker) listPrefix(p *docxFrame) string {
	numID, ilvl := p.numID, p.ilvl
	if ref, ok := w.styles[p.style]; ok {
		switch {
		case !p.hasNumPr:
			numID, ilvl = ref.numID, ref.ilvl
		case numID == "": // the paragraph sets only the level
			numID = ref.numID
		}
	}
	if numID == "" || numID == "0" || strings.TrimSpace(p.text.String()) == "" {
		return ""
	}
	ilvl = min(max(ilvl, 0), 8)
	return strings.Repeat("  ", ilvl) + w.num.label(numID, ilvl)
}

// docxNotes is a document's footnotes or endnotes: their text by id, and
// the references met in the body, in order.
type docxNotes struct {
	heading    string // "Footnotes"
	fmtDefault string // Word's: decimal footnotes, lower-roman endnotes
	fmt        string // from settings.xml
	start      int
	sectFmt    string // from the section properties, which win
	sectStart  int
	text       map[string]string
	refs       []*docxNoteRef
	byID       map[string]*docxNoteRef
}

// docxNoteRef is one referenced note: numbered, or marked by its own text.
type docxNoteRef struct {
	id     string
	index  int
	custom bool
	mark   strings.Builder // the custom mark
}

// reference records a reference to note id and returns it; a note referenced
// twice keeps its first number.
func (n *docxNotes) reference(id string, custom bool) *docxNoteRef {
	if r, ok := n.byID[id]; ok && !custom {
		return r
	}
	if n.byID == nil {
		n.byID = map[string]*docxNoteRef{}
	}
	r := &docxNoteRef{id: id, index: len(n.refs), custom: custom}
	n.refs = append(n.refs, r)
	if !custom {
		n.byID[id] = r
	}
	return r
}

// labels returns each reference's label: "[1]", "[ii]", or "[*]" for a
// custom mark.
func (n *docxNotes) labels() []string {
	format := cmp.Or(n.sectFmt, n.fmt, n.fmtDefault)
	num := cmp.Or(n.sectStart, n.start, 1)
	out := make([]string, len(n.refs))
	for i, r := range n.refs {
		if r.custom {
			out[i] = "[" + cmp.Or(strings.TrimSpace(r.mark.String()), "*") + "]"
			continue
		}
		if format == "chicago" { // *, †, ‡, §, then doubled
			sym := []string{"*", "†", "‡", "§"}
			out[i] = "[" + strings.Repeat(sym[(num-1)%4], min((num-1)/4+1, 4)) + "]"
		} else {
			out[i] = "[" + formatNumber(num, format) + "]"
		}
		num++
	}
	return out
}

// list is the notes under their heading, each after its label, in the
// order they are referenced; "" when none has text.
func (n *docxNotes) list() string {
	labels := n.labels()
	var b strings.Builder
	for i, r := range n.refs {
		text := n.text[r.id]
		if text == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteString(n.heading)
		}
		b.WriteString("\n" + labels[i] + " " + text)
	}
	return b.String()
}

// resolveNoteMarks replaces the body's note placeholders with their labels.
func (w *docxWalker) resolveNoteMarks(s string) string {
	if !strings.Contains(s, "\x00") {
		return s
	}
	labels := map[byte][]string{}
	for ref, n := range w.refs {
		labels[ref[0]] = n.labels()
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		j := strings.IndexByte(s, 0)
		if j < 1 {
			continue
		}
		if k, err := strconv.Atoi(s[1:j]); err == nil && k < len(labels[s[0]]) {
			b.WriteString(labels[s[0]][k])
		}
		s = s[j+1:]
	}
}

// docxSettings is what settings.xml says about notes and headers.
type docxSettings struct {
	evenAndOdd bool
	notes      map[string]struct {
		fmt   string
		start int
	}
}

func (s docxSettings) note(ref string) (string, int) {
	n := s.notes[ref]
	return n.fmt, n.start
}

func readDOCXSettings(z *zipArchive, part string) (docxSettings, error) {
	var out docxSettings
	if part == "" {
		return out, nil
	}
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return out, err
	}
	type xVal struct {
		Val *string `xml:"val,attr"`
	}
	type xNotePr struct {
		Fmt   xVal `xml:"numFmt"`
		Start xVal `xml:"numStart"`
	}
	var doc struct {
		EvenAndOdd *xVal    `xml:"evenAndOddHeaders"`
		Footnote   *xNotePr `xml:"footnotePr"`
		Endnote    *xNotePr `xml:"endnotePr"`
	}
	if err := d.Decode(&doc); err != nil {
		return out, fmt.Errorf("settings: %w", err)
	}
	out.evenAndOdd = doc.EvenAndOdd != nil && onOffVal(doc.EvenAndOdd.Val)
	out.notes = map[string]struct {
		fmt   string
		start int
	}{}
	for ref, pr := range map[string]*xNotePr{"footnoteReference": doc.Footnote, "endnoteReference": doc.Endnote} {
		if pr == nil {
			continue
		}
		n := out.notes[ref]
		if pr.Fmt.Val != nil {
			n.fmt = *pr.Fmt.Val
		}
		if pr.Start.Val != nil {
			n.start, _ = strconv.Atoi(*pr.Start.Val)
		}
		out.notes[ref] = n
	}
	return out, nil
}

// onOff reads a WordprocessingML on/off element: present means on unless
// its val says otherwise.
func onOff(t xml.StartElement) bool {
	for _, a := range t.Attr {
		if a.Name.Local == "val" {
			return onOffVal(&a.Value)
		}
	}
	return true
}

func onOffVal(v *string) bool {
	if v == nil {
		return true
	}
	switch *v {
	case "0", "false", "off":
		return false
	}
	return true
}

// docxHeadersFooters reads the headers and footers the sections show (the
// first-page ones only with a distinct first page, the even-page ones only
// with distinct odd and even pages), each distinct text once, labelled
// "Header: " or "Footer: ". Page numbers and dates are left out, and a
// header left with nothing else ("Page 3 of 5") is not shown.
func docxHeadersFooters(z *zipArchive, rels map[string]relationship, sections []docxSection, evenAndOdd bool, newWalker func() *docxWalker) (headers, footers []string, err error) {
	parts := map[string]bool{}
	texts := map[string]bool{}
	for _, sect := range sections {
		for _, typ := range []string{"first", "default", "even"} {
			if (typ == "first" && !sect.titlePg) || (typ == "even" && !evenAndOdd) {
				continue
			}
			for _, ref := range sect.refs {
				if cmp.Or(ref.typ, "default") != typ {
					continue
				}
				rel, ok := rels[ref.id]
				if !ok || parts[rel.Target] {
					continue
				}
				parts[rel.Target] = true
				w := newWalker()
				w.dropPageFields = true
				if err := w.walkPart(z, rel.Target); err != nil {
					return nil, nil, err
				}
				text := headerText(w.out.String())
				if text == "" || texts[text] {
					continue
				}
				texts[text] = true
				if ref.footer {
					footers = append(footers, "Footer: "+text)
				} else {
					headers = append(headers, "Header: "+text)
				}
			}
		}
	}
	return headers, footers, nil
}

// pageLabel is a page number left out of a header with its label: "Page 3",
// "Page 3 of 5", "p. 3", "3/5".
var pageLabel = regexp.MustCompile(`(?i)(\b(pages?|pg\.?|p\.)\s*)?\x01+(\s*(of|/)\s*\x01+)?`)

// headerText removes the page numbers and dates of a header or footer and
// the lines left with no words.
func headerText(s string) string {
	var keep []string
	for _, line := range strings.Split(pageLabel.ReplaceAllString(s, ""), "\n") {
		if strings.IndexFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			keep = append(keep, strings.TrimSpace(line))
		}
	}
	return strings.Join(keep, "\n")
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// numRef is a paragraph style's numbering.
type numRef struct {
	numID string
	ilvl  int
}

// readStyleNumbering maps paragraph style ids to the numbering they carry
// (Word's "List Bullet" and "List Number" styles number paragraphs this way).
func readStyleNumbering(z *zipArchive, part string) (map[string]numRef, error) {
	if part == "" {
		return nil, nil
	}
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return nil, err
	}
	type xVal struct {
		Val string `xml:"val,attr"`
	}
	var doc struct {
		Styles []struct {
			ID      string `xml:"styleId,attr"`
			BasedOn xVal   `xml:"basedOn"`
			NumPr   *struct {
				NumID *xVal `xml:"numId"`
				Ilvl  *xVal `xml:"ilvl"`
			} `xml:"pPr>numPr"`
		} `xml:"style"`
	}
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("styles: %w", err)
	}
	direct := map[string]numRef{}
	basedOn := map[string]string{}
	for _, s := range doc.Styles {
		basedOn[s.ID] = s.BasedOn.Val
		if s.NumPr != nil && s.NumPr.NumID != nil {
			ref := numRef{numID: s.NumPr.NumID.Val}
			if s.NumPr.Ilvl != nil {
				ref.ilvl, _ = strconv.Atoi(s.NumPr.Ilvl.Val)
			}
			direct[s.ID] = ref
		}
	}
	out := map[string]numRef{}
	for id := range basedOn {
		cur := id
		for range 10 { // follows basedOn, bounded against cycles
			if ref, ok := direct[cur]; ok {
				out[id] = ref
				break
			}
			if cur = basedOn[cur]; cur == "" {
				break
			}
		}
	}
	return out, nil
}

// numLevel is one level of a list definition.
type numLevel struct {
	format string // decimal, bullet, lowerLetter, …
	text   string // "%1." style label template
	start  int
}

// numbering holds a document's list definitions and the counters of the
// lists met so far.
type numbering struct {
	levels   map[string]*[9]numLevel // numId → levels
	counters map[string]*[9]int
	started  map[string]*[9]bool
}

// readNumbering parses numbering.xml; without one, every list is bulleted.
func readNumbering(z *zipArchive, part string) (*numbering, error) {
	n := &numbering{levels: map[string]*[9]numLevel{}, counters: map[string]*[9]int{}, started: map[string]*[9]bool{}}
	if part == "" {
		return n, nil
	}
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return n, err
	}
	type xVal struct {
		Val string `xml:"val,attr"`
	}
	type xLvl struct {
		Ilvl  int   `xml:"ilvl,attr"`
		Start *xVal `xml:"start"`
		Fmt   xVal  `xml:"numFmt"`
		Text  *xVal `xml:"lvlText"`
	}
	var doc struct {
		Abstract []struct {
			ID     string `xml:"abstractNumId,attr"`
			Levels []xLvl `xml:"lvl"`
		} `xml:"abstractNum"`
		Nums []struct {
			ID        string `xml:"numId,attr"`
			Abstract  xVal   `xml:"abstractNumId"`
			Overrides []struct {
				Ilvl  int   `xml:"ilvl,attr"`
				Start *xVal `xml:"startOverride"`
				Lvl   *xLvl `xml:"lvl"`
			} `xml:"lvlOverride"`
		} `xml:"num"`
	}
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("numbering: %w", err)
	}
	toLevel := func(l xLvl) numLevel {
		out := numLevel{format: l.Fmt.Val, start: 1}
		if l.Start != nil {
			out.start, _ = strconv.Atoi(l.Start.Val)
		}
		if l.Text != nil {
			out.text = l.Text.Val
		}
		return out
	}
	abstract := map[string][9]numLevel{}
	for _, a := range doc.Abstract {
		var lv [9]numLevel
		for i := range lv {
			lv[i] = numLevel{format: "decimal", text: "%" + strconv.Itoa(i+1) + ".", start: 1}
		}
		for _, l := range a.Levels {
			if l.Ilvl >= 0 && l.Ilvl < 9 {
				lv[l.Ilvl] = toLevel(l)
			}
		}
		abstract[a.ID] = lv
	}
	for _, num := range doc.Nums {
		lv, ok := abstract[num.Abstract.Val]
		if !ok {
			continue
		}
		for _, o := range num.Overrides {
			if o.Ilvl < 0 || o.Ilvl >= 9 {
				continue
			}
			if o.Lvl != nil {
				lv[o.Ilvl] = toLevel(*o.Lvl)
			}
			if o.Start != nil {
				lv[o.Ilvl].start, _ = strconv.Atoi(o.Start.Val)
			}
		}
		n.levels[num.ID] = &lv
	}
	return n, nil
}

// label counts a list item and returns its label and a space: "- " for a
// bullet, "2. " or "1.3. " for numbers, "" for an unlabelled level.
func (n *numbering) label(numID string, ilvl int) string {
	lv, ok := n.levels[numID]
	if !ok {
		return "- "
	}
	if n.counters[numID] == nil {
		n.counters[numID] = &[9]int{}
		n.started[numID] = &[9]bool{}
	}
	c, s := n.counters[numID], n.started[numID]
	if s[ilvl] {
		c[ilvl]++
	} else {
		c[ilvl], s[ilvl] = lv[ilvl].start, true
	}
	for i := ilvl + 1; i < 9; i++ {
		s[i] = false
	}
	switch lv[ilvl].format {
	case "bullet":
		return "- "
	case "none":
		return ""
	}
	tmpl := lv[ilvl].text
	if tmpl == "" {
		tmpl = "%" + strconv.Itoa(ilvl+1) + "."
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == '%' && i+1 < len(tmpl) && tmpl[i+1] >= '1' && tmpl[i+1] <= '9' {
			k := int(tmpl[i+1] - '1')
			v := c[k]
			if !s[k] {
				v = lv[k].start
			}
			b.WriteString(formatNumber(v, lv[k].format))
			i++
			continue
		}
		b.WriteByte(tmpl[i])
	}
	label := strings.TrimSpace(b.String())
	if label == "" {
		return ""
	}
	return label + " "
}

// formatNumber writes n in a Word or PowerPoint number format.
func formatNumber(n int, format string) string {
	switch {
	case strings.HasPrefix(format, "lowerLetter"), strings.HasPrefix(format, "alphaLc"):
		return letters(n, 'a')
	case strings.HasPrefix(format, "upperLetter"), strings.HasPrefix(format, "alphaUc"):
		return letters(n, 'A')
	case strings.HasPrefix(format, "lowerRoman"), strings.HasPrefix(format, "romanLc"):
		return strings.ToLower(roman(n))
	case strings.HasPrefix(format, "upperRoman"), strings.HasPrefix(format, "romanUc"):
		return roman(n)
	case format == "decimalZero" && n < 10 && n >= 0:
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// letters writes 1 → a, 26 → z, 27 → aa (Word's letter numbering).
func letters(n int, base byte) string {
	if n < 1 || n > 780 {
		return strconv.Itoa(n)
	}
	return strings.Repeat(string(rune(base)+rune((n-1)%26)), (n-1)/26+1)
}

func roman(n int) string {
	if n < 1 || n > 3999 {
		return strconv.Itoa(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}
