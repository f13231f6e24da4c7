package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/docx"
	"github.com/markwell/markwell/internal/team"
)

// MsgExportTooLong refuses a document longer than MaxDocumentLength.
const MsgExportTooLong = "The document can be at most 500,000 characters"

// maxSrcInMessage clips an image's address (a long data: URL) in the message that names it.
const maxSrcInMessage = 200

// Export writes the markdown document md as a .docx (see docx.FromMarkdown)
// and returns its bytes. Images come from data: URLs or from files the
// actor's team uploaded to Markwell (by file URL or key); nothing is fetched
// from any other address. A failed image is refused with the spec's
// "Fetch image was failed", naming the image.
func (s *Service) Export(ctx context.Context, a team.Actor, md string) ([]byte, error) {
	if utf8.RuneCountInString(md) > MaxDocumentLength {
		return nil, apperr.New(apperr.Invalid, MsgExportTooLong)
	}
	var buf bytes.Buffer
	err := docx.FromMarkdown(ctx, &buf, md, s.imageSource(a.TeamID))
	var imgErr *docx.ImageError
	switch {
	case errors.As(err, &imgErr):
		return nil, apperr.Wrap(apperr.Invalid, docx.MsgImageFailed+": "+clip(imgErr.Src), err)
	case err != nil:
		return nil, fmt.Errorf("export document: %w", err)
	}
	return buf.Bytes(), nil
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
