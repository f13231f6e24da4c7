package extract

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Pictures in Word and PowerPoint files. A pupil types "My working is in the
// photo below." and pastes a photo of their handwritten or printed working:
// its words are part of the answer. The readers put a picture mark where
// each picture stands in the text; fill reads the pictures by OCR and puts
// their text there, a paragraph of its own.
//
// A Reader without OCR (the extract queue's) keeps the typed text and marks
// the page NeedsOCR when a picture is worth reading, so the ocr_pages job
// reads the file again with OCR; the typed text is stored meanwhile and
// never waits on the pictures.

const (
	// minPicturePixels and minPictureSide are the smallest picture read
	// by OCR: about 300 × 300 pixels, a few lines of text. Icons, logos,
	// bullets and rules are smaller: they neither cost an OCR job nor add
	// words.
	minPicturePixels = 300 * 300
	minPictureSide   = 100
	// minPictureWords and minPictureConfidence decide whether a picture's
	// OCR text is kept: at least this many words and, when the OCR says,
	// this mean confidence. Tesseract reads a photo or a chart without
	// words as nothing or as junk: a photo of a circuit board gave 35 junk
	// words at 41%, while printed or neat handwritten working reads at
	// 90% or more (a blurred phone photo of print, at 46%, is mostly
	// misread words too).
	minPictureWords      = 3
	minPictureConfidence = 50
	// maxPictures bounds the pictures recorded in one file or slide.
	maxPictures = 1000
)

// markByte delimits a picture mark, "\x02" + index + "\x02"; XML text can
// hold no U+0002.
const markByte = '\x02'

// pictureMark is the mark of picture i.
func pictureMark(i int) string {
	return string(rune(markByte)) + strconv.Itoa(i) + string(rune(markByte))
}

// pictureReader reads the pictures of one Word or PowerPoint file, each part
// once, within the file's OCR budget: as many pictures as a PDF's pages OCR
// reads (Limits.maxOCRPages) and as many pixels as a TIFF's pages together
// (Limits.MaxScanPixels). The budget is spent in the same order with or
// without OCR, so both passes pick the same pictures.
type pictureReader struct {
	r      *Reader
	z      *zipArchive
	count  int
	pixels int64
	read   map[string]pictureText // by part name
}

// pictureText is what one picture adds.
type pictureText struct {
	text    string
	conf    *int
	wanted  bool // worth OCR: big enough, readable and within the budget
	hasText bool // text is kept
}

func (r *Reader) newPictureReader(z *zipArchive) *pictureReader {
	return &pictureReader{r: r, z: z, count: r.lim.maxOCRPages(), pixels: r.lim.MaxScanPixels, read: map[string]pictureText{}}
}

// fill replaces the picture marks in p's text with the pictures' text
// (parts are the part names by mark index). Without OCR the marks are
// removed and p.NeedsOCR is set when a picture is worth reading, and those
// pictures counted (named if OCR never comes: unread.go); the typed text
// stays. A page whose only text is its pictures' is SourceOCR; a page
// with both keeps its source, and the lowest confidence of its pictures'
// text as its Confidence, so an unsure reading is flagged for the teacher.
//
// A picture that cannot be read (damaged, too large, past the budget, a
// format OCR does not read) is left out: the rest of the file stands. Only
// the OCR failing, or ctx ending, fails the file, which is then retried.
func (pr *pictureReader) fill(ctx context.Context, p *Page, parts []string) error {
	if strings.IndexByte(p.Text, markByte) < 0 {
		return nil
	}
	texts := make([]string, len(parts))
	waiting := map[string]bool{}
	for i, part := range parts {
		pt, err := pr.picture(ctx, part)
		if err != nil {
			return err
		}
		if pt.wanted && pr.r.ocr == nil {
			p.NeedsOCR = true
			waiting[part] = true
		}
		if !pt.hasText {
			continue
		}
		texts[i] = pt.text
		if pt.conf != nil && (p.Confidence == nil || *pt.conf < *p.Confidence) {
			c := *pt.conf
			p.Confidence = &c
		}
	}
	p.pictures = len(waiting)
	typed := strings.TrimSpace(fillMarks(p.Text, nil))
	p.Text = fillMarks(p.Text, texts)
	if typed == "" && strings.TrimSpace(p.Text) != "" {
		p.Source = SourceOCR
	}
	return nil
}

// picture reads one part, or returns what it read before.
func (pr *pictureReader) picture(ctx context.Context, part string) (pictureText, error) {
	if pt, ok := pr.read[part]; ok {
		return pt, nil
	}
	pt, err := pr.readPicture(ctx, part)
	if err != nil {
		return pt, err
	}
	pr.read[part] = pt
	return pt, nil
}

// readPicture checks a picture and, with OCR, reads it.
func (pr *pictureReader) readPicture(ctx context.Context, part string) (pictureText, error) {
	if err := ctx.Err(); err != nil {
		return pictureText{}, err
	}
	f := pr.open(part)
	if f == nil || !pr.spend(f) {
		return pictureText{}, nil
	}
	if pr.r.ocr == nil {
		return pictureText{wanted: true}, nil
	}
	d, err := pr.r.decode(ctx, f, 0)
	if err != nil {
		return pictureText{wanted: true}, nil // damaged: left out
	}
	text, conf, err := pr.r.recognise(ctx, encodePGM(uprightGray(d.img, d.orientation)))
	if err != nil {
		return pictureText{}, fmt.Errorf("OCR picture %s: %w", part, err)
	}
	keep := countWords(text) >= minPictureWords && (conf == nil || *conf >= minPictureConfidence)
	return pictureText{text: strings.TrimSpace(text), conf: conf, wanted: true, hasText: keep}, nil
}

// open reads a picture's bytes and header. It returns nil for a picture OCR
// does not read: absent, not PNG, JPEG, GIF, WebP or TIFF (EMF, WMF and SVG
// drawings, a HEIC that would need heif-convert), smaller than about 300 ×
// 300 pixels, over Limits.MaxImagePixels, or past the archive's unpacking
// budget. Only the first page of a TIFF is read.
func (pr *pictureReader) open(part string) *imageFile {
	zf := pr.z.file(part)
	if part == "" || zf == nil || zf.UncompressedSize64 > uint64(pr.r.lim.MaxFileBytes) {
		return nil
	}
	rd, err := pr.z.open(zf)
	if err != nil {
		return nil
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil
	}
	kind, err := sniff(data, "", "", pr.r.lim)
	if err != nil {
		return nil
	}
	switch kind {
	case KindPNG, KindJPEG, KindGIF, KindWebP, KindTIFF:
	default:
		return nil
	}
	f, err := pr.r.openImage(data, kind)
	if err != nil || f.width*f.height < minPicturePixels || min(f.width, f.height) < minPictureSide {
		return nil
	}
	return f
}

// spend counts a picture against the file's OCR budget; false when it is
// spent.
func (pr *pictureReader) spend(f *imageFile) bool {
	px := int64(f.width) * int64(f.height)
	if pr.count <= 0 || px > pr.pixels {
		return false
	}
	pr.count--
	pr.pixels -= px
	return true
}

// fillMarks replaces each picture mark in s with texts[i] ("" when i is
// past texts). A mark alone on its line becomes the text's lines, with a
// blank line before and after (finish collapses doubled ones); a mark
// among other words (a picture in a table cell) becomes its words joined
// by spaces, so the row stays one line.
func fillMarks(s string, texts []string) string {
	lines := strings.Split(s, "\n")
	for li, line := range lines {
		if strings.IndexByte(line, markByte) < 0 {
			continue
		}
		pieces := strings.Split(line, string(rune(markByte)))
		if len(pieces) == 3 && strings.TrimSpace(pieces[0]) == "" && strings.TrimSpace(pieces[2]) == "" {
			lines[li] = markText(texts, pieces[1])
			if lines[li] != "" { // set apart: OCR's text may run to several paragraphs
				lines[li] = "\n" + lines[li] + "\n"
			}
			continue
		}
		var b strings.Builder
		for i, piece := range pieces {
			if i%2 == 0 {
				b.WriteString(piece)
			} else {
				b.WriteString(strings.Join(strings.Fields(markText(texts, piece)), " "))
			}
		}
		lines[li] = b.String()
	}
	return strings.Join(lines, "\n")
}

// markText is the text of the picture a mark's index names.
func markText(texts []string, index string) string {
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(texts) {
		return ""
	}
	return texts[i]
}

// pictureNumbers numbers the pictures a Word document or a slide places, by
// relationship id, in the order they are first met: a picture placed twice
// keeps its first number and is read once. A nil map records none (a part
// whose pictures are not read: headers, notes).
type pictureNumbers struct {
	byID map[string]int
	ids  []string
}

// number is the picture id's number; false when pictures are not recorded
// here or maxPictures are already.
func (n *pictureNumbers) number(id string) (int, bool) {
	if n.byID == nil || id == "" {
		return 0, false
	}
	if i, ok := n.byID[id]; ok {
		return i, true
	}
	if len(n.ids) >= maxPictures {
		return 0, false
	}
	n.byID[id] = len(n.ids)
	n.ids = append(n.ids, id)
	return len(n.ids) - 1, true
}
