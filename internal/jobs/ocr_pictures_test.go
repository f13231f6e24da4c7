package jobs_test

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/queue"
)

// pictureDOCX is a Word file of a typed sentence, a pasted picture of
// printed text (the extract package's printed.png) and a closing sentence.
func pictureDOCX(t *testing.T) upload {
	t.Helper()
	png := fixture(t, "printed.png", "", "").data
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range []struct {
		name string
		data []byte
	}{
		{"[Content_Types].xml", []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)},
		{"_rels/.rels", []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)},
		{"word/document.xml", []byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ` +
			`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><w:body>` +
			`<w:p><w:r><w:t>My working is in the photo below.</w:t></w:r></w:p>` +
			`<w:p><w:r><w:drawing><a:graphic><a:graphicData><a:blip r:embed="rId1"/></a:graphicData></a:graphic></w:drawing></w:r></w:p>` +
			`<w:p><w:r><w:t>That is all I have.</w:t></w:r></w:p></w:body></w:document>`)},
		{"word/_rels/document.xml.rels", []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>`)},
		{"word/media/image1.png", png},
	} {
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = w.Write(p.data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return upload{name: "homework.docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", data: buf.Bytes()}
}

// A Word file with a pasted photo of the pupil's working: extract_text
// stores the typed text at once and hands the picture to ocr_pages, which
// puts its words between the typed paragraphs.
func TestOCRPages_PictureInAWordFileIsReadAfterItsTypedText(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.extractOnly(t, pictureDOCX(t))
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus, "the picture waits for OCR")
	require.Equal(t, []page{{Text: "My working is in the photo below.\n\nThat is all I have.", Source: "file"}}, pages(t, sub),
		"the typed text is stored meanwhile")
	requireHandedTo(t, b, queue.OCRPagesArgs{SubmissionID: id}, queue.QueueOCR)

	b.startWorker(t, b.deps, map[string]int{queue.QueueOCR: 2}, time.Minute)
	sub = b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	text := *sub.ExtractedText
	require.True(t, strings.HasPrefix(text, "My working is in the photo below.\n\n"+printedStart), text)
	require.True(t, strings.HasSuffix(text, "\n\nThat is all I have."), text)
	got := pages(t, sub)
	require.Equal(t, "file", got[0].Source)
	require.Empty(t, sub.ExtractError)
	require.EqualValues(t, 1, sub.ExtractWrites)
}
