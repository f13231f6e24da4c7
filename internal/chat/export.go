package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/docx"
	"github.com/markwell/markwell/internal/identity"
)

// MsgExportTooLong refuses a document longer than MaxDocumentLength.
const MsgExportTooLong = "The document can be at most 500,000 characters"

// The bounds of Word exports in one API process (see docs/security.md, "Word export"). The document's own
// structure is bounded by docx.DefaultLimits.
const (
	// ExportSlots is how many exports run at once.
	ExportSlots = 2
	// ExportWait is how long an export waits for a free slot before it is refused (429, MsgExportBusy).
	ExportWait = 2 * time.Second
	// ExportTimeout bounds one export (400, MsgExportSlow).
	ExportTimeout = 5 * time.Second
)

// MsgExportBusy refuses an export while ExportSlots others are running (429, Retry-After).
const MsgExportBusy = "Too many Word documents are being prepared right now. Please try again in a few seconds."

// MsgExportSlow refuses an export that outlives ExportTimeout.
const MsgExportSlow = "The document took too long to convert to Word. Try a shorter or simpler document."

// NewExportGate returns a gate with the export bounds above; the API process shares one (Service.Exports).
func NewExportGate() *bounded.Gate {
	return bounded.New(bounded.Config{
		Slots: ExportSlots, Wait: ExportWait, Timeout: ExportTimeout, Busy: MsgExportBusy, Slow: MsgExportSlow,
	})
}

// processExports bounds the exports of the services whose Exports is nil: every one of this process.
var processExports = NewExportGate()

func (s *Service) exports() *bounded.Gate {
	if s.Exports != nil {
		return s.Exports
	}
	return processExports
}

// maxSrcInMessage clips an image's address (a long data: URL) in the message that names it.
const maxSrcInMessage = 200

// Export writes the markdown document md as a .docx (see docx.Render)
// and returns its bytes. Images come from data: URLs or from files the
// actor's team uploaded to Markwell (by file URL or key); nothing is fetched
// from any other address. A failed image is refused with the spec's
// "Fetch image was failed", naming the image; a document past one of
// docx.DefaultLimits with that limit's sentence (400).
//
// The conversion runs through the exports gate: at most ExportSlots at once
// (else 429 after ExportWait), under ExportTimeout, and Export returns as
// soon as ctx ends (the client went away), the conversion stopping at its
// next check.
func (s *Service) Export(ctx context.Context, a identity.Actor, md string) ([]byte, error) {
	if utf8.RuneCountInString(md) > MaxDocumentLength {
		return nil, apperr.New(apperr.Invalid, MsgExportTooLong)
	}
	var doc []byte
	err := s.exports().Run(ctx, func(ctx context.Context) error {
		var err error
		doc, err = docx.Render(ctx, md, docx.Options{Images: s.imageSource(a.TeamID)})
		return err
	})
	var (
		imgErr *docx.ImageError
		limErr *docx.LimitError
		appErr *apperr.Error
	)
	switch {
	case err == nil:
		return doc, nil
	case errors.As(err, &limErr):
		return nil, apperr.Wrap(apperr.Invalid, limErr.Message, err)
	case errors.As(err, &imgErr):
		return nil, apperr.Wrap(apperr.Invalid, docx.MsgImageFailed+": "+clip(imgErr.Src), err)
	case errors.As(err, &appErr), errors.Is(err, context.Canceled):
		return nil, err
	default:
		return nil, fmt.Errorf("export document: %w", err)
	}
}

// imageSource reads an image the document names from the store, after
// proving the key was issued to team. A URL that is not this store's, a key
// of another team or one never issued, and a missing file all fail alike.
func (s *Service) imageSource(team uuid.UUID) docx.ImageSource {
	return func(ctx context.Context, src string) ([]byte, string, error) {
		key := strings.TrimSpace(src)
		if strings.Contains(key, ":") {
			k, err := s.Blob.KeyFromURL(key)
			if err != nil {
				return nil, "", err
			}
			key = k
		}
		if err := assistant.IssuedTo(ctx, s.Pool, team, key); err != nil {
			return nil, "", err
		}
		info, err := s.Blob.Stat(ctx, key)
		if err != nil {
			return nil, "", fmt.Errorf("stat %s: %w", key, err)
		}
		if info.Size > docx.MaxImageBytes {
			return nil, "", fmt.Errorf("image %s is larger than %d bytes", key, docx.MaxImageBytes)
		}
		r, err := s.Blob.Get(ctx, key)
		if err != nil {
			return nil, "", fmt.Errorf("read %s: %w", key, err)
		}
		defer r.Close()
		data, err := io.ReadAll(io.LimitReader(r, docx.MaxImageBytes+1))
		if err != nil {
			return nil, "", fmt.Errorf("read %s: %w", key, err)
		}
		if len(data) > docx.MaxImageBytes {
			return nil, "", fmt.Errorf("image %s is larger than %d bytes", key, docx.MaxImageBytes)
		}
		return data, info.ContentType, nil
	}
}

// clip shortens an image's address for a message.
func clip(src string) string {
	if r := []rune(src); len(r) > maxSrcInMessage {
		return string(r[:maxSrcInMessage]) + ellipsis
	}
	return src
}
