package answerbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/blob"
)

// Store reads and writes stored files; blob.Blob satisfies it.
type Store interface {
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
}

// maxFileBytes caps what is read of a submission's file or a stored page.
const maxFileBytes = 200 << 20

// Pages renders the pages of one submission's file, each once: a page's
// JPEG is stored under PageKey the first time and read from there after.
type Pages struct {
	Store      Store
	Render     Renderer
	Assignment uuid.UUID
	Submission uuid.UUID
	// FileKey is the submission's file.
	FileKey string

	file []byte
}

// Image returns page (0-based) as an image, and the key its JPEG is kept
// under.
func (p *Pages) Image(ctx context.Context, page int) (image.Image, string, error) {
	key := PageKey(p.Assignment, p.Submission, page)
	data, err := read(ctx, p.Store, key)
	if err == nil {
		img, derr := jpeg.Decode(bytes.NewReader(data))
		if derr == nil {
			return img, key, nil
		}
		// a damaged copy is rendered again
	} else if !errors.Is(err, blob.ErrNotFound) {
		return nil, "", err
	}
	if p.file == nil {
		if p.file, err = read(ctx, p.Store, p.FileKey); err != nil {
			return nil, "", err
		}
	}
	img, err := p.Render.Page(ctx, p.file, page)
	if err != nil {
		return nil, "", err
	}
	jpg, err := EncodeJPEG(img)
	if err != nil {
		return nil, "", err
	}
	if err := p.Store.Put(ctx, key, bytes.NewReader(jpg), int64(len(jpg)), "image/jpeg"); err != nil {
		return nil, "", fmt.Errorf("store page %s: %w", key, err)
	}
	return img, key, nil
}

// read reads a whole stored file.
func read(ctx context.Context, s Store, key string) ([]byte, error) {
	body, err := s.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, maxFileBytes))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	return data, nil
}

// CropArgs asks for the answers of one submission to be cropped out of its
// pages by its assignment's template (the crop_answers job). The jobs
// package runs it; it lives here so that saving a template can queue it.
type CropArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
}

// Kind implements river.JobArgs.
func (CropArgs) Kind() string { return "crop_answers" }

// InsertOpts puts the job on the ocr queue (rendering pages is CPU work of
// the same kind). Jobs are not unique: a template saved again must crop
// again, and a rerun writes the same keys and the same answers.
func (CropArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: "ocr", MaxAttempts: 5}
}
