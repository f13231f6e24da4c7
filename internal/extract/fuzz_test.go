package extract

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"testing"
)

// Fuzz targets for the Word and PowerPoint readers. `go test` runs their
// seeds (testdata/fuzz/<name>/ and the f.Add calls); `go test
// -fuzz=FuzzDOCXBody ./internal/extract/` explores further.
//
// Every input must end in text or a permanent error, never a panic, a
// transient error or text past the limit.

const fuzzTextLimit = 1 << 20

func fuzzReader() *Reader {
	return New(Options{Limits: Limits{MaxZipBytes: 8 << 20, MaxTextBytes: fuzzTextLimit, MaxPages: 50}})
}

func checkOfficeResult(t *testing.T, res Result, err error) {
	t.Helper()
	if err != nil {
		if !IsPermanent(err) {
			t.Fatalf("a file in memory failed with a transient error: %v", err)
		}
		if reason, _ := Reason(err); reason == "" {
			t.Fatalf("permanent error without a reason: %v", err)
		}
		return
	}
	total := 0
	for _, p := range res.Pages {
		total += len(p.Text)
	}
	if total > fuzzTextLimit {
		t.Fatalf("%d bytes of text, limit %d", total, fuzzTextLimit)
	}
}

// officePackage zips parts in order.
func officePackage(t *testing.T, parts ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(p[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	fuzzContentTypes = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`
	fuzzRels         = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/%s" Target="%s"/></Relationships>`
)

func addFixture(f *testing.F, name string) {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
}

// FuzzDOCX feeds whole files to the Word reader.
func FuzzDOCX(f *testing.F) {
	for _, name := range []string{"report.docx", "history.docx", "footnotes.docx", "headers-odd-even.docx"} {
		addFixture(f, name)
	}
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	r := fuzzReader()
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := r.readDOCX(t.Context(), data)
		checkOfficeResult(t, res, err)
	})
}

// FuzzDOCXBody feeds document.xml inside a well-formed package, which
// reaches the XML walker far more often than mutated zip bytes do.
func FuzzDOCXBody(f *testing.F) {
	f.Add([]byte(`<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>`))
	r := fuzzReader()
	f.Fuzz(func(t *testing.T, document []byte) {
		data := officePackage(t,
			[2]string{"[Content_Types].xml", fuzzContentTypes},
			[2]string{"_rels/.rels", fmt.Sprintf(fuzzRels, "officeDocument", "word/document.xml")},
			[2]string{"word/document.xml", string(document)},
		)
		res, err := r.readDOCX(t.Context(), data)
		checkOfficeResult(t, res, err)
	})
}

// FuzzPPTX feeds whole files to the PowerPoint reader.
func FuzzPPTX(f *testing.F) {
	for _, name := range []string{"slides.pptx", "smartart.pptx", "chart.pptx"} {
		addFixture(f, name)
	}
	r := fuzzReader()
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := r.readPPTX(t.Context(), data)
		checkOfficeResult(t, res, err)
	})
}

// FuzzPPTXSlide feeds one slide and its notes inside a well-formed package.
func FuzzPPTXSlide(f *testing.F) {
	f.Add([]byte(`<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Hi</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`),
		[]byte(`<p:notes xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>Say hi</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`))
	r := fuzzReader()
	f.Fuzz(func(t *testing.T, slide, notes []byte) {
		data := officePackage(t,
			[2]string{"[Content_Types].xml", fuzzContentTypes},
			[2]string{"_rels/.rels", fmt.Sprintf(fuzzRels, "officeDocument", "ppt/presentation.xml")},
			[2]string{"ppt/presentation.xml", `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`},
			[2]string{"ppt/_rels/presentation.xml.rels", fmt.Sprintf(fuzzRels, "slide", "slides/slide1.xml")},
			[2]string{"ppt/slides/slide1.xml", string(slide)},
			[2]string{"ppt/slides/_rels/slide1.xml.rels", fmt.Sprintf(fuzzRels, "notesSlide", "../notesSlides/notesSlide1.xml")},
			[2]string{"ppt/notesSlides/notesSlide1.xml", string(notes)},
		)
		res, err := r.readPPTX(t.Context(), data)
		checkOfficeResult(t, res, err)
	})
}
