package answerbox_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/extract/pdftest"
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

// TestAHugePDFPageIsMeasuredBeforeItIsDrawn: a PDF of a few hundred bytes
// whose page is 200 inches square (20,000 pixels at 100 dpi, 1.5 GB to
// draw) is refused from its size, and pdftoppm never runs; an ordinary page
// is drawn.
func TestAHugePDFPageIsMeasuredBeforeItIsDrawn(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("poppler is not installed: make test installs it")
	}
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	// pdftoppm, counted: a script beside the real pdfinfo's copy.
	real, err := exec.LookPath("pdftoppm")
	require.NoError(t, err)
	info, err := exec.LookPath("pdfinfo")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(info, filepath.Join(dir, "pdfinfo")))
	tool := filepath.Join(dir, "pdftoppm")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\necho x >> "+ran+"\nexec "+real+" \"$@\"\n"), 0o755))
	r := answerbox.Renderer{Pdftoppm: tool}

	_, err = r.Page(context.Background(), onePagePDF(14400, 14400), 0)
	require.ErrorIs(t, err, answerbox.ErrPageTooLarge)
	require.ErrorIs(t, err, answerbox.ErrNoSuchPage)
	require.NoFileExists(t, ran, "the page was not drawn")

	img, err := r.Page(context.Background(), onePagePDF(612, 792), 0)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 850, 1100), img.Bounds(), "US Letter at 100 dpi")
	require.FileExists(t, ran)

	_, err = r.Page(context.Background(), onePagePDF(612, 792), 3)
	require.ErrorIs(t, err, answerbox.ErrNoSuchPage, "past the last page")
}

// onePagePDF is a PDF of one w × h point page saying "Hello".
func onePagePDF(w, h int) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>", w, h),
		"<< /Length 37 >>\nstream\nBT /F1 24 Tf 72 72 Td (Hello) Tj ET\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	return pdftest.Assemble(objs)
}
