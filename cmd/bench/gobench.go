package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// benchLine is one benchmark's result: its name without the -GOMAXPROCS
// suffix and every metric it reported (ns/op and b.ReportMetric's).
type benchLine struct {
	Name    string
	Metrics map[string]float64
}

var benchRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// parseBenchOutput reads `go test -bench -json` output (or plain output)
// and returns each benchmark result line's metrics. test2json splits a
// result line across events, so the text is joined before it is read.
func parseBenchOutput(out []byte) []benchLine {
	var text strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev struct {
			Action string
			Output string
		}
		if len(line) > 0 && line[0] == '{' && json.Unmarshal(line, &ev) == nil {
			if ev.Action == "output" {
				text.WriteString(ev.Output)
			}
			continue
		}
		text.Write(line)
		text.WriteByte('\n')
	}
	var res []benchLine
	for _, l := range strings.Split(text.String(), "\n") {
		m := benchRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		bl := benchLine{Name: m[1], Metrics: map[string]float64{}}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			bl.Metrics[f[i+1]] = v
		}
		if len(bl.Metrics) > 0 {
			res = append(res, bl)
		}
	}
	return res
}

// goBench runs `go test -run '^$' -bench pattern -json` in pkg with the
// test database, and returns its results and the raw output.
func goBench(ctx context.Context, root, dbURL, pkg, pattern, benchtime string) ([]benchLine, []byte, error) {
	args := []string{"test", "-count=1", "-run", "^$", "-bench", pattern, "-json"}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TEST_DATABASE_URL="+dbURL)
	out, err := cmd.CombinedOutput()
	lines := parseBenchOutput(out)
	if err != nil {
		return lines, out, fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return lines, out, nil
}

// metric finds a benchmark's metric by the benchmark's name.
func metric(lines []benchLine, name, unit string) (float64, bool) {
	for _, l := range lines {
		if l.Name == name {
			v, ok := l.Metrics[unit]
			return v, ok
		}
	}
	return 0, false
}

// goBenchmarks runs the earlier issues' Go benchmarks and records their
// ratios: extraction (issue 8), grading overhead and the 429 storm
// (issue 9), chat streaming (issue 10).
func goBenchmarks(ctx context.Context, root, admin, logDir string, s settings, res *Results) error {
	type run struct {
		pkg, pattern, benchtime, log string
	}
	runs := []run{
		{"./internal/extract/", "BenchmarkPDFTextPages|BenchmarkOCRImage", "6x", "gobench-extract.log"},
		{"./internal/benchmark/", "BenchmarkGradeAll$|BenchmarkGradeAll429Storm|BenchmarkChatStreamOverhead", s.goBenchtime, "gobench-grading.log"},
	}
	var all []benchLine
	var errs []error
	for _, r := range runs {
		fmt.Printf("\n-- go test -bench '%s' -benchtime %s %s --\n", r.pattern, r.benchtime, r.pkg)
		start := time.Now()
		lines, out, err := goBench(ctx, root, admin, r.pkg, r.pattern, r.benchtime)
		_ = os.WriteFile(filepath.Join(logDir, r.log), out, 0o644)
		for _, l := range lines {
			fmt.Printf("  %s %v\n", l.Name, l.Metrics)
		}
		fmt.Printf("  (%s; output in %s)\n", time.Since(start).Round(time.Second), filepath.Join(logDir, r.log))
		if err != nil {
			errs = append(errs, err)
		}
		all = append(all, lines...)
	}
	add := func(figure, bench, unit string, goal Goal, target float64, resUnit, note string) {
		v, ok := metric(all, bench, unit)
		if !ok {
			v = math.NaN()
			note = "not measured (see the logs)"
		}
		switch goal {
		case AtMost:
			res.AtMost(figure, v, target, resUnit, note)
		case AtLeast:
			res.AtLeast(figure, v, target, resUnit, note)
		default:
			res.Add(figure, v, resUnit, note)
		}
	}
	add("extract.pdf_pages_per_s_over_pdftotext", "BenchmarkPDFTextPages", "ratio", AtLeast, 0.8, "ratio", "text-PDF pages/s ÷ pdftotext alone (Markwell runs pdftotext and reads form fields on top)")
	add("extract.pdf_pages_per_s", "BenchmarkPDFTextPages", "pages/s", Info, 0, "pages/s", "Markwell")
	add("extract.pdftotext_pages_per_s", "BenchmarkPDFTextPages", "pdftotext-pages/s", Info, 0, "pages/s", "pdftotext alone")
	add("extract.ocr_image_s_over_tesseract", "BenchmarkOCRImage", "ratio", AtMost, 1, "ratio", "s per PNG ÷ the tesseract command")
	add("grading.L200ms_over_ideal", "BenchmarkGradeAll/L=200ms", "ratio", AtMost, 1.25, "ratio", "300 submissions, 32 slots")
	add("grading.L2s_over_ideal", "BenchmarkGradeAll/L=2s", "ratio", AtMost, 1.05, "ratio", "")
	add("grading.L0_results_over_river_noops", "BenchmarkGradeAll/L=0", "ratio", AtLeast, 0.10, "ratio", "")
	add("storm429.results_lost", "BenchmarkGradeAll429Storm", "lost", AtMost, 0, "results", "20 % of calls answered 429")
	add("storm429.calls_before_retry_after", "BenchmarkGradeAll429Storm", "early-retries", AtMost, 0, "calls", "")
	add("storm429.calls_per_submission", "BenchmarkGradeAll429Storm", "calls/sub", AtMost, 1.25, "calls", "")
	add("storm429.over_ideal", "BenchmarkGradeAll429Storm", "x-ideal", AtMost, 1.2, "ratio", "")
	add("chat.ttft_api_over_direct", "BenchmarkChatStreamOverhead", "ttft_ratio", AtMost, 1.25, "ratio", "")
	add("chat.tokens_per_s_api_over_direct", "BenchmarkChatStreamOverhead", "tps_ratio", AtLeast, 0.95, "ratio", "")
	return errors.Join(errs...)
}
