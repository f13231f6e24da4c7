package extract

import (
	"sync/atomic"

	"github.com/ledongthuc/pdf"
)

// Comments a pupil adds to a PDF. Asked to annotate a poem or a source, a
// pupil highlights lines and writes a comment on each, or sticks a note on
// the page; a viewer shows those words in a pop-up, never on the page, so
// pdftotext, which reads what the page draws, has none of them. The words
// are the annotations' Contents (ISO 32000 §12.5.6): each page's are listed
// under NotesHeading after its text. A text box typed onto the page
// (FreeText) is drawn on it and read with it; form fields are read as form
// fields (pdfform.go); links, pop-ups and printer's marks hold no words.

// NotesHeading starts the list of a page's comments.
const NotesHeading = "Comments on the page:"

const (
	// maxNotesPerPage bounds the comments listed for one page, and
	// maxNoteRunes each comment.
	maxNotesPerPage = 200
	maxNoteRunes    = 2000
)

// notWords are the annotation kinds whose Contents are not a reader's
// comment: drawn on the page already, a form field, or no words at all.
var notWords = map[string]bool{
	"FreeText": true, "Widget": true, "Link": true, "Popup": true,
	"PrinterMark": true, "TrapNet": true, "Watermark": true, "3D": true,
	"Screen": true, "Movie": true, "Sound": true, "RichMedia": true,
}

// pageNotes returns the comments on each page (0-based), in the order the
// page lists them, each once, without its hidden ones.
func pageNotes(rd *pdf.Reader, stop *atomic.Bool, pages int) map[int][]string {
	out := map[int][]string{}
	seen := map[int]map[string]bool{}
	ok := eachAnnotation(rd, stop, pages, func(i int, a pdf.Value) {
		if len(out[i]) >= maxNotesPerPage || notWords[a.Key("Subtype").Name()] || a.Key("F").Int64()&annotHidden != 0 {
			return
		}
		note := clean(a.Key("Contents").Text())
		if r := []rune(note); len(r) > maxNoteRunes {
			note = string(r[:maxNoteRunes]) + "…"
		}
		if note == "" || seen[i][note] {
			return
		}
		if seen[i] == nil {
			seen[i] = map[string]bool{}
		}
		seen[i][note] = true
		out[i] = append(out[i], note)
	})
	if !ok {
		return nil
	}
	return out
}

// withNotes lists a page's comments under NotesHeading after its text.
func withNotes(text string, notes []string) string { return withList(text, NotesHeading, notes) }
