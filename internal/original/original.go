// Package original shows a teacher the file a student handed in beside the
// text Markwell read from it: PDF pages and photos as page images (the JPEGs
// package answerbox renders once and keeps, the same the answer-box template
// is drawn on), Word and PowerPoint files, OpenDocument, RTF and their
// 97–2003 forms as their pages (converted to PDF by LibreOffice, sandboxed
// by package office, the first time they are asked for, bounded and kept
// beside the page images), with, per page, whether OCR was unsure of its
// text; and the file itself to download under its name. Photos and scans in
// any format extract reads (PNG, JPEG, GIF, WebP, HEIC, TIFF with a page per
// TIFF page) are drawn by package answerbox, which decodes them through
// extract. Everything is read through
// short-lived signed URLs; ids of other teams are not found. Only signed-in
// teachers ask: a student's view token opens none of it.
package original

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ledongthuc/pdf"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/store"
)

// Kind says how the original is shown.
type Kind string

// The kinds.
const (
	// KindPages is a file shown as page images: a PDF, a photo or scan, a
	// document or presentation LibreOffice converts (see converted).
	KindPages Kind = "pages"
	// KindText is a text file: the text on the review screen is the original.
	KindText Kind = "text"
	// KindNone is no file to show: a CSV row, or a file that cannot be shown
	// as pages (Problem says why; it can still be downloaded when it exists).
	KindNone Kind = "none"
)

// Messages of the original.
const (
	MsgNoFile        = "This submission has no file: it was imported from a CSV row."
	MsgFileMissing   = "The uploaded file is missing. Please upload it again."
	MsgNoOffice      = "Word and PowerPoint files can't be shown here on this server. Download the original to open it."
	MsgNotConverted  = "This file could not be shown as pages. Download the original to open it."
	MsgConvertBusy   = "Too many Word and PowerPoint files are being prepared right now. Please try again in a few seconds."
	MsgConvertSlow   = "This file took too long to prepare. Download the original to open it."
	MsgUnknownFormat = "This kind of file can't be shown here. Download the original to open it."
	MsgTooManyNotes  = "This document has too many footnotes to be shown as pages here. Download the original to open it."
)

// The bounds of converting Word and PowerPoint files in one API process:
// LibreOffice takes about 200 MB and a few seconds a file, so one at a time
// (others wait up to ConvertWait, then 429 with MsgConvertBusy), each within
// ConvertTimeout (MsgConvertSlow). A converted file is kept, and so is a
// conversion that failed or ran out of time (failedName beside the PDF):
// each file is converted at most once. A document whose notes LibreOffice
// would lay out for minutes (more than MaxNotes footnotes and endnotes; a
// 214 KB file with 20,000 held the slot for 90 s) is not converted at all.
const (
	ConvertSlots   = 1
	ConvertWait    = 20 * time.Second
	ConvertTimeout = 90 * time.Second
	MaxNotes       = 2_000
)

// failedName is the file kept beside a converted PDF's place when the
// conversion failed: its text is the problem the teacher is shown.
const failedName = "original.failed"

// NewConvertGate returns a gate with the conversion bounds above.
func NewConvertGate() *bounded.Gate {
	return bounded.New(bounded.Config{Slots: ConvertSlots, Wait: ConvertWait, Timeout: ConvertTimeout,
		Busy: MsgConvertBusy, Slow: MsgConvertSlow})
}

// processConverts and processPages bound the services whose Converts or
// Pages is nil.
var (
	processConverts = NewConvertGate()
	processPages    = answerbox.NewPageGate()
)

// maxFileBytes caps what is read of a submission's file.
const maxFileBytes = 200 << 20

// Converter turns a document or presentation of one of the converted
// kinds (its extension: "docx", "pptx", "odt", "odp", "rtf", "doc", "ppt")
// into a PDF; office.LibreOffice implements it.
type Converter interface {
	ToPDF(ctx context.Context, data []byte, ext string) ([]byte, error)
}

// Service shows submissions' originals to the teachers of their team.
type Service struct {
	Pool *pgxpool.Pool
	// Blob keeps the files, their page images and converted PDFs; TTL is
	// how long signed URLs live (the files service's).
	Blob blob.Blob
	TTL  time.Duration
	// Render draws pages; Pages bounds it (pass the answerbox service's, so
	// one gate bounds every page the process draws; nil: a gate of this
	// package's own).
	Render answerbox.Renderer
	Pages  *bounded.Gate
	// Office converts the documents and presentations shown as pages (nil:
	// LibreOffice from PATH, sandboxed: see package office);
	// Converts bounds it (nil: the process's gate, NewConvertGate).
	Office   Converter
	Converts *bounded.Gate
}

// Page is one page of an original.
type Page struct {
	// Number counts from 1.
	Number int `json:"number"`
	// Check is set when OCR read the page with a confidence under
	// extract.LowConfidence: the teacher should check its text against the
	// page.
	Check bool `json:"check"`
	// Confidence is OCR's confidence in the page's text (0–100), when OCR
	// read it.
	Confidence *int `json:"confidence"`
}

// Original is what the review screen shows of a submission's file.
type Original struct {
	Kind Kind `json:"kind"`
	// Format is the file's format as its bytes say: pdf, png, jpeg, gif,
	// webp, heic, tiff, docx, pptx, odt, odp, rtf, doc, ppt, text; "" without
	// a file.
	Format string `json:"format"`
	// FileName is the name the file downloads as ("" without a file).
	FileName string `json:"fileName"`
	// PageCount is the number of page images (KindPages).
	PageCount int `json:"pageCount"`
	// Converted is set for the converted kinds (Word, PowerPoint,
	// OpenDocument, RTF): their pages are LibreOffice's rendering, which may
	// differ a little from the student's.
	Converted bool   `json:"converted"`
	Pages     []Page `json:"pages"`
	// Problem says why a file is not shown as pages (KindNone).
	Problem string `json:"problem"`
}

// source is one submission's file as the service reads it.
type source struct {
	row    store.SubmissionOriginalRow
	kind   extract.Kind
	data   []byte // the whole file, read only for the converted kinds
	pdfKey string // the converted PDF's key (the converted kinds)
}

// Get returns what the review screen shows of a submission's original.
// A Word or PowerPoint file is converted the first time (bounded).
func (s *Service) Get(ctx context.Context, a identity.Actor, submissionID uuid.UUID) (Original, error) {
	src, err := s.load(ctx, a, submissionID)
	if err != nil {
		return Original{}, err
	}
	out := Original{Kind: KindNone, Pages: []Page{}}
	if src.row.FileKey == "" {
		out.Problem = MsgNoFile
		return out, nil
	}
	out.FileName = downloadName(src.row.Name, src.row.FileKey)
	if err := s.sniff(ctx, &src); err != nil {
		if errors.Is(err, blob.ErrNotFound) {
			out.Problem = MsgFileMissing
			return out, nil
		}
		if extract.IsPermanent(err) {
			out.Problem = MsgUnknownFormat
			return out, nil
		}
		return Original{}, err
	}
	out.Format = string(src.kind)
	switch src.kind {
	case extract.KindText:
		out.Kind = KindText
		return out, nil
	case extract.KindPNG, extract.KindJPEG, extract.KindGIF, extract.KindWebP, extract.KindHEIC:
		out.Kind, out.PageCount = KindPages, 1
	case extract.KindPDF, extract.KindTIFF:
		out.Kind, out.PageCount = KindPages, int(src.row.PageCount)
		if out.PageCount == 0 { // not read yet
			if out.PageCount, err = s.countPages(ctx, src.row.FileKey, src.kind); err != nil {
				return Original{}, err
			}
		}
	case extract.KindDOCX, extract.KindPPTX, extract.KindODT, extract.KindODP, extract.KindRTF, extract.KindDOC, extract.KindPPT:
		n, problem, err := s.convert(ctx, &src)
		if err != nil {
			return Original{}, err
		}
		if problem != "" {
			out.Problem = problem
			return out, nil
		}
		out.Kind, out.PageCount, out.Converted = KindPages, n, true
		return out, nil // their pages are not OCR's
	default:
		out.Problem = MsgUnknownFormat
		return out, nil
	}
	out.Pages = pagesOf(src.row.Pages, out.PageCount)
	return out, nil
}

// PageImage returns a short-lived signed URL of the JPEG of one page
// (0-based) of a submission's original, rendered once and kept.
func (s *Service) PageImage(ctx context.Context, a identity.Actor, submissionID uuid.UUID, page int) (string, error) {
	src, err := s.load(ctx, a, submissionID)
	if err != nil {
		return "", err
	}
	if src.row.FileKey == "" || page < 0 {
		return "", apperr.New(apperr.Invalid, answerbox.MsgNoPage)
	}
	if err := s.sniff(ctx, &src); err != nil {
		return "", s.fileError(err)
	}
	fileKey, count := src.row.FileKey, 0
	switch src.kind {
	case extract.KindPNG, extract.KindJPEG, extract.KindGIF, extract.KindWebP, extract.KindHEIC:
		count = 1
	case extract.KindPDF, extract.KindTIFF:
		count = int(src.row.PageCount) // 0 while not read: the renderer finds the end
	case extract.KindDOCX, extract.KindPPTX, extract.KindODT, extract.KindODP, extract.KindRTF, extract.KindDOC, extract.KindPPT:
		n, problem, err := s.convert(ctx, &src)
		if err != nil {
			return "", err
		}
		if problem != "" {
			return "", apperr.New(apperr.Invalid, problem)
		}
		fileKey, count = src.pdfKey, n
	default:
		return "", apperr.New(apperr.Invalid, answerbox.MsgNoPage)
	}
	if count > 0 && page >= count {
		return "", apperr.New(apperr.Invalid, answerbox.MsgNoPage)
	}
	p := &answerbox.Pages{Store: s.Blob, Render: s.Render, Assignment: src.row.AssignmentID, Submission: src.row.ID, FileKey: fileKey}
	var key string
	err = s.pages().Run(ctx, func(ctx context.Context) error {
		var err error
		_, key, err = p.Image(ctx, page)
		return err
	})
	switch {
	case errors.Is(err, answerbox.ErrPageTooLarge):
		return "", apperr.Wrap(apperr.Invalid, answerbox.MsgPageTooLarge, err)
	case errors.Is(err, answerbox.ErrNoSuchPage):
		return "", apperr.Wrap(apperr.Invalid, answerbox.MsgNoPage, err)
	case err != nil:
		return "", s.fileError(err)
	}
	u, err := s.Blob.PresignGet(ctx, key, s.TTL)
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return u, nil
}

// Download is a signed URL that downloads a submission's file under its
// name.
type Download struct {
	URL      string `json:"url"`
	FileName string `json:"fileName"`
}

// Download signs a download of a submission's file, saved as the
// submission's name (with the file's extension when a rename dropped it).
func (s *Service) Download(ctx context.Context, a identity.Actor, submissionID uuid.UUID) (Download, error) {
	src, err := s.load(ctx, a, submissionID)
	if err != nil {
		return Download{}, err
	}
	if src.row.FileKey == "" {
		return Download{}, apperr.New(apperr.Invalid, MsgNoFile)
	}
	if _, err := s.Blob.Stat(ctx, src.row.FileKey); err != nil {
		return Download{}, s.fileError(err)
	}
	name := downloadName(src.row.Name, src.row.FileKey)
	u, err := s.Blob.PresignDownload(ctx, src.row.FileKey, name, s.TTL)
	if err != nil {
		return Download{}, fmt.Errorf("presign download %s: %w", src.row.FileKey, err)
	}
	return Download{URL: u, FileName: name}, nil
}

// load reads a submission of the actor's team.
func (s *Service) load(ctx context.Context, a identity.Actor, id uuid.UUID) (source, error) {
	row, err := store.Q.SubmissionOriginal(ctx, s.Pool, store.SubmissionOriginalParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return source{}, store.NotFound(fmt.Errorf("load submission %s: %w", id, err))
	}
	return source{row: row}, nil
}

// sniff reads the file's format from its bytes: the first kilobyte, or the
// whole file for a zip (Word, PowerPoint and OpenDocument are told apart by
// their parts), an OLE2 compound file (Word and PowerPoint 97–2003, by its
// directory) or RTF: the files LibreOffice converts.
func (s *Service) sniff(ctx context.Context, src *source) error {
	body, err := s.Blob.Get(ctx, src.row.FileKey)
	if err != nil {
		return err
	}
	defer body.Close()
	head := make([]byte, 1024)
	n, err := io.ReadFull(body, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read %s: %w", src.row.FileKey, err)
	}
	head = head[:n]
	data := head
	if wholeFile(head) {
		rest, err := io.ReadAll(io.LimitReader(body, maxFileBytes))
		if err != nil {
			return fmt.Errorf("read %s: %w", src.row.FileKey, err)
		}
		data = append(head, rest...)
		src.data = data
	}
	src.kind, err = extract.Sniff(data, src.row.Name, src.row.ContentType)
	return err
}

// wholeFile reports whether a file starting with head is read whole: a zip,
// an OLE2 compound file, RTF.
func wholeFile(head []byte) bool {
	for _, magic := range []string{"PK", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "{\\rtf"} {
		if bytes.HasPrefix(head, []byte(magic)) {
			return true
		}
	}
	return false
}

// convert makes sure a Word or PowerPoint file has its PDF (converting it
// the first time, bounded) and counts its pages. A file that cannot be
// converted gives a problem for the teacher, not an error.
func (s *Service) convert(ctx context.Context, src *source) (pages int, problem string, err error) {
	pdfDir, _ := files.DerivedFolders(src.row.AssignmentID, src.row.ID)
	src.pdfKey = pdfDir + "original.pdf"
	data, err := readAll(ctx, s.Blob, src.pdfKey)
	if errors.Is(err, blob.ErrNotFound) {
		// A conversion that failed before is not tried again.
		if failed, ferr := readAll(ctx, s.Blob, pdfDir+failedName); ferr == nil && len(failed) > 0 {
			return 0, string(failed), nil
		}
		if notes(src.data, src.kind) > MaxNotes {
			return 0, s.keepFailure(ctx, pdfDir, MsgTooManyNotes), nil
		}
		err = s.converts().Run(ctx, func(ctx context.Context) error {
			pdf, err := s.office().ToPDF(ctx, src.data, string(src.kind))
			if err != nil {
				return err
			}
			data = pdf
			return s.Blob.Put(ctx, src.pdfKey, bytes.NewReader(pdf), int64(len(pdf)), "application/pdf")
		})
	}
	switch {
	case errors.Is(err, office.ErrNotInstalled):
		return 0, MsgNoOffice, nil
	case errors.Is(err, office.ErrNotConverted), errors.Is(err, office.ErrTooLarge):
		return 0, s.keepFailure(ctx, pdfDir, MsgNotConverted), nil
	case errors.Is(err, office.ErrTimeout):
		return 0, s.keepFailure(ctx, pdfDir, MsgConvertSlow), nil
	case err != nil:
		return 0, "", err
	}
	n, err := pageCount(data)
	if err != nil || n == 0 {
		return 0, MsgNotConverted, nil //nolint:nilerr // a PDF LibreOffice wrote that cannot be read is shown as not converted
	}
	return n, "", nil
}

// keepFailure remembers beside the PDF's place that converting the file
// failed, with the problem shown, and returns the problem. Not remembering
// it (the store refused) only means the next view tries again.
func (s *Service) keepFailure(ctx context.Context, pdfDir, problem string) string {
	_ = s.Blob.Put(ctx, pdfDir+failedName, strings.NewReader(problem), int64(len(problem)), "text/plain; charset=utf-8")
	return problem
}

// notes counts the footnotes and endnotes of a Word or OpenDocument text
// file, reading at most notesReadBytes of its notes' XML (a count past
// MaxNotes is all that matters); 0 for other kinds or a file that is not a
// readable zip (LibreOffice then says what it makes of it).
func notes(data []byte, kind extract.Kind) int {
	var parts []string
	var marks [][]byte
	switch kind {
	case extract.KindDOCX:
		parts = []string{"word/footnotes.xml", "word/endnotes.xml"}
		marks = [][]byte{[]byte("<w:footnote "), []byte("<w:footnote>"), []byte("<w:endnote "), []byte("<w:endnote>")}
	case extract.KindODT:
		parts = []string{"content.xml"}
		marks = [][]byte{[]byte("<text:note ")}
	default:
		return 0
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0
	}
	n := 0
	for _, f := range zr.File {
		if !slices.Contains(parts, f.Name) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			continue
		}
		xml, _ := io.ReadAll(io.LimitReader(rc, notesReadBytes))
		rc.Close()
		for _, m := range marks {
			n += bytes.Count(xml, m)
		}
	}
	return n
}

// notesReadBytes bounds what notes reads of one part (a notes part holding
// MaxNotes notes is far smaller).
const notesReadBytes = 64 << 20

// countPages counts the pages of a stored PDF or TIFF.
func (s *Service) countPages(ctx context.Context, key string, kind extract.Kind) (int, error) {
	data, err := readAll(ctx, s.Blob, key)
	if err != nil {
		return 0, s.fileError(err)
	}
	if kind == extract.KindTIFF {
		n, err := extract.New(extract.Options{}).ImagePages(data)
		if err != nil {
			return 0, s.fileError(err)
		}
		return n, nil
	}
	n, err := pageCount(data)
	if err != nil {
		return 0, apperr.Wrap(apperr.Invalid, MsgNotConverted, err)
	}
	return n, nil
}

// pageCount counts a PDF's pages in-process (guarded: the reader panics on
// some damaged files).
func pageCount(data []byte) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = 0, fmt.Errorf("count pdf pages: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0, fmt.Errorf("open pdf: %w", err)
	}
	return r.NumPage(), nil
}

// fileError turns a missing file into the teacher's sentence.
func (s *Service) fileError(err error) error {
	if errors.Is(err, blob.ErrNotFound) {
		return apperr.Wrap(apperr.Invalid, MsgFileMissing, err)
	}
	if extract.IsPermanent(err) {
		return apperr.Wrap(apperr.Invalid, MsgUnknownFormat, err)
	}
	return err
}

func (s *Service) pages() *bounded.Gate {
	if s.Pages == nil {
		return processPages
	}
	return s.Pages
}

func (s *Service) converts() *bounded.Gate {
	if s.Converts == nil {
		return processConverts
	}
	return s.Converts
}

func (s *Service) office() Converter {
	if s.Office == nil {
		return office.LibreOffice{Timeout: ConvertTimeout}
	}
	return s.Office
}

// readAll reads a whole stored file.
func readAll(ctx context.Context, b blob.Blob, key string) ([]byte, error) {
	body, err := b.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, maxFileBytes))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	return data, nil
}

// storedPage is a page of submissions.pages as far as the original needs it.
type storedPage struct {
	Confidence *int `json:"confidence"`
}

// pagesOf lists n pages with the OCR confidence of the stored pages.
func pagesOf(raw json.RawMessage, n int) []Page {
	var stored []storedPage
	_ = json.Unmarshal(raw, &stored) // pages without confidences just say nothing
	out := make([]Page, n)
	for i := range out {
		out[i] = Page{Number: i + 1}
		if i < len(stored) && stored[i].Confidence != nil {
			c := *stored[i].Confidence
			out[i].Confidence, out[i].Check = &c, c < extract.LowConfidence
		}
	}
	return out
}

// downloadName is the name a file downloads as: the submission's name,
// with the stored file's extension when the name has another or none (a
// teacher renamed "essay.docx" to "Ada"), slashes and control characters
// replaced.
func downloadName(name, key string) string {
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, strings.TrimSpace(name))
	ext := strings.ToLower(path.Ext(key))
	if ext != "" && !strings.EqualFold(path.Ext(name), ext) {
		name += ext
	}
	if name == "" || name == ext {
		name = "original" + ext
	}
	if len(name) > 200 {
		name = name[:200-len(ext)] + ext
		name = strings.ToValidUTF8(name, "")
	}
	return name
}
