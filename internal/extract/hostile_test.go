package extract_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/pdftest"
)

const (
	docxType     = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	contentTypes = `<?xml version="1.0" encoding="UTF-8"?>` +
		`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
		`</Types>`
	rootRels = `<?xml version="1.0" encoding="UTF-8"?>` +
		`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
		`</Relationships>`
	documentStart = `<?xml version="1.0" encoding="UTF-8"?>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`
)

// deflated compresses b as a flushed, non-final deflate segment; segments
// concatenate into one stream.
func deflated(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	return out.Bytes()
}

// bombDOCX builds a Word file whose document.xml is valid XML that unpacks
// to unpacked bytes (whitespace inside <w:body>) from about unpacked/1000
// packed bytes; its header declares `declared` bytes.
func bombDOCX(t testing.TB, unpacked int, declared uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range []struct{ name, body string }{{"[Content_Types].xml", contentTypes}, {"_rels/.rels", rootRels}} {
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = w.Write([]byte(p.body))
		require.NoError(t, err)
	}
	head := deflated(t, []byte(documentStart))
	spaces := deflated(t, bytes.Repeat([]byte(" "), 1<<20))
	n := unpacked >> 20
	packed := len(head) + n*len(spaces) + 5
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name: "word/document.xml", Method: zip.Deflate,
		CompressedSize64: uint64(packed), UncompressedSize64: declared,
	})
	require.NoError(t, err)
	_, err = w.Write(head)
	require.NoError(t, err)
	for range n {
		_, err = w.Write(spaces)
		require.NoError(t, err)
	}
	_, err = w.Write([]byte{1, 0, 0, 0xff, 0xff}) // final empty stored block
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// manyEntriesDOCX builds a Word file with n extra empty entries.
func manyEntriesDOCX(t testing.TB, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range []struct{ name, body string }{
		{"[Content_Types].xml", contentTypes}, {"_rels/.rels", rootRels},
		{"word/document.xml", documentStart + `<w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>`},
	} {
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = w.Write([]byte(p.body))
		require.NoError(t, err)
	}
	for i := range n {
		_, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("customXml/item%d.xml", i), Method: zip.Store})
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// hugePNG builds a valid 1-bit PNG of w × h white pixels: tens of kilobytes
// that would decode to hundreds of megabytes.
func hugePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&out, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		_ = binary.Write(&out, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 1, 0 // bit depth 1, greyscale
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	require.NoError(t, err)
	row := bytes.Repeat([]byte{0xff}, 1+(w+7)/8)
	row[0] = 0 // filter: none
	for range h {
		_, err := zw.Write(row)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

func garbagePDF() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	junk := make([]byte, 8<<10)
	for i := range junk {
		junk[i] = byte(rng.Uint32())
	}
	return append(append([]byte("%PDF-1.7\n"), junk...), "\n%%EOF\n"...)
}

type hostileFile struct {
	name        string
	data        []byte
	filename    string
	contentType string
	reason      string
	wraps       error // nil: only the reason is checked
}

func hostileFiles(t testing.TB) []hostileFile {
	b := fixture(t, "printed.png")
	return []hostileFile{
		{"empty file", nil, "essay.docx", docxType, extract.ReasonEmpty, nil},
		{"truncated PDF", fixture(t, "truncated.pdf"), "essay.pdf", "application/pdf", extract.ReasonPDFDamaged, nil},
		{"PDF of garbage", garbagePDF(), "essay.pdf", "application/pdf", extract.ReasonPDFDamaged, nil},
		{"encrypted PDF (AES-256)", fixture(t, "encrypted-aes256.pdf"), "essay.pdf", "application/pdf", extract.ReasonPDFPassword, nil},
		{"encrypted PDF (RC4)", fixture(t, "encrypted-rc4.pdf"), "essay.pdf", "application/pdf", extract.ReasonPDFPassword, nil},
		{"zip bomb declaring its size", bombDOCX(t, 1<<30, 1<<30), "essay.docx", docxType, extract.ReasonZipBomb, nil},
		{"zip bomb lying about its size", bombDOCX(t, 1<<30, 1<<10), "essay.docx", docxType, extract.ReasonZipBomb, nil},
		{"zip bomb packed 1000:1 under the size limit", bombDOCX(t, 20<<20, 20<<20), "essay.docx", docxType, extract.ReasonZipBomb, nil},
		{"zip with 10,001 entries", manyEntriesDOCX(t, 10_001), "essay.docx", docxType, extract.ReasonZipBomb, nil},
		{"20,000 × 20,000 pixel PNG", hugePNG(t, 20_000, 20_000), "scan.png", "image/png",
			"This image is larger than 50 megapixels, which is too large to read", extract.ErrTooLarge},
		{"PNG cut off after its header", b[:200], "scan.png", "image/png", extract.ReasonImageDamaged, nil},
		{"random bytes named .pdf", garbagePDF()[9:], "essay.pdf", "application/pdf", extract.ReasonUnsupported, extract.ErrUnsupported},
		{"MP3", append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), garbagePDF()[9:200]...), "song.mp3", "audio/mpeg", extract.ReasonUnsupported, extract.ErrUnsupported},
		{"spreadsheet", xlsxLike(t), "marks.xlsx", "", extract.ReasonUnsupported, extract.ErrUnsupported},
		{"OLE2 header with no Word or PowerPoint stream", append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, 512)...), "essay.doc", "application/msword", extract.ReasonUnsupported, extract.ErrUnsupported},
		{"Word file with broken XML", docxWith(t, documentStart+`<w:p><w:r><w:t>Hi</w:r></w:p>`), "essay.docx", docxType, extract.ReasonDOCXDamaged, nil},
	}
}

// docxWith builds a minimal Word file around a document.xml.
func docxWith(t testing.TB, document string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range []struct{ name, body string }{
		{"[Content_Types].xml", contentTypes}, {"_rels/.rels", rootRels}, {"word/document.xml", document},
	} {
		w, err := zw.Create(p.name)
		require.NoError(t, err)
		_, err = w.Write([]byte(p.body))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func xlsxLike(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"[Content_Types].xml", "xl/workbook.xml"} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write([]byte("<x/>"))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestExtract_HostileFilesFailPermanentlyWithAReason(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, f := range hostileFiles(t) {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []*extract.Reader{b.reader, b.noOCR} {
				_, err := extractFile(t, r, f.data, f.filename, f.contentType)
				requirePermanent(t, err, f.reason)
				if f.wraps != nil {
					require.ErrorIs(t, err, f.wraps)
				}
			}
		})
	}
}

// Runs alone (no t.Parallel) so the process's allocation counter measures
// only these files: refusing a hostile file must not cost its unpacked size.
func TestExtract_HostileFilesAllocateLittle(t *testing.T) {
	b := setup(t)
	for _, f := range hostileFiles(t) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := extractFile(t, b.reader, f.data, f.filename, f.contentType)
		runtime.ReadMemStats(&after)
		require.Error(t, err, f.name)
		allocated := after.TotalAlloc - before.TotalAlloc
		require.Less(t, allocated, uint64(3*len(f.data))+64<<20, "%s allocated %d MB", f.name, allocated>>20)
	}
}

func TestExtract_FileOverTheSizeLimitIsRefusedUnread(t *testing.T) {
	t.Parallel()
	r := extract.New(extract.Options{Limits: extract.Limits{MaxFileBytes: 1 << 20}})
	body := &countingReader{r: strings.NewReader(strings.Repeat("essay ", 1<<20))}
	_, err := r.Extract(t.Context(), extract.Input{Name: "big.txt", Body: body})
	requirePermanent(t, err, "This file is larger than 1 MB, which is too large to read")
	require.ErrorIs(t, err, extract.ErrTooLarge)
	require.LessOrEqual(t, body.n, 1<<20+1, "reading stops at the limit")
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestExtract_TooManyPagesIsRefused(t *testing.T) {
	t.Parallel()
	r := extract.New(extract.Options{Limits: extract.Limits{MaxPages: 2}})
	_, err := extractFile(t, r, fixture(t, "text-3pages.pdf"), "essay.pdf", "")
	requirePermanent(t, err, "This PDF has more than 2 pages, which is too many to read")
	_, err = extractFile(t, r, fixture(t, "slides.pptx"), "talk.pptx", "")
	requirePermanent(t, err, "This presentation has more than 2 slides, which is too many to read")
}

func TestExtract_SlowInProcessPDFReaderLeavesPopplersText(t *testing.T) {
	t.Parallel()
	// A timeout that has passed before the in-process reader (form fields)
	// starts: the text layer still comes whole from pdftotext.
	r := extract.New(extract.Options{Limits: extract.Limits{PDFTimeout: time.Nanosecond}, TempDir: t.TempDir()})
	res, err := extractFile(t, r, fixture(t, "text-3pages.pdf"), "essay.pdf", "")
	require.NoError(t, err)
	require.Len(t, res.Pages, 3)
	for i, want := range essayPages {
		require.Equal(t, extract.SourcePoppler, res.Pages[i].Source)
		require.Equal(t, want, flat(res.Pages[i].Text))
	}
}

func TestExtract_MissingPopplerIsNotTheFilesFault(t *testing.T) {
	t.Parallel()
	r := extract.New(extract.Options{PdftotextPath: "/nonexistent/pdftotext", TempDir: t.TempDir()})
	_, err := extractFile(t, r, fixture(t, "scanned.pdf"), "scan.pdf", "")
	require.Error(t, err)
	require.False(t, extract.IsPermanent(err), "a missing tool is retried: %v", err)
}

// blankPagesPDF is a PDF of n blank A4 pages sharing one empty content
// stream: a few kilobytes that ask OCR to read n pages.
func blankPagesPDF(n int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	kids := make([]string, n)
	for i := range n {
		kids[i] = fmt.Sprintf("%d 0 R", 4+i)
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	objs = append(objs, "<< /Length 0 >>\nstream\n\nendstream")
	for range n {
		objs = append(objs, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 3 0 R >>")
	}
	return pdftest.Assemble(objs)
}

// TestExtract_APDFWithTooManyPagesToOCRIsRefusedBeforeAnyIsRead: OCR reads
// at most as many A4 pages of a PDF as a TIFF's pixel budget allows (114
// at the defaults); past that the file is refused before a page is drawn,
// by the first reading (no OCR pool) as by the OCR job.
func TestExtract_APDFWithTooManyPagesToOCRIsRefusedBeforeAnyIsRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, r := range []*extract.Reader{b.reader, b.noOCR} {
		_, err := extractFile(t, r, blankPagesPDF(115), "scan.pdf", "application/pdf")
		requirePermanent(t, err, "This PDF has 115 pages without text to read by OCR, more than the 114 Markwell reads in one file: split it into smaller files")
		require.ErrorIs(t, err, extract.ErrTooLarge)
	}
	res, err := extractFile(t, b.noOCR, blankPagesPDF(114), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.Len(t, res.Pages, 114)
	require.True(t, res.NeedsOCR(), "114 pages go to OCR")

	// The budget is the scan pixels': a page with text does not count.
	few := extract.New(extract.Options{Limits: extract.Limits{MaxScanPixels: 10_000_000}, OCR: pool, TempDir: t.TempDir()})
	_, err = extractFile(t, few, fixture(t, "mixed.pdf"), "mixed.pdf", "application/pdf")
	requirePermanent(t, err, "This PDF has 2 pages without text to read by OCR, more than the 1 Markwell reads in one file: split it into smaller files")
	res, err = extractFile(t, few, fixture(t, "scanned.pdf"), "scan.pdf", "application/pdf")
	require.NoError(t, err)
	require.Equal(t, extract.SourceOCR, res.Pages[0].Source)
}
