package extract_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/pdftest"
)

// Pages that reach OCR tilted, as a scanner or a phone takes them. Before
// deskew, tesseract read 40 of 146 words of a page tilted 3.5° and none
// at 5°, without a warning. The tilted pages are made here from
// printed.png with golang.org/x/image/draw, not with the package's own
// rotation, so a wrong sign on either side would show.

// rotatedPNG is printed.png turned by degrees (clockwise on screen, as
// ImageMagick's -rotate) onto a white canvas that holds all of it.
func rotatedPNG(t *testing.T, degrees float64) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, rotated(t, degrees)))
	return buf.Bytes()
}

func rotated(t *testing.T, degrees float64) *image.Gray {
	t.Helper()
	src, err := png.Decode(bytes.NewReader(fixture(t, "printed.png")))
	require.NoError(t, err)
	return rotate(src, degrees)
}

// rotate turns src by degrees (clockwise on screen) onto a white canvas
// that holds all of it.
func rotate(src image.Image, degrees float64) *image.Gray {
	sw, sh := float64(src.Bounds().Dx()), float64(src.Bounds().Dy())
	sin, cos := math.Sincos(degrees * math.Pi / 180)
	dw := math.Ceil(math.Abs(sw*cos) + math.Abs(sh*sin))
	dh := math.Ceil(math.Abs(sw*sin) + math.Abs(sh*cos))
	dst := image.NewGray(image.Rect(0, 0, int(dw), int(dh)))
	draw.Draw(dst, dst.Rect, image.White, image.Point{}, draw.Src)
	// Source to destination: move the centre to the origin, turn, move it
	// to the canvas's centre.
	m := f64.Aff3{
		cos, -sin, dw/2 - cos*sw/2 + sin*sh/2,
		sin, cos, dh/2 - sin*sw/2 - cos*sh/2,
	}
	draw.BiLinear.Transform(dst, m, src, src.Bounds(), draw.Over, nil)
	return dst
}

func TestExtract_TiltedScansAreTurnedStraightBeforeOCR(t *testing.T) {
	t.Parallel()
	for _, tilt := range []float64{3, -3, 5, 12} {
		t.Run(fmt.Sprintf("%g°", tilt), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := extractFile(t, b.reader, rotatedPNG(t, tilt), "scan.png", "image/png")
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			requireReadsAtLeast(t, fmt.Sprintf("printed.png tilted %g°", tilt), printedText, res.Pages[0], 0.9)
			require.Empty(t, res.Warning())
		})
	}
}

// A phone's photo turned a quarter (tesseract turns it itself) and one
// tilted on top of that.
func TestExtract_SidewaysScansStillRead(t *testing.T) {
	t.Parallel()
	for _, turn := range []float64{90, 93} {
		t.Run(fmt.Sprintf("%g°", turn), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := extractFile(t, b.reader, rotatedPNG(t, turn), "scan.png", "image/png")
			require.NoError(t, err)
			requireReadsAtLeast(t, fmt.Sprintf("printed.png turned %g°", turn), printedText, res.Pages[0], 0.9)
		})
	}
}

// A scanned PDF page (an image only, as img2pdf writes) is rasterised by
// pdftoppm and turned straight the same way.
func TestExtract_TiltedPageOfAScannedPDFIsTurnedStraight(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := extractFile(t, b.reader, imagePDF(t, rotated(t, 5)), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, extract.KindPDF, res.Kind)
	requireReadsAtLeast(t, "PDF page tilted 5°", printedText, res.Pages[0], 0.9)
}

// A page scanned upside down, or a photo turned the wrong way, read as
// nonsense ("oy jo pue moy", 37%) that went to the grader; a page turned a
// quarter anticlockwise too, which tesseract turned the wrong way round.
func TestExtract_UpsideDownScansAreReadTheRightWayUp(t *testing.T) {
	t.Parallel()
	for _, turn := range []float64{180, 177, -90} {
		t.Run(fmt.Sprintf("%g°", turn), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := extractFile(t, b.reader, rotatedPNG(t, turn), "scan.png", "image/png")
			require.NoError(t, err)
			requireReadsAtLeast(t, fmt.Sprintf("printed.png turned %g°", turn), printedText, res.Pages[0], 0.9)
			require.Empty(t, res.Warning(), "read the right way up, OCR is sure of it")
		})
	}
}

// requireReadsAtLeast checks an OCR'd page holds the reference's words to
// at least the word accuracy least.
func requireReadsAtLeast(t *testing.T, what, want string, p extract.Page, least float64) {
	t.Helper()
	require.Equal(t, extract.SourceOCR, p.Source, what)
	acc := wordAccuracy(want, p.Text)
	conf := -1
	if p.Confidence != nil {
		conf = *p.Confidence
	}
	t.Logf("%s: word accuracy %.1f%%, confidence %d%%", what, 100*acc, conf)
	require.GreaterOrEqual(t, acc, least, "%s OCR text: %q", what, p.Text)
}

// imagePDF is a one-page PDF holding only img, as a JPEG drawn over the
// whole page at 300 dpi.
func imagePDF(t *testing.T, img *image.Gray) []byte {
	t.Helper()
	var jpg bytes.Buffer
	require.NoError(t, jpeg.Encode(&jpg, img, &jpeg.Options{Quality: 90}))
	w, h := img.Rect.Dx(), img.Rect.Dy()
	pw, ph := float64(w)*72/300, float64(h)*72/300
	content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", pw, ph)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>", pw, ph),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n%s\nendstream", w, h, jpg.Len(), jpg.Bytes()),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
	}
	return pdftest.Assemble(objs)
}
