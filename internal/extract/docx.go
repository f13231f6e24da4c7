package extract

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// errTooMuchText stops a reader whose text passed Limits.MaxTextBytes.
var errTooMuchText = errors.New("text exceeds the limit")

// readDOCX reads a Word file: paragraphs in order, list items with their
// bullet ("- ") or number ("1. "), table rows as cells joined by " | ".
// Deleted tracked changes, field codes and the duplicate fallback copies of
// text boxes are left out.
func (r *Reader) readDOCX(data []byte) (Result, error) {
	z, err := openZip(data, r.lim)
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	main, err := z.mainPartName()
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	if main == "" || z.file(main) == nil {
		main = "word/document.xml"
	}
	rels, err := z.rels(main)
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	num, err := readNumbering(z, relTarget(rels, "/numbering"))
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	styles, err := readStyleNumbering(z, relTarget(rels, "/styles"))
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	d, err := z.decoder(main)
	if err != nil {
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	if d == nil {
		return Result{}, permanentf(ReasonDOCXDamaged, "no main document part")
	}
	w := &docxWalker{num: num, styles: styles, max: r.lim.MaxTextBytes}
	if err := w.walk(d); err != nil {
		if errors.Is(err, errTooMuchText) {
			return Result{}, r.lim.tooMuchText()
		}
		return Result{}, zipError(ReasonDOCXDamaged, err)
	}
	return Result{Pages: []Page{{Text: w.out.String(), Source: SourceFile}}}, nil
}

// docxSkipped are elements whose subtree holds no visible text: deletions,
// field codes, old formatting of tracked changes, and mc:Fallback (a second
// copy of what mc:Choice holds).
var docxSkipped = map[string]bool{
	"Fallback": true, "del": true, "moveFrom": true, "instrText": true, "delText": true,
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
}

// docxWalker streams document.xml into lines of text.
type docxWalker struct {
	num    *numbering
	styles map[string]numRef
	max    int
	out    strings.Builder
	stack  []*docxFrame
	skip   int
	inRun  int
	inText bool
	inPPr  bool
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
			if w.skip > 0 || docxSkipped[t.Name.Local] {
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
			if w.skip == 0 && w.inText {
				if p := w.paragraph(); p != nil {
					p.text.Write(t)
					if p.text.Len() > w.max {
						return errTooMuchText
					}
				}
			}
		}
	}
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
	case "tab":
		w.write(p, "\t")
	case "br", "cr":
		w.write(p, "\n")
	case "noBreakHyphen":
		w.write(p, "-")
	case "tbl":
		w.stack = append(w.stack, &docxFrame{kind: frameTable})
	case "tr":
		w.stack = append(w.stack, &docxFrame{kind: frameRow})
	case "tc":
		w.stack = append(w.stack, &docxFrame{kind: frameCell})
	}
}

func (w *docxWalker) end(local string) error {
	switch local {
	case "pPr":
		w.inPPr = false
	case "r":
		w.inRun = max(0, w.inRun-1)
	case "t":
		w.inText = false
	case "p":
		f := w.pop(frameParagraph)
		if f == nil {
			return nil
		}
		return w.emit(w.listPrefix(f) + strings.TrimSpace(f.text.String()))
	case "tc":
		if f := w.pop(frameCell); f != nil {
			if row := w.nearest(frameRow); row != nil {
				row.parts = append(row.parts, strings.Join(f.parts, " "))
			}
		}
	case "tr":
		if f := w.pop(frameRow); f != nil {
			return w.emit(strings.Join(f.parts, " | "))
		}
	case "tbl":
		w.pop(frameTable)
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
	if w.out.Len() > w.max {
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
