package docx

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pngBytes returns a real w×h PNG.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, 0, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func everyConstruct(t testing.TB) string {
	dataURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes(t, 40, 20))
	return strings.Join([]string{
		"# Lesson plan",
		"## Goals",
		"###### Fine print",
		"Intro with **bold**, *italic*, ***both*** and `code`.",
		"First line  \nsecond line",
		"> Quoted wisdom",
		"- apple\n  - banana\n    - cherry\n- date",
		"1. one\n2. two\n   1. two-a",
		"| Name | Score |\n|------|-------|\n| Ana | 9 |\n| Ben | 7 |",
		"See [the site](https://example.com/a?b=1&c=2) now.",
		"---",
		"```go\nfmt.Println(\"hi\")\nreturn\n```",
		"![dot](" + dataURL + ")",
		"![stored](store://key-1)",
		"<script>alert(1)</script>",
		"Inline <b>tag</b> stays text.",
		"Closing paragraph.",
	}, "\n\n")
}

func storeSource(t testing.TB) ImageSource {
	return func(_ context.Context, src string) ([]byte, string, error) {
		if src == "store://key-1" {
			return pngBytes(t, 1200, 600), "image/png", nil
		}
		return nil, "", errors.New("not found")
	}
}

// manyImages shows n different images, store://key-0 to key-(n-1).
func manyImages(n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "![x](store://key-%d)\n", i)
	}
	return sb.String()
}

// distinctSource serves a different small PNG for every store://key-N.
func distinctSource(t testing.TB) ImageSource {
	return func(_ context.Context, src string) ([]byte, string, error) {
		var n int
		if _, err := fmt.Sscanf(src, "store://key-%d", &n); err != nil {
			return nil, "", errors.New("not found")
		}
		return pngBytes(t, 10+n, 10), "image/png", nil
	}
}

func export(t testing.TB, md string, src ImageSource) xDoc {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, FromMarkdown(context.Background(), &buf, md, src))
	return openDocx(t, buf.Bytes())
}

func TestFromMarkdownEveryConstruct(t *testing.T) {
	t.Parallel()
	d := export(t, everyConstruct(t), storeSource(t))

	require.Contains(t, d.Files, "[Content_Types].xml")
	require.Equal(t, 1, strings.Count(string(d.Files["[Content_Types].xml"]), `Extension="png"`),
		"png declared exactly once in [Content_Types].xml")

	t.Run("headings", func(t *testing.T) {
		require.Equal(t, "Heading1", d.para(t, "Lesson plan").Style)
		require.Equal(t, "Heading2", d.para(t, "Goals").Style)
		require.Equal(t, "Heading6", d.para(t, "Fine print").Style)
	})
	t.Run("text in order", func(t *testing.T) {
		all := d.allText()
		order := []string{"Lesson plan", "Goals", "Intro with bold, italic, both and code.", "First line\nsecond line",
			"Quoted wisdom", "apple", "banana", "cherry", "date", "one", "two", "two-a", "See the site now.",
			"fmt.Println(\"hi\")\nreturn", "<script>alert(1)</script>", "Inline <b>tag</b> stays text.",
			"Closing paragraph."}
		pos := 0
		for _, s := range order {
			i := strings.Index(all[pos:], s)
			require.GreaterOrEqualf(t, i, 0, "%q missing or out of order in:\n%s", s, all)
			pos += i + len(s)
		}
	})
	t.Run("run formatting", func(t *testing.T) {
		b, i, bi, c := d.run(t, "bold"), d.run(t, "italic"), d.run(t, "both"), d.run(t, "code")
		require.True(t, b.Bold)
		require.False(t, b.Italic)
		require.True(t, i.Italic)
		require.False(t, i.Bold)
		require.True(t, bi.Bold && bi.Italic)
		require.Equal(t, codeFont, c.Font)
		require.Equal(t, codeFont, d.run(t, "return").Font, "code block is monospace")
		require.False(t, d.run(t, "Intro with ").Bold)
	})
	t.Run("quote and rule", func(t *testing.T) {
		require.Equal(t, "720", d.para(t, "Quoted wisdom").IndentLeft)
		rules := 0
		for _, p := range d.Paras {
			if p.BottomRule {
				rules++
			}
		}
		require.Equal(t, 1, rules, "one horizontal rule")
	})
	t.Run("lists", func(t *testing.T) {
		abs := d.numAbstract(t)
		for text, lvl := range map[string]string{"apple": "0", "banana": "1", "cherry": "2", "date": "0"} {
			p := d.para(t, text)
			require.Equalf(t, lvl, p.Ilvl, "%s level", text)
			require.Equalf(t, "202", abs[p.NumID], "%s is a bullet", text)
		}
		require.Equal(t, d.para(t, "apple").NumID, d.para(t, "date").NumID, "same list continues")
		for text, lvl := range map[string]string{"one": "0", "two-a": "1"} {
			p := d.para(t, text)
			require.Equal(t, lvl, p.Ilvl)
			require.Equalf(t, "201", abs[p.NumID], "%s is numbered", text)
		}
		require.Empty(t, d.para(t, "Closing").NumID)
	})
	t.Run("table", func(t *testing.T) {
		require.Len(t, d.Tables, 1)
		require.Equal(t, [][]string{{"Name", "Score"}, {"Ana", "9"}, {"Ben", "7"}}, d.Tables[0])
		require.True(t, d.run(t, "Name").Bold, "header cells are bold")
		require.False(t, d.run(t, "Ana").Bold)
	})
	t.Run("hyperlink", func(t *testing.T) {
		r := d.run(t, "the site")
		require.NotEmpty(t, r.Link)
		rel := d.rels(t)[r.Link]
		require.Equal(t, "https://example.com/a?b=1&c=2", rel.Target)
		require.Equal(t, "External", rel.TargetMode)
		require.True(t, strings.HasSuffix(rel.Type, "/hyperlink"))
	})
	t.Run("images", func(t *testing.T) {
		rels := d.rels(t)
		var targets []string
		for _, p := range d.Paras {
			for _, r := range p.Runs {
				if r.Blip != "" {
					rel := rels[r.Blip]
					require.True(t, strings.HasSuffix(rel.Type, "/image"))
					targets = append(targets, rel.Target)
				}
			}
		}
		require.Equal(t, []string{"media/image1.png", "media/image2.png"}, targets)
		require.Equal(t, pngBytes(t, 1200, 600), d.Files["word/media/image2.png"], "stored image embedded as is")
		require.Contains(t, d.Files, "word/media/image1.png")
		doc := string(d.Files["word/document.xml"])
		require.Contains(t, doc, `cx="5486400"`, "a 1200px image is scaled to the 6in text width")
	})
}

func TestFromMarkdownImageFailures(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		md     string
		src    ImageSource
		name   string
		reason string
	}{
		"source error": {"Text\n\n![x](store://missing)", storeSource(t), "store://missing", "not found"},
		"no source":    {"![x](https://evil.example/a.png)", nil, "https://evil.example/a.png", "no image source"},
		"not an image": {"![x](data:image/png;base64,aGVsbG8=)", nil, "data:image/png;base64,aGVsbG8=", "not a PNG"},
		"not image type": {"![x](data:text/html;base64,PHA+)", nil, "data:text/html;base64,PHA+",
			"not an image"},
		"too many": {manyImages(MaxImages + 1), distinctSource(t), fmt.Sprintf("store://key-%d", MaxImages),
			"more than"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			err := FromMarkdown(context.Background(), &buf, tc.md, tc.src)
			var ie *ImageError
			require.ErrorAs(t, err, &ie)
			require.Equal(t, tc.name, ie.Src)
			require.True(t, strings.HasPrefix(err.Error(), MsgImageFailed), err.Error())
			require.Contains(t, err.Error(), tc.reason)
			require.Zero(t, buf.Len(), "nothing written on failure")
		})
	}
}

func TestFromMarkdownUnsafeLinkIsText(t *testing.T) {
	t.Parallel()
	d := export(t, "Click [me](javascript:alert(1)) or [rel](/local).", nil)
	require.Equal(t, "Click me or rel.", d.para(t, "Click").text())
	for _, r := range d.para(t, "Click").Runs {
		require.Empty(t, r.Link)
	}
	for _, rel := range d.rels(t) {
		require.NotContains(t, rel.Target, "javascript")
	}
}

func TestFromMarkdownCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var buf bytes.Buffer
	require.ErrorIs(t, FromMarkdown(ctx, &buf, "# Hi\n\ntext", nil), context.Canceled)
	require.Zero(t, buf.Len())
}

// roundTrip is a teacher's document with one of each construct the round trip checks.
func roundTrip(t testing.TB) string {
	dataURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes(t, 40, 20))
	return strings.Join([]string{
		"# Field trip plan",
		"Pupils visit the **river centre** on *Friday* morning.",
		"## Packing list",
		"- Lunch box\n  - Sandwich\n  - Apple slices\n- Rain coat",
		"1. Meet at the gate\n2. Board the coach\n3. Count heads",
		"| Group | Leader | Pupils |\n|---|---|---|\n| Otters | Ms Khan | 12 |\n| Herons | Mr Lee | 14 |",
		"Read the [centre's safety page](https://example.com/safety) before the trip.",
		"```\ncount = pupils - absent\nprint(count)\n```",
		"> Stay with your group at all times.",
		"![map](" + dataURL + ")",
		"Bring <b>boots</b> if it rains.",
		"See you on Friday.",
	}, "\n\n")
}

// tool returns the path of a command the round trip needs, failing with the Debian package to install.
func tool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not installed: install the Debian package %s (scripts/bootstrap.sh does, as `make test` runs it)", name, pkg)
	}
	return p
}

// TestFromMarkdownLibreOfficeRoundTrip opens the export in LibreOffice (converted to PDF) and reads the PDF back:
// what a teacher sees when she opens the download in a word processor.
func TestFromMarkdownLibreOfficeRoundTrip(t *testing.T) {
	t.Parallel()
	soffice := tool(t, "soffice", "libreoffice-writer-nogui")
	pdftotext := tool(t, "pdftotext", "poppler-utils")
	pdfimages := tool(t, "pdfimages", "poppler-utils")

	dir := t.TempDir()
	var buf bytes.Buffer
	require.NoError(t, FromMarkdown(context.Background(), &buf, roundTrip(t), nil))
	in := filepath.Join(dir, FileName)
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o600))

	// A profile and HOME of its own: LibreOffice runs as root and beside other instances.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "--headless", "--norestore",
		"-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--convert-to", "pdf", "--outdir", dir, in)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "soffice: %s", out)
	t.Logf("LibreOffice converted the .docx to PDF in %s", time.Since(start).Round(time.Millisecond))
	pdf := filepath.Join(dir, "downloaded.pdf")
	require.FileExists(t, pdf, "soffice wrote no PDF: %s", out)

	raw, err := exec.Command(pdftotext, "-layout", pdf, "-").CombinedOutput()
	require.NoError(t, err, string(raw))
	text := string(raw)
	lines := strings.Split(text, "\n")
	line := func(s string) string {
		for _, l := range lines {
			if strings.Contains(l, s) {
				return l
			}
		}
		t.Fatalf("%q is not in the PDF's text:\n%s", s, text)
		return ""
	}
	indent := func(s string) int { l := line(s); return len(l) - len(strings.TrimLeft(l, " ")) }

	t.Run("text in order", func(t *testing.T) {
		pos := 0
		for _, s := range []string{"Field trip plan", "Pupils visit the river centre on Friday morning.", "Packing list",
			"Lunch box", "Sandwich", "Apple slices", "Rain coat", "Meet at the gate", "Board the coach", "Count heads",
			"Group", "Otters", "Herons", "Read the centre's safety page before the trip.",
			"count = pupils - absent", "print(count)", "Stay with your group at all times.",
			"Bring <b>boots</b> if it rains.", "See you on Friday."} {
			i := strings.Index(text[pos:], s)
			require.GreaterOrEqualf(t, i, 0, "%q missing or out of order in:\n%s", s, text)
			pos += i + len(s)
		}
	})
	t.Run("lists", func(t *testing.T) {
		require.Greater(t, indent("Sandwich"), indent("Lunch box"), "the nested item is indented under its parent")
		require.Equal(t, indent("Lunch box"), indent("Rain coat"))
		for i, s := range []string{"Meet at the gate", "Board the coach", "Count heads"} {
			require.Regexp(t, fmt.Sprintf(`^\s*%d\.\s+%s`, i+1, s), line(s), "numbered")
		}
		require.NotRegexp(t, `^\s*\d`, line("Lunch box"), "bulleted, not numbered")
	})
	t.Run("table", func(t *testing.T) {
		for _, row := range [][]string{{"Group", "Leader", "Pupils"}, {"Otters", "Ms Khan", "12"}, {"Herons", "Mr Lee", "14"}} {
			require.Regexp(t, strings.Join(row, `\s+`), line(row[0]), "a row's cells side by side")
		}
	})
	t.Run("fonts", func(t *testing.T) {
		fonts, err := exec.Command(tool(t, "pdffonts", "poppler-utils"), pdf).CombinedOutput()
		require.NoError(t, err, string(fonts))
		for _, f := range []string{"-Bold", "-Italic", "Mono"} {
			require.Contains(t, string(fonts), f, "bold, italic and monospace text are set in their fonts")
		}
	})
	t.Run("image", func(t *testing.T) {
		list, err := exec.Command(pdfimages, "-list", pdf).CombinedOutput()
		require.NoError(t, err, string(list))
		// Two header lines, then one line per image: page num type width height ...; an image's alpha
		// channel is a line of its own, of type smask.
		var images [][]string
		for _, row := range strings.Split(strings.TrimSpace(string(list)), "\n")[2:] {
			if f := strings.Fields(row); len(f) > 4 && f[2] == "image" {
				images = append(images, f)
			}
		}
		require.Len(t, images, 1, "one image in the PDF:\n%s", list)
		require.Equal(t, []string{"40", "20"}, images[0][3:5], "the 40×20 PNG:\n%s", list)
	})
}

// BenchmarkFromMarkdown20Pages exports testdata/20-pages.md: 20 sections of a heading, three paragraphs with bold
// and italic, a numbered list with nested bullets and inline code, and a 7×3 table with links (23 Letter pages in
// LibreOffice). internal/benchmark's BenchmarkDownloadDocx20Pages exports the same file through the API.
func BenchmarkFromMarkdown20Pages(b *testing.B) {
	raw, err := os.ReadFile("testdata/20-pages.md")
	if err != nil {
		b.Fatal(err)
	}
	md := string(raw)
	ctx := context.Background()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := FromMarkdown(ctx, &buf, md, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/doc")
}
