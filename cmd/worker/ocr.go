//go:build cgo

package main

import (
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/ocr"
)

// ensureOCRThreadLimit keeps each tesseract call on one thread; it may
// re-execute the program (see ocr.EnsureOpenMPThreadLimit).
func ensureOCRThreadLimit() error { return ocr.EnsureOpenMPThreadLimit() }

// newOCRPool returns the process's OCR pool of n tesseract clients and its
// Close; it fails when tesseract or its English model is missing.
func newOCRPool(n int) (extract.OCR, func() error, error) {
	p, err := ocr.NewPool(n)
	if err != nil {
		return nil, nil, err
	}
	return p, p.Close, nil
}
