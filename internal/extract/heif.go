package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// HEIC/HEIF photos (an iPhone's default) are converted by libheif's
// heif-convert (Debian package libheif-examples): its HEVC decoder is C code,
// run as a separate process within Limits.ToolTimeout, on a copy of the file
// in a private temporary folder, writing a raw YUV 4:2:0 frame (y4m), which
// is quicker to write and read than a PNG and whose Y plane is the grey
// image OCR wants. libheif applies the HEIF rotation and mirroring ('irot',
// 'imir') itself; the EXIF orientation a HEIF may also carry is ignored, as
// the HEIF standard asks.

// heifSize returns the largest image size the HEIF's 'ispe' properties
// declare (every coded image has one: the primary image, its tiles, its
// thumbnails), read before anything is decoded. A file without one (or
// only empty ones) is damaged.
func heifSize(data []byte) (w, h int, err error) {
	meta, ok := heifBox(data, "meta")
	if !ok || len(meta) < 4 {
		return 0, 0, permanentf(ReasonHEICDamaged, "HEIF without a meta box")
	}
	iprp, _ := heifBox(meta[4:], "iprp") // meta is a full box
	ipco, _ := heifBox(iprp, "ipco")
	for b := ipco; len(b) >= 8; {
		size, kind, body, ok := heifNext(b)
		if !ok {
			break
		}
		if kind == "ispe" && len(body) >= 12 {
			bw, bh := int(binary.BigEndian.Uint32(body[4:])), int(binary.BigEndian.Uint32(body[8:]))
			if int64(bw)*int64(bh) > int64(w)*int64(h) {
				w, h = bw, bh
			}
		}
		b = b[size:]
	}
	if w <= 0 || h <= 0 {
		return 0, 0, permanentf(ReasonHEICDamaged, "HEIF without an image size (ispe)")
	}
	return w, h, nil
}

// heifBox returns the body of the first box of the kind among the boxes in
// b.
func heifBox(b []byte, kind string) ([]byte, bool) {
	for len(b) >= 8 {
		size, k, body, ok := heifNext(b)
		if !ok {
			return nil, false
		}
		if k == kind {
			return body, true
		}
		b = b[size:]
	}
	return nil, false
}

// heifNext reads the box at the start of b: its whole size, type and body
// (ISO BMFF: a 32-bit size, 1 for a 64-bit size after the type, 0 for "to
// the end").
func heifNext(b []byte) (size int, kind string, body []byte, ok bool) {
	if len(b) < 8 {
		return 0, "", nil, false
	}
	size, head := int(binary.BigEndian.Uint32(b)), 8
	kind = string(b[4:8])
	switch size {
	case 0:
		size = len(b)
	case 1:
		if len(b) < 16 {
			return 0, "", nil, false
		}
		big := binary.BigEndian.Uint64(b[8:])
		if big > uint64(len(b)) {
			return 0, "", nil, false
		}
		size, head = int(big), 16
	}
	if size < head || size > len(b) {
		return 0, "", nil, false
	}
	return size, kind, b[head:size], true
}

// decodeHEIF converts the HEIF's primary image with heif-convert and reads
// the frame it writes.
func (r *Reader) decodeHEIF(ctx context.Context, data []byte) (imageData, error) {
	tool, err := exec.LookPath(r.heifConvert)
	if err != nil {
		return imageData{}, permanent(ReasonHEICNoTool, err)
	}
	dir, err := os.MkdirTemp(r.tmp, "markwell-heif-")
	if err != nil {
		return imageData{}, fmt.Errorf("temporary folder for heif-convert: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.heic")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return imageData{}, fmt.Errorf("write HEIF for heif-convert: %w", err)
	}
	if _, err := r.run(ctx, 64<<10, tool, "--quiet", in, filepath.Join(dir, "out.y4m")); err != nil {
		var te *toolError
		if errors.As(err, &te) {
			return imageData{}, permanent(ReasonHEICDamaged, err)
		}
		return imageData{}, err // a timeout or a cancelled job: worth another try
	}
	// A file of several top-level images is written as out-1.y4m, out-2.y4m…;
	// the first is read.
	outs, _ := filepath.Glob(filepath.Join(dir, "out*.y4m"))
	if len(outs) == 0 {
		return imageData{}, permanentf(ReasonHEICDamaged, "heif-convert wrote no image")
	}
	maxBytes := r.lim.MaxImagePixels*3/2 + 4<<10
	frame, err := readFileMax(outs[0], maxBytes)
	if err != nil {
		return imageData{}, err
	}
	img, err := decodeY4M(frame)
	if err != nil {
		return imageData{}, permanent(ReasonHEICDamaged, err)
	}
	if err := r.checkPixels(img.Rect.Dx(), img.Rect.Dy()); err != nil {
		return imageData{}, err
	}
	return imageData{img: img, orientation: 1}, nil
}

// readFileMax reads a file of at most max bytes.
func readFileMax(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read converted image: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read converted image: %w", err)
	}
	if int64(len(data)) > max {
		return nil, permanentf(ReasonHEICDamaged, "converted image over %d bytes", max)
	}
	return data, nil
}

// decodeY4M reads the first frame of a YUV4MPEG2 stream of 8-bit 4:2:0
// samples (what heif-convert writes) as a YCbCr image sharing data's bytes.
func decodeY4M(data []byte) (*image.YCbCr, error) {
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || !bytes.HasPrefix(line, []byte("YUV4MPEG2 ")) {
		return nil, errors.New("not a y4m stream")
	}
	w, h := 0, 0
	for _, f := range strings.Fields(string(line[len("YUV4MPEG2 "):])) {
		switch f[0] {
		case 'W':
			w, _ = strconv.Atoi(f[1:])
		case 'H':
			h, _ = strconv.Atoi(f[1:])
		case 'C':
			switch f {
			case "C420", "C420jpeg", "C420paldv", "C420mpeg2":
			default: // 4:4:4, grey or more than 8 bits
				return nil, fmt.Errorf("y4m colour space %s", f)
			}
		}
	}
	frame, pix, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || !bytes.HasPrefix(frame, []byte("FRAME")) {
		return nil, errors.New("y4m without a frame")
	}
	if w <= 0 || h <= 0 || w > 1<<16 || h > 1<<16 {
		return nil, fmt.Errorf("y4m of %d × %d pixels", w, h)
	}
	cw, ch := (w+1)/2, (h+1)/2
	if len(pix) < w*h+2*cw*ch {
		return nil, fmt.Errorf("y4m frame of %d bytes for %d × %d pixels", len(pix), w, h)
	}
	return &image.YCbCr{
		Y:              pix[:w*h],
		Cb:             pix[w*h : w*h+cw*ch],
		Cr:             pix[w*h+cw*ch : w*h+2*cw*ch],
		YStride:        w,
		CStride:        cw,
		SubsampleRatio: image.YCbCrSubsampleRatio420,
		Rect:           image.Rect(0, 0, w, h),
	}, nil
}
