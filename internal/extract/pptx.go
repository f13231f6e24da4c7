package extract

import (
	"cmp"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// readPPTX reads a PowerPoint file: one page per slide in presentation
// order, titles first, bulleted and numbered paragraphs labelled, table rows
// as cells joined by " | ", then the slide's SmartArt as the bulleted list
// of its text pane and its charts' words ("Chart: …", "Chart axis: …"), and
// the speaker notes last as "Notes: …". A picture on a slide is read by OCR
// where it stands among the slide's shapes (see pictures.go), once every
// slide's text has been read.
func (r *Reader) readPPTX(ctx context.Context, data []byte) (Result, error) {
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
	pictures := make([][]string, 0, len(slides))
	total := 0
	for _, part := range slides {
		text, pics, err := readSlide(z, part, r.lim.MaxTextBytes-total)
		if errors.Is(err, errTooMuchText) {
			return Result{}, r.lim.tooMuchText()
		}
		if err != nil {
			return Result{}, zipError(ReasonPPTXDamaged, err)
		}
		total += len(text)
		res.Pages = append(res.Pages, Page{Text: text, Source: SourceFile})
		pictures = append(pictures, pics)
	}
	// After the text: pictures spend the archive's unpacking budget, which
	// must never cost a slide its words.
	pr := r.newPictureReader(z)
	for i := range res.Pages {
		if err := pr.fill(ctx, &res.Pages[i], pictures[i]); err != nil {
			return Result{}, err
		}
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
		// r:id (a namespaced attribute), not the slide's numeric id.
		if rel, ok := rels[nsAttr(t, "id")]; ok && z.file(rel.Target) != nil {
			parts = append(parts, rel.Target)
		}
		if len(parts) > z.lim.MaxPages {
			return parts, nil
		}
	}
}

// readSlide returns a slide's text, its SmartArt and chart text, and its
// speaker notes, with a picture mark where each picture stands, and the
// pictures' part names by mark index.
func readSlide(z *zipArchive, part string, budget int) (string, []string, error) {
	d, err := z.decoder(part)
	if err != nil {
		return "", nil, err
	}
	w := &slideWalker{max: budget, pictures: pictureNumbers{byID: map[string]int{}}}
	if err := w.walk(d); err != nil {
		return "", nil, err
	}
	blocks := []string{w.text()}
	size := len(blocks[0])
	rels, err := z.rels(part)
	if err != nil {
		return "", nil, err
	}
	pictures := make([]string, len(w.pictures.ids))
	for i, id := range w.pictures.ids {
		pictures[i] = rels[id].Target
	}
	for _, g := range w.graphics {
		rel, ok := rels[g.id]
		if !ok {
			continue
		}
		var text string
		if g.chart {
			text, err = chartText(z, rel.Target, budget-size)
		} else {
			text, err = smartArtText(z, rel.Target, budget-size)
		}
		if err != nil {
			return "", nil, err
		}
		if text != "" {
			blocks = append(blocks, text)
			size += len(text)
		}
	}
	text := strings.TrimSpace(strings.Join(blocks, "\n"))
	if notes := relTarget(rels, "/notesSlide"); notes != "" {
		d, err := z.decoder(notes)
		if err != nil {
			return "", nil, err
		}
		if d != nil {
			nw := &slideWalker{max: budget - len(text), notes: true}
			if err := nw.walk(d); err != nil {
				return "", nil, err
			}
			if n := nw.text(); n != "" {
				text = strings.TrimSpace(text + "\n\nNotes: " + n)
			}
		}
	}
	return text, pictures, nil
}

// slideGraphic is a SmartArt diagram or chart placed on a slide: the
// relationship id of its data or chart part.
type slideGraphic struct {
	chart bool
	id    string
}

// maxSlideGraphics bounds the diagrams and charts read from one slide.
const maxSlideGraphics = 100

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
	// SmartArt and charts, in the order they are placed.
	graphics []slideGraphic
	// Pictures by relationship id, each placed as a picture mark in its
	// shape (nil in notes).
	pictures pictureNumbers
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
	case "sp", "graphicFrame", "cxnSp", "pic":
		s := &slideShape{}
		w.stack = append(w.stack, s)
		w.shapes = append(w.shapes, s)
	case "blip": // a:blip r:embed: a picture, or a shape filled with one
		w.picture(nsAttr(t, "embed"))
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
	case "relIds": // dgm:relIds r:dm="…": a SmartArt diagram's data part
		w.addGraphic(false, nsAttr(t, "dm"))
	case "chart": // c:chart r:id="…" in a graphic frame
		w.addGraphic(true, nsAttr(t, "id"))
	}
}

func (w *slideWalker) addGraphic(chart bool, id string) {
	if id != "" && !w.notes && len(w.graphics) < maxSlideGraphics {
		w.graphics = append(w.graphics, slideGraphic{chart: chart, id: id})
	}
}

// picture places a picture mark in the open shape. A picture bullet
// (a:buBlip, inside a paragraph), the slide's background (outside any shape)
// and the notes' pictures are left out.
func (w *slideWalker) picture(id string) {
	s := w.shape()
	if w.notes || s == nil || s.skip || w.para != nil {
		return
	}
	if i, ok := w.pictures.number(id); ok {
		s.lines = append(s.lines, pictureMark(i))
	}
}

// nsAttr returns a namespaced attribute (r:id, not id).
func nsAttr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

func (w *slideWalker) end(local string) error {
	switch local {
	case "sp", "graphicFrame", "cxnSp", "pic":
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

// smartNode is one point of a SmartArt data model.
type smartNode struct {
	typ   string
	paras []string
}

// smartLink is a parent-to-child connection of a SmartArt data model.
type smartLink struct {
	src, dest string
	ord       int
}

// maxSmartArtDepth bounds the nesting followed in a SmartArt tree.
const maxSmartArtDepth = 9

// smartArtText reads a SmartArt diagram's data part (ppt/diagrams/dataN.xml)
// as the list PowerPoint's text pane shows: each node's text a bulleted line,
// children indented under their parent, siblings in their order. The
// drawing part (drawingN.xml) repeats the same text laid out in shapes and is
// not read. Nodes reached from no parent are listed last.
func smartArtText(z *zipArchive, part string, budget int) (string, error) {
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return "", err
	}
	nodes := map[string]*smartNode{}
	var order []string
	var links []smartLink
	var cur *smartNode
	var para *strings.Builder
	inText, size := false, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "pt":
				id := attr(t, "modelId")
				if _, dup := nodes[id]; !dup {
					cur = &smartNode{typ: attr(t, "type")}
					nodes[id] = cur
					order = append(order, id)
				}
			case "cxn":
				if typ := attr(t, "type"); typ == "" || typ == "parOf" {
					ord, _ := strconv.Atoi(attr(t, "srcOrd"))
					links = append(links, smartLink{src: attr(t, "srcId"), dest: attr(t, "destId"), ord: ord})
				}
			case "p":
				if cur != nil {
					para = &strings.Builder{}
				}
			case "t":
				inText = para != nil
			case "br":
				if para != nil {
					para.WriteByte(' ')
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "pt":
				cur = nil
			case "p":
				if cur != nil && para != nil {
					if text := strings.Join(strings.Fields(para.String()), " "); text != "" {
						cur.paras = append(cur.paras, text)
					}
				}
				para = nil
			case "t":
				inText = false
			}
		case xml.CharData:
			if inText && para != nil {
				para.Write(t)
				if size += len(t); size > budget {
					return "", errTooMuchText
				}
			}
		}
	}
	slices.SortStableFunc(links, func(a, b smartLink) int { return cmp.Compare(a.ord, b.ord) })
	children := map[string][]string{}
	hasParent := map[string]bool{}
	for _, l := range links {
		children[l.src] = append(children[l.src], l.dest)
		hasParent[l.dest] = true
	}
	var lines []string
	seen := map[string]bool{}
	var visit func(id string, depth int)
	visit = func(id string, depth int) {
		if seen[id] || depth > maxSmartArtDepth {
			return
		}
		seen[id] = true
		n := nodes[id]
		if n == nil {
			return
		}
		shown := n.typ == "" || n.typ == "node" || n.typ == "asst"
		if shown && len(n.paras) > 0 {
			lines = append(lines, strings.Repeat("  ", max(depth-1, 0))+"- "+strings.Join(n.paras, " "))
		}
		for _, c := range children[id] {
			visit(c, depth+1)
		}
	}
	for _, id := range order { // from the diagram's root
		if nodes[id].typ == "doc" {
			visit(id, 0)
		}
	}
	for _, id := range order { // then what no root reaches
		if !hasParent[id] {
			visit(id, 1)
		}
	}
	for _, id := range order {
		visit(id, 1)
	}
	return strings.Join(lines, "\n"), nil
}

// chartAxes are the elements whose c:title is an axis title.
var chartAxes = map[string]bool{"valAx": true, "catAx": true, "dateAx": true, "serAx": true, "axis": true}

// maxChartLabels bounds the series names and categories listed per chart.
const maxChartLabels = 50

// chartText reads the words a chart shows besides its numbers: its title,
// axis titles, the names of its series when a legend shows them and its
// categories when an axis or a pie's legend shows them, as "Chart: …",
// "Chart axis: …", "Chart series: a, b" and "Chart categories: x, y". A title with no text of its own shows the name
// of the chart's only series, as PowerPoint and LibreOffice draw it.
func chartText(z *zipArchive, part string, budget int) (string, error) {
	d, err := z.decoder(part)
	if err != nil || d == nil {
		return "", err
	}
	var path []string
	var title, target *strings.Builder
	var titles, axes, names, cats []string
	var series int // series met, the open one included
	inSeries, autoTitle, deleted, legend, pie := false, false, false, false, false
	catAxis, catHidden := false, false // a category axis, and whether it hides its labels
	size := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			parent := ""
			if len(path) > 0 {
				parent = path[len(path)-1]
			}
			switch local := t.Name.Local; {
			case local == "title" && title == nil && (parent == "chart" || chartAxes[parent]):
				title = &strings.Builder{}
			case local == "autoTitleDeleted":
				deleted = onOff(t)
			case local == "legend":
				legend = true
			case local == "catAx" || local == "dateAx":
				catAxis = true
			case (local == "delete" && onOff(t)) || (local == "tickLblPos" && attr(t, "val") == "none"):
				catHidden = catHidden || parent == "catAx" || parent == "dateAx"
			case local == "pieChart" || local == "pie3DChart" || local == "doughnutChart" || local == "ofPieChart":
				pie = true
			case local == "ser" && !inSeries:
				inSeries = true
				series++
				names = append(names, "")
			case local == "p" && title != nil && title.Len() > 0:
				title.WriteByte(' ')
			case local == "t" || local == "v":
				// Text runs and cached cell values: a title's text, a series
				// name (c:ser/c:tx) or the first series' categories
				// (c:ser/c:cat), not the data points.
				switch {
				case title != nil:
					target = title
				case inSeries && parent == "pt" && slices.Contains(path, "tx"):
					target = &strings.Builder{}
				case inSeries && series == 1 && parent == "pt" && slices.Contains(path, "cat") && len(cats) < maxChartLabels:
					target = &strings.Builder{}
				}
			}
			if len(path) < 64 {
				path = append(path, t.Name.Local)
			}
		case xml.EndElement:
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			parent := ""
			if len(path) > 0 {
				parent = path[len(path)-1]
			}
			switch t.Name.Local {
			case "title":
				if title == nil || (parent != "chart" && !chartAxes[parent]) {
					continue
				}
				text := strings.Join(strings.Fields(title.String()), " ")
				switch {
				case chartAxes[parent] && text != "":
					axes = append(axes, "Chart axis: "+text)
				case parent == "chart" && text != "":
					titles = append(titles, "Chart: "+text)
				case parent == "chart":
					autoTitle = true
				}
				title = nil
			case "ser":
				inSeries = false
			case "t", "v":
				if target == nil || target == title {
					target = nil
					continue
				}
				text := strings.Join(strings.Fields(target.String()), " ")
				if slices.Contains(path, "cat") {
					if text != "" {
						cats = append(cats, text)
					}
				} else if len(names) > 0 {
					names[len(names)-1] = strings.TrimSpace(names[len(names)-1] + " " + text)
				}
				target = nil
			}
		case xml.CharData:
			if target == nil {
				continue
			}
			target.Write(t)
			if size += len(t); size > budget {
				return "", errTooMuchText
			}
		}
	}
	if autoTitle && !deleted && len(titles) == 0 && len(names) == 1 && names[0] != "" {
		titles = append(titles, "Chart: "+names[0])
	}
	lines := append(titles, axes...)
	if names = slices.DeleteFunc(names, func(s string) bool { return s == "" }); legend && !pie && len(names) > 0 {
		lines = append(lines, "Chart series: "+strings.Join(names[:min(len(names), maxChartLabels)], ", "))
	}
	// Categories label the category axis, or a pie's legend.
	if len(cats) > 0 && ((catAxis && !catHidden) || (pie && legend)) {
		lines = append(lines, "Chart categories: "+strings.Join(cats, ", "))
	}
	return strings.Join(lines, "\n"), nil
}
