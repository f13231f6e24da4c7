package extract

import (
	"context"
	"image"
	"strings"
	"unicode"
)

// recognisePage reads one page's image with the Reader's OCR, after turning
// it straight when it is tilted (deskew.go).
//
// When the OCR is unsure of the page (confidence under LowConfidence) the
// page may be upside down: tesseract reads a page turned over as
// confident-looking nonsense ("oy jo pue moy" at 37%) that would go to the
// grader as the pupil's text, and it turns a page lying a quarter
// anticlockwise the wrong way round, with the same result. So such a page is
// read a second time turned over, and the reading that is surer and holds at
// least as many common English words is kept. Only doubtful pages pay for
// the second reading, and only when the first does not already read as
// English (a blurred page the right way up is doubtful but made of real
// words: read again it doubled the OCR of every poor scan); a page of no
// words is not read again.
func (r *Reader) recognisePage(ctx context.Context, g *image.Gray) (string, *int, error) {
	g, _ = deskew(g)
	text, conf, err := r.recognise(ctx, encodePGM(g))
	if err != nil || conf == nil || *conf >= LowConfidence || readsAsEnglish(text) {
		return text, conf, err
	}
	turned, tconf, err := r.recognise(ctx, encodePGM(turn180(g)))
	if err != nil {
		return "", nil, err
	}
	if readsBetter(turned, tconf, text, *conf) {
		return turned, tconf, nil
	}
	return text, conf, nil
}

// readsBetter reports whether the page read turned over (text, conf) is a
// better reading than the page as it came (was, wasConf): OCR is surer of
// it and it is no less made of real words. Tesseract's confidence alone can
// favour a few confident fragments; the common words keep a short, surer
// reading of nonsense from replacing a long, doubtful reading of sense.
func readsBetter(text string, conf *int, was string, wasConf int) bool {
	if conf == nil || *conf <= wasConf {
		return false
	}
	return commonWords(text) >= commonWords(was)
}

// readsAsEnglish reports whether a reading is made of real words: at least
// eight, a fifth of them among the commonest of English (about half of
// ordinary English prose is; a page read upside down makes almost none).
func readsAsEnglish(text string) bool {
	words := len(strings.Fields(text))
	return words >= 8 && commonWords(text)*5 >= words
}

// commonWords counts the words of text among the commonest of English, the
// language the OCR reads: a page read the right way up is full of them, a
// page read upside down hardly ever makes one.
func commonWords(text string) int {
	n := 0
	for _, tok := range strings.Fields(text) {
		w := strings.ToLower(strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) }))
		if englishCommon[w] {
			n++
		}
	}
	return n
}

// englishCommon are the commonest words of written English.
var englishCommon = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the of and to in is it that was for on are as with his they
		at be this have from or one had by but not what all were we when your can said there use
		an each which she do how their if will up other about out many then them these so some her
		would make like him into time has two more see could no way than been who its now people my
		made over did down only first where after also because most very just any our through`) {
		m[w] = true
	}
	return m
}()

// turn180 is the page upside down.
func turn180(g *image.Gray) *image.Gray {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		src := g.Pix[(b.Min.Y-g.Rect.Min.Y+y)*g.Stride+(b.Min.X-g.Rect.Min.X):][:w]
		dst := out.Pix[(h-1-y)*out.Stride:][:w]
		for x, v := range src {
			dst[w-1-x] = v
		}
	}
	return out
}
