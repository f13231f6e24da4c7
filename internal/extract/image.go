package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strconv"

	"golang.org/x/image/webp"
)

// imageFile is an image file whose header has been read and checked against
// the limits; its pages are decoded one at a time.
type imageFile struct {
	kind Kind
	data []byte
	tiff []tiffPage // the pages of a TIFF
	// width and height are the (first) page's, from its header.
	width, height int
}

// imageData is a decoded page and the orientation (1–8, EXIF's) that turns
// it upright.
type imageData struct {
	img         image.Image
	orientation int
}

// pages is the number of pages: a TIFF's, else one.
func (f *imageFile) pages() int {
	if f.kind == KindTIFF {
		return len(f.tiff)
	}
	return 1
}

// openImage reads an image file's header (each page's, for a TIFF) and
// refuses it when a page has more pixels than the limit, before anything is
// decoded.
func (r *Reader) openImage(data []byte, kind Kind) (*imageFile, error) {
	f := &imageFile{kind: kind, data: data}
	var decodeConfig func(io.Reader) (image.Config, error)
	switch kind {
	case KindPNG:
		decodeConfig = png.DecodeConfig
	case KindJPEG:
		decodeConfig = jpeg.DecodeConfig
	case KindGIF:
		decodeConfig = gif.DecodeConfig
	case KindWebP:
		decodeConfig = webp.DecodeConfig
	case KindHEIC:
		w, h, err := heifSize(data)
		if err != nil {
			return nil, err
		}
		f.width, f.height = w, h
		return f, r.checkPixels(w, h)
	case KindTIFF:
		pages, err := tiffPages(data, r.lim)
		if err != nil {
			return nil, err
		}
		var total int64
		for i, p := range pages {
			w, h, err := tiffConfig(data, p)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				f.width, f.height = w, h
			}
			if err := r.checkPixels(w, h); err != nil {
				return nil, err
			}
			if total += int64(w) * int64(h); total > r.lim.MaxScanPixels {
				return nil, r.lim.tooManyScanPixels(total, len(pages))
			}
		}
		f.tiff = pages
		return f, nil
	default:
		return nil, permanentf(ReasonUnsupported, "%w: %s is not an image", ErrUnsupported, kind)
	}
	cfg, err := decodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, permanent(ReasonImageDamaged, err)
	}
	f.width, f.height = cfg.Width, cfg.Height
	return f, r.checkPixels(cfg.Width, cfg.Height)
}

// checkPixels refuses an image of no pixels or more than the limit.
func (r *Reader) checkPixels(w, h int) error {
	if w <= 0 || h <= 0 {
		return permanentf(ReasonImageDamaged, "%d × %d pixels", w, h)
	}
	if int64(w)*int64(h) > r.lim.MaxImagePixels {
		return r.lim.tooManyPixels(w, h)
	}
	return nil
}

// decode decodes page i (0-based) in Go; a HEIC is first converted by
// libheif's heif-convert (see heif.go). The GIF decoder stops at the first
// frame.
func (r *Reader) decode(ctx context.Context, f *imageFile, i int) (imageData, error) {
	var (
		img image.Image
		err error
	)
	orientation := 1
	switch f.kind {
	case KindTIFF:
		return decodeTIFFPage(f.data, f.tiff[i])
	case KindHEIC: // libheif has already applied the HEIF rotation and mirroring
		return r.decodeHEIF(ctx, f.data)
	case KindPNG:
		img, err = png.Decode(bytes.NewReader(f.data))
	case KindJPEG:
		img, err = jpeg.Decode(bytes.NewReader(f.data))
		orientation = ExifOrientation(f.data)
	case KindGIF:
		img, err = gif.Decode(bytes.NewReader(f.data))
	case KindWebP:
		img, err = webp.Decode(bytes.NewReader(f.data))
		orientation = webpOrientation(f.data)
	}
	if err != nil {
		return imageData{}, permanent(ReasonImageDamaged, err)
	}
	return imageData{img: img, orientation: orientation}, nil
}

// readImage OCRs an image, each page of a TIFF in order. The size is checked
// from the header before anything is decoded; the image is decoded in Go
// (a HEIC after libheif converted it), turned upright by its orientation,
// turned straight when tilted, and handed to tesseract as a grey PGM (see
// recognisePage). Without OCR every page is still decoded (so a damaged
// file fails now) and comes back with NeedsOCR.
func (r *Reader) readImage(ctx context.Context, data []byte, kind Kind) (Result, error) {
	f, err := r.openImage(data, kind)
	if err != nil {
		return Result{}, err
	}
	pages := make([]Page, f.pages())
	for i := range pages {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		d, err := r.decode(ctx, f, i)
		if err != nil {
			if f.pages() > 1 {
				return Result{}, fmt.Errorf("page %d: %w", i+1, err)
			}
			return Result{}, err
		}
		if r.ocr == nil {
			pages[i] = Page{NeedsOCR: true}
			continue
		}
		text, conf, err := r.recognisePage(ctx, uprightGray(d.img, d.orientation))
		if err != nil {
			return Result{}, fmt.Errorf("OCR page %d: %w", i+1, err)
		}
		pages[i] = Page{Text: text, Source: SourceOCR, Confidence: conf}
	}
	return Result{Pages: pages}, nil
}

// ErrNoPage is a page past the last of an image file.
var ErrNoPage = errors.New("no such page")

// ImagePage decodes page (0-based) of an image file Sniff names PNG, JPEG,
// GIF, WebP, TIFF or HEIC, in colour as stored, with the EXIF orientation
// (1–8) that turns it upright, and the file's number of pages. The size is
// checked against Limits.MaxImagePixels from the header first (a refusal
// wraps ErrTooLarge); a page past the last is ErrNoPage.
func (r *Reader) ImagePage(ctx context.Context, data []byte, page int) (img image.Image, orientation, pages int, err error) {
	kind, err := sniff(data, "", "", r.lim)
	if err != nil {
		return nil, 0, 0, err
	}
	f, err := r.openImage(data, kind)
	if err != nil {
		return nil, 0, 0, err
	}
	if page < 0 || page >= f.pages() {
		return nil, 0, f.pages(), ErrNoPage
	}
	d, err := r.decode(ctx, f, page)
	if err != nil {
		return nil, 0, 0, err
	}
	return d.img, d.orientation, f.pages(), nil
}

// ImagePages counts the pages of an image file (a TIFF's pages; 1 for any
// other image), from its headers.
func (r *Reader) ImagePages(data []byte) (int, error) {
	kind, err := sniff(data, "", "", r.lim)
	if err != nil {
		return 0, err
	}
	f, err := r.openImage(data, kind)
	if err != nil {
		return 0, err
	}
	return f.pages(), nil
}

// webpOrientation returns the EXIF orientation of an extended WebP (its
// "EXIF" chunk), or 1.
func webpOrientation(data []byte) int {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 1
	}
	for i := 12; i+8 <= len(data); {
		size := int(binary.LittleEndian.Uint32(data[i+4:]))
		if size < 0 || size > len(data)-i-8 {
			return 1
		}
		if string(data[i:i+4]) == "EXIF" {
			exif := bytes.TrimPrefix(data[i+8:i+8+size], []byte("Exif\x00\x00"))
			if o := tiffOrientation(exif); o != 0 {
				return o
			}
			return 1
		}
		i += 8 + size + size&1
	}
	return 1
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
	order, ifd, ok := tiffHeader(t)
	if !ok {
		return 0
	}
	o, _ := ifdShort(t, order, ifd, tagOrientation)
	if o < 1 || o > 8 {
		return 0
	}
	return o
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
