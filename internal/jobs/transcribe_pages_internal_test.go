package jobs

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodePGM(t *testing.T) {
	t.Parallel()
	img, err := decodePGM([]byte("P5\n# made by hand\n3 2\n255\n\x00\x10\x20\x30\x40\x50"))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 3, 2), img.Rect)
	require.Equal(t, []byte{0, 0x10, 0x20, 0x30, 0x40, 0x50}, img.Pix)

	for _, bad := range []string{"", "P6\n1 1\n255\n\x00", "P5\n2 2\n255\n\x00", "P5\n1 1\n65535\n\x00\x00", "P5\n-1 1\n255\n", "P5 1"} {
		_, err := decodePGM([]byte(bad))
		require.Error(t, err, "%q", bad)
	}
}

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
