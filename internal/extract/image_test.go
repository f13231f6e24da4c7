package extract

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEXIFOrientation(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/photo-rotated.jpg")
	require.NoError(t, err)
	require.Equal(t, 6, ExifOrientation(data))

	var plain bytes.Buffer
	require.NoError(t, jpeg.Encode(&plain, image.NewGray(image.Rect(0, 0, 4, 4)), nil))
	require.Equal(t, 1, ExifOrientation(plain.Bytes()), "no EXIF: as stored")
	require.Equal(t, 1, ExifOrientation(data[:30]), "cut-off EXIF: as stored")
}

// A 3 × 2 image with pixel values 1..6 read row by row:
//
//	1 2 3
//	4 5 6
func TestUprightGrayAppliesEachOrientation(t *testing.T) {
	t.Parallel()
	src := image.NewGray(image.Rect(0, 0, 3, 2))
	for i := range 6 {
		src.Pix[i] = uint8(i + 1)
	}
	for _, tc := range []struct {
		orientation int
		w, h        int
		want        []uint8
	}{
		{1, 3, 2, []uint8{1, 2, 3, 4, 5, 6}},
		{2, 3, 2, []uint8{3, 2, 1, 6, 5, 4}},
		{3, 3, 2, []uint8{6, 5, 4, 3, 2, 1}},
		{4, 3, 2, []uint8{4, 5, 6, 1, 2, 3}},
		{5, 2, 3, []uint8{1, 4, 2, 5, 3, 6}},
		{6, 2, 3, []uint8{4, 1, 5, 2, 6, 3}},
		{7, 2, 3, []uint8{6, 3, 5, 2, 4, 1}},
		{8, 2, 3, []uint8{3, 6, 2, 5, 1, 4}},
	} {
		got := uprightGray(src, tc.orientation)
		require.Equal(t, tc.w, got.Rect.Dx(), "orientation %d", tc.orientation)
		require.Equal(t, tc.h, got.Rect.Dy(), "orientation %d", tc.orientation)
		require.Equal(t, tc.want, got.Pix, "orientation %d", tc.orientation)
	}
}

func TestToGrayLaysTransparencyOverWhite(t *testing.T) {
	t.Parallel()
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.SetNRGBA(0, 0, color.NRGBA{0, 0, 0, 0})   // transparent
	img.SetNRGBA(1, 0, color.NRGBA{0, 0, 0, 255}) // black ink
	require.Equal(t, []uint8{255, 0}, toGray(img).Pix)
}

func TestPGMRoundTrip(t *testing.T) {
	t.Parallel()
	g := image.NewGray(image.Rect(0, 0, 3, 2))
	got, err := DecodePGM(encodePGM(g))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 3, 2), got.Rect)
	_, err = DecodePGM(encodePGM(g)[:10])
	require.Error(t, err)
}

func TestDecodePGM(t *testing.T) {
	t.Parallel()
	img, err := DecodePGM([]byte("P5\n# made by hand\n3 2\n255\n\x00\x10\x20\x30\x40\x50"))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 3, 2), img.Rect)
	require.Equal(t, []byte{0, 0x10, 0x20, 0x30, 0x40, 0x50}, img.Pix)

	for _, bad := range []string{"", "P6\n1 1\n255\n\x00", "P5\n2 2\n255\n\x00", "P5\n1 1\n65535\n\x00\x00", "P5\n-1 1\n255\n", "P5 1"} {
		_, err := DecodePGM([]byte(bad))
		require.Error(t, err, "%q", bad)
	}
}
