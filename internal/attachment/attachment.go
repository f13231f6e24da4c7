// Package attachment reads the text of files a teacher attaches to a chat
// with the assistant, through the same extractors as submissions. Only the
// team's own stored files are read (its chats/ folder, or its assignments'
// submission files, see files.ReadableFiles): the server never fetches an
// address a user chose. The API process has no OCR pool, so a scanned page
// comes back without text.
package attachment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/input"
)

const (
	// MaxLinks is the most files one call reads. The assistant's own limit
	// (3 PDFs per message) is the client's to enforce.
	MaxLinks = 10
	// Concurrency is how many files one call reads at once.
	Concurrency = 2
	// DefaultTimeout bounds one call when Service.Timeout is zero.
	DefaultTimeout = 90 * time.Second
	// maxNameLen caps a file name quoted in a marker or a message.
	maxNameLen = 200
	// Slots is how many calls read files at once in one API process (each
	// reads up to Concurrency files at once); others wait up to Wait, then
	// are refused with MsgBusy (429, Retry-After).
	Slots = 2
	Wait  = 2 * time.Second
)

// MsgBusy refuses a call while Slots others are reading.
const MsgBusy = "Too many files are being read right now. Please try again in a few seconds."

// NewGate returns a gate with the bounds above; the API process shares one
// (Service.Gate).
func NewGate() *bounded.Gate {
	return bounded.New(bounded.Config{Slots: Slots, Wait: Wait, Busy: MsgBusy})
}

// processGate bounds the calls of the services whose Gate is nil: every one
// of this process.
var processGate = NewGate()

// Service reads attachments.
type Service struct {
	// Files proves the links are the team's own stored files.
	Files *files.Service
	// Blob holds the bytes.
	Blob blob.Blob
	// MaxBytes caps one file (MAX_UPLOAD_BYTES); zero is the store's upload
	// limit.
	MaxBytes int64
	// Timeout bounds one call; zero is DefaultTimeout. Files not read by
	// then are reported as failed.
	Timeout time.Duration
	// Reader reads the files; nil is an extract.Reader without OCR, bounded
	// by MaxBytes.
	Reader extract.Extractor
	// Log records failures that are not the file's fault; nil is
	// slog.Default().
	Log *slog.Logger
	// Gate bounds the calls reading at once; nil is the process's gate
	// (NewGate).
	Gate *bounded.Gate
}

// Request is one call: the files' locations (blob keys, or this store's
// file URLs with or without their query string) and, optionally, their
// names in the same order.
type Request struct {
	Links []string
	Names []string
	// PDFOnly refuses any file whose bytes are not a PDF (upload-and-read-pdf).
	PDFOnly bool
}

// Failure is a file that could not be read.
type Failure struct {
	// Index is the file's position in the request.
	Index int `json:"index"`
	// Name is the file's name.
	Name string `json:"name"`
	// Reason is a sentence for the teacher.
	Reason string `json:"reason"`
}

// Result is what a call read. TextArray[i] is the text of file i, or a
// bracketed marker when it has none: "[No text found in {name}]", "[{name}
// is not a PDF]" or "[Could not read {name}: {reason}]". Error is true when
// any file could not be read (every marker but "No text found"); Message then
// says so for the teacher and Failures lists them. NoText lists the files
// that were read but hold no text (a scanned or image-only PDF: the API has
// no OCR), so a client that needs the text (an assistant's PDFs) can say
// "Couldn't read PDF" without parsing the markers.
type Result struct {
	TextArray []string  `json:"textArray"`
	Error     bool      `json:"error"`
	Message   string    `json:"message,omitempty"`
	Failures  []Failure `json:"failures,omitempty"`
	NoText    []int     `json:"noText,omitempty"`
}

// Read reads the files of req for a teacher of team. A request that is
// malformed (no links, more than MaxLinks, names that do not match), or
// that names any file the team may not read, fails as a whole (400, or 404
// for another team's file) and reads nothing. A file that cannot be read,
// for reasons of its own (damaged, too large, not a PDF when PDFOnly, too
// slow), gets a marker in TextArray and sets Error; other failures (the
// store, the call's own context) fail the call.
func (s *Service) Read(ctx context.Context, team uuid.UUID, req Request) (Result, error) {
	switch {
	case len(req.Links) == 0:
		return Result{}, apperr.New(apperr.Invalid, "fileLinks must list at least one file.")
	case len(req.Links) > MaxLinks:
		return Result{}, apperr.Invalidf("At most %d files can be read at once.", MaxLinks)
	case len(req.Names) != 0 && len(req.Names) != len(req.Links):
		return Result{}, apperr.New(apperr.Invalid, "fileNames must name each file of fileLinks, in the same order.")
	}
	claims := make([]files.Claim, len(req.Links))
	for i, link := range req.Links {
		claims[i] = files.Claim{Name: fileName(req, i), Location: link}
	}
	stored, err := s.Files.ReadableFiles(ctx, team, claims)
	if err != nil {
		return Result{}, fmt.Errorf("check attachments: %w", err)
	}

	// The reading runs through the gate: at most Slots calls at once, and
	// the caller is answered as soon as its client goes away (the reads stop
	// with their context).
	var res Result
	if err := s.gate().Run(ctx, func(ctx context.Context) error {
		var err error
		res, err = s.read(ctx, req, claims, stored)
		return err
	}); err != nil {
		return Result{}, err // res may still be written by reads that outlived their caller
	}
	return res, nil
}

func (s *Service) gate() *bounded.Gate {
	if s.Gate != nil {
		return s.Gate
	}
	return processGate
}

// read reads the stored files, Concurrency at a time, within the call's
// Timeout.
func (s *Service) read(ctx context.Context, req Request, claims []files.Claim, stored []files.StoredFile) (Result, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	texts := make([]string, len(stored))
	reasons := make([]string, len(stored))
	errs := make([]error, len(stored))
	sem := make(chan struct{}, Concurrency)
	var wg sync.WaitGroup
	for i, f := range stored {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-callCtx.Done():
				reasons[i] = reasonTooSlow
				return
			}
			defer func() { <-sem }()
			texts[i], reasons[i], errs[i] = s.readOne(callCtx, f, claims[i].Name, req.PDFOnly)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil { // the client is gone: nobody reads the answer
		return Result{}, fmt.Errorf("read attachments: %w", err)
	}
	for i, err := range errs {
		if err != nil {
			return Result{}, fmt.Errorf("read attachment %s: %w", stored[i].Key, err)
		}
	}
	return s.result(claims, texts, reasons), nil
}

// Reasons and markers of files not read.
const (
	reasonTooSlow = "it took too long to read"
	reasonNotPDF  = "not a PDF"
)

// result builds the answer from each file's text or reason.
func (s *Service) result(claims []files.Claim, texts, reasons []string) Result {
	res := Result{TextArray: make([]string, len(claims))}
	for i, c := range claims {
		switch {
		case reasons[i] == reasonNotPDF:
			res.TextArray[i] = "[" + c.Name + " is not a PDF]"
			res.Failures = append(res.Failures, Failure{Index: i, Name: c.Name, Reason: c.Name + " is not a PDF."})
		case reasons[i] != "":
			res.TextArray[i] = "[Could not read " + c.Name + ": " + reasons[i] + "]"
			res.Failures = append(res.Failures, Failure{Index: i, Name: c.Name, Reason: reasons[i]})
		case strings.TrimSpace(texts[i]) == "":
			res.TextArray[i] = "[No text found in " + c.Name + "]"
			res.NoText = append(res.NoText, i)
		default:
			res.TextArray[i] = texts[i]
		}
	}
	if n := len(res.Failures); n > 0 {
		res.Error = true
		if n == 1 {
			res.Message = "Could not read " + res.Failures[0].Name + "."
		} else {
			res.Message = fmt.Sprintf("Could not read %d of the %d files.", n, len(claims))
		}
	}
	return res
}

// readOne reads one stored file: its text, or the reason it could not be
// read (for the teacher), or an error that is not the file's fault.
func (s *Service) readOne(ctx context.Context, f files.StoredFile, name string, pdfOnly bool) (text, reason string, err error) {
	limit := s.maxBytes()
	if f.Size > limit {
		return "", tooLarge(limit), nil
	}
	body, err := s.Blob.Get(ctx, f.Key)
	if errors.Is(err, blob.ErrNotFound) {
		return "", "it is no longer stored; upload it again", nil
	}
	if err != nil {
		return s.unlessTooSlow(ctx, fmt.Errorf("open: %w", err))
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		return s.unlessTooSlow(ctx, fmt.Errorf("read: %w", err))
	}
	if int64(len(data)) > limit {
		return "", tooLarge(limit), nil
	}
	if pdfOnly {
		if kind, err := extract.Sniff(data, name, f.ContentType); err != nil || kind != extract.KindPDF {
			return "", reasonNotPDF, nil
		}
	}
	res, err := s.reader().Extract(ctx, extract.Input{Name: name, ContentType: f.ContentType, Body: bytes.NewReader(data)})
	if err != nil {
		if why, ok := extract.Reason(err); ok {
			return "", lowerFirst(why), nil
		}
		return s.unlessTooSlow(ctx, fmt.Errorf("extract: %w", err))
	}
	return res.Text, "", nil
}

// unlessTooSlow turns err into the too-slow reason when the call's time
// is up, and leaves any other error to fail the call.
func (s *Service) unlessTooSlow(ctx context.Context, err error) (string, string, error) {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.logger().Warn("attachment read timed out", "err", err)
		return "", reasonTooSlow, nil
	}
	return "", "", err
}

// tooLarge is the reason of a file over limit bytes ("it is larger than the
// 50 MB limit").
func tooLarge(limit int64) string {
	size := fmt.Sprintf("%d bytes", limit)
	switch {
	case limit >= 1<<20 && limit%(1<<20) == 0:
		size = fmt.Sprintf("%d MB", limit>>20)
	case limit >= 1<<20:
		size = fmt.Sprintf("%.1f MB", float64(limit)/(1<<20))
	case limit >= 1<<10 && limit%(1<<10) == 0:
		size = fmt.Sprintf("%d KB", limit>>10)
	}
	return "it is larger than the " + size + " limit"
}

func (s *Service) maxBytes() int64 {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return s.Blob.MaxUploadBytes()
}

func (s *Service) reader() extract.Extractor {
	if s.Reader != nil {
		return s.Reader
	}
	return extract.New(extract.Options{Limits: extract.Limits{MaxFileBytes: s.maxBytes()}})
}

func (s *Service) logger() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// fileName is file i's name: the one the client gave, else the key's file
// name without its random prefix; cleaned and capped for markers.
func fileName(req Request, i int) string {
	name := ""
	if i < len(req.Names) {
		name = input.Name(req.Names[i])
	}
	if name == "" {
		name = nameFromLink(req.Links[i])
	}
	if r := []rune(name); len(r) > maxNameLen {
		name = string(r[:maxNameLen]) + "…"
	}
	return name
}

// nameFromLink is the file name in a key or file URL:
// ".../0123456789abcdef-notes.pdf" is "notes.pdf".
func nameFromLink(link string) string {
	link, _, _ = strings.Cut(strings.TrimSpace(link), "?")
	base := path.Base(link)
	if len(base) > 17 && base[16] == '-' && isHex(base[:16]) {
		base = base[17:]
	}
	if base == "" || base == "." || base == "/" {
		return "file"
	}
	return input.Name(base)
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}

// lowerFirst makes a reason ("This PDF is damaged") fit after "Could not
// read x: ".
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
