package extract

import (
	"context"
	"os"
	"testing"
)

// FuzzTIFF feeds the TIFF page walker and decoder: every input must end in
// pages or a permanent error, never a panic or a loop, within the limits.
func FuzzTIFF(f *testing.F) {
	for _, name := range []string{"scan-3pages.tif", "scan-3pages-be.tif"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("II*\x00\x08\x00\x00\x00\x00\x00\x08\x00\x00\x00")) // an IFD that points at itself
	r := New(Options{Limits: Limits{MaxPages: 20, MaxImagePixels: 4_000_000}})
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := r.ExtractBytes(context.Background(), data, "scan.tif", "")
		if err != nil {
			if !IsPermanent(err) {
				t.Fatalf("a file in memory failed with a transient error: %v", err)
			}
			return
		}
		if res.Kind == KindTIFF && (len(res.Pages) == 0 || len(res.Pages) > 20) {
			t.Fatalf("%d pages", len(res.Pages))
		}
	})
}

// FuzzHEIFSize feeds the HEIF box reader that finds the image size before
// heif-convert runs.
func FuzzHEIFSize(f *testing.F) {
	for _, name := range []string{"photo.heic", "photo-irot.heic"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:600])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, h, err := heifSize(data)
		if err != nil && !IsPermanent(err) {
			t.Fatalf("transient error: %v", err)
		}
		if err == nil && (w <= 0 || h <= 0) {
			t.Fatalf("size %d × %d without an error", w, h)
		}
	})
}
