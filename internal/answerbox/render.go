package answerbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/markwell/markwell/internal/extract"
)

// ErrNoSuchPage is a page past a file's last, or a file that is neither a
// PDF nor an image extract reads.
var ErrNoSuchPage = errors.New("answerbox: no such page")

// ErrPageTooLarge is a page of more than MaxPagePixels: decoding it would
// take gigabytes (a small PNG can say it is 30,000 pixels square). Its errors
// also wrap ErrNoSuchPage: a job cropping answers skips such a page, as one
// it cannot render.
var ErrPageTooLarge = errors.New("answerbox: page too large")

// MaxPagePixels caps width × height of a page image, read from its header
// before it is decoded (as extract caps images it reads).
const MaxPagePixels = 50_000_000

// Renderer turns one page of a submission's file into an image: PDFs with
// pdftoppm at 100 dpi, images as package extract decodes them (PNG, JPEG,
// GIF, WebP, each page of a TIFF, HEIC through heif-convert), turned upright
// by their orientation. The zero value finds pdftoppm and heif-convert in
// PATH.
type Renderer struct {
	// Pdftoppm is poppler's tool ("" is "pdftoppm" in PATH).
	Pdftoppm string
	// TempDir holds the PDF copies and pages handed to poppler ("" is
	// os.TempDir).
	TempDir string
	// Timeout bounds one pdftoppm or heif-convert run (0 is 30 s).
	Timeout time.Duration
}

// JPEGQuality is the quality of stored pages and crops.
const JPEGQuality = 85

// Page renders page (0-based) of data.
func (r Renderer) Page(ctx context.Context, data []byte, page int) (image.Image, error) {
	if page < 0 {
		return nil, ErrNoSuchPage
	}
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		return r.pdfPage(ctx, data, page)
	}
	images := extract.New(extract.Options{TempDir: r.TempDir,
		Limits: extract.Limits{MaxImagePixels: MaxPagePixels, ToolTimeout: r.timeout()}})
	img, orientation, _, err := images.ImagePage(ctx, data, page)
	switch {
	case errors.Is(err, extract.ErrTooLarge):
		return nil, fmt.Errorf("%w (%w): %w", ErrPageTooLarge, ErrNoSuchPage, err)
	case errors.Is(err, extract.ErrNoPage), extract.IsPermanent(err):
		return nil, fmt.Errorf("%w: %w", ErrNoSuchPage, err)
	case err != nil:
		return nil, err
	}
	return upright(img, orientation), nil
}

// timeout bounds one run of pdftoppm or heif-convert.
func (r Renderer) timeout() time.Duration {
	if r.Timeout <= 0 {
		return 30 * time.Second
	}
	return r.Timeout
}

// pdfPage renders one PDF page to a JPEG with pdftoppm and decodes it.
func (r Renderer) pdfPage(ctx context.Context, data []byte, page int) (image.Image, error) {
	dir, err := os.MkdirTemp(r.TempDir, "answerbox-")
	if err != nil {
		return nil, fmt.Errorf("temporary folder for pdftoppm: %w", err)
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, fmt.Errorf("write pdf for pdftoppm: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	defer cancel()
	tool := r.Pdftoppm
	if tool == "" {
		tool = "pdftoppm"
	}
	n := fmt.Sprint(page + 1)
	// A page is measured before it is drawn: pdftoppm draws the whole page
	// in memory first (a 592-byte PDF can say it is 5 metres square).
	if pages, w, h := pdfPageSize(ctx, tool, in, n); pages > 0 && page >= pages {
		return nil, ErrNoSuchPage
	} else if w*h > MaxPagePixels {
		return nil, fmt.Errorf("%w (%w): page %d is %d × %d pixels at %d dpi", ErrPageTooLarge, ErrNoSuchPage, page, w, h, pdfDPI)
	}
	out := filepath.Join(dir, "page")
	cmd := exec.CommandContext(ctx, tool, "-jpeg", "-r", strconv.Itoa(pdfDPI), "-f", n, "-l", n, "-singlefile", in, out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("pdftoppm page %d: %w", page, ctx.Err())
		}
		return nil, fmt.Errorf("pdftoppm page %d: %w: %s", page, err, bytes.TrimSpace(stderr.Bytes()))
	}
	jpg, err := os.ReadFile(out + ".jpg")
	if errors.Is(err, os.ErrNotExist) { // pdftoppm writes nothing for a page past the end
		return nil, ErrNoSuchPage
	}
	if err != nil {
		return nil, fmt.Errorf("read page %d from pdftoppm: %w", page, err)
	}
	if err := checkPixels(jpg); err != nil {
		return nil, fmt.Errorf("page %d from pdftoppm: %w", page, err)
	}
	img, err := jpeg.Decode(bytes.NewReader(jpg))
	if err != nil {
		return nil, fmt.Errorf("decode page %d from pdftoppm: %w", page, err)
	}
	return img, nil
}

// pdfDPI is the resolution PDF pages are drawn at.
const pdfDPI = 100

// pdfPageSize reads, with poppler's pdfinfo beside pdftoppm, how many
// pages the PDF at path has and the size in pixels at pdfDPI of page n
// (1-based) as pdftoppm draws it by default (its MediaBox). Zeros for what
// it cannot tell (pdftoppm then says what is wrong); a page past the last
// gives pages alone.
func pdfPageSize(ctx context.Context, pdftoppm, path, n string) (pages int, w, h int64) {
	pdfinfo := "pdfinfo"
	if filepath.Base(pdftoppm) != pdftoppm {
		pdfinfo = filepath.Join(filepath.Dir(pdftoppm), "pdfinfo")
	}
	info := func(args ...string) (string, bool) {
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, pdfinfo, append(args, path)...)
		cmd.Stdout = &out
		err := cmd.Run()
		for line := range strings.Lines(out.String()) {
			if v, ok := strings.CutPrefix(line, "Pages:"); ok {
				pages, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		return out.String(), err == nil
	}
	out, ok := info("-f", n, "-l", n, "-box")
	if !ok { // a page past the last, or a file poppler cannot read
		info()
		return pages, 0, 0
	}
	for line := range strings.Lines(out) {
		// "Page    1 MediaBox:      0.00     0.00 14400.00   600.00"
		_, box, found := strings.Cut(line, "MediaBox:")
		if !found {
			continue
		}
		var c [4]float64
		if _, err := fmt.Sscan(box, &c[0], &c[1], &c[2], &c[3]); err != nil {
			return pages, 0, 0
		}
		px := func(pts float64) int64 { return int64(math.Ceil(math.Abs(pts) / 72 * pdfDPI)) }
		return pages, px(c[2] - c[0]), px(c[3] - c[1])
	}
	return pages, 0, 0
}

// checkPixels refuses an image whose header says it has more than
// MaxPagePixels; data that is not an image is ErrNoSuchPage.
func checkPixels(data []byte) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: not an image: %w", ErrNoSuchPage, err)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPagePixels {
		return fmt.Errorf("%w (%w): %d × %d pixels", ErrPageTooLarge, ErrNoSuchPage, cfg.Width, cfg.Height)
	}
	return nil
}

// EncodeJPEG encodes img as a JPEG.
func EncodeJPEG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return nil, fmt.Errorf("encode jpeg: %w", err)
	}
	return buf.Bytes(), nil
}

// Crop copies the pixels of b out of page into an image of their own.
func Crop(page image.Image, b Box) image.Image {
	r := CropRect(b, page.Bounds())
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), page, r.Min, draw.Src)
	return out
}

// upright applies an EXIF orientation to img.
func upright(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			out.Set(dx, dy, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}
