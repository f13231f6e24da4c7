package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/ledongthuc/pdf"
)

// readPDF reads a PDF page by page: the text layer with poppler's pdftotext
// (one run per file), the in-process reader only when poppler refuses the
// file as damaged, the values of filled-in form fields in-process, and OCR
// of the rasterised page for pages without a usable text layer and for
// pages whose few words lie over a picture (a scan with a stamp or a typed
// header: see pdfpicture.go).
//
// Why pdftotext first (measured on 56 real PDFs, docs/performance.md
// "Choosing the PDF reader"): ledongthuc/pdf kept 0.75 of the words
// pdftotext finds (and 0.76 of those mutool finds), losing them to glued
// and split words, ligatures, Arabic shaping, undecodable fonts and text in
// Form XObjects, and it was no faster over whole files (81 against 106
// pages/s); pdftotext kept 0.97 of mutool's words, and where the two
// differ mutool split words ("langu ages") that pdftotext kept whole.
func (r *Reader) readPDF(ctx context.Context, data []byte) (Result, error) {
	if !hasPDFEnd(data) {
		return Result{}, permanentf(ReasonPDFDamaged, "no %%%%EOF marker at the end: the file is cut off")
	}
	f := &pdfFile{r: r, data: data}
	defer f.close()

	texts, source, err := r.pdfTextLayer(ctx, f)
	if err != nil {
		return Result{}, err
	}
	if len(texts) > r.lim.MaxPages {
		return Result{}, r.lim.tooManyPages(KindPDF, len(texts))
	}
	pages := make([]Page, len(texts))
	for i, t := range texts {
		pages[i] = Page{Text: t, Source: source}
	}
	annots, err := r.pdfAnnotations(ctx, data, len(pages))
	if err != nil {
		return Result{}, err
	}

	plan, err := r.planOCR(ctx, f, pages)
	if err != nil {
		return Result{}, err
	}
	for i, need := range plan {
		if need == ocrNone {
			continue
		}
		if r.ocr == nil {
			if need == ocrEmpty {
				pages[i] = Page{}
			}
			// A picture page keeps its few words: they are stored with the
			// pages read so far while it waits for OCR, and stay when OCR
			// reads less.
			pages[i].NeedsOCR = true
			continue
		}
		text, conf, err := r.ocrPDFPage(ctx, f, i+1)
		if err != nil {
			return Result{}, err
		}
		if need == ocrPicture && !clearlyMore(text, pages[i].Text) {
			continue
		}
		pages[i] = Page{Text: text, Source: SourceOCR, Confidence: conf}
	}
	for i := range pages {
		if pages[i].Text != "" || !pages[i].NeedsOCR {
			pages[i].Text = annots.onto(pages[i].Text, i)
		}
	}
	return Result{Pages: pages}, nil
}

// pdfTextLayer reads every page's text layer with pdftotext, or with the
// in-process reader when poppler refuses the file as damaged and that
// reader can read it. A password, too much text, a timeout or a missing
// tool are poppler's answer.
func (r *Reader) pdfTextLayer(ctx context.Context, f *pdfFile) ([]string, Source, error) {
	texts, err := r.pdftotextPages(ctx, f)
	if err == nil {
		return texts, SourcePoppler, nil
	}
	reason, _ := Reason(err)
	if !IsPermanent(err) || reason != ReasonPDFDamaged {
		return nil, "", err
	}
	native, nerr := r.pdfNative(ctx, f.data)
	switch {
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case errors.Is(nerr, pdf.ErrInvalidPassword):
		return nil, "", permanent(ReasonPDFPassword, nerr)
	case IsPermanent(nerr): // too many pages, too much text
		return nil, "", nerr
	case nerr != nil:
		return nil, "", err
	}
	return native, SourceFile, nil
}

// hasPDFEnd reports whether an %%EOF marker sits in the last kilobyte, as
// every complete PDF has; its absence means the upload was cut off.
func hasPDFEnd(data []byte) bool {
	return bytes.Contains(data[max(0, len(data)-1024):], []byte("%%EOF"))
}

// unusable reports whether a page's text is missing or garbled: empty,
// mostly symbols (a font without a Unicode map), or long runs of letters
// without spaces (words positioned apart with no space characters).
func unusable(s string) bool {
	var total, letters, spaces, bad int
	for _, r := range s {
		total++
		switch {
		case r == utf8RuneError || unicode.Is(unicode.Co, r) || (unicode.IsControl(r) && !unicode.IsSpace(r)):
			bad++
		case unicode.IsSpace(r):
			spaces++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			letters++
			if unspaced(r) {
				spaces++ // a script written without spaces breaks anywhere
			}
		}
	}
	switch {
	case letters == 0:
		return true
	case bad*10 > total:
		return true
	case total > 200 && spaces*25 < total:
		return true
	}
	return false
}

const utf8RuneError = '\uFFFD'

// unspaced reports whether r belongs to a script written without spaces
// between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar).
func unspaced(r rune) bool {
	if r < '\u0e00' { // before Thai, the first of them: most text, decided at once
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao,
		unicode.Khmer, unicode.Myanmar)
}

// pdfNative reads each page's text layer with ledongthuc/pdf.
func (r *Reader) pdfNative(ctx context.Context, data []byte) ([]string, error) {
	return inProcessPDF(ctx, r.lim, data, func(rd *pdf.Reader, stop *atomic.Bool) ([]string, error) {
		return nativePages(rd, stop, r.lim)
	})
}

// inProcessPDF runs read on ledongthuc/pdf's reader of data in a goroutine
// guarded by recover and Limits.PDFTimeout. On timeout the reader's next
// read of the file fails, which ends the goroutine.
func inProcessPDF[T any](ctx context.Context, lim Limits, data []byte, read func(*pdf.Reader, *atomic.Bool) (T, error)) (T, error) {
	var zero T
	ctx, cancel := context.WithTimeout(ctx, lim.PDFTimeout)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf("in-process PDF reader: %w", err)
	}
	src := &stoppableReaderAt{data: data}
	type outcome struct {
		v   T
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: fmt.Errorf("in-process PDF reader panicked: %v", p)}
			}
		}()
		rd, err := pdf.NewReader(src, int64(len(data)))
		if err != nil {
			done <- outcome{err: err}
			return
		}
		v, err := read(rd, &src.stop)
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		return o.v, o.err
	case <-ctx.Done():
		src.stop.Store(true)
		return zero, fmt.Errorf("in-process PDF reader: %w", ctx.Err())
	}
}

func nativePages(rd *pdf.Reader, stop *atomic.Bool, lim Limits) ([]string, error) {
	n := rd.NumPage()
	if n > lim.MaxPages {
		return nil, lim.tooManyPages(KindPDF, n)
	}
	if n == 0 {
		return nil, errors.New("no pages")
	}
	pages := make([]string, n)
	total := 0
	for i := range n {
		if stop.Load() {
			return nil, errStopped
		}
		p := rd.Page(i + 1)
		text, err := p.GetPlainText(nil)
		if err != nil {
			continue // left empty: OCR reads this page
		}
		if total += len(text); total > lim.MaxTextBytes {
			return nil, lim.tooMuchText()
		}
		pages[i] = text
	}
	return pages, nil
}

var errStopped = errors.New("stopped")

// stoppableReaderAt serves the PDF's bytes until stopped.
type stoppableReaderAt struct {
	data []byte
	stop atomic.Bool
}

func (s *stoppableReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if s.stop.Load() {
		return 0, errStopped
	}
	if off < 0 || off >= int64(len(s.data)) {
		return 0, errors.New("read outside the file")
	}
	n := copy(p, s.data[off:])
	if n < len(p) {
		return n, errors.New("short read")
	}
	return n, nil
}

// pdfFile is the PDF written to a temporary file once, for poppler.
type pdfFile struct {
	r    *Reader
	data []byte
	path string
}

func (f *pdfFile) name() (string, error) {
	if f.path != "" {
		return f.path, nil
	}
	tmp, err := os.CreateTemp(f.r.tmp, "markwell-*.pdf")
	if err != nil {
		return "", fmt.Errorf("temporary PDF: %w", err)
	}
	f.path = tmp.Name()
	_, err = tmp.Write(f.data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("write temporary PDF: %w", err)
	}
	return f.path, nil
}

func (f *pdfFile) close() {
	if f.path != "" {
		_ = os.Remove(f.path)
	}
}

// pdftotextPages reads every page with pdftotext; pages end in form feeds.
func (r *Reader) pdftotextPages(ctx context.Context, f *pdfFile) ([]string, error) {
	name, err := f.name()
	if err != nil {
		return nil, err
	}
	out, err := r.run(ctx, r.lim.MaxTextBytes+r.lim.MaxPages, r.pdftotext, "-enc", "UTF-8", "-eol", "unix", name, "-")
	if err != nil {
		return nil, pdfToolError(err, r.lim)
	}
	pages := strings.Split(stripBidiControls(string(out)), "\f")
	if len(pages) > 1 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1] // the text after the last page's form feed
	}
	if len(pages) > r.lim.MaxPages {
		return nil, r.lim.tooManyPages(KindPDF, len(pages))
	}
	return pages, nil
}

// ocrPDFPage rasterises one page to a grey PGM with pdftoppm, its long side
// Limits.RenderPixels (300 dpi for A4), and reads it with OCR, turned
// straight when tilted (see recognisePage); the confidence is nil when the
// OCR does not say or the page could not be drawn.
func (r *Reader) ocrPDFPage(ctx context.Context, f *pdfFile, page int) (string, *int, error) {
	name, err := f.name()
	if err != nil {
		return "", nil, err
	}
	n := strconv.Itoa(page)
	px := r.lim.RenderPixels
	pgm, err := r.run(ctx, px*px+64, r.pdftoppm, "-f", n, "-l", n, "-gray", "-cropbox",
		"-scale-to", strconv.Itoa(px), "-singlefile", name)
	if err != nil {
		if IsPermanent(pdfToolError(err, r.lim)) {
			return "", nil, nil // poppler cannot draw this page: it stays empty
		}
		return "", nil, fmt.Errorf("rasterise page %d: %w", page, err)
	}
	g, err := DecodePGM(pgm)
	if err != nil {
		return "", nil, nil
	}
	text, conf, err := r.recognisePage(ctx, g)
	if err != nil {
		return "", nil, fmt.Errorf("OCR page %d: %w", page, err)
	}
	return text, conf, nil
}

// stripBidiControls drops the embedding marks pdftotext puts around
// right-to-left runs (U+202A–U+202E, U+2066–U+2069): the text is already in
// reading order, and the marks would stick to the first and last words.
func stripBidiControls(s string) string {
	return strings.Map(func(r rune) rune {
		if (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return -1
		}
		return r
	}, s)
}

// pdfToolError classifies a failed poppler run: a password or a damaged
// file is permanent; a timeout, a signal or a missing tool is not.
func pdfToolError(err error, lim Limits) error {
	var te *toolError
	if !errors.As(err, &te) {
		return err
	}
	switch {
	case te.overflow:
		return lim.tooMuchText()
	case strings.Contains(te.stderr, "Incorrect password"):
		return permanent(ReasonPDFPassword, err)
	case te.exitCode == 1 || te.exitCode == 3:
		return permanent(ReasonPDFDamaged, err)
	}
	return err
}
