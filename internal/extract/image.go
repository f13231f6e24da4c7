package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"strconv"
)

// readImage OCRs a PNG or JPEG. The size is checked from the header before
// anything is decoded; the image is decoded in Go (never by C code), turned
// upright by its EXIF orientation, and handed to tesseract as a grey PGM.
func (r *Reader) readImage(ctx context.Context, data []byte, kind Kind) (Result, error) {
	decodeConfig, decode := png.DecodeConfig, png.Decode
	if kind == KindJPEG {
		decodeConfig, decode = jpeg.DecodeConfig, jpeg.Decode
	}
	cfg, err := decodeConfig(bytes.NewReader(data))
	if err != nil {
		return Result{}, permanent(ReasonImageDamaged, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Result{}, permanentf(ReasonImageDamaged, "%d × %d pixels", cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > r.lim.MaxImagePixels {
		return Result{}, r.lim.tooManyPixels(cfg.Width, cfg.Height)
	}
	img, err := decode(bytes.NewReader(data))
	if err != nil {
		return Result{}, permanent(ReasonImageDamaged, err)
	}
	if r.ocr == nil {
		return Result{Pages: []Page{{NeedsOCR: true}}}, nil
	}
	orientation := 1
	if kind == KindJPEG {
		orientation = ExifOrientation(data)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	text, conf, err := r.recognise(ctx, encodePGM(uprightGray(img, orientation)))
	if err != nil {
		return Result{}, fmt.Errorf("OCR: %w", err)
	}
	return Result{Pages: []Page{{Text: text, Source: SourceOCR, Confidence: conf}}}, nil
}

// ExifOrientation returns a JPEG's EXIF orientation (1–8), or 1 when it has
// none. It reads the APP1 segment's first IFD only.
func ExifOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return 1
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return 1
		}
		marker := data[i+1]
		if marker == 0xd8 || marker >= 0xd0 && marker <= 0xd7 || marker == 0x01 || marker == 0xff {
			i += 2 // no length
			if marker == 0xff {
				i-- // fill byte
			}
			continue
		}
		if marker == 0xda || marker == 0xd9 { // image data or end: no EXIF before it
			return 1
		}
		size := int(binary.BigEndian.Uint16(data[i+2:]))
		if size < 2 || i+2+size > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+size]
		if marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			if o := tiffOrientation(seg[6:]); o != 0 {
				return o
			}
			return 1
		}
		i += 2 + size
	}
	return 1
}

// tiffOrientation reads tag 0x0112 from the first IFD of a TIFF header, or 0.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var order binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 0
	}
	if order.Uint16(t[2:]) != 42 {
		return 0
	}
	ifd := int(order.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	n := int(order.Uint16(t[ifd:]))
	for k := range n {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if order.Uint16(t[e:]) == 0x0112 && order.Uint16(t[e+2:]) == 3 { // SHORT
			if o := int(order.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}

// uprightGray converts an image to 8-bit grey (transparent pixels over
// white) and applies an EXIF orientation.
func uprightGray(img image.Image, orientation int) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	gray := toGray(img)
	if orientation <= 1 || orientation > 8 {
		return gray
	}
	ow, oh := w, h
	if orientation >= 5 {
		ow, oh = h, w
	}
	out := image.NewGray(image.Rect(0, 0, ow, oh))
	for y := range oh {
		row := out.Pix[y*out.Stride : y*out.Stride+ow]
		for x := range ow {
			var sx, sy int
			switch orientation {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // upside down
				sx, sy = w-1-x, h-1-y
			case 4: // mirrored upside down
				sx, sy = x, h-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // turned left: turn right to view
				sx, sy = y, h-1-x
			case 7: // transversed
				sx, sy = w-1-y, h-1-x
			case 8: // turned right: turn left to view
				sx, sy = w-1-y, x
			}
			row[x] = gray.Pix[sy*gray.Stride+sx]
		}
	}
	return out
}

// toGray converts to grey with fast paths for what PNG and JPEG decode to.
func toGray(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	switch m := img.(type) {
	case *image.Gray:
		if m.Rect.Min == (image.Point{}) {
			return m
		}
	case *image.YCbCr: // JPEG: luma is the grey
		out := image.NewGray(image.Rect(0, 0, w, h))
		for y := range h {
			copy(out.Pix[y*out.Stride:y*out.Stride+w], m.Y[y*m.YStride:y*m.YStride+w])
		}
		return out
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			// Premultiplied colour laid over white.
			white := 0xffff - a
			r, g, bl = r+white, g+white, bl+white
			lum := (19595*r + 38470*g + 7471*bl + 1<<15) >> 24
			out.Pix[y*out.Stride+x] = uint8(lum)
		}
	}
	return out
}

// encodePGM writes a binary 8-bit PGM, which leptonica reads without a codec.
func encodePGM(g *image.Gray) []byte {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	header := "P5\n" + strconv.Itoa(w) + " " + strconv.Itoa(h) + "\n255\n"
	out := make([]byte, 0, len(header)+w*h)
	out = append(out, header...)
	for y := range h {
		out = append(out, g.Pix[y*g.Stride:y*g.Stride+w]...)
	}
	return out
}

// DecodePGM reads a binary 8-bit greyscale PGM (P5, maxval 255, comments
// allowed), as pdftoppm and this package write them. The image shares
// data's bytes: nothing is copied.
func DecodePGM(data []byte) (*image.Gray, error) {
	if !bytes.HasPrefix(data, []byte("P5")) {
		return nil, errors.New("not a binary PGM")
	}
	fields := make([]int, 0, 3)
	i := 2
	for len(fields) < 3 {
		for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
			i++
		}
		if i < len(data) && data[i] == '#' { // a comment runs to the end of the line
			for i < len(data) && data[i] != '\n' {
				i++
			}
			continue
		}
		j := i
		for j < len(data) && data[j] >= '0' && data[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 {
			return nil, errors.New("bad PGM header")
		}
		v, _ := strconv.Atoi(string(data[i:j]))
		fields = append(fields, v)
		i = j
	}
	i++ // the single whitespace before the pixels
	w, h := fields[0], fields[1]
	if w <= 0 || h <= 0 || fields[2] != 255 || i > len(data) || len(data)-i != w*h {
		return nil, fmt.Errorf("bad PGM: %d × %d, maxval %d", w, h, fields[2])
	}
	return &image.Gray{Pix: data[i:], Stride: w, Rect: image.Rect(0, 0, w, h)}, nil
}
