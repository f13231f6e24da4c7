package docx

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The helpers below read an exported .docx back with archive/zip + encoding/xml only, the way Word would.

type xRun struct {
	Text         string
	Bold, Italic bool
	Font         string
	Link         string // relationship id of the enclosing w:hyperlink
	Blip         string // r:embed of a drawing in this run
}

type xPara struct {
	Style       string
	NumID, Ilvl string
	IndentLeft  string
	BottomRule  bool
	InTable     bool
	Runs        []xRun
}

func (p xPara) text() string {
	var sb strings.Builder
	for _, r := range p.Runs {
		sb.WriteString(r.Text)
	}
	return sb.String()
}

type xDoc struct {
	Files  map[string][]byte
	Paras  []xPara
	Tables [][][]string // table → row → cell text
}

func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func on(se xml.StartElement) bool {
	v := attr(se, "val")
	return v == "" || v == "1" || v == "true" || v == "on"
}

// openDocx unzips data and parses word/document.xml into paragraphs, runs and tables.
func openDocx(t testing.TB, data []byte) xDoc {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err, "the export must be a valid zip")
	d := xDoc{Files: map[string][]byte{}}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		d.Files[f.Name] = b
	}
	doc, ok := d.Files["word/document.xml"]
	require.True(t, ok, "word/document.xml missing")
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var (
		p            *xPara
		r            *xRun
		link         string
		inText       bool
		tableDepth   int
		row          []string
		cell         strings.Builder
		inRPr, inPPr bool
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "word/document.xml must be well-formed")
		switch tk := tok.(type) {
		case xml.StartElement:
			switch tk.Name.Local {
			case "tbl":
				tableDepth++
				d.Tables = append(d.Tables, nil)
			case "tr":
				row = nil
			case "tc":
				cell.Reset()
			case "p":
				p = &xPara{InTable: tableDepth > 0}
			case "pPr":
				inPPr = true
			case "pStyle":
				p.Style = attr(tk, "val")
			case "numId":
				p.NumID = attr(tk, "val")
			case "ilvl":
				p.Ilvl = attr(tk, "val")
			case "ind":
				if inPPr {
					p.IndentLeft = attr(tk, "left")
				}
			case "bottom":
				if inPPr {
					p.BottomRule = true
				}
			case "hyperlink":
				link = attr(tk, "id")
			case "r":
				if p != nil {
					r = &xRun{Link: link}
				}
			case "rPr":
				inRPr = true
			case "b":
				if inRPr && r != nil {
					r.Bold = on(tk)
				}
			case "i":
				if inRPr && r != nil {
					r.Italic = on(tk)
				}
			case "rFonts":
				if inRPr && r != nil {
					r.Font = attr(tk, "ascii")
				}
			case "blip":
				if r != nil {
					r.Blip = attr(tk, "embed")
				}
			case "t":
				inText = true
			case "br":
				if r != nil {
					r.Text += "\n"
				}
			}
		case xml.CharData:
			if inText && r != nil {
				r.Text += string(tk)
				if tableDepth > 0 {
					cell.Write(tk)
				}
			}
		case xml.EndElement:
			switch tk.Name.Local {
			case "t":
				inText = false
			case "rPr":
				inRPr = false
			case "pPr":
				inPPr = false
			case "r":
				if p != nil && r != nil {
					p.Runs = append(p.Runs, *r)
				}
				r = nil
			case "hyperlink":
				link = ""
			case "p":
				if p != nil {
					d.Paras = append(d.Paras, *p)
				}
				p = nil
			case "tc":
				row = append(row, cell.String())
			case "tr":
				last := len(d.Tables) - 1
				d.Tables[last] = append(d.Tables[last], row)
			case "tbl":
				tableDepth--
			}
		}
	}
	return d
}

// para returns the first paragraph whose text contains s.
func (d xDoc) para(t testing.TB, s string) xPara {
	t.Helper()
	for _, p := range d.Paras {
		if strings.Contains(p.text(), s) {
			return p
		}
	}
	require.Failf(t, "paragraph not found", "no paragraph contains %q", s)
	return xPara{}
}

// run returns the first run whose text is exactly s.
func (d xDoc) run(t testing.TB, s string) xRun {
	t.Helper()
	for _, p := range d.Paras {
		for _, r := range p.Runs {
			if r.Text == s {
				return r
			}
		}
	}
	require.Failf(t, "run not found", "no run has text %q", s)
	return xRun{}
}

// allText is the document's visible text in order, one paragraph per line.
func (d xDoc) allText() string {
	var lines []string
	for _, p := range d.Paras {
		lines = append(lines, p.text())
	}
	return strings.Join(lines, "\n")
}

type xRel struct {
	ID         string `xml:"Id,attr"`
	Type       string `xml:"Type,attr"`
	Target     string `xml:"Target,attr"`
	TargetMode string `xml:"TargetMode,attr"`
}

// rels parses word/_rels/document.xml.rels keyed by id.
func (d xDoc) rels(t testing.TB) map[string]xRel {
	t.Helper()
	var v struct {
		Rels []xRel `xml:"Relationship"`
	}
	require.NoError(t, xml.Unmarshal(d.Files["word/_rels/document.xml.rels"], &v))
	m := map[string]xRel{}
	for _, r := range v.Rels {
		m[r.ID] = r
	}
	return m
}

// numAbstract maps each w:num id in word/numbering.xml to its abstractNumId.
func (d xDoc) numAbstract(t testing.TB) map[string]string {
	t.Helper()
	var v struct {
		Nums []struct {
			ID       string `xml:"numId,attr"`
			Abstract struct {
				Val string `xml:"val,attr"`
			} `xml:"abstractNumId"`
		} `xml:"num"`
	}
	require.NoError(t, xml.Unmarshal(d.Files["word/numbering.xml"], &v))
	m := map[string]string{}
	for _, n := range v.Nums {
		m[n.ID] = n.Abstract.Val
	}
	return m
}
