package extract

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ledongthuc/pdf"
)

// A filled-in PDF form keeps each answer in its field's value (AcroForm,
// ISO 32000 §12.7); what pdftotext prints is the field's appearance, which
// a viewer may not have updated and which never says which question the
// answer belongs to. So the values are read in-process and each filled field
// is added to its page as a "Label: Value" line, unless the page's text
// already shows that label followed by that value.

// pdfFormFields returns the "Label: Value" lines of the filled-in fields on
// each page (0-based), read in-process within Limits.PDFTimeout. A file the
// in-process reader cannot open (a damaged cross-reference table, AES-256
// encryption) or that it does not finish in time yields none: its text
// layer stands as pdftotext read it.
func (r *Reader) pdfFormFields(ctx context.Context, data []byte, pages int) (map[int][]string, error) {
	fields, err := inProcessPDF(ctx, r.lim, data, func(rd *pdf.Reader, stop *atomic.Bool) (map[int][]string, error) {
		return formFieldLines(rd, stop, pages), nil
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, nil //nolint:nilerr // the form is a bonus on a text layer already read
	}
	return fields, nil
}

// maxFormFieldDepth bounds the walk up a field's Parent chain (a loop in a
// hostile file would never end).
const maxFormFieldDepth = 32

func formFieldLines(rd *pdf.Reader, stop *atomic.Bool, pages int) map[int][]string {
	form := rd.Trailer().Key("Root").Key("AcroForm")
	if form.Key("Fields").Len() == 0 {
		return nil
	}
	out := map[int][]string{}
	for i := range min(pages, rd.NumPage()) {
		if stop.Load() {
			return nil
		}
		annots := rd.Page(i + 1).V.Key("Annots")
		seen := map[string]bool{}
		for j := range annots.Len() {
			w := annots.Index(j)
			if w.Key("Subtype").Name() != "Widget" {
				continue
			}
			line := fieldLine(w)
			if line == "" || seen[line] { // a radio group's widgets share one value
				continue
			}
			seen[line] = true
			out[i] = append(out[i], line)
		}
	}
	return out
}

// Field flags (ISO 32000 table 226).
const (
	flagRadio      = 1 << 15
	flagPushButton = 1 << 16
	annotHidden    = 1 << 1
)

// fieldLine is "Label: Value" for a widget of a filled-in field, "" for an
// empty, unticked, hidden or push-button one. The label is the field's
// tooltip (TU), else its name (T); a ticked checkbox says "Yes", a radio
// group the chosen option, a list its chosen items.
func fieldLine(w pdf.Value) string {
	if w.Key("F").Int64()&annotHidden != 0 {
		return ""
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
			return ""
		}
		if as := w.Key("AS").Name(); as != "" && as != on {
			return "" // another widget of this group is the one ticked
		}
		value = "Yes"
		if flags&flagRadio != 0 {
			value = optionName(on, inherited(w, "Opt"))
		}
	}
	value = strings.Join(strings.Fields(value), " ")
	if value == "" {
		return ""
	}
	if label := fieldLabel(w); label != "" {
		return label + ": " + value
	}
	return value
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

// withFormFields appends the field lines that the page's text does not
// already show (a label followed by its value, as a form's appearance
// often prints them), after a blank line.
func withFormFields(text string, lines []string) string {
	shown := formKey(text)
	var add []string
	for _, l := range lines {
		if !strings.Contains(shown, formKey(l)) {
			add = append(add, l)
		}
	}
	if len(add) == 0 {
		return text
	}
	if strings.TrimSpace(text) == "" {
		return strings.Join(add, "\n")
	}
	return strings.TrimRight(text, "\n") + "\n\n" + strings.Join(add, "\n")
}

// formKey is s without colons and with runs of whitespace as one space,
// so "Name:  Rick Evans" and "Name\nRick Evans" compare alike.
func formKey(s string) string {
	return " " + strings.Join(strings.Fields(strings.ReplaceAll(s, ":", " ")), " ") + " "
}
