package docx

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzRender converts any markdown. `go test` runs the seeds (the f.Add calls below: every construct, a section
// of the 20-page benchmark and the pathological bodies of issue 17, shortened; and testdata/fuzz/FuzzRender/);
// scripts/fuzz.sh explores further.
//
// Every input must end in a valid .docx, a *LimitError or an *ImageError (store:// images are refused here),
// never a panic or another error; the small limits make the limits' own paths run often.
func FuzzRender(f *testing.F) {
	f.Add(everyConstruct(f))
	if raw, err := os.ReadFile("testdata/20-pages.md"); err == nil {
		f.Add(string(raw[:1500]))
	}
	for _, tc := range pathological() {
		f.Add(tc.md[:min(len(tc.md), 1000)])
	}
	f.Add("[a](b (\n\n)")
	f.Add("> - 1. > * + a\n  > b")
	f.Add("|a|b|\n|-|-|\n|*x*|[y](https://e.x)|\n\n---\n\n```\ncode\n```")
	lim := Limits{Depth: 6, Paragraphs: 300, Links: 20, Lists: 10, ListItems: 50, CodeLines: 50, TableRows: 20,
		TableColumns: 8, TableCells: 100, ImageUses: 10, MarkWork: 200_000, LinkScan: 50_000, OutputBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, md string) {
		if len(md) > 20_000 {
			return
		}
		doc, err := Render(context.Background(), md, Options{Limits: lim})
		var le *LimitError
		var ie *ImageError
		switch {
		case errors.As(err, &le):
			if !strings.HasSuffix(le.Message, ".") {
				t.Fatalf("a limit's message is a sentence: %q", le.Message)
			}
		case errors.As(err, &ie):
		case err != nil:
			t.Fatalf("unexpected error: %v", err)
		default:
			if _, err := zip.NewReader(bytes.NewReader(doc), int64(len(doc))); err != nil {
				t.Fatalf("not a zip: %v", err)
			}
		}
	})
}
