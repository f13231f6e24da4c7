package extract_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
)

// A pupil types a sentence and pastes a photo of their working under it:
// the photo's words are read where it stands, between the typed paragraphs.

const (
	wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
		`xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ` +
		`xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
		`xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" ` +
		`xmlns:v="urn:schemas-microsoft-com:vml"`
	imageRel    = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"
	typedBefore = "My working is in the photo below."
	typedAfter  = "That is all I have."
)

type zipPart struct {
	name string
	data []byte
}

// zipParts zips parts in order.
func zipParts(t testing.TB, parts ...zipPart) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = w.Write(p.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// rels is a relationships part naming each target by id (rId1, rId2, …).
func rels(typ string, targets ...string) []byte {
	var b strings.Builder
	b.WriteString(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i, target := range targets {
		fmt.Fprintf(&b, `<Relationship Id="rId%d" Type="%s" Target="%s"/>`, i+1, typ, target)
	}
	b.WriteString(`</Relationships>`)
	return []byte(b.String())
}

// wordPara is a paragraph of typed text.
func wordPara(text string) string {
	return `<w:p><w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// wordPicture is an inline picture in a paragraph of its own, as Word
// writes a pasted photo: w:drawing, pic:pic, a:blip r:embed.
func wordPicture(relID string) string {
	return `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5400000" cy="1170000"/><wp:docPr id="1" name="Picture 1"/>` +
		`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>` +
		`<pic:nvPicPr><pic:cNvPr id="0" name="photo.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
		`<pic:blipFill><a:blip r:embed="` + relID + `"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr/>` +
		`</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
}

// docxWithMedia builds a Word file of body whose pictures rId1, rId2, …
// are media in order.
func docxWithMedia(t testing.TB, body string, media ...[]byte) []byte {
	t.Helper()
	parts := []zipPart{
		{"[Content_Types].xml", []byte(contentTypes)},
		{"_rels/.rels", []byte(rootRels)},
		{"word/document.xml", []byte(`<w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`)},
	}
	targets := make([]string, len(media))
	for i, m := range media {
		targets[i] = fmt.Sprintf("media/image%d.png", i+1)
		parts = append(parts, zipPart{"word/" + targets[i], m})
	}
	parts = append(parts, zipPart{"word/_rels/document.xml.rels", rels(imageRel, targets...)})
	return zipParts(t, parts...)
}

// pngOf encodes a w × h image drawn by paint (white elsewhere).
func pngOf(t testing.TB, w, h int, paint func(x, y int) bool) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray(x, y, color.Gray{Y: 255})
			if paint(x, y) {
				img.SetGray(x, y, color.Gray{Y: 40})
			}
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// icon is a 64 × 64 logo: a filled circle.
func icon(t testing.TB) []byte {
	return pngOf(t, 64, 64, func(x, y int) bool { return (x-32)*(x-32)+(y-32)*(y-32) < 400 })
}

// barChart is an 800 × 600 bar chart without a word.
func barChart(t testing.TB) []byte {
	return pngOf(t, 800, 600, func(x, y int) bool {
		if x == 60 || y == 540 { // axes
			return true
		}
		for i, top := range []int{400, 250, 320, 120} {
			if x >= 120+i*160 && x < 220+i*160 && y >= top && y < 540 {
				return true
			}
		}
		return false
	})
}

// between is the text of s after the end of from and before to.
func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i, j := strings.Index(s, from), strings.LastIndex(s, to)
	require.True(t, i >= 0 && j > i+len(from), "want %q … %q in order in %q", from, to, s)
	return s[i+len(from) : j]
}

func TestExtract_DOCXPictureIsReadByOCRWhereItStands(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPara(typedAfter), fixture(t, "printed.png"))
	res, err := extractFile(t, b.reader, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.False(t, res.NeedsOCR())
	require.Len(t, res.Pages, 1)
	require.True(t, strings.HasPrefix(res.Text, typedBefore+"\n"), res.Text)
	require.True(t, strings.HasSuffix(res.Text, "\n"+typedAfter), res.Text)
	acc := wordAccuracy(printedText, between(t, res.Text, typedBefore, typedAfter))
	t.Logf("picture in a Word file: word accuracy %.1f%%", 100*acc)
	require.GreaterOrEqual(t, acc, 0.9, res.Text)
	require.Equal(t, extract.SourceFile, res.Pages[0].Source, "typed text, with its picture's")
	require.NotNil(t, res.Pages[0].Confidence, "how sure OCR was of the picture")
	require.Empty(t, res.Pages[0].Warning, "clean print")
}

func TestExtract_DOCXPictureWithoutOCRPoolKeepsTheTypedTextAndAsksForOCR(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPara(typedAfter), fixture(t, "printed.png"))
	res, err := extractFile(t, b.noOCR, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.True(t, res.NeedsOCR(), "the picture waits for the ocr queue")
	require.Equal(t, typedBefore+"\n\n"+typedAfter, res.Text, "the typed text is there meanwhile (the picture's paragraph left empty)")
	require.Equal(t, extract.SourceFile, res.Pages[0].Source)
	require.Zero(t, res.EmptyPages)
	require.Empty(t, res.Warning())
}

func TestExtract_DOCXOldVMLPictureIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	vml := `<w:p><w:r><w:pict><v:shape id="_x0000_i1025" style="width:400pt;height:90pt">` +
		`<v:imagedata r:id="rId1" o:title=""/></v:shape></w:pict></w:r></w:p>`
	data := docxWithMedia(t, wordPara(typedBefore)+vml, fixture(t, "printed.png"))
	res, err := extractFile(t, b.noOCR, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
	require.Equal(t, typedBefore, res.Text)
}

func TestExtract_DOCXSmallIconsAndPicturesWithoutWordsAddNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	iconOnly := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPara(typedAfter), icon(t))
	res, err := extractFile(t, b.noOCR, iconOnly, "homework.docx", docxType)
	require.NoError(t, err)
	require.False(t, res.NeedsOCR(), "an icon is not worth an OCR job")
	require.Equal(t, typedBefore+"\n\n"+typedAfter, res.Text)

	chart := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPicture("rId2")+wordPara(typedAfter), icon(t), barChart(t))
	res, err = extractFile(t, b.reader, chart, "homework.docx", docxType)
	require.NoError(t, err)
	require.Equal(t, typedBefore+"\n\n"+typedAfter, res.Text, "a chart without words adds nothing")
	require.Nil(t, res.Pages[0].Confidence)
}

func TestExtract_DOCXPictureOverThePixelLimitIsLeftOutNotRefused(t *testing.T) {
	t.Parallel()
	small := extract.New(extract.Options{Limits: extract.Limits{MaxImagePixels: 500_000}})
	data := docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1"), fixture(t, "printed.png")) // 958,000 pixels
	res, err := extractFile(t, small, data, "homework.docx", docxType)
	require.NoError(t, err, "the typed text stands")
	require.False(t, res.NeedsOCR())
	require.Equal(t, typedBefore, res.Text)

	// The file's OCR budget (MaxScanPixels) is spent picture by picture.
	budget := extract.New(extract.Options{Limits: extract.Limits{MaxScanPixels: 1_000_000}})
	data = docxWithMedia(t, wordPara(typedBefore)+wordPicture("rId1")+wordPicture("rId2"), fixture(t, "printed.png"), barChart(t))
	res, err = extractFile(t, budget, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.True(t, res.NeedsOCR(), "the first picture fits the budget")
}

func TestExtract_DOCXPictureOnlyIsAnOCRPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	data := docxWithMedia(t, wordPicture("rId1"), fixture(t, "printed.png"))
	res, err := extractFile(t, b.noOCR, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
	require.Equal(t, 1, res.EmptyPages, "no typed text: the page waits, as a scan does")

	res, err = extractFile(t, b.reader, data, "homework.docx", docxType)
	require.NoError(t, err)
	require.Equal(t, extract.SourceOCR, res.Pages[0].Source)
	require.GreaterOrEqual(t, wordAccuracy(printedText, res.Text), 0.9, res.Text)
}

// pptxWithMedia builds a one-slide presentation whose pictures rId2, rId3, …
// are media in order (rId1 is the notes slide).
func pptxWithMedia(t testing.TB, shapes string, media ...[]byte) []byte {
	t.Helper()
	parts := []zipPart{
		{"[Content_Types].xml", []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)},
		{"_rels/.rels", rels("http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument", "ppt/presentation.xml")},
		{"ppt/presentation.xml", []byte(`<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`)},
		{"ppt/_rels/presentation.xml.rels", rels("http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide", "slides/slide1.xml")},
		{"ppt/slides/slide1.xml", []byte(`<p:sld xmlns:p="p" xmlns:a="a" xmlns:r="r"><p:cSld>` +
			`<p:bg><p:bgPr><a:blipFill><a:blip r:embed="rId2"/></a:blipFill></p:bgPr></p:bg>` + // a background: not read
			`<p:spTree>` + shapes + `</p:spTree></p:cSld></p:sld>`)},
	}
	targets := []string{"../notesSlides/none.xml"}
	for i, m := range media {
		targets = append(targets, fmt.Sprintf("../media/image%d.png", i+1))
		parts = append(parts, zipPart{fmt.Sprintf("ppt/media/image%d.png", i+1), m})
	}
	parts = append(parts, zipPart{"ppt/slides/_rels/slide1.xml.rels", rels(imageRel, targets...)})
	return zipParts(t, parts...)
}

func slideText(text string) string {
	return `<p:sp><p:txBody><a:p><a:r><a:t>` + text + `</a:t></a:r></a:p></p:txBody></p:sp>`
}

func slidePicture(relID string) string {
	return `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture 3"/></p:nvPicPr>` +
		`<p:blipFill><a:blip r:embed="` + relID + `"/></p:blipFill><p:spPr/></p:pic>`
}

func TestExtract_PPTXSlidePictureIsReadByOCRWhereItStands(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// rId2 is the background and the first picture; the slide shows rId3.
	data := pptxWithMedia(t, slideText(typedBefore)+slidePicture("rId3")+slideText(typedAfter), barChart(t), fixture(t, "printed.png"))

	res, err := extractFile(t, b.noOCR, data, "slides.pptx", "")
	require.NoError(t, err)
	require.True(t, res.NeedsOCR())
	require.Equal(t, "Slide 1\n"+typedBefore+"\n\n"+typedAfter, res.Text, "the slide's text is there meanwhile")

	res, err = extractFile(t, b.reader, data, "slides.pptx", "")
	require.NoError(t, err)
	require.False(t, res.NeedsOCR())
	acc := wordAccuracy(printedText, between(t, res.Text, typedBefore, typedAfter))
	t.Logf("picture on a slide: word accuracy %.1f%%", 100*acc)
	require.GreaterOrEqual(t, acc, 0.9, res.Text)
}
