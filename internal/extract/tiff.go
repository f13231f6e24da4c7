package extract

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"golang.org/x/image/tiff"
)

// TIFF tags this package reads itself.
const (
	tagNewSubfileType = 0x00fe
	tagOrientation    = 0x0112
)

// tiffHeader reads a classic TIFF header ("II*\0" or "MM\0*"): the byte
// order and the offset of the first IFD.
func tiffHeader(t []byte) (binary.ByteOrder, int, bool) {
	if len(t) < 8 {
		return nil, 0, false
	}
	var order binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return nil, 0, false
	}
	if order.Uint16(t[2:]) != 42 {
		return nil, 0, false
	}
	return order, int(order.Uint32(t[4:])), true
}

// ifdShort returns the value of a SHORT or LONG tag with one value in the IFD
// at off, and false when the IFD does not hold it or is cut off.
func ifdShort(t []byte, order binary.ByteOrder, off, tag int) (int, bool) {
	if off < 8 || off+2 > len(t) {
		return 0, false
	}
	n := int(order.Uint16(t[off:]))
	for k := range n {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0, false
		}
		if int(order.Uint16(t[e:])) != tag || order.Uint32(t[e+4:]) != 1 {
			continue
		}
		switch order.Uint16(t[e+2:]) {
		case 3: // SHORT
			return int(order.Uint16(t[e+8:])), true
		case 4: // LONG
			return int(order.Uint32(t[e+8:])), true
		}
		return 0, false
	}
	return 0, false
}

// tiffPage is one page of a TIFF file: the offset of its IFD and its
// orientation.
type tiffPage struct {
	ifd         int
	orientation int
}

// tiffPages walks a TIFF file's chain of IFDs and returns its pages in
// order, leaving out reduced-resolution copies (thumbnails). A chain that
// loops or leaves the file is damage; more pages than the limit is refused.
func tiffPages(data []byte, lim Limits) ([]tiffPage, error) {
	order, off, ok := tiffHeader(data)
	if !ok {
		return nil, permanentf(ReasonImageDamaged, "not a classic TIFF header")
	}
	var pages []tiffPage
	seen := map[int]bool{}
	for off != 0 {
		if seen[off] {
			return nil, permanentf(ReasonImageDamaged, "TIFF IFD chain loops back to offset %d", off)
		}
		seen[off] = true
		if off < 8 || off+2 > len(data) {
			return nil, permanentf(ReasonImageDamaged, "TIFF IFD at offset %d is outside the file", off)
		}
		n := int(order.Uint16(data[off:]))
		next := off + 2 + 12*n
		if next+4 > len(data) {
			return nil, permanentf(ReasonImageDamaged, "TIFF IFD at offset %d is cut off", off)
		}
		if sub, _ := ifdShort(data, order, off, tagNewSubfileType); sub&1 == 0 { // not a reduced-resolution copy
			o, _ := ifdShort(data, order, off, tagOrientation)
			pages = append(pages, tiffPage{ifd: off, orientation: max(o, 1)})
		}
		if len(pages) > lim.MaxPages || len(seen) > 4*lim.MaxPages {
			return nil, lim.tooManyPages(KindTIFF, len(pages))
		}
		off = int(order.Uint32(data[next:]))
	}
	if len(pages) == 0 {
		return nil, permanentf(ReasonImageDamaged, "TIFF without a full-size image")
	}
	return pages, nil
}

// tiffPageFile is a TIFF file seen with its header pointing at one page's
// IFD, which the decoder (which reads the first IFD only) then reads as its
// image. Only the 8-byte header is copied; the rest is the file's bytes.
type tiffPageFile struct {
	head [8]byte
	data []byte
}

func (f *tiffPageFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("tiff: negative offset %d", off)
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if off < 8 {
		copy(p, f.head[off:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// tiffPageReader returns page p of a TIFF file to hand to package tiff: it
// is an io.ReaderAt, so the decoder reads it in place.
func tiffPageReader(data []byte, p tiffPage) *io.SectionReader {
	order, _, _ := tiffHeader(data)
	f := &tiffPageFile{data: data}
	copy(f.head[:], data[:8])
	order.PutUint32(f.head[4:], uint32(p.ifd))
	return io.NewSectionReader(f, 0, int64(len(data)))
}

// tiffConfig reads the size of page p from its IFD.
func tiffConfig(data []byte, p tiffPage) (int, int, error) {
	cfg, err := tiff.DecodeConfig(tiffPageReader(data, p))
	if err != nil {
		return 0, 0, tiffError(err)
	}
	return cfg.Width, cfg.Height, nil
}

// decodeTIFFPage decodes page p.
func decodeTIFFPage(data []byte, p tiffPage) (imageData, error) {
	img, err := tiff.Decode(tiffPageReader(data, p))
	if err != nil {
		return imageData{}, tiffError(err)
	}
	return imageData{img: img, orientation: p.orientation}, nil
}

// tiffError says whether a TIFF is damaged or stored in a way the decoder
// does not read (JPEG-compressed TIFF, 4-bit samples, CMYK…).
func tiffError(err error) error {
	var unsupported tiff.UnsupportedError
	if errors.As(err, &unsupported) {
		return permanent(ReasonTIFFUnsupported, err)
	}
	return permanent(ReasonImageDamaged, err)
}
