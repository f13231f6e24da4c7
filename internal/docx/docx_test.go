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
		"too many": {strings.Repeat("![x](store://key-1)\n", MaxImages+1), storeSource(t), "store://key-1",
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

// TestFromMarkdownLibreOffice converts the export to text with LibreOffice when it is installed.
func TestFromMarkdownLibreOffice(t *testing.T) {
	t.Parallel()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("soffice not installed")
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	require.NoError(t, FromMarkdown(context.Background(), &buf, everyConstruct(t), storeSource(t)))
	in := filepath.Join(dir, FileName)
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o600))
	out, err := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "txt:Text", "--outdir", dir, in).CombinedOutput()
	require.NoError(t, err, string(out))
	txt, err := os.ReadFile(filepath.Join(dir, "downloaded.txt"))
	require.NoError(t, err)
	for _, s := range []string{"Lesson plan", "Goals", "bold", "banana", "cherry", "two-a", "Ana", "Score",
		"the site", "<script>alert(1)</script>", "Closing paragraph."} {
		require.Contains(t, string(txt), s)
	}
}

// generated20Pages is roughly 20 printed pages: 20 sections of heading, paragraphs, a nested list and a table.
func generated20Pages() string {
	var sb strings.Builder
	para := strings.Repeat("The students compared **two sources** and wrote a *short* argument about the evidence. ", 6)
	for s := 1; s <= 20; s++ {
		fmt.Fprintf(&sb, "# Section %d\n\n", s)
		for i := 0; i < 3; i++ {
			sb.WriteString(para + "\n\n")
		}
		sb.WriteString("## Checklist\n\n")
		for i := 1; i <= 4; i++ {
			fmt.Fprintf(&sb, "%d. Step %d with `detail`\n   - note a\n     - note b\n", i, i)
		}
		sb.WriteString("\n| Criterion | Points | Comment |\n|---|---|---|\n")
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&sb, "| Criterion %d | %d | Clear and [cited](https://example.com/%d) |\n", i, i, i)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

func BenchmarkFromMarkdown20Pages(b *testing.B) {
	md := generated20Pages()
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
