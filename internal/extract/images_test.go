package extract_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

// The words of the image fixtures (see testdata/src/make-fixtures.sh).
const (
	heicText = "Volcanoes form where melted rock from deep inside the Earth rises to the surface. " +
		"When the pressure grows too high, lava, ash and gas burst out through the crater."
	webpText = "Bees carry pollen from flower to flower, which helps plants make seeds and fruit."
	gifText  = "Magnets pull on iron and steel but not on wood, glass or plastic."
)

var tiffTexts = []string{
	"Page one is about rivers. Rain collects in streams that join to form a river flowing to the sea.",
	"Page two is about mountains. Moving plates push rock upwards over millions of years.",
	"Page three is about deserts. Very little rain falls there and few plants can grow.",
}

// requireReads checks an OCR'd page holds the reference's words.
func requireReads(t *testing.T, what, want string, p extract.Page) {
	t.Helper()
	require.Equal(t, extract.SourceOCR, p.Source, what)
	require.NotNil(t, p.Confidence, what)
	acc := wordAccuracy(want, p.Text)
	t.Logf("%s word accuracy %.1f%%", what, 100*acc)
	require.GreaterOrEqual(t, acc, 0.95, "%s OCR text: %q", what, p.Text)
}

func TestExtract_ImagesInEveryFormatPhonesAndScannersWriteAreRead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, name, contentType string
		kind                    extract.Kind
		text                    string
	}{
		{"photo.heic", "IMG_4031.HEIC", "image/heic", extract.KindHEIC, heicText},
		{"printed.webp", "homework.webp", "image/webp", extract.KindWebP, webpText},
		{"printed.gif", "answer.gif", "image/gif", extract.KindGIF, gifText}, // its second frame is blank
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := extractFile(t, b.reader, fixture(t, tc.file), tc.name, tc.contentType)
			require.NoError(t, err)
			require.Equal(t, tc.kind, res.Kind)
			require.Len(t, res.Pages, 1)
			requireReads(t, tc.file, tc.text, res.Pages[0])
			require.Empty(t, res.Problem())
		})
	}
}

func TestExtract_HEICTurnedByItsRotationReadsUpright(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := fixture(t, "photo-irot.heic") // pixels stored sideways, 'irot' says turn them
	res, err := extractFile(t, b.reader, data, "IMG_4032.HEIC", "")
	require.NoError(t, err)
	requireReads(t, "rotated HEIC", heicText, res.Pages[0])

	img, orientation, pages, err := b.reader.ImagePage(context.Background(), data, 0)
	require.NoError(t, err)
	require.Equal(t, 1, pages)
	require.Equal(t, 1, orientation, "libheif has turned it: the EXIF orientation it also carries is not applied again")
	require.Greater(t, img.Bounds().Dx(), img.Bounds().Dy(), "a line of text is wider than tall once upright")
}

func TestExtract_MultiPageTIFFReadsEveryPageInOrder(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"scan-3pages.tif", "scan-3pages-be.tif"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			res, err := extractFile(t, b.reader, fixture(t, file), "scan.tif", "image/tiff")
			require.NoError(t, err)
			require.Equal(t, extract.KindTIFF, res.Kind)
			require.Len(t, res.Pages, 3)
			for i, want := range tiffTexts {
				require.Equal(t, i+1, res.Pages[i].Number)
				requireReads(t, file+" page "+string(rune('1'+i)), want, res.Pages[i])
			}
			require.False(t, res.NeedsOCR())
		})
	}
}

// The extract queue reads without OCR and hands the file to the ocr queue,
// whose reader finishes every page.
func TestExtract_MultiPageTIFFWithoutOCRPoolAsksForOCROnEveryPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := fixture(t, "scan-3pages.tif")
	res, err := extractFile(t, b.noOCR, data, "scan.tif", "")
	require.NoError(t, err)
	require.Len(t, res.Pages, 3)
	require.True(t, res.NeedsOCR())
	for _, p := range res.Pages {
		require.True(t, p.NeedsOCR)
	}
	require.Equal(t, 3, res.EmptyPages)

	for _, file := range []string{"photo.heic", "printed.webp", "printed.gif"} {
		res, err := extractFile(t, b.noOCR, fixture(t, file), file, "")
		require.NoError(t, err, file)
		require.True(t, res.NeedsOCR(), file)
	}
}

func TestExtract_OversizedImagesAreRefusedFromTheirHeader(t *testing.T) {
	t.Parallel()
	// No heif-convert: refusing the HEIC must not need it.
	r := extract.New(extract.Options{OCR: pool, TempDir: t.TempDir(), HeifConvertPath: "/nonexistent/heif-convert"})
	const reason = "This image is larger than 50 megapixels, which is too large to read"

	// The real photo, its declared size ('ispe') changed to 20,000 × 20,000.
	heic := fixture(t, "photo.heic")
	i := bytes.Index(heic, []byte("ispe"))
	require.Positive(t, i)
	binary.BigEndian.PutUint32(heic[i+8:], 20000)
	binary.BigEndian.PutUint32(heic[i+12:], 20000)

	// A GIF whose screen is 65,535 pixels square.
	gif := []byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;")

	// A lossless WebP of 16,384 × 16,384 pixels.
	webp := []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f")
	webp = binary.LittleEndian.AppendUint32(webp, 16383|16383<<14)
	webp = append(webp, make([]byte, 8)...)

	// A TIFF whose second page is 30,000 pixels square.
	tiff := tiffOf(t, [][2]uint32{{100, 100}, {30000, 30000}})

	for name, data := range map[string][]byte{"IMG.HEIC": heic, "a.gif": gif, "a.webp": webp, "scan.tif": tiff} {
		_, err := extractFile(t, r, data, name, "")
		requirePermanent(t, err, reason)
		require.ErrorIs(t, err, extract.ErrTooLarge, name)
	}
}

func TestExtract_ScanOfTooManyPixelsInAllIsRefusedFromItsHeaders(t *testing.T) {
	t.Parallel()
	// 25 pages of 49 megapixels: each under the image limit, together more
	// than a scan of about 115 A4 pages at 300 dpi.
	sizes := make([][2]uint32, 25)
	for i := range sizes {
		sizes[i] = [2]uint32{7000, 7000}
	}
	r := extract.New(extract.Options{OCR: pool, TempDir: t.TempDir()})
	_, err := extractFile(t, r, tiffOf(t, sizes), "scan.tif", "image/tiff")
	requirePermanent(t, err, "This scan holds more than 1000 megapixels in all its pages, which is too much to read: split it into smaller files")
	require.ErrorIs(t, err, extract.ErrTooLarge)

	// The real 3-page scan is well within it.
	res, err := extractFile(t, r, fixture(t, "scan-3pages.tif"), "scan.tif", "image/tiff")
	require.NoError(t, err)
	require.Len(t, res.Pages, 3)
}

func TestExtract_DamagedHEICFailsWithItsSentence(t *testing.T) {
	t.Parallel()
	b := setup(t)
	heic := fixture(t, "photo.heic")
	_, err := extractFile(t, b.reader, heic[:len(heic)-8000], "IMG.HEIC", "image/heic") // an upload cut off
	requirePermanent(t, err, extract.ReasonHEICDamaged)

	_, err = extractFile(t, b.reader, heic[:200], "IMG.HEIC", "image/heic") // cut before its size
	requirePermanent(t, err, extract.ReasonHEICDamaged)

	noTool := extract.New(extract.Options{OCR: pool, TempDir: t.TempDir(), HeifConvertPath: "/nonexistent/heif-convert"})
	_, err = extractFile(t, noTool, heic, "IMG.HEIC", "image/heic")
	requirePermanent(t, err, extract.ReasonHEICNoTool)
}

func TestExtract_DamagedTIFFs(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := fixture(t, "scan-3pages.tif")

	// The last page's "next IFD" pointed back at the first: a loop.
	looped := bytes.Clone(data)
	ifds := tiffIFDs(t, looped)
	require.Len(t, ifds, 3)
	last := ifds[2]
	n := int(binary.LittleEndian.Uint16(looped[last:]))
	binary.LittleEndian.PutUint32(looped[last+2+12*n:], uint32(ifds[0]))
	_, err := extractFile(t, b.noOCR, looped, "scan.tif", "")
	requirePermanent(t, err, extract.ReasonImageDamaged)

	// The second page's IFD pointing past the end of the file.
	outside := bytes.Clone(data)
	n = int(binary.LittleEndian.Uint16(outside[ifds[0]:]))
	binary.LittleEndian.PutUint32(outside[ifds[0]+2+12*n:], uint32(len(data)+100))
	_, err = extractFile(t, b.noOCR, outside, "scan.tif", "")
	requirePermanent(t, err, extract.ReasonImageDamaged)

	// More pages than the limit.
	few := extract.New(extract.Options{Limits: extract.Limits{MaxPages: 2}})
	_, err = extractFile(t, few, data, "scan.tif", "")
	requirePermanent(t, err, "This TIFF image has more than 2 pages, which is too many to read")
}

func TestImagePage_DecodesEachTIFFPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := fixture(t, "scan-3pages-be.tif")
	n, err := b.noOCR.ImagePages(data)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	for page := range 3 {
		img, _, pages, err := b.noOCR.ImagePage(context.Background(), data, page)
		require.NoError(t, err)
		require.Equal(t, 3, pages)
		require.Equal(t, 1520, img.Bounds().Dx())
	}
	_, _, _, err = b.noOCR.ImagePage(context.Background(), data, 3)
	require.ErrorIs(t, err, extract.ErrNoPage)
}

// tiffIFDs lists the IFD offsets of a little-endian TIFF.
func tiffIFDs(t *testing.T, data []byte) []int {
	t.Helper()
	var out []int
	for off := int(binary.LittleEndian.Uint32(data[4:])); off != 0 && len(out) < 10; {
		out = append(out, off)
		n := int(binary.LittleEndian.Uint16(data[off:]))
		off = int(binary.LittleEndian.Uint32(data[off+2+12*n:]))
	}
	return out
}

// tiffOf writes a little-endian TIFF of white 1-bit pages of the given sizes
// without pixel data: enough for its headers to be read.
func tiffOf(t *testing.T, sizes [][2]uint32) []byte {
	t.Helper()
	le := binary.LittleEndian
	out := []byte("II*\x00\x08\x00\x00\x00")
	for i, s := range sizes {
		tags := [][3]uint32{{256, 4, s[0]}, {257, 4, s[1]}, {258, 3, 1}, {259, 3, 1}, {262, 3, 0}}
		out = le.AppendUint16(out, uint16(len(tags)))
		for _, tag := range tags {
			out = le.AppendUint16(out, uint16(tag[0]))
			out = le.AppendUint16(out, uint16(tag[1]))
			out = le.AppendUint32(out, 1)
			out = le.AppendUint32(out, tag[2])
		}
		next := uint32(0)
		if i < len(sizes)-1 {
			next = uint32(len(out) + 4)
		}
		out = le.AppendUint32(out, next)
	}
	return out
}
