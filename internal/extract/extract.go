// Package extract turns an uploaded file into text for grading. Each format
// sits behind one Extractor interface.
package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"
)

// ErrUnsupported means the format cannot be read; retrying will not help.
var ErrUnsupported = errors.New("unsupported file type")

// ErrTooLarge means the file exceeds what extraction accepts.
var ErrTooLarge = errors.New("file too large to extract")

// Input is one file to read.
type Input struct {
	Name        string
	ContentType string
	Body        io.Reader
}

// Result is the text of a file, page by page where the format has pages.
type Result struct {
	Text  string
	Pages []string
}

// Extractor reads the text of a file.
type Extractor interface {
	Extract(ctx context.Context, in Input) (Result, error)
}

// MaxTextBytes caps the bytes read from a plain-text file.
const MaxTextBytes = 10 << 20

// PlainText reads text files (plain text, CSV, Markdown). Other formats get
// ErrUnsupported until their readers exist.
type PlainText struct{}

var _ Extractor = PlainText{}

// Extract implements Extractor.
func (PlainText) Extract(ctx context.Context, in Input) (Result, error) {
	if !isText(in.ContentType, in.Name) {
		return Result{}, fmt.Errorf("%s (%s): %w", in.Name, in.ContentType, ErrUnsupported)
	}
	b, err := io.ReadAll(io.LimitReader(in.Body, MaxTextBytes+1))
	if err != nil {
		return Result{}, fmt.Errorf("read %s: %w", in.Name, err)
	}
	if len(b) > MaxTextBytes {
		return Result{}, fmt.Errorf("%s: %w", in.Name, ErrTooLarge)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	text := strings.ToValidUTF8(string(b), string(utf8.RuneError))
	return Result{Text: text, Pages: []string{text}}, nil
}

func isText(contentType, name string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "text/plain", "text/csv", "text/markdown":
		return true
	}
	lower := strings.ToLower(name)
	return mt == "" && (strings.HasSuffix(lower, ".txt") || strings.HasSuffix(lower, ".csv") || strings.HasSuffix(lower, ".md"))
}
