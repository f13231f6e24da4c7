package extract

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

// readPPTX reads a PowerPoint file: one page per slide in presentation
// order, titles first, bulleted and numbered paragraphs labelled, table rows
// as cells joined by " | ", and the speaker notes last as "Notes: …".
func (r *Reader) readPPTX(data []byte) (Result, error) {
	z, err := openZip(data, r.lim)
	if err != nil {
		return Result{}, zipError(ReasonPPTXDamaged, err)
	}
	main, err := z.mainPartName()
	if err != nil {
		return Result{}, zipError(ReasonPPTXDamaged, err)
	}
	if main == "" || z.file(main) == nil {
		main = "ppt/presentation.xml"
	}
	slides, err := slideParts(z, main)
	if err != nil {
		return Result{}, zipError(ReasonPPTXDamaged, err)
	}
	if len(slides) > r.lim.MaxPages {
		return Result{}, r.lim.tooManyPages(KindPPTX, len(slides))
	}
	res := Result{Pages: make([]Page, 0, len(slides))}
	total := 0
	for _, part := range slides {
		text, err := readSlide(z, part, r.lim.MaxTextBytes-total)
		if errors.Is(err, errTooMuchText) {
			return Result{}, r.lim.tooMuchText()
		}
		if err != nil {
			return Result{}, zipError(ReasonPPTXDamaged, err)
		}
		total += len(text)
		res.Pages = append(res.Pages, Page{Text: text, Source: SourceFile})
	}
	return res, nil
}

// slideParts lists the slide parts in the order of the presentation's
// slide list.
func slideParts(z *zipArchive, main string) ([]string, error) {
	rels, err := z.rels(main)
	if err != nil {
		return nil, err
	}
	d, err := z.decoder(main)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errors.New("no presentation part")
	}
	var parts []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return parts, nil
		}
		if err != nil {
			return nil, err
		}
		t, ok := tok.(xml.StartElement)
		if !ok || t.Name.Local != "sldId" {
			continue
		}
		for _, a := range t.Attr {
			// r:id (a namespaced attribute), not the slide's numeric id.
			if a.Name.Local == "id" && a.Name.Space != "" {
				if rel, ok := rels[a.Value]; ok && z.file(rel.Target) != nil {
					parts = append(parts, rel.Target)
				}
			}
		}
		if len(parts) > z.lim.MaxPages {
			return parts, nil
		}
	}
}

// readSlide returns a slide's text followed by its speaker notes.
func readSlide(z *zipArchive, part string, budget int) (string, error) {
	d, err := z.decoder(part)
	if err != nil {
		return "", err
	}
	w := &slideWalker{max: budget}
	if err := w.walk(d); err != nil {
		return "", err
	}
	text := w.text()
	rels, err := z.rels(part)
	if err != nil {
		return "", err
	}
	if notes := relTarget(rels, "/notesSlide"); notes != "" {
		d, err := z.decoder(notes)
		if err != nil {
			return "", err
		}
		if d != nil {
			nw := &slideWalker{max: budget - len(text), notes: true}
			if err := nw.walk(d); err != nil {
				return "", err
			}
			if n := nw.text(); n != "" {
				text = strings.TrimSpace(text + "\n\nNotes: " + n)
			}
		}
	}
	return text, nil
}

// slideShape is the text of one shape or table.
type slideShape struct {
	title bool
	body  bool // a body placeholder: its paragraphs are bulleted by the master
	skip  bool // slide image, number, date, header or footer placeholder
	lines []string
	count [9]int // numbered paragraph counters by level
}

// slidePara is an open paragraph.
type slidePara struct {
	text   strings.Builder
	lvl    int
	bullet string // "none", "char", "auto" or "" (inherited)
	auto   string // buAutoNum type
	start  int
}

// slideWalker streams a slide or notes slide into shapes.
type slideWalker struct {
	max    int
	notes  bool
	size   int
	shapes []*slideShape
	stack  []*slideShape // open shapes (groups nest)
	para   *slidePara
	row    []string
	cell   []string
	inCell bool
	inText bool
	skip   int
}

func (w *slideWalker) walk(d *xml.Decoder) error {
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
			if w.skip > 0 || t.Name.Local == "Fallback" {
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
			if w.inText && w.para != nil {
				w.para.text.Write(t)
				if w.size += len(t); w.size > w.max {
					return errTooMuchText
				}
			}
		}
	}
}

func (w *slideWalker) shape() *slideShape {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

func (w *slideWalker) start(t xml.StartElement) {
	switch t.Name.Local {
	case "sp", "graphicFrame", "cxnSp":
		s := &slideShape{}
		w.stack = append(w.stack, s)
		w.shapes = append(w.shapes, s)
	case "ph":
		if s := w.shape(); s != nil {
			switch typ := attr(t, "type"); typ {
			case "title", "ctrTitle":
				s.title = true
			case "sldImg", "sldNum", "dt", "hdr", "ftr":
				s.skip = true
			case "", "body", "obj":
				s.body = !w.notes
			}
		}
	case "p":
		w.para = &slidePara{}
	case "pPr":
		if w.para != nil {
			w.para.lvl, _ = strconv.Atoi(attr(t, "lvl"))
		}
	case "buNone":
		if w.para != nil {
			w.para.bullet = "none"
		}
	case "buChar", "buBlip":
		if w.para != nil {
			w.para.bullet = "char"
		}
	case "buAutoNum":
		if w.para != nil {
			w.para.bullet, w.para.auto = "auto", attr(t, "type")
			w.para.start, _ = strconv.Atoi(attr(t, "startAt"))
		}
	case "t":
		w.inText = true
	case "br":
		if w.para != nil {
			w.para.text.WriteByte('\n')
		}
	case "tr":
		w.row = nil
	case "tc":
		w.cell, w.inCell = nil, true
	}
}

func (w *slideWalker) end(local string) error {
	switch local {
	case "sp", "graphicFrame", "cxnSp":
		if len(w.stack) > 0 {
			w.stack = w.stack[:len(w.stack)-1]
		}
	case "t":
		w.inText = false
	case "p":
		if w.para == nil {
			return nil
		}
		text := strings.TrimSpace(w.para.text.String())
		s := w.shape()
		if text != "" && s != nil {
			line := w.label(s, w.para) + text
			if w.inCell {
				w.cell = append(w.cell, line)
			} else {
				s.lines = append(s.lines, line)
			}
		}
		w.para = nil
	case "tc":
		w.row = append(w.row, strings.Join(w.cell, " "))
		w.cell, w.inCell = nil, false
	case "tr":
		if s := w.shape(); s != nil && strings.TrimSpace(strings.Join(w.row, "")) != "" {
			s.lines = append(s.lines, strings.Join(w.row, " | "))
		}
		w.row = nil
	}
	return nil
}

// label is a paragraph's indent and bullet or number.
func (w *slideWalker) label(s *slideShape, p *slidePara) string {
	lvl := min(max(p.lvl, 0), 8)
	indent := strings.Repeat("  ", lvl)
	for i := lvl + 1; i < 9; i++ {
		s.count[i] = 0
	}
	switch {
	case p.bullet == "auto":
		if s.count[lvl] == 0 {
			s.count[lvl] = max(p.start, 1)
		} else {
			s.count[lvl]++
		}
		return indent + autoNumber(s.count[lvl], p.auto) + " "
	case p.bullet == "char", p.bullet == "" && s.body && !s.title && !w.inCell:
		s.count[lvl] = 0
		return indent + "- "
	}
	s.count[lvl] = 0
	return indent
}

// autoNumber writes n as a DrawingML auto-number type says ("arabicPeriod"
// → "3.", "alphaLcParenR" → "c)").
func autoNumber(n int, typ string) string {
	num := formatNumber(n, typ)
	switch {
	case strings.HasSuffix(typ, "ParenBoth"):
		return "(" + num + ")"
	case strings.HasSuffix(typ, "ParenR"):
		return num + ")"
	case strings.HasSuffix(typ, "Plain"):
		return num
	}
	return num + "."
}

// text joins the shapes, titles first.
func (w *slideWalker) text() string {
	var titles, rest []string
	for _, s := range w.shapes {
		if s.skip || len(s.lines) == 0 {
			continue
		}
		block := strings.Join(s.lines, "\n")
		if s.title {
			titles = append(titles, block)
		} else {
			rest = append(rest, block)
		}
	}
	return strings.TrimSpace(strings.Join(append(titles, rest...), "\n"))
}
