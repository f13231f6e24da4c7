package jobs

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

func TestShrink(t *testing.T) {
	t.Parallel()
	small := image.NewGray(image.Rect(0, 0, 100, 50))
	require.Same(t, small, shrink(small, 2048), "small enough already")

	big := image.NewGray(image.Rect(0, 0, 4000, 3000))
	for i := range big.Pix {
		big.Pix[i] = 200
	}
	out := shrink(big, 2048)
	require.Equal(t, image.Rect(0, 0, 2000, 1500), out.Rect)
	require.Equal(t, strings.Repeat("\xc8", 8), string(out.Pix[:8]), "averages keep the grey")

	// A strip thinner than the scale factor does not read outside the image.
	strip := image.NewGray(image.Rect(0, 0, 10000, 3))
	require.Equal(t, image.Rect(0, 0, 2000, 1), shrink(strip, 2048).Rect)
}

// transcriber is a vision model that reads every page as the same words.
type transcriber string

func (t transcriber) Text(context.Context, []byte) (string, error) { return string(t), nil }

// A one-page photo of handwriting that the vision model reads as two words
// is stored as the model's transcript with a warning, as typed work read by
// OCR would be; a transcript of a full page is stored without one.
func TestStoredPagesCarryTheWarningOfAVisionTranscript(t *testing.T) {
	t.Parallel()
	photo, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "photo-rotated.jpg"))
	require.NoError(t, err)
	read := func(transcript string) []storedPage {
		t.Helper()
		r := extract.New(extract.Options{OCR: transcriber(transcript), Limits: extract.Limits{RenderPixels: visionPixels}})
		res, err := r.ExtractBytes(context.Background(), photo, "IMG_0042.jpg", "image/jpeg")
		require.NoError(t, err)
		return storedPages(res, SourceVision)
	}
	require.Equal(t, []storedPage{{Text: "Earthquakes happen", Source: SourceVision,
		Warning: "Only 2 words were found on page 1: check it against the original"}}, read("Earthquakes happen"))

	full := "Earthquakes happen when two plates of the crust slip past each other. The energy travels through the ground as waves."
	require.Equal(t, []storedPage{{Text: full, Source: SourceVision}}, read(full))
}
