package ocr_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract/ocr"
)

// probeEnv makes the test binary report libgomp's thread limit instead of
// running tests (see TestSetenvAloneDoesNotLimitOpenMP).
const probeEnv = "MARKWELL_OMP_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) != "" {
		before := ocr.OpenMPThreadLimit()
		_ = os.Setenv("OMP_THREAD_LIMIT", "1")
		fmt.Printf("before=%d after-setenv=%d\n", before, ocr.OpenMPThreadLimit())
		os.Exit(0)
	}
	if err := ocr.EnsureOpenMPThreadLimit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestEnsureOpenMPThreadLimitLimitsTesseractToOneThread(t *testing.T) {
	t.Parallel()
	require.Equal(t, 1, ocr.OpenMPThreadLimit(), "TestMain re-executed the binary with OMP_THREAD_LIMIT=1")
	require.Equal(t, "1", os.Getenv("OMP_THREAD_LIMIT"))
}

// Why EnsureOpenMPThreadLimit re-executes: libgomp reads the variable when
// the program loads, so setting it from Go changes nothing.
func TestSetenvAloneDoesNotLimitOpenMP(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMP_THREAD_LIMIT=") && !strings.HasPrefix(kv, "MARKWELL_OMP_REEXEC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, probeEnv+"=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	var before, after int
	_, err = fmt.Sscanf(string(out), "before=%d after-setenv=%d", &before, &after)
	require.NoError(t, err, "probe said %q", out)
	require.NotEqual(t, 1, before)
	require.Equal(t, before, after, "os.Setenv after start-up leaves libgomp's limit as it was")
}

func TestPoolReadsPrintedText(t *testing.T) {
	t.Parallel()
	p, err := ocr.NewPool(1)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	require.Equal(t, 1, p.Size())
	png, err := os.ReadFile("../testdata/printed.png")
	require.NoError(t, err)
	text, err := p.Text(context.Background(), png)
	require.NoError(t, err)
	require.Contains(t, strings.Join(strings.Fields(text), " "), "Photosynthesis is the process plants use to make their own food.")
}

// Tesseract says how sure it is: clean print reads with high confidence,
// a page of noise with low (the review screen asks the teacher to check a
// page under extract.LowConfidence).
func TestPoolTextConfidence(t *testing.T) {
	t.Parallel()
	p, err := ocr.NewPool(1)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	png, err := os.ReadFile("../testdata/printed.png")
	require.NoError(t, err)
	text, conf, err := p.TextConfidence(context.Background(), png)
	require.NoError(t, err)
	require.Contains(t, strings.Join(strings.Fields(text), " "), "Photosynthesis is the process plants use to make their own food.")
	require.GreaterOrEqual(t, conf, 80, text)

	// Speckles: whatever tesseract makes of them, it is not sure of it.
	const w, h = 600, 200
	var noise strings.Builder
	fmt.Fprintf(&noise, "P5\n%d %d\n255\n", w, h)
	seed := uint32(7)
	for range w * h {
		seed = seed*1664525 + 1013904223
		if seed>>24 < 60 {
			noise.WriteByte(0)
		} else {
			noise.WriteByte(255)
		}
	}
	_, conf, err = p.TextConfidence(context.Background(), []byte(noise.String()))
	require.NoError(t, err)
	require.Less(t, conf, 60)
}

// A cancelled context returns at once, whether a client is free or busy,
// and leaves another caller's OCR alone.
func TestPoolCancelledContextRunsNoOCR(t *testing.T) {
	t.Parallel()
	p, err := ocr.NewPool(1)
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	png, err := os.ReadFile("../testdata/printed.png")
	require.NoError(t, err)

	done := make(chan error, 1)
	go func() {
		_, err := p.Text(context.Background(), png)
		done <- err
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Text(ctx, png)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, <-done)
}

func TestNewPoolRefusesSizeZero(t *testing.T) {
	t.Parallel()
	_, err := ocr.NewPool(0)
	require.Error(t, err)
}
