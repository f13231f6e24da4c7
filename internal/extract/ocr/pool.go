// Package ocr reads printed text from images with tesseract (cgo, through
// gosseract). It is apart from package extract so that only processes that
// run OCR link libtesseract.
package ocr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/otiai10/gosseract/v2"
)

// Pool runs tesseract with a fixed number of clients, one per goroutine
// at a time (a tesseract client is not safe for concurrent use). Size it to
// the ocr queue's concurrency. Clients are made on first use and kept.
type Pool struct {
	slots     chan *gosseract.Client // nil entries are clients not made yet
	size      int
	closeOnce sync.Once
}

// NewPool returns a pool of size clients reading English. It sets
// OMP_THREAD_LIMIT=1 in the process environment so each client stays on one
// core (see EnsureOpenMPThreadLimit for why that alone is not enough), and
// fails when tesseract or its English model is missing.
func NewPool(size int) (*Pool, error) {
	if size < 1 {
		return nil, fmt.Errorf("OCR pool size %d: need at least 1", size)
	}
	if err := os.Setenv("OMP_THREAD_LIMIT", "1"); err != nil {
		return nil, fmt.Errorf("set OMP_THREAD_LIMIT: %w", err)
	}
	// The first client is made now, and reads a blank image, so a missing
	// tesseract or English model fails here rather than in a job.
	first, err := newOCRClient()
	if err != nil {
		return nil, err
	}
	if err := first.SetImageFromBytes(blankPGM); err != nil {
		_ = first.Close()
		return nil, fmt.Errorf("OCR warm-up: %w", err)
	}
	if _, err := first.Text(); err != nil {
		_ = first.Close()
		return nil, fmt.Errorf("OCR warm-up (is tesseract-ocr-eng installed?): %w", err)
	}
	p := &Pool{slots: make(chan *gosseract.Client, size), size: size}
	p.slots <- first
	for range size - 1 {
		p.slots <- nil
	}
	return p, nil
}

// Size is the number of clients.
func (p *Pool) Size() int { return p.size }

// Text recognises the printed text of an image (PGM, PNG or JPEG bytes;
// extract.Reader passes PGMs it made itself). It waits for a free client while ctx
// allows; once tesseract has started on the image it runs to the end.
func (p *Pool) Text(ctx context.Context, img []byte) (string, error) {
	text, _, err := p.TextConfidence(ctx, img)
	return text, err
}

// TextConfidence is Text with tesseract's mean word confidence (0–100) for
// the image: a low figure means the page is worth checking by eye; -1 when
// it found no word.
func (p *Pool) TextConfidence(ctx context.Context, img []byte) (string, int, error) {
	if len(img) == 0 {
		return "", 0, errors.New("OCR: empty image")
	}
	var c *gosseract.Client
	select {
	case c = <-p.slots:
	case <-ctx.Done():
		return "", 0, fmt.Errorf("wait for an OCR client: %w", ctx.Err())
	}
	defer func() { p.slots <- c }()
	if err := ctx.Err(); err != nil {
		return "", 0, err
	}
	if c == nil {
		var err error
		if c, err = newOCRClient(); err != nil {
			return "", 0, err
		}
	}
	if err := c.SetImageFromBytes(img); err != nil {
		return "", 0, fmt.Errorf("OCR image: %w", err)
	}
	// One recognition gives both: the hOCR's words, lines and paragraphs, and
	// each word's confidence (asking for the text and then the confidence
	// would recognise the page twice).
	hocr, err := c.HOCRText()
	if err != nil {
		return "", 0, fmt.Errorf("OCR: %w", err)
	}
	text, conf, err := fromHOCR(hocr)
	if err != nil {
		return "", 0, fmt.Errorf("OCR: read hOCR: %w", err)
	}
	return text, conf, nil
}

func newOCRClient() (*gosseract.Client, error) {
	c := gosseract.NewClient()
	if err := c.SetLanguage("eng"); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("OCR language: %w", err)
	}
	// Fully automatic page segmentation, as the tesseract command uses (the
	// library's default reads the page as one block); no diagnostics on stderr.
	for k, v := range map[gosseract.SettableVariable]string{
		"tessedit_pageseg_mode": "3",
		gosseract.DEBUG_FILE:    os.DevNull,
	} {
		if err := c.SetVariable(k, v); err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("OCR setting %s: %w", k, err)
		}
	}
	return c, nil
}

// Close waits for the clients in use and frees them all.
func (p *Pool) Close() error {
	var errs []error
	p.closeOnce.Do(func() {
		for range p.size {
			if c := <-p.slots; c != nil {
				errs = append(errs, c.Close())
			}
		}
	})
	return errors.Join(errs...)
}

// blankPGM is a 16 × 16 white greyscale image.
var blankPGM = []byte("P5\n16 16\n255\n" + strings.Repeat("\xff", 16*16))
