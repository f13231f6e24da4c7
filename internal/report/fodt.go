package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // crops and pictures a teacher may have: their sizes
	_ "image/jpeg"
	_ "image/png"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fonts of the report, one per script class LibreOffice distinguishes:
// Western (Latin, Greek, Cyrillic), Asian (Chinese, Japanese, Korean) and
// complex (Arabic; Hebrew and others by LibreOffice's fallback). The
// packages fonts-noto-core and fonts-noto-cjk install them (Dockerfile,
// scripts/bootstrap.sh); a machine without them falls back to its own.
const (
	FontWestern = "Noto Sans"
	FontAsian   = "Noto Sans CJK SC"
	FontComplex = "Noto Sans Arabic"
)

// Signs of a criterion met and not met.
const (
	tick  = "✓"
	cross = "✗"
)

// highlightBackgrounds are shade 300 of each highlighter hue (Material's
// palette, as the review screen paints them).
var highlightBackgrounds = map[string]string{
	"red": "#e57373", "pink": "#f06292", "purple": "#ba68c8", "deepPurple": "#9575cd", "indigo": "#7986cb",
	"blue": "#64b5f6", "lightBlue": "#4fc3f7", "cyan": "#4dd0e1", "teal": "#4db6ac", "green": "#81c784",
	"lightGreen": "#aed581", "lime": "#dce775", "yellow": "#fff176", "amber": "#ffd54f", "orange": "#ffb74d",
	"deepOrange": "#ff8a65", "brown": "#a1887f", "grey": "#e0e0e0", "blueGrey": "#90a4ae",
}

// fallbackHues colour highlights whose highlighter names no known colour
// (rubric criteria), in turn.
var fallbackHues = []string{"yellow", "lightBlue", "lightGreen", "pink", "orange", "purple", "teal", "amber"}

// hue is the hue of a highlighter colour ("purple-500" → "purple"), or a
// fallback one by position.
func hue(color string, i int) string {
	h, _, _ := strings.Cut(color, "-")
	if _, ok := highlightBackgrounds[h]; ok {
		return h
	}
	return fallbackHues[i%len(fallbackHues)]
}

// FODT writes r as a flat OpenDocument text.
func FODT(r Report) []byte {
	w := &writer{}
	w.raw(header)
	w.automaticStyles()
	w.raw(`<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">` +
		`<style:footer><text:p text:style-name="Footer">`)
	w.text(r.Student + " · " + r.Assignment + " · ")
	w.raw(`<text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>` +
		`</style:master-page></office:master-styles><office:body><office:text>`)

	w.para("Title", r.Assignment)
	w.para("Subtitle", r.Student)
	if r.Total != nil && r.Max != nil {
		line := "Total: " + points(*r.Total) + " / " + points(*r.Max)
		if *r.Max > 0 {
			line += " (" + strconv.FormatFloat(math.Round(*r.Total / *r.Max * 1000)/10, 'f', -1, 64) + "%)"
		}
		w.para("Total", line)
	} else if r.Status == "" || (len(r.Questions) == 0 && len(r.Rubric) == 0 && r.Feedback == "" && len(r.Highlights) == 0 && r.Overall == "") {
		w.para("Body", "This work has no feedback yet.")
	}
	if strings.TrimSpace(r.Overall) != "" {
		w.para("Heading", "Overall feedback")
		w.paras("Body", r.Overall)
	}
	if strings.TrimSpace(r.Feedback) != "" {
		w.para("Heading", "Feedback")
		w.markdown(r.Feedback)
	}
	if len(r.Rubric) > 0 {
		w.para("Heading", "Rubric")
		w.rubric(r.Rubric)
	}
	if len(r.Questions) > 0 {
		w.para("Heading", "Questions")
		for _, q := range r.Questions {
			w.question(q)
		}
	}
	if hasText(r.Work) {
		title := "The student's work"
		if r.Handwritten {
			title = "The student's work (transcribed)"
		}
		w.para("Heading", title)
		w.work(r.Work, r.Highlights)
	}
	w.raw(`</office:text></office:body></office:document>`)
	return w.b.Bytes()
}

func hasText(spans []Span) bool {
	for _, s := range spans {
		if strings.TrimSpace(s.Text) != "" {
			return true
		}
	}
	return false
}

const header = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
<style:font-face style:name="` + FontWestern + `" svg:font-family="'` + FontWestern + `'" style:font-family-generic="swiss"/>
<style:font-face style:name="` + FontAsian + `" svg:font-family="'` + FontAsian + `'" style:font-family-generic="system"/>
<style:font-face style:name="` + FontComplex + `" svg:font-family="'` + FontComplex + `'" style:font-family-generic="system"/>
<style:font-face style:name="DejaVu Sans Mono" svg:font-family="'DejaVu Sans Mono'" style:font-family-generic="modern" style:font-pitch="fixed"/>
</office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph">
<style:paragraph-properties fo:margin-bottom="0.12cm" fo:line-height="125%"/>
<style:text-properties style:font-name="` + FontWestern + `" fo:font-size="10.5pt" style:font-name-asian="` + FontAsian + `" style:font-size-asian="10.5pt" style:font-name-complex="` + FontComplex + `" style:font-size-complex="10.5pt" fo:language="en" fo:country="GB"/>
</style:default-style>
<style:style style:name="Standard" style:family="paragraph"/>
<style:style style:name="Title" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.1cm"/><style:text-properties fo:font-size="18pt" fo:font-weight="bold" style:font-size-asian="18pt" style:font-weight-asian="bold" style:font-size-complex="18pt" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Subtitle" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="13pt" style:font-size-asian="13pt" style:font-size-complex="13pt" fo:color="#444444"/></style:style>
<style:style style:name="Total" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.3cm" fo:padding="0.15cm" fo:background-color="#eef2f7"/><style:text-properties fo:font-size="13pt" fo:font-weight="bold" style:font-size-asian="13pt" style:font-weight-asian="bold" style:font-size-complex="13pt" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Heading" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.15cm" fo:keep-with-next="always"/><style:text-properties fo:font-size="13pt" fo:font-weight="bold" style:font-size-asian="13pt" style:font-weight-asian="bold" style:font-size-complex="13pt" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Question" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.1cm" fo:keep-with-next="always"/><style:text-properties fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Body" style:family="paragraph"/>
<style:style style:name="Label" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.1cm" fo:keep-with-next="always"/><style:text-properties fo:font-style="italic" style:font-style-asian="italic" style:font-style-complex="italic" fo:color="#444444"/></style:style>
<style:style style:name="Cell" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0cm"/></style:style>
<style:style style:name="CellHead" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0cm"/><style:text-properties fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Footnote" style:family="paragraph"><style:text-properties fo:font-size="9pt" style:font-size-asian="9pt" style:font-size-complex="9pt"/></style:style>
<style:style style:name="Footer" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="8pt" style:font-size-asian="8pt" style:font-size-complex="8pt" fo:color="#666666"/></style:style>
<style:style style:name="Strong" style:family="text"><style:text-properties fo:font-weight="bold" style:font-weight-asian="bold" style:font-weight-complex="bold"/></style:style>
<style:style style:name="Emphasis" style:family="text"><style:text-properties fo:font-style="italic" style:font-style-asian="italic" style:font-style-complex="italic"/></style:style>
<style:style style:name="Code" style:family="text"><style:text-properties style:font-name="DejaVu Sans Mono" fo:font-size="9.5pt"/></style:style>
<style:style style:name="Met" style:family="text"><style:text-properties fo:font-weight="bold" fo:color="#1b5e20"/></style:style>
<style:style style:name="NotMet" style:family="text"><style:text-properties fo:font-weight="bold" fo:color="#b71c1c"/></style:style>
</office:styles>
`

// automaticStyles writes the page, the right-to-left twins of the paragraph
// styles, the highlight shadings and the tables' styles.
func (w *writer) automaticStyles() {
	w.raw(`<office:automatic-styles>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.8cm" fo:margin-bottom="1.5cm" fo:margin-left="2cm" fo:margin-right="2cm"/><style:footer-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-top="0.3cm"/></style:footer-style></style:page-layout>
`)
	// LibreOffice reads fo:text-align="start" as left whatever the
	// direction: "end" is what puts a right-to-left paragraph on the right.
	for _, s := range []string{"Title", "Subtitle", "Heading", "Question", "Body", "Cell", "Footnote", "Label"} {
		w.raw(`<style:style style:name="` + s + `RTL" style:family="paragraph" style:parent-style-name="` + s + `">` +
			`<style:paragraph-properties style:writing-mode="rl-tb" fo:text-align="end"/></style:style>` + "\n")
	}
	for _, h := range sortedKeys(highlightBackgrounds) {
		w.raw(`<style:style style:name="hl-` + h + `" style:family="text"><style:text-properties fo:background-color="` +
			highlightBackgrounds[h] + `" fo:color="#000000"/></style:style>` + "\n")
	}
	w.raw(`<style:style style:name="Criteria" style:family="table"><style:table-properties style:width="17cm" table:align="left" fo:margin-bottom="0.15cm"/></style:style>
<style:style style:name="Criteria.A" style:family="table-column"><style:table-column-properties style:column-width="1.2cm"/></style:style>
<style:style style:name="Criteria.B" style:family="table-column"><style:table-column-properties style:column-width="12.8cm"/></style:style>
<style:style style:name="Criteria.C" style:family="table-column"><style:table-column-properties style:column-width="3cm"/></style:style>
<style:style style:name="Rubric" style:family="table"><style:table-properties style:width="17cm" table:align="left" fo:margin-bottom="0.15cm"/></style:style>
<style:style style:name="Rubric.A" style:family="table-column"><style:table-column-properties style:column-width="4.5cm"/></style:style>
<style:style style:name="Rubric.B" style:family="table-column"><style:table-column-properties style:column-width="4.5cm"/></style:style>
<style:style style:name="Rubric.C" style:family="table-column"><style:table-column-properties style:column-width="2cm"/></style:style>
<style:style style:name="Rubric.D" style:family="table-column"><style:table-column-properties style:column-width="6cm"/></style:style>
<style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.08cm" fo:border="0.5pt solid #999999"/></style:style>
<style:style style:name="HeadCell" style:family="table-cell"><style:table-cell-properties fo:padding="0.08cm" fo:border="0.5pt solid #999999" fo:background-color="#eeeeee"/></style:style>
<style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:vertical-pos="top" style:vertical-rel="baseline" fo:border="0.5pt solid #999999"/></style:style>
</office:automatic-styles>
`)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// question writes a graded answer and its subquestions.
func (w *writer) question(q Question) {
	title := q.Label
	if t := strings.TrimSpace(q.Text); t != "" {
		title += ". " + t
	}
	w.para("Question", title)
	for _, img := range q.Images {
		w.image(img)
	}
	if len(q.Criteria) > 0 {
		w.raw(`<table:table table:name="Criteria` + strconv.Itoa(w.tables) + `" table:style-name="Criteria">` +
			`<table:table-column table:style-name="Criteria.A"/><table:table-column table:style-name="Criteria.B"/><table:table-column table:style-name="Criteria.C"/>` +
			`<table:table-header-rows><table:table-row>`)
		w.tables++
		w.cell("HeadCell", "CellHead", "")
		w.cell("HeadCell", "CellHead", "Criterion")
		w.cell("HeadCell", "CellHead", "Points")
		w.raw(`</table:table-row></table:table-header-rows>`)
		for _, c := range q.Criteria {
			w.raw(`<table:table-row>`)
			w.raw(`<table:table-cell table:style-name="Cell" office:value-type="string"><text:p text:style-name="Cell">`)
			if c.Met {
				w.raw(`<text:span text:style-name="Met">` + tick + `</text:span>`)
			} else {
				w.raw(`<text:span text:style-name="NotMet">` + cross + `</text:span>`)
			}
			w.raw(`</text:p></table:table-cell>`)
			w.cell("Cell", "Cell", c.Description)
			got := 0.0
			if c.Met {
				got = c.Points
			}
			w.cell("Cell", "Cell", points(got)+" / "+points(c.Points))
			w.raw(`</table:table-row>`)
		}
		w.raw(`</table:table>`)
	}
	if q.Adjustment != 0 {
		sign := "+"
		if q.Adjustment < 0 {
			sign = ""
		}
		w.para("Body", "Adjustment: "+sign+points(q.Adjustment))
	}
	if len(q.Criteria) > 0 || q.Adjustment != 0 {
		w.para("Body", "Points: "+points(q.Points+q.Adjustment)+" / "+points(q.Max))
	}
	if strings.TrimSpace(q.Feedback) != "" {
		w.para("Label", "Feedback")
		w.paras("Body", q.Feedback)
	}
	for _, s := range q.Subs {
		w.question(s)
	}
}

// rubric writes the rubric's criteria, levels, points and comments.
func (w *writer) rubric(rows []RubricRow) {
	w.raw(`<table:table table:name="Rubric` + strconv.Itoa(w.tables) + `" table:style-name="Rubric">` +
		`<table:table-column table:style-name="Rubric.A"/><table:table-column table:style-name="Rubric.B"/>` +
		`<table:table-column table:style-name="Rubric.C"/><table:table-column table:style-name="Rubric.D"/>` +
		`<table:table-header-rows><table:table-row>`)
	w.tables++
	for _, h := range []string{"Criterion", "Level", "Points", "Comment"} {
		w.cell("HeadCell", "CellHead", h)
	}
	w.raw(`</table:table-row></table:table-header-rows>`)
	for _, r := range rows {
		w.raw(`<table:table-row>`)
		w.cell("Cell", "Cell", r.Criterion)
		w.cell("Cell", "Cell", r.Level)
		w.cell("Cell", "Cell", points(r.Points))
		w.cell("Cell", "Cell", r.Feedback)
		w.raw(`</table:table-row>`)
	}
	w.raw(`</table:table>`)
}

// work writes the student's work, a paragraph per line, each highlighted
// passage shaded in its highlighter's colour and followed by a footnote
// with the highlighter's title and the comment. Past maxFootnotes the
// passages are shaded without one, past maxShaded they are plain text, and
// a sentence before the work says that comments were left out.
func (w *writer) work(spans []Span, notes []Highlight) {
	type seg struct {
		text string
		id   int
		last bool // the end of its span: the footnote goes here
	}
	var paras [][]seg
	cur := []seg{}
	for _, s := range spans {
		lines := strings.Split(strings.ReplaceAll(s.Text, "\r\n", "\n"), "\n")
		// The footnote follows the passage's last words, not a line
		// break the passage ends with.
		end := len(lines) - 1
		for end > 0 && strings.TrimSpace(lines[end]) == "" {
			end--
		}
		for i, line := range lines {
			if i > 0 {
				paras = append(paras, cur)
				cur = []seg{}
			}
			if line != "" || i == end {
				cur = append(cur, seg{text: line, id: s.ID, last: i == end})
			}
		}
	}
	paras = append(paras, cur)
	called := 0 // the passages whose footnote the work calls for
	for _, p := range paras {
		for _, s := range p {
			if s.last && s.id >= 0 && s.id < len(notes) {
				called++
			}
		}
	}
	if called > maxFootnotes {
		w.para("Label", fmt.Sprintf(msgNotesLeftOut, maxFootnotes, called-maxFootnotes))
	}
	for _, p := range paras {
		var all strings.Builder
		for _, s := range p {
			all.WriteString(s.text)
		}
		w.raw(`<text:p text:style-name="` + styleFor("Body", all.String()) + `">`)
		for _, s := range p {
			if s.id < 0 || s.id >= len(notes) || s.id >= maxShaded {
				w.text(s.text)
				continue
			}
			n := notes[s.id]
			if s.text != "" {
				w.raw(`<text:span text:style-name="hl-` + hue(n.Color, s.id) + `">`)
				w.text(s.text)
				w.raw(`</text:span>`)
			}
			if s.last && w.notes < maxFootnotes {
				w.footnote(n)
			}
		}
		w.raw(`</text:p>`)
	}
}

// footnote writes a highlight's comment as a footnote.
func (w *writer) footnote(n Highlight) {
	w.notes++
	num := strconv.Itoa(w.notes)
	w.raw(`<text:note text:id="ftn` + num + `" text:note-class="footnote"><text:note-citation>` + num +
		`</text:note-citation><text:note-body>`)
	lines := strings.Split(strings.ReplaceAll(strings.TrimSpace(n.Comment), "\r\n", "\n"), "\n")
	for i, line := range lines {
		w.raw(`<text:p text:style-name="` + styleFor("Footnote", n.Title+" "+line) + `">`)
		if i == 0 && n.Title != "" {
			w.raw(`<text:span text:style-name="Strong">`)
			w.text(n.Title + ":")
			w.raw(`</text:span> `)
		}
		w.text(line)
		w.raw(`</text:p>`)
	}
	w.raw(`</text:note-body></text:note>`)
}

// image embeds a picture at most 16 cm wide and 12 cm high; a picture whose
// size cannot be read is left out.
func (w *writer) image(img Image) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return
	}
	const maxW, maxH = 16.0, 12.0
	wcm := float64(cfg.Width) / 96 * 2.54 // CSS pixels
	hcm := float64(cfg.Height) / 96 * 2.54
	scale := math.Min(1, math.Min(maxW/wcm, maxH/hcm))
	wcm, hcm = wcm*scale, hcm*scale
	w.images++
	w.raw(fmt.Sprintf(`<text:p text:style-name="Body"><draw:frame draw:style-name="fr1" draw:name="Image%d" text:anchor-type="as-char" svg:width="%.2fcm" svg:height="%.2fcm"><draw:image><office:binary-data>`,
		w.images, wcm, hcm))
	w.raw(base64.StdEncoding.EncodeToString(img.Data))
	w.raw(`</office:binary-data></draw:image></draw:frame></text:p>`)
}

// writer builds the XML.
type writer struct {
	b                     bytes.Buffer
	tables, notes, images int
	tabs                  int // tabs written as tabs (at most maxTabs)
}

func (w *writer) raw(s string) { w.b.WriteString(s) }

// para writes one paragraph of text (line breaks kept).
func (w *writer) para(style, s string) {
	w.raw(`<text:p text:style-name="` + styleFor(style, s) + `">`)
	w.text(s)
	w.raw(`</text:p>`)
}

// paras writes text as a paragraph per line, each with its own direction.
func (w *writer) paras(style, s string) {
	for _, line := range strings.Split(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n") {
		w.para(style, line)
	}
}

// cell writes a table cell of text.
func (w *writer) cell(cellStyle, paraStyle, s string) {
	w.raw(`<table:table-cell table:style-name="` + cellStyle + `" office:value-type="string">`)
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		w.para(paraStyle, line)
	}
	w.raw(`</table:table-cell>`)
}

// text writes s as paragraph content: XML-escaped, runs of spaces and tabs
// kept (OpenDocument collapses them otherwise), line breaks as breaks, tabs
// past the document's maxTabs as spaces, and the characters XML 1.0 cannot
// carry (controls, lone surrogates, U+FFFE) dropped.
func (w *writer) text(s string) {
	spaces := 0
	flush := func() {
		if spaces == 1 {
			w.b.WriteByte(' ')
		} else if spaces > 1 {
			w.b.WriteString(` <text:s text:c="` + strconv.Itoa(spaces-1) + `"/>`)
		}
		spaces = 0
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				continue // invalid UTF-8
			}
		}
		if r == '\t' && w.tabs >= maxTabs {
			r = ' '
		}
		if r == ' ' {
			spaces++
			continue
		}
		flush()
		switch {
		case r == '\t':
			w.tabs++
			w.b.WriteString(`<text:tab/>`)
		case r == '\n':
			w.b.WriteString(`<text:line-break/>`)
		case r == '\r':
		case r == '&':
			w.b.WriteString("&amp;")
		case r == '<':
			w.b.WriteString("&lt;")
		case r == '>':
			w.b.WriteString("&gt;")
		case r == '"':
			w.b.WriteString("&quot;")
		case !xmlChar(r):
		default:
			w.b.WriteRune(r)
		}
	}
	flush()
}

// xmlChar reports whether XML 1.0 allows r in text.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// styleFor is style, or its right-to-left twin when the text's first strong
// letter is of a right-to-left script (the Unicode rule for a paragraph's
// direction).
func styleFor(style, s string) string {
	if rtl(s) {
		switch style {
		case "Title", "Subtitle", "Heading", "Question", "Body", "Cell", "Footnote", "Label":
			return style + "RTL"
		}
	}
	return style
}

// rtl reports whether the first letter of s is Arabic, Hebrew, Syriac,
// Thaana or N'Ko.
func rtl(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Nko) {
			return unicode.IsLetter(r)
		}
		if unicode.IsLetter(r) {
			return false
		}
	}
	return false
}

// points formats points as the review screen does: at most two decimals,
// no trailing zeros.
func points(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}
