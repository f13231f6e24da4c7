package extract

import (
	"fmt"
	"slices"
)

// Pages OCR never read. The extract queue's Reader leaves the pages that need
// OCR (NeedsOCR) to the ocr queue. When OCR fails on every attempt, the file
// is finished with what was read without it rather than thrown away: a Word
// essay whose pasted photo OCR choked on keeps its typed text, and the
// teacher is told which pages or pictures are missing. A scan, whose only
// words would have come from OCR, is not worth finishing: graded, it would
// be blank work.

// WithoutOCR finishes the result of a Reader without OCR, whose pages wait
// for OCR, for when OCR will never read them; by names what failed, for the
// teacher ("OCR", or "the AI model" that transcribes handwriting). Each page
// that waited keeps the text it has (a Word or PowerPoint page's typed text,
// a PDF page's few words over a scan) and gets a Warning saying what could
// not be read ("A picture on page 1 could not be read by OCR, so its words
// are missing: check it against the original"); Doubtful lists those pages
// and Warning names them for the whole file.
//
// ok is false when no text stands without OCR: every page with text waited
// for OCR to read it whole (a scanned PDF page with a scanner app's stamp or
// a template's typed header), or no page has text at all.
func (r Result) WithoutOCR(by string) (Result, bool) {
	ok := false
	r.Pages = slices.Clone(r.Pages)
	for i := range r.Pages {
		p := &r.Pages[i]
		// A Word or PowerPoint page's typed text stands beside its pictures;
		// a PDF page's few words are what OCR would have replaced.
		if p.Text != "" && (!p.NeedsOCR || p.pictures > 0) {
			ok = true
		}
		if !p.NeedsOCR {
			continue
		}
		p.NeedsOCR, p.unread = false, true
		p.Warning = r.unreadWarning(*p, by)
	}
	r.unreadBy = by
	return r, ok
}

// unreadWarning is the Warning of page p, which OCR (by) never read.
func (r Result) unreadWarning(p Page, by string) string {
	name := r.pageName(p.Number)
	switch {
	case p.pictures == 1:
		return fmt.Sprintf("A picture on %s could not be read by %s, so its words are missing: check it against the original", name, by)
	case p.pictures > 1:
		return fmt.Sprintf("%d pictures on %s could not be read by %s, so their words are missing: check them against the original", p.pictures, name, by)
	}
	return fmt.Sprintf("%s could not be read by %s, so its words are missing: check it against the original", upperFirst(name), by)
}

// unreadSummary names, for the whole file, the pages OCR never read: their
// pictures in a Word or PowerPoint file, else the pages; "" when there are
// none.
func (r Result) unreadSummary() string {
	var nums []int
	pictures := 0
	for _, p := range r.Pages {
		if p.unread {
			nums = append(nums, p.Number)
			pictures += p.pictures
		}
	}
	if len(nums) == 0 {
		return ""
	}
	where := "on " + r.pageList(nums)
	if len(r.Pages) == 1 {
		where = "in this file"
	}
	var what string
	switch {
	case pictures == 1:
		what = "A picture " + where
	case pictures > 1:
		what = fmt.Sprintf("%d pictures %s", pictures, where)
	case len(r.Pages) == 1:
		what = "This file"
	default:
		what = upperFirst(r.pageList(nums))
	}
	if pictures > 1 || (pictures == 0 && len(nums) > 1) {
		return fmt.Sprintf("%s could not be read by %s, so their words are missing: check them against the original", what, r.unreadBy)
	}
	return fmt.Sprintf("%s could not be read by %s, so its words are missing: check it against the original", what, r.unreadBy)
}
