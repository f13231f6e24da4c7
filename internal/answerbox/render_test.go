package answerbox_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
)

// hugePNG is a PNG of a few dozen bytes whose header says it is w×h pixels
// (a decompression bomb: decoding it would first allocate w×h bytes).
func hugePNG(t *testing.T, w, h uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	data := buf.Bytes()
	// IHDR: 8-byte signature, 4-byte length, "IHDR", width, height, …, CRC over type and data
	binary.BigEndian.PutUint32(data[16:], w)
	binary.BigEndian.PutUint32(data[20:], h)
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}

// TestAPageImageIsCheckedBeforeItIsDecoded: a page of more than
// MaxPagePixels is refused from its header, never decoded.
func TestAPageImageIsCheckedBeforeItIsDecoded(t *testing.T) {
	t.Parallel()
	bomb := hugePNG(t, 8000, 8000) // 64 megapixels
	cfg, err := png.DecodeConfig(bytes.NewReader(bomb))
	require.NoError(t, err)
	require.Equal(t, 8000, cfg.Width)

	_, err = answerbox.Renderer{}.Page(context.Background(), bomb, 0)
	require.ErrorIs(t, err, answerbox.ErrPageTooLarge)
	require.ErrorIs(t, err, answerbox.ErrNoSuchPage, "a job cropping answers skips it")

	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 30))))
	img, err := answerbox.Renderer{}.Page(context.Background(), buf.Bytes(), 0)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 40, 30), img.Bounds())
}
