package extract

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// printedGray is testdata/printed.png, a paragraph of printed text at
// 300 dpi, in grey.
func printedGray(t testing.TB) *image.Gray {
	t.Helper()
	data, err := os.ReadFile("testdata/printed.png")
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return toGray(img)
}

func TestSkewOf_MeasuresTheTiltOfAPrintedPage(t *testing.T) {
	t.Parallel()
	g := printedGray(t)
	for _, tilt := range []float64{-14, -5, -3, -1, 0, 0.7, 2, 3.5, 5, 10} {
		angle, _, ok := skewOf(rotateGray(g, tilt, 255))
		require.True(t, ok, "%.1f°: lines found", tilt)
		require.InDelta(t, tilt, angle, 0.15, "%.1f° measured as %.2f°", tilt, angle)
	}
}

func TestDeskew_LeavesAStraightPageAsItIs(t *testing.T) {
	t.Parallel()
	g := printedGray(t)
	got, turned := deskew(g)
	require.Same(t, g, got, "a straight page is handed to OCR untouched")
	require.Zero(t, turned)

	slight := rotateGray(g, 0.3, 255) // tesseract reads it: a turn would only blur it
	got, turned = deskew(slight)
	require.Same(t, slight, got)
	require.Zero(t, turned)
}

func TestDeskew_LeavesAPageWithoutLinesAsItIs(t *testing.T) {
	t.Parallel()
	blank := image.NewGray(image.Rect(0, 0, 600, 800))
	for i := range blank.Pix {
		blank.Pix[i] = 255
	}
	// Speckles, as a photo's grain or a drawing's shading: no lines.
	noise := image.NewGray(image.Rect(0, 0, 600, 800))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise.Pix {
		noise.Pix[i] = 255
		if rng.IntN(20) == 0 {
			noise.Pix[i] = 0
		}
	}
	for name, g := range map[string]*image.Gray{"blank": blank, "noise": noise, "tiny": image.NewGray(image.Rect(0, 0, 1, 1))} {
		got, turned := deskew(g)
		require.Same(t, g, got, name)
		require.Zero(t, turned, name)
	}
}

func TestDeskew_TurnsATiltedPageStraight(t *testing.T) {
	t.Parallel()
	g := printedGray(t)
	for _, tilt := range []float64{-5, 3, 8} {
		got, turned := deskew(rotateGray(g, tilt, 255))
		require.InDelta(t, -tilt, turned, 0.15)
		angle, _, ok := skewOf(got)
		require.True(t, ok)
		require.InDelta(t, 0, angle, 0.15, "%.0f° page after the turn", tilt)
	}
}

// Tesseract turns a sideways page itself; deskew only takes out its tilt.
func TestDeskew_SidewaysPageIsMeasuredByItsOwnLines(t *testing.T) {
	t.Parallel()
	sideways := uprightGray(printedGray(t), 6) // a quarter turn
	got, turned := deskew(sideways)
	require.Same(t, sideways, got, "a straight sideways page is left for tesseract")
	require.Zero(t, turned)

	tilted := rotateGray(sideways, 3, 255)
	got, turned = deskew(tilted)
	require.InDelta(t, -3, turned, 0.15)
	require.Greater(t, got.Rect.Dy(), got.Rect.Dx(), "still sideways, as tesseract expects it")
	require.Same(t, got, func() *image.Gray { g, _ := deskew(got); return g }(), "and now straight")
}

// A 3 × 2 image with pixel values 1..6 read row by row:
//
//	1 2 3
//	4 5 6
func TestRotateGray_QuarterAndHalfTurnsMoveEveryPixel(t *testing.T) {
	t.Parallel()
	src := image.NewGray(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		src.Pix[i] = uint8(i + 1)
	}
	require.Equal(t, src.Pix, rotateGray(src, 0, 0).Pix)
	require.Equal(t, uprightGray(src, 6).Pix, rotateGray(src, 90, 0).Pix, "clockwise")
	require.Equal(t, uprightGray(src, 8).Pix, rotateGray(src, -90, 0).Pix, "anticlockwise")
	require.Equal(t, uprightGray(src, 3).Pix, rotateGray(src, 180, 0).Pix)
	require.Equal(t, uprightGray(src, 3).Pix, turn180(src).Pix)

	// A sub-image is turned from its own corner.
	sub := src.SubImage(image.Rect(1, 0, 3, 2)).(*image.Gray)
	require.Equal(t, []uint8{6, 5, 3, 2}, turn180(sub).Pix)
	require.Equal(t, []uint8{5, 2, 6, 3}, rotateGray(sub, 90, 0).Pix)
}

func TestRotateGray_GrowsTheCanvasAndFillsTheCorners(t *testing.T) {
	t.Parallel()
	src := image.NewGray(image.Rect(0, 0, 200, 100))
	got := rotateGray(src, 10, 255)
	require.Equal(t, image.Rect(0, 0, 215, 134), got.Rect, "200·cos + 100·sin by 200·sin + 100·cos")
	require.Equal(t, uint8(255), got.Pix[0], "corner: the paper's grey")
	require.Equal(t, uint8(0), got.Pix[67*got.Stride+107], "centre: the page")
}

// scriptedOCR answers each image with the next of its readings and counts
// the calls.
type scriptedOCR struct {
	readings []reading
	calls    int
}

type reading struct {
	text string
	conf int
}

func (s *scriptedOCR) Text(ctx context.Context, img []byte) (string, error) {
	text, _, err := s.TextConfidence(ctx, img)
	return text, err
}

func (s *scriptedOCR) TextConfidence(context.Context, []byte) (string, int, error) {
	r := s.readings[s.calls]
	s.calls++
	return r.text, r.conf, nil
}

func TestRecognisePage_ReadsADoubtfulPageTurnedOverAndKeepsTheBetterReading(t *testing.T) {
	t.Parallel()
	page := image.NewGray(image.Rect(0, 0, 40, 40))
	const upright = "the water moves between the oceans and the land"
	const overturned = "pue] ay} pue suea00 ay} uaamjaq SaAow Jayem ay}"
	const french = "l'eau circule sans cesse entre les océans et la terre ferme"
	for _, tc := range []struct {
		name     string
		readings []reading
		calls    int
		want     string
	}{
		{"a sure reading is read once", []reading{{upright, 91}}, 1, upright},
		{"upside down", []reading{{overturned, 37}, {upright, 90}}, 2, upright},
		{"a poor scan the right way up, read as English, is read once", []reading{{upright, 47}}, 1, upright},
		{"a poor reading of few words is read again", []reading{{"the water moves", 47}, {"the water moves", 40}}, 2, "the water moves"},
		{"a poor reading of no English is read again", []reading{{french, 47}, {overturned, 30}}, 2, french},
		{"surer of fewer real words", []reading{{"the water moves", 47}, {"Il ll 1l", 55}}, 2, "the water moves"},
		{"no word at all is not read again", []reading{{"", -1}}, 1, ""},
	} {
		ocr := &scriptedOCR{readings: tc.readings}
		r := New(Options{OCR: ocr})
		text, _, err := r.recognisePage(context.Background(), page)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, text, tc.name)
		require.Equal(t, tc.calls, ocr.calls, tc.name)
	}
}
