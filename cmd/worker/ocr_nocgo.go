//go:build !cgo

package main

import (
	"errors"

	"github.com/markwell/markwell/internal/extract"
)

// errNoCgo is a worker built with CGO_ENABLED=0: tesseract is linked through cgo.
var errNoCgo = errors.New("this worker was built without cgo, so it cannot run OCR; build it with CGO_ENABLED=1 " +
	"(and libtesseract-dev) or leave the ocr queue to a worker that has it")

func ensureOCRThreadLimit() error { return errNoCgo }

func newOCRPool(int) (extract.OCR, func() error, error) { return nil, nil, errNoCgo }
