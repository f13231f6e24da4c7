package extract

import (
	"context"
	"errors"
	"fmt"

	"github.com/markwell/markwell/internal/office"
)

// Converter turns a file LibreOffice reads into another format:
// office.LibreOffice implements it (see package office for its sandbox).
// fromExt is the file's kind ("odt", "rtf", "doc", "odp", "ppt"); toFilter
// is office.ToDOCX or office.ToPPTX.
//
// Errors the Reader understands: office.ErrNotInstalled, ErrNotConverted,
// ErrTimeout and ErrTooLarge. Any other is worth a retry.
type Converter interface {
	Convert(ctx context.Context, data []byte, fromExt, toFilter string) ([]byte, error)
}

// converting admits one LibreOffice conversion at a time in the process:
// each takes about 200 MB. Others wait for it (their job's context bounds
// the wait); ConvertTimeout starts once a conversion runs.
var converting = make(chan struct{}, 1)

// readConverted converts an OpenDocument, RTF or 97–2003 Office file to
// DOCX or PPTX with the Reader's Converter and reads that: a presentation
// keeps its "Slide N" headings and speaker notes.
func (r *Reader) readConverted(ctx context.Context, data []byte, kind Kind) (Result, error) {
	if int64(len(data)) > r.lim.MaxConvertBytes {
		return Result{}, permanentf(fmt.Sprintf("This file is larger than %s, which is too large to convert. %s",
			megabytes(r.lim.MaxConvertBytes), saveAgain), "%w: %d bytes to convert", ErrTooLarge, len(data))
	}
	target, read := office.ToDOCX, r.readDOCX
	if kind.slides() {
		target, read = office.ToPPTX, r.readPPTX
	}
	converted, err := r.convert(ctx, data, kind, target)
	if err != nil {
		return Result{}, err
	}
	res, err := read(ctx, converted)
	if reason, ok := Reason(err); ok && (reason == ReasonDOCXDamaged || reason == ReasonPPTXDamaged) {
		return Result{}, permanent(ReasonConvertFailed, err) // LibreOffice's output, not the student's file
	}
	return res, err
}

// convert runs one conversion within ConvertTimeout, one at a time in the
// process, and turns the converter's failures into reasons.
func (r *Reader) convert(ctx context.Context, data []byte, kind Kind, target string) ([]byte, error) {
	select {
	case converting <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait to convert: %w", ctx.Err())
	}
	defer func() { <-converting }()
	conv := r.converter
	if conv == nil {
		conv = office.LibreOffice{Path: r.soffice, TempDir: r.tmp, Timeout: r.lim.ConvertTimeout, MaxOutputBytes: r.lim.MaxFileBytes}
	}
	cctx, cancel := context.WithTimeoutCause(ctx, r.lim.ConvertTimeout, office.ErrTimeout)
	defer cancel()
	out, err := conv.Convert(cctx, data, string(kind), target)
	switch {
	case err == nil:
		return out, nil
	case ctx.Err() != nil:
		// The job's own end (shutdown, its timeout): another attempt may finish.
		return nil, fmt.Errorf("convert %s: %w", kind, ctx.Err())
	case errors.Is(err, office.ErrTimeout) || errors.Is(context.Cause(cctx), office.ErrTimeout):
		return nil, permanent(ReasonConvertSlow, err)
	case errors.Is(err, office.ErrNotInstalled):
		return nil, permanent(ReasonNoConverter, err)
	case errors.Is(err, office.ErrTooLarge):
		return nil, permanent(ReasonConvertTooLarge, fmt.Errorf("%w: %w", ErrTooLarge, err))
	case errors.Is(err, office.ErrNotConverted):
		return nil, permanent(ReasonConvertFailed, err)
	}
	return nil, fmt.Errorf("convert %s: %w", kind, err)
}
