package extract_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/ocr"
)

// Each benchmark times Markwell and the command-line tool alone on the same
// file in every iteration and reports both and their ratio, so `make bench`
// compares them within one run on one machine.

func runTool(b *testing.B, name string, args ...string) time.Duration {
	b.Helper()
	start := time.Now()
	out, err := exec.Command(name, args...).Output()
	require.NoError(b, err, "%s %v", name, args)
	require.NotEmpty(b, out)
	return time.Since(start)
}

func timed(b *testing.B, r *extract.Reader, data []byte, name string) time.Duration {
	b.Helper()
	start := time.Now()
	res, err := r.ExtractBytes(context.Background(), data, name, "")
	require.NoError(b, err)
	require.NotEmpty(b, res.Text)
	return time.Since(start)
}

// BenchmarkPDFTextPages: pages per second of a text PDF through Markwell
// (pdftotext, then the form fields in-process) against `pdftotext` alone.
// ratio > 1 means Markwell is faster; it cannot be much above 1, since
// Markwell runs the same pdftotext and reads the form on top.
func BenchmarkPDFTextPages(b *testing.B) {
	path, err := filepath.Abs("testdata/text-3pages.pdf")
	require.NoError(b, err)
	data := fixture(b, "text-3pages.pdf")
	const pages = 3
	r := extract.New(extract.Options{TempDir: b.TempDir()})
	// One untimed run of each first: with the few iterations make bench
	// asks for, whichever ran first paid for loading poppler from disk.
	timed(b, r, data, "essay.pdf")
	runTool(b, "pdftotext", "-enc", "UTF-8", path, "-")
	var ours, tool time.Duration
	i := 0
	for b.Loop() {
		// in turn first, so neither always runs on the other's warm caches
		if i++; i%2 == 0 {
			ours += timed(b, r, data, "essay.pdf")
			tool += runTool(b, "pdftotext", "-enc", "UTF-8", path, "-")
		} else {
			tool += runTool(b, "pdftotext", "-enc", "UTF-8", path, "-")
			ours += timed(b, r, data, "essay.pdf")
		}
	}
	n := float64(b.N)
	b.ReportMetric(pages*n/ours.Seconds(), "pages/s")
	b.ReportMetric(pages*n/tool.Seconds(), "pdftotext-pages/s")
	b.ReportMetric(tool.Seconds()/ours.Seconds(), "ratio")
}

// BenchmarkOCRScannedPage: seconds per scanned PDF page (pdftoppm and the
// pooled client) against the `tesseract` command alone on the same page
// image (ratio; < 1 means Markwell's page costs less than the bare command),
// and against pdftoppm plus tesseract, which also pay for rasterising.
func BenchmarkOCRScannedPage(b *testing.B) {
	data := fixture(b, "scanned.pdf")
	pgm := filepath.Join(b.TempDir(), "page.pgm")
	out, err := exec.Command("pdftoppm", "-gray", "-scale-to", "3508", "-singlefile", "testdata/scanned.pdf").Output()
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(pgm, out, 0o600))
	r := extract.New(extract.Options{OCR: pool, TempDir: b.TempDir()})
	var ours, tool, render time.Duration
	for b.Loop() {
		ours += timed(b, r, data, "scan.pdf")
		tool += runTool(b, "tesseract", pgm, "-")
		render += runTool(b, "pdftoppm", "-gray", "-scale-to", "3508", "-singlefile", "testdata/scanned.pdf")
	}
	n := float64(b.N)
	b.ReportMetric(ours.Seconds()/n, "s/page")
	b.ReportMetric(tool.Seconds()/n, "tesseract-s/page")
	b.ReportMetric((tool+render).Seconds()/n, "pdftoppm+tesseract-s/page")
	b.ReportMetric(ours.Seconds()/tool.Seconds(), "ratio")
}

// BenchmarkOCRImage: seconds per PNG of printed text against the
// `tesseract` command alone on the same file.
func BenchmarkOCRImage(b *testing.B) {
	data := fixture(b, "printed.png")
	r := extract.New(extract.Options{OCR: pool})
	var ours, tool time.Duration
	for b.Loop() {
		ours += timed(b, r, data, "page.png")
		tool += runTool(b, "tesseract", "testdata/printed.png", "-")
	}
	n := float64(b.N)
	b.ReportMetric(ours.Seconds()/n, "s/image")
	b.ReportMetric(tool.Seconds()/n, "tesseract-s/image")
	b.ReportMetric(ours.Seconds()/tool.Seconds(), "ratio")
}

// BenchmarkOCRThroughput: images per second through a pool of 2 clients
// and 2 goroutines against a pool of 1; the ratio is the gain of a second
// ocr worker (at most 2, and only with 2 free cores).
func BenchmarkOCRThroughput(b *testing.B) {
	data := fixture(b, "printed.png")
	const batch = 4
	readers := map[int]*extract.Reader{}
	for _, n := range []int{1, 2} {
		p, err := ocr.NewPool(n)
		require.NoError(b, err)
		b.Cleanup(func() { _ = p.Close() })
		readers[n] = extract.New(extract.Options{OCR: p})
	}
	run := func(workers int) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		jobs := make(chan struct{}, batch)
		for range batch {
			jobs <- struct{}{}
		}
		close(jobs)
		errs := make(chan error, batch)
		for range workers {
			wg.Go(func() {
				for range jobs {
					_, err := readers[workers].ExtractBytes(context.Background(), data, "page.png", "")
					errs <- err
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		close(errs)
		for err := range errs {
			require.NoError(b, err)
		}
		return elapsed
	}
	var one, two time.Duration
	for b.Loop() {
		one += run(1)
		two += run(2)
	}
	images := float64(batch * b.N)
	b.ReportMetric(images/one.Seconds(), "images/s-1-worker")
	b.ReportMetric(images/two.Seconds(), "images/s-2-workers")
	b.ReportMetric(one.Seconds()/two.Seconds(), "ratio")
}

// BenchmarkDeskew: milliseconds per A4 page at 3,508 pixels (300 dpi) of
// measuring the tilt, which every page read by OCR pays, and of measuring
// and turning a page tilted 3°, against the pooled OCR of the same page
// (ratio: the tilted page's deskew ÷ its OCR). The page is printed.png six
// times down a white A4 page.
func BenchmarkDeskew(b *testing.B) {
	src, err := png.Decode(bytes.NewReader(fixture(b, "printed.png")))
	require.NoError(b, err)
	para := image.NewGray(src.Bounds())
	draw.Draw(para, para.Rect, src, src.Bounds().Min, draw.Src)
	page := image.NewGray(image.Rect(0, 0, 2480, 3508))
	draw.Draw(page, page.Rect, image.White, image.Point{}, draw.Src)
	for n := range 6 {
		at := image.Pt(180, 300+n*(para.Rect.Dy()+50))
		draw.Draw(page, para.Rect.Add(at), para, image.Point{}, draw.Src)
	}
	tilted := rotate(page, 3)
	pgm := append([]byte(fmt.Sprintf("P5\n%d %d\n255\n", page.Rect.Dx(), page.Rect.Dy())), page.Pix...)
	var straight, skewed, read time.Duration
	for b.Loop() {
		start := time.Now()
		_, turned := extract.Deskew(page)
		straight += time.Since(start)
		require.Zero(b, turned, "a straight page was turned")

		start = time.Now()
		_, turned = extract.Deskew(tilted)
		skewed += time.Since(start)
		require.InDelta(b, -3, turned, 0.15)

		start = time.Now()
		_, _, err := pool.TextConfidence(context.Background(), pgm)
		read += time.Since(start)
		require.NoError(b, err)
	}
	n := float64(b.N)
	b.ReportMetric(straight.Seconds()*1000/n, "straight-ms/page")
	b.ReportMetric(skewed.Seconds()*1000/n, "tilted-ms/page")
	b.ReportMetric(read.Seconds()*1000/n, "ocr-ms/page")
	b.ReportMetric(skewed.Seconds()/read.Seconds(), "ratio")
}
