package jobs

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
