package extract

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// A scanned or photographed page often carries a line of real text: a phone
// scanner app's "Scanned with CamScanner" stamp, or a typed "Name: … Class:
// 9B" header over a scanned worksheet. Its text layer is then usable but
// holds 3–7 of the page's words, and the rest is in the picture. So a page
// whose text layer has fewer than pictureWords words is also read by OCR
// when pictures cover at least pictureShare of it (their sizes from
// poppler's pdfimages -list, the page's from pdfinfo), and OCR's text is
// kept when it reads clearly more (clearlyMore). A searchable scan (image
// plus an OCR text layer) has the page's words in its text layer and is not
// read again; a text PDF pays for the two poppler runs only when some page
// has few words, and for OCR only when a picture covers that page.
const (
	// pictureWords: under it a text layer may be only a stamp or a header
	// (the corpus of docs/performance.md calls a PDF with fewer words than
	// this "scanned" for the same reason).
	pictureWords = 20
	// pictureShare: pictures drawn over at least half the page make a scan
	// or a photo; a logo or a figure beside a few words does not.
	pictureShare = 0.5
)

// ocrNeed says whether and why OCR reads a PDF page.
type ocrNeed int

const (
	ocrNone    ocrNeed = iota
	ocrEmpty           // no usable text layer: OCR's text replaces it
	ocrPicture         // a few words over a picture: OCR's text replaces them when it reads clearly more
)

// planOCR decides which pages OCR reads. Pages without a usable text layer
// come first: when there are more of them than Limits.maxOCRPages the file
// is refused, as before any page is drawn. Pages of few words over a picture
// take what is left of that budget, in page order; past it they keep their
// text layer (a file readable without OCR is never refused for them), so
// OCR never reads more than maxOCRPages pages of one file.
func (r *Reader) planOCR(ctx context.Context, f *pdfFile, pages []Page) ([]ocrNeed, error) {
	plan := make([]ocrNeed, len(pages))
	empty := 0
	var few []int // pages with a usable text layer of few words
	for i, p := range pages {
		switch {
		case unusable(p.Text):
			plan[i] = ocrEmpty
			empty++
		case countWords(p.Text) < pictureWords:
			few = append(few, i)
		}
	}
	budget := r.lim.maxOCRPages()
	if empty > budget {
		return nil, r.lim.tooManyOCRPages(empty)
	}
	if len(few) == 0 || empty == budget {
		return plan, nil
	}
	pictured, err := r.picturePages(ctx, f, few[0]+1, few[len(few)-1]+1)
	if err != nil {
		return nil, err
	}
	left := budget - empty
	for _, i := range few {
		if left > 0 && pictured[i+1] {
			plan[i] = ocrPicture
			left--
		}
	}
	return plan, nil
}

// clearlyMore reports whether OCR's text of a page reads clearly more than
// its text layer: at least twice the words and fewWords more. OCR of the
// whole page reads the stamp or the header too, so little is lost when it
// wins; when it does not (a photo without writing behind a few words, a
// page poppler could not draw), the text layer is exact where OCR guesses.
func clearlyMore(ocr, layer string) bool {
	return countWords(ocr) >= 2*countWords(layer)+fewWords
}

// picturePages reports, for pages first to last (from 1), which are covered
// at least pictureShare by pictures. A file poppler cannot list (damaged,
// or more images than we read) has no picture pages: its text layer stands,
// as it did before this check; a timeout or a missing tool is an error
// worth retrying.
func (r *Reader) picturePages(ctx context.Context, f *pdfFile, first, last int) (map[int]bool, error) {
	name, err := f.name()
	if err != nil {
		return nil, err
	}
	from, to := strconv.Itoa(first), strconv.Itoa(last)
	list, err := r.run(ctx, maxListBytes, r.popplerTool("pdfimages"), "-list", "-f", from, "-l", to, name)
	if err != nil {
		return nil, ignoreRefusal(err)
	}
	drawn := imageAreas(string(list))
	if len(drawn) == 0 {
		return nil, nil // no picture at all: pdfinfo need not run
	}
	info, err := r.run(ctx, maxListBytes, r.popplerTool("pdfinfo"), "-box", "-f", from, "-l", to, name)
	if err != nil {
		return nil, ignoreRefusal(err)
	}
	out := map[int]bool{}
	for page, area := range cropAreas(string(info)) {
		out[page] = area > 0 && drawn[page] >= pictureShare*area
	}
	return out, nil
}

// maxListBytes caps what pdfimages -list or pdfinfo may print (about ten
// thousand images); a file past it is treated as having no picture pages.
const maxListBytes = 1 << 20

// ignoreRefusal is nil for a poppler tool that ran and refused the file
// (an exit code, or too much output), else err.
func ignoreRefusal(err error) error {
	var te *toolError
	if errors.As(err, &te) && (te.exitCode > 0 || te.overflow) {
		return nil
	}
	return fmt.Errorf("look for pictures: %w", err)
}

// popplerTool is the path of one of poppler's tools, beside pdftoppm when
// Options named it, else looked up in PATH.
func (r *Reader) popplerTool(tool string) string {
	if filepath.Base(r.pdftoppm) != r.pdftoppm {
		return filepath.Join(filepath.Dir(r.pdftoppm), tool)
	}
	return tool
}

// imageAreas adds up, per page, the area in square points over which
// `pdfimages -list` says images are drawn: an image's pixels divided by the
// resolution it is drawn at. Masks (mask, smask) are drawn with their image
// and are not counted again; a stencil mask is paint, and is.
//
//	page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio
//	   1     0 image    2480  3509  rgb     3   8  image  no         4  0   292   319  233K 0.9%
//
// The object ID is one field, "[inline]", for an inline image, so the
// resolutions are read from the end of the line.
func imageAreas(list string) map[int]float64 {
	areas := map[int]float64{}
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 14 || (f[2] != "image" && f[2] != "stencil") {
			continue
		}
		page, err1 := strconv.Atoi(f[0])
		w, err2 := strconv.ParseFloat(f[3], 64)
		h, err3 := strconv.ParseFloat(f[4], 64)
		xppi, err4 := strconv.ParseFloat(f[len(f)-4], 64)
		yppi, err5 := strconv.ParseFloat(f[len(f)-3], 64)
		if err := errors.Join(err1, err2, err3, err4, err5); err != nil || xppi <= 0 || yppi <= 0 {
			continue
		}
		areas[page] += (w / xppi * 72) * (h / yppi * 72)
	}
	return areas
}

// cropAreas reads each page's CropBox (what pdftoppm draws for OCR) from
// `pdfinfo -box`, in square points:
//
//	Page    1 CropBox:     0.00     0.00   595.28   841.89
func cropAreas(info string) map[int]float64 {
	areas := map[int]float64{}
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		head, box, ok := strings.Cut(sc.Text(), "CropBox:")
		num, isPage := strings.CutPrefix(strings.TrimSpace(head), "Page")
		if !ok || !isPage {
			continue
		}
		page, err := strconv.Atoi(strings.TrimSpace(num))
		var c [4]float64
		if _, serr := fmt.Sscan(box, &c[0], &c[1], &c[2], &c[3]); err != nil || serr != nil {
			continue
		}
		areas[page] = abs(c[2]-c[0]) * abs(c[3]-c[1])
	}
	return areas
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
