package extract

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ledongthuc/pdf"
)

// A filled-in PDF form keeps each answer in its field's value (AcroForm,
// ISO 32000 §12.7); what pdftotext prints is the field's appearance, which
// a viewer may not have updated and which never says which question the
// answer belongs to. So the values are read in-process and each filled field
// is put with its label on its page (withFormFields): a typed answer the
// page already shows once gets its label written before it (its words are
// not repeated); any other answer, and every tick and choice (which the
// page shows only as a drawn mark), is listed under "Form fields:" after
// the page's text, as "Label: Value".

// pdfAnnotations returns, for each page (0-based), the "Label: Value"
// lines of its filled-in fields and the comments a reader added to it
// (pdfnotes.go), read in-process within Limits.PDFTimeout. A file the
// in-process reader cannot open (a damaged cross-reference table, AES-256
// encryption) or that it does not finish in time yields none: its text
// layer stands as pdftotext read it.
func (r *Reader) pdfAnnotations(ctx context.Context, data []byte, pages int) (pdfPageAnnotations, error) {
	got, err := inProcessPDF(ctx, r.lim, data, func(rd *pdf.Reader, stop *atomic.Bool) (pdfPageAnnotations, error) {
		return pdfPageAnnotations{fields: formFieldLines(rd, stop, pages), notes: pageNotes(rd, stop, pages)}, nil
	})
	if ctx.Err() != nil {
		return pdfPageAnnotations{}, ctx.Err()
	}
	if err != nil {
		return pdfPageAnnotations{}, nil //nolint:nilerr // they are a bonus on a text layer already read
	}
	return got, nil
}

// pdfPageAnnotations are the words of a PDF's pages that its text layer
// does not hold, by page (0-based).
type pdfPageAnnotations struct {
	fields map[int][]formField
	notes  map[int][]string
}

// onto puts page i's fields and comments onto its text.
func (a pdfPageAnnotations) onto(text string, i int) string {
	return withNotes(withFormFields(text, a.fields[i]), a.notes[i])
}

// maxFormFieldDepth bounds the walk up a field's Parent chain (a loop in a
// hostile file would never end).
const maxFormFieldDepth = 32

func formFieldLines(rd *pdf.Reader, stop *atomic.Bool, pages int) map[int][]formField {
	form := rd.Trailer().Key("Root").Key("AcroForm")
	if form.Key("Fields").Len() == 0 {
		return nil
	}
	out := map[int][]formField{}
	seen := map[int]map[string]bool{} // a radio group's widgets share one value
	ok := eachAnnotation(rd, stop, pages, func(i int, w pdf.Value) {
		if w.Key("Subtype").Name() != "Widget" {
			return
		}
		f, ok := fieldOf(w)
		if !ok || seen[i][f.line()] {
			return
		}
		if seen[i] == nil {
			seen[i] = map[string]bool{}
		}
		seen[i][f.line()] = true
		out[i] = append(out[i], f)
	})
	if !ok {
		return nil
	}
	return out
}

// eachAnnotation calls visit with every annotation of the first pages
// pages (0-based page index), in each page's order; false when stop was
// set on the way.
func eachAnnotation(rd *pdf.Reader, stop *atomic.Bool, pages int, visit func(page int, a pdf.Value)) bool {
	for i := range min(pages, rd.NumPage()) {
		if stop.Load() {
			return false
		}
		annots := rd.Page(i + 1).V.Key("Annots")
		for j := range annots.Len() {
			visit(i, annots.Index(j))
		}
	}
	return true
}

// Field flags (ISO 32000 table 226).
const (
	flagRadio      = 1 << 15
	flagPushButton = 1 << 16
	annotHidden    = 1 << 1
)

// formField is one filled-in field: its label (the field's tooltip, TU,
// else its name, T; "" without either), its value, and whether the value is
// a tick or a choice, which a page's text cannot show.
type formField struct {
	label, value string
	marked       bool
}

// line is "Label: Value", or the value alone without a label.
func (f formField) line() string {
	if f.label == "" {
		return f.value
	}
	return f.label + ": " + f.value
}

// fieldOf reads a widget of a filled-in field; false for an empty,
// unticked, hidden or push-button one. A ticked checkbox says "Yes", a
// radio group the chosen option, a list its chosen items.
func fieldOf(w pdf.Value) (formField, bool) {
	if w.Key("F").Int64()&annotHidden != 0 {
		return formField{}, false
	}
	v := inherited(w, "V")
	var value string
	switch inherited(w, "FT").Name() {
	case "Tx":
		value = v.Text()
	case "Ch":
		value = choiceValue(v, inherited(w, "Opt"))
	case "Btn":
		flags := inherited(w, "Ff").Int64()
		on := v.Name()
		if flags&flagPushButton != 0 || on == "" || on == "Off" {
			return formField{}, false
		}
		if as := w.Key("AS").Name(); as != "" && as != on {
			return formField{}, false // another widget of this group is the one ticked
		}
		value = "Yes"
		if flags&flagRadio != 0 {
			value = optionName(on, inherited(w, "Opt"))
		}
	}
	value = strings.Join(strings.Fields(value), " ")
	if value == "" {
		return formField{}, false
	}
	return formField{label: fieldLabel(w), value: value, marked: inherited(w, "FT").Name() != "Tx"}, true
}

// inherited is key of the field or of the nearest ancestor that has it.
func inherited(w pdf.Value, key string) pdf.Value {
	for range maxFormFieldDepth {
		if w.IsNull() {
			break
		}
		if v := w.Key(key); !v.IsNull() {
			return v
		}
		w = w.Key("Parent")
	}
	return pdf.Value{}
}

// fieldLabel is the tooltip (TU) of the widget's field, else its name (T):
// the field is the widget itself or its nearest ancestor with a name.
func fieldLabel(w pdf.Value) string {
	for range maxFormFieldDepth {
		if w.IsNull() {
			break
		}
		if t := w.Key("T"); !t.IsNull() {
			if tu := clean(w.Key("TU").Text()); tu != "" {
				return tu
			}
			return clean(t.Text())
		}
		w = w.Key("Parent")
	}
	return ""
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// choiceValue is the chosen item of a list or combo box, or its chosen
// items joined by commas; an item with a display text ([export display] in
// Opt) shows that text.
func choiceValue(v, opt pdf.Value) string {
	var chosen []string
	switch v.Kind() {
	case pdf.String:
		chosen = []string{v.Text()}
	case pdf.Array:
		for i := range v.Len() {
			chosen = append(chosen, v.Index(i).Text())
		}
	}
	for i, c := range chosen {
		for j := range opt.Len() {
			if o := opt.Index(j); o.Kind() == pdf.Array && o.Index(0).Text() == c {
				chosen[i] = o.Index(1).Text()
			}
		}
	}
	return strings.Join(chosen, ", ")
}

// optionName is a radio group's chosen state: its export value in Opt when
// the state names an index into Opt, else the state's name.
func optionName(state string, opt pdf.Value) string {
	if i, err := strconv.Atoi(state); err == nil && i >= 0 && i < opt.Len() {
		if t := opt.Index(i).Text(); t != "" {
			return t
		}
	}
	return state
}

// FormFieldsHeading starts the list of form answers a page's text does not
// show by itself (ticks, choices, answers missing from the appearance).
const FormFieldsHeading = "Form fields:"

// withFormFields puts the page's filled-in fields with their labels. A
// field whose label and value the text already shows together (as a form's
// appearance often prints them) adds nothing; a typed answer the text shows
// exactly once, without its label, gets "Label: " written before it; any
// other field is listed under FormFieldsHeading after the text.
func withFormFields(text string, fields []formField) string {
	var add []string
	for _, f := range fields {
		if strings.Contains(formKey(text), formKey(f.line())) {
			continue
		}
		if !f.marked && f.label != "" {
			if labelled, ok := labelInPlace(text, f); ok {
				text = labelled
				continue
			}
		}
		add = append(add, f.line())
	}
	return withList(text, FormFieldsHeading, add)
}

// withList is text followed by heading and lines, one to a line, after a
// blank line; text as it is without lines.
func withList(text, heading string, lines []string) string {
	if len(lines) == 0 {
		return text
	}
	list := heading + "\n" + strings.Join(lines, "\n")
	if strings.TrimSpace(text) == "" {
		return list
	}
	return strings.TrimRight(text, "\n") + "\n\n" + list
}

// labelInPlace writes "Label: " before a typed answer that the text shows
// exactly once (its words in order, however pdftotext broke its lines). A
// short answer ("2", "Yes") could be any word of the page: it is not placed.
func labelInPlace(text string, f formField) (string, bool) {
	words := strings.Fields(f.value)
	if len(words) < 2 && len([]rune(f.value)) < 4 {
		return text, false
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	re, err := regexp.Compile(`(^|\s)` + strings.Join(quoted, `\s+`) + `($|\s)`)
	if err != nil {
		return text, false
	}
	found := re.FindAllStringSubmatchIndex(text, 2)
	if len(found) != 1 {
		return text, false
	}
	at := found[0][3] // the end of the leading space: where the answer starts
	return text[:at] + f.label + ": " + text[at:], true
}

// formKey is s without colons and with runs of whitespace as one space,
// so "Name:  Rick Evans" and "Name\nRick Evans" compare alike.
func formKey(s string) string {
	return " " + strings.Join(strings.Fields(strings.ReplaceAll(s, ":", " ")), " ") + " "
}
