// Package extract turns an uploaded file into text for grading. The format is
// chosen from the file's bytes (Sniff), never from its name: PDF (text layer
// by poppler, form fields in-process, OCR for pages without text), Word and
// PowerPoint (archive/zip and encoding/xml, bounded against zip bombs), plain
// text, and images (OCR): PNG, JPEG, GIF (its first frame) and WebP decoded
// in Go, TIFF page by page, HEIC/HEIF converted by libheif's heif-convert. OCR itself is behind the OCR interface;
// package extract/ocr implements it with tesseract, so only processes that
// run OCR link it.
//
// A file that cannot be read fails with a *PermanentError whose Reason is a
// sentence for the teacher; any other error (I/O, a timeout, a missing tool)
// is worth retrying.
package extract

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Input is one file to read. Name and ContentType are the client's hints;
// the bytes decide the format.
type Input struct {
	Name        string
	ContentType string
	Body        io.Reader
}

// Kind is a format Markwell reads.
type Kind string

// The kinds.
const (
	KindPDF  Kind = "pdf"
	KindDOCX Kind = "docx"
	KindPPTX Kind = "pptx"
	KindText Kind = "text"
	KindPNG  Kind = "png"
	KindJPEG Kind = "jpeg"
	KindGIF  Kind = "gif"
	KindWebP Kind = "webp"
	KindTIFF Kind = "tiff"
	KindHEIC Kind = "heic" // HEIC and other HEIF images
	// Converted by LibreOffice (Options.Converter) to DOCX or PPTX, then
	// read as those: OpenDocument text and presentations, RTF, Word and
	// PowerPoint 97–2003.
	KindODT Kind = "odt"
	KindODP Kind = "odp"
	KindRTF Kind = "rtf"
	KindDOC Kind = "doc"
	KindPPT Kind = "ppt"
)

// slides reports whether the kind's pages are slides.
func (k Kind) slides() bool { return k == KindPPTX || k == KindODP || k == KindPPT }

// Source says where a page's text came from.
type Source string

// The sources.
const (
	// SourceFile is text the file holds: a PDF text layer, Word or
	// PowerPoint XML, a text file.
	SourceFile Source = "file"
	// SourcePoppler is a PDF text layer read by poppler's pdftotext, which
	// reads every PDF first (SourceFile only when poppler refuses the file).
	SourcePoppler Source = "pdftotext"
	// SourceOCR is text recognised in the page's image by tesseract.
	SourceOCR Source = "ocr"
)

// Page is the text of one page (a PDF page, a slide, an image; a Word or
// text file is one page).
type Page struct {
	// Number counts from 1.
	Number int
	// Text is the page's text, "" when none was found.
	Text string
	// Source says how Text was found; "" when it is empty.
	Source Source
	// NeedsOCR marks a page OCR has still to read; it is set only by a
	// Reader without an OCR pool. A page without text (a scan) is empty
	// meanwhile; a PDF page whose few words (a scanner app's stamp, a typed
	// header) lie over a picture, and a Word or PowerPoint page whose
	// pictures wait for OCR, keep their text, so it is stored and shown
	// while they wait, and stands if OCR never comes.
	NeedsOCR bool
	// Confidence is how sure OCR was of the page's text, 0–100 (tesseract's
	// mean word confidence), for a page read by an OCR that says so (see
	// ConfidentOCR); for a Word or PowerPoint page, the lowest of its
	// pictures' whose text it holds. Nil otherwise.
	Confidence *int
	// Warning says, for the teacher, why the page's text may not be what
	// the page holds (OCR was unsure, garbled characters, almost no words;
	// see quality.go; OCR never read it: see unread.go), or is "".
	Warning string

	// pictures counts the pictures of a Word or PowerPoint page waiting for
	// OCR (NeedsOCR), and unread marks a page that waited for OCR and was
	// finished without it (Result.WithoutOCR).
	pictures int
	unread   bool
}

// Result is the text of a file, page by page.
type Result struct {
	Kind Kind
	// Text is every page's text in order, pages separated by a blank line;
	// slides start with a "Slide N" heading.
	Text  string
	Pages []Page
	// EmptyPages counts pages without text. While NeedsOCR reports true it
	// includes the pages without text still waiting for OCR (not a page
	// waiting with the text it has: a scanned PDF page's few words, a Word
	// page whose pictures wait).
	EmptyPages int

	// unreadBy names what never read the pages that waited for OCR ("OCR",
	// "the AI model"), set by WithoutOCR.
	unreadBy string
}

// NeedsOCR reports whether some page still waits for OCR: run the file
// through a Reader with an OCR pool (on the ocr queue) to finish it.
func (r Result) NeedsOCR() bool {
	for _, p := range r.Pages {
		if p.NeedsOCR {
			return true
		}
	}
	return false
}

// Problem describes pages without text for the teacher ("No text found on 3
// of 4 pages"), or returns "" when every page has text. Pages OCR never
// read (WithoutOCR) are not counted: Warning names them apart.
func (r Result) Problem() string {
	empty := r.EmptyPages
	for _, p := range r.Pages {
		if p.unread && p.Text == "" {
			empty--
		}
	}
	if empty <= 0 {
		return ""
	}
	unit := "pages"
	if r.Kind.slides() {
		unit = "slides"
	}
	switch {
	case len(r.Pages) <= 1:
		return "No text found in this file"
	case empty == len(r.Pages):
		return fmt.Sprintf("No text found on any of the %d %s", len(r.Pages), unit)
	default:
		return fmt.Sprintf("No text found on %d of %d %s", empty, len(r.Pages), unit)
	}
}

// Extractor reads the text of a file.
type Extractor interface {
	Extract(ctx context.Context, in Input) (Result, error)
}

// MaxTextBytes is the default cap on the text taken from one file.
const MaxTextBytes = 10 << 20

// Limits bound the work and memory one file may cost. Zero fields take the
// defaults of DefaultLimits.
type Limits struct {
	// MaxFileBytes caps the file's size.
	MaxFileBytes int64
	// MaxTextBytes caps the text taken from one file.
	MaxTextBytes int
	// MaxPages caps PDF pages, slides and TIFF pages.
	MaxPages int
	// MaxImagePixels caps width × height of an image, checked from its
	// header before decoding.
	MaxImagePixels int64
	// MaxScanPixels caps the pixels of all a TIFF's pages together (each is
	// decoded, then read by OCR, at its own size), checked from the headers.
	MaxScanPixels int64
	// MaxZipEntries caps the entries of a Word or PowerPoint file.
	MaxZipEntries int
	// MaxZipBytes caps the bytes unpacked from one Word or PowerPoint file.
	MaxZipBytes int64
	// MaxZipRatio caps an entry's unpacked ÷ packed size (entries under
	// 1 MiB unpacked are exempt).
	MaxZipRatio int64
	// PDFTimeout bounds the in-process PDF reader (form fields, and files
	// poppler refuses); past it the form fields are left out.
	PDFTimeout time.Duration
	// ToolTimeout bounds each run of pdftotext, pdftoppm or heif-convert.
	ToolTimeout time.Duration
	// RenderPixels is the long side, in pixels, of a PDF page rasterised for
	// OCR (3508 is an A4 page at 300 dpi).
	RenderPixels int
	// ConvertTimeout bounds one LibreOffice conversion (ODT, ODP, RTF, DOC,
	// PPT); past it the file fails with ReasonConvertSlow.
	ConvertTimeout time.Duration
	// MaxConvertBytes caps a file handed to LibreOffice.
	MaxConvertBytes int64
}

// DefaultLimits are the limits used for zero fields.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:   50 << 20,
		MaxTextBytes:   MaxTextBytes,
		MaxPages:       500,
		MaxImagePixels: 50_000_000,
		MaxScanPixels:  1_000_000_000, // about 115 A4 pages at 300 dpi
		MaxZipEntries:  10_000,
		MaxZipBytes:    64 << 20,
		MaxZipRatio:    100,
		PDFTimeout:     30 * time.Second,
		ToolTimeout:    2 * time.Minute,
		RenderPixels:   3508,
		// LibreOffice (about 200 MB and a few seconds a file).
		ConvertTimeout:  60 * time.Second,
		MaxConvertBytes: 50 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxFileBytes = orDefault(l.MaxFileBytes, d.MaxFileBytes)
	l.MaxTextBytes = orDefault(l.MaxTextBytes, d.MaxTextBytes)
	l.MaxPages = orDefault(l.MaxPages, d.MaxPages)
	l.MaxImagePixels = orDefault(l.MaxImagePixels, d.MaxImagePixels)
	l.MaxScanPixels = orDefault(l.MaxScanPixels, d.MaxScanPixels)
	l.MaxZipEntries = orDefault(l.MaxZipEntries, d.MaxZipEntries)
	l.MaxZipBytes = orDefault(l.MaxZipBytes, d.MaxZipBytes)
	l.MaxZipRatio = orDefault(l.MaxZipRatio, d.MaxZipRatio)
	l.PDFTimeout = orDefault(l.PDFTimeout, d.PDFTimeout)
	l.ToolTimeout = orDefault(l.ToolTimeout, d.ToolTimeout)
	l.RenderPixels = orDefault(l.RenderPixels, d.RenderPixels)
	l.ConvertTimeout = orDefault(l.ConvertTimeout, d.ConvertTimeout)
	l.MaxConvertBytes = orDefault(l.MaxConvertBytes, d.MaxConvertBytes)
	return l
}

// orDefault is v when it is positive, else def.
func orDefault[T cmp.Ordered](v, def T) T {
	var zero T
	if v <= zero {
		return def
	}
	return v
}

func (l Limits) tooLargeFile() error {
	return permanent(fmt.Sprintf("This file is larger than %s, which is too large to read", megabytes(l.MaxFileBytes)), ErrTooLarge)
}

func (l Limits) tooMuchText() error {
	return permanent(fmt.Sprintf("This file holds more than %s of text, which is too much to read", megabytes(int64(l.MaxTextBytes))), ErrTooLarge)
}

func (l Limits) tooManyPages(kind Kind, n int) error {
	what, unit := "PDF", "pages"
	switch {
	case kind.slides():
		what, unit = "presentation", "slides"
	case kind == KindTIFF:
		what = "TIFF image"
	}
	return permanentf(fmt.Sprintf("This %s has more than %d %s, which is too many to read", what, l.MaxPages, unit),
		"%w: %d %s", ErrTooLarge, n, unit)
}

func (l Limits) tooManyPixels(w, h int) error {
	return permanentf(fmt.Sprintf("This image is larger than %d megapixels, which is too large to read", l.MaxImagePixels/1_000_000),
		"%w: %d × %d pixels", ErrTooLarge, w, h)
}

// maxOCRPages is how many pages of a PDF OCR reads in one file: as many
// A4 pages drawn at RenderPixels as MaxScanPixels allows a TIFF's pages
// (114 at the defaults, about a minute and a half of OCR). A PDF of more
// pages without text is refused before any is drawn: a 150 KB PDF can hold
// 500 pages of drawn noise, twenty minutes of OCR.
func (l Limits) maxOCRPages() int {
	a4 := int64(l.RenderPixels) * int64(l.RenderPixels) * 210 / 297
	return int(max(1, l.MaxScanPixels/max(1, a4)))
}

func (l Limits) tooManyOCRPages(n int) error {
	return permanentf(fmt.Sprintf("This PDF has %d pages without text to read by OCR, more than the %d Markwell reads in one file: split it into smaller files", n, l.maxOCRPages()),
		"%w: %d pages to OCR", ErrTooLarge, n)
}

func (l Limits) tooManyScanPixels(total int64, pages int) error {
	return permanentf(fmt.Sprintf("This scan holds more than %d megapixels in all its pages, which is too much to read: split it into smaller files", l.MaxScanPixels/1_000_000),
		"%w: %d pixels in %d pages", ErrTooLarge, total, pages)
}

func megabytes(n int64) string {
	return strconv.FormatInt(n>>20, 10) + " MB"
}

// OCR recognises the printed text of an image; *ocr.Pool (package
// internal/extract/ocr, which links tesseract) implements it. Reader hands
// it 8-bit greyscale PGM images it made itself.
type OCR interface {
	Text(ctx context.Context, img []byte) (string, error)
}

// LowConfidence is the OCR confidence under which a page's text is worth
// checking against the original by eye (the review screen says so).
const LowConfidence = 60

// ConfidentOCR is an OCR that also says how sure it is of what it read:
// tesseract's mean word confidence, 0–100. *ocr.Pool implements it; a
// Reader asks it when its OCR does, and keeps the figure with the page.
//
// A confidence under 0 means no word was found.
type ConfidentOCR interface {
	TextConfidence(ctx context.Context, img []byte) (string, int, error)
}

// recognise reads img with the Reader's OCR, with its confidence when the
// OCR says.
func (r *Reader) recognise(ctx context.Context, img []byte) (string, *int, error) {
	if c, ok := r.ocr.(ConfidentOCR); ok {
		text, conf, err := c.TextConfidence(ctx, img)
		if err != nil || conf < 0 || strings.TrimSpace(text) == "" {
			return text, nil, err // no word: nothing to be unsure of
		}
		return text, &conf, nil
	}
	text, err := r.ocr.Text(ctx, img)
	return text, nil, err
}

// Options configure a Reader.
type Options struct {
	// OCR reads images, PDF pages without a text layer and PDF pages of a
	// few words over a picture. Without it those pages come back with
	// NeedsOCR set.
	OCR OCR
	// Limits bound each file; zero fields take DefaultLimits.
	Limits Limits
	// TempDir holds the copies of PDFs handed to poppler ("" is os.TempDir).
	TempDir string
	// PdftotextPath and PdftoppmPath name poppler's tools ("" looks them up
	// in PATH); pdfimages and pdfinfo are taken from beside PdftoppmPath.
	PdftotextPath string
	PdftoppmPath  string
	// HeifConvertPath names libheif's heif-convert, which converts HEIC
	// photos ("" looks it up in PATH).
	HeifConvertPath string
	// Converter turns ODT, RTF and DOC files into DOCX and ODP and PPT into
	// PPTX (nil: LibreOffice, SofficePath or soffice in PATH, sandboxed: see
	// package office). One conversion runs at a time in the process.
	Converter   Converter
	SofficePath string
}

// Reader reads any supported file, choosing the format from its bytes. It is
// safe for concurrent use.
type Reader struct {
	ocr         OCR
	lim         Limits
	tmp         string
	pdftotext   string
	pdftoppm    string
	heifConvert string
	converter   Converter
	soffice     string
}

var _ Extractor = (*Reader)(nil)

// New returns a Reader.
func New(o Options) *Reader {
	r := &Reader{ocr: o.OCR, lim: o.Limits.withDefaults(), tmp: o.TempDir,
		pdftotext: o.PdftotextPath, pdftoppm: o.PdftoppmPath, heifConvert: o.HeifConvertPath,
		converter: o.Converter, soffice: o.SofficePath}
	if r.pdftotext == "" {
		r.pdftotext = "pdftotext"
	}
	if r.pdftoppm == "" {
		r.pdftoppm = "pdftoppm"
	}
	if r.heifConvert == "" {
		r.heifConvert = "heif-convert"
	}
	return r
}

// Extract implements Extractor. A file that cannot be read fails with a
// *PermanentError; other errors are worth a retry.
func (r *Reader) Extract(ctx context.Context, in Input) (Result, error) {
	data, err := readAll(in.Body, r.lim)
	if err != nil {
		return Result{}, err
	}
	return r.ExtractBytes(ctx, data, in.Name, in.ContentType)
}

// ExtractBytes is Extract over a file already in memory.
func (r *Reader) ExtractBytes(ctx context.Context, data []byte, name, contentType string) (Result, error) {
	if int64(len(data)) > r.lim.MaxFileBytes {
		return Result{}, r.lim.tooLargeFile()
	}
	kind, err := sniff(data, name, contentType, r.lim)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var res Result
	switch kind {
	case KindPDF:
		res, err = r.readPDF(ctx, data)
	case KindDOCX:
		res, err = r.readDOCX(ctx, data)
	case KindPPTX:
		res, err = r.readPPTX(ctx, data)
	case KindText:
		res, err = r.readText(data, name, contentType)
	case KindPNG, KindJPEG, KindGIF, KindWebP, KindTIFF, KindHEIC:
		res, err = r.readImage(ctx, data, kind)
	case KindODT, KindODP, KindRTF, KindDOC, KindPPT:
		res, err = r.readConverted(ctx, data, kind)
	default:
		err = permanentf(ReasonUnsupported, "%w: kind %q", ErrUnsupported, kind)
	}
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", kind, err)
	}
	res.Kind = kind
	res.finish()
	if len(res.Text) > r.lim.MaxTextBytes {
		return Result{}, r.lim.tooMuchText()
	}
	return res, nil
}

// readAll reads a body up to the file size limit.
func readAll(body io.Reader, lim Limits) ([]byte, error) {
	if body == nil {
		return nil, permanent(ReasonEmpty, nil)
	}
	data, err := io.ReadAll(io.LimitReader(body, lim.MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read file: %w", err)
	}
	if int64(len(data)) > lim.MaxFileBytes {
		return nil, lim.tooLargeFile()
	}
	return data, nil
}

// finish tidies each page, counts the empty ones, joins the text and
// warns of pages that may be misread.
func (res *Result) finish() {
	var b strings.Builder
	res.EmptyPages = 0
	undecoded := make([]int, len(res.Pages))
	for i := range res.Pages {
		p := &res.Pages[i]
		p.Number = i + 1
		undecoded[i] = undecodable(p.Text)
		p.Text = tidy(p.Text)
		if p.Text == "" {
			p.Source = ""
			res.EmptyPages++
		}
		part := p.Text
		if res.Kind.slides() {
			part = strings.TrimSpace("Slide " + strconv.Itoa(p.Number) + "\n" + p.Text)
		}
		if part == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(part)
	}
	res.Text = b.String()
	res.assess(undecoded)
}

// tidy normalises line ends, drops control characters and trailing spaces,
// and collapses runs of blank lines into one.
func tidy(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\f' || r == '\v' || r == '\u2028' || r == '\u2029':
			return '\n'
		case r == '\t' || r == '\n':
			return r
		case r < 0x20 || r == 0x7f || r == '\ufeff' || r == '\ufffd' || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := true // drops leading blank lines
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\u00a0")
		if strings.TrimSpace(l) == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		out = append(out, l)
		blank = false
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// PlainText reads text files only (plain text, CSV, Markdown); any other
// format fails with ErrUnsupported. Reader reads every format.
type PlainText struct{}

var _ Extractor = PlainText{}

// Extract implements Extractor.
func (PlainText) Extract(ctx context.Context, in Input) (Result, error) {
	lim := Limits{MaxFileBytes: MaxTextBytes}.withDefaults()
	data, err := readAll(in.Body, lim)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return Result{}, fmt.Errorf("%s: %w", in.Name, err)
		}
		return Result{}, err
	}
	kind, err := sniff(data, in.Name, in.ContentType, lim)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", in.Name, err)
	}
	if kind != KindText {
		return Result{}, fmt.Errorf("%s: %w", in.Name, permanentf(ReasonUnsupported, "%w: %s", ErrUnsupported, kind))
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return New(Options{Limits: lim}).ExtractBytes(ctx, data, in.Name, in.ContentType)
}
