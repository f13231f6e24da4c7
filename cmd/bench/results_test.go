package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPercentileIsTheNearestRank(t *testing.T) {
	ds := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100 … 1, unsorted
	}
	for _, c := range []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{ds(hundred...), 50, 50 * time.Millisecond},
		{ds(hundred...), 99, 99 * time.Millisecond},
		{ds(hundred...), 100, 100 * time.Millisecond},
		{ds(30, 10, 20), 50, 20 * time.Millisecond},
		{ds(30, 10, 20), 99, 30 * time.Millisecond},
		{ds(7), 1, 7 * time.Millisecond},
		{nil, 99, 0},
	} {
		if got := Percentile(c.in, c.p); got != c.want {
			t.Errorf("Percentile(p%v of %d samples) = %v, want %v", c.p, len(c.in), got, c.want)
		}
	}
}

func TestResultsFileHoldsValueTargetAndUnitPerFigure(t *testing.T) {
	r := NewResults()
	r.AtMost("load.p99_ms", 42.5, 50, "ms", "a note that stays out of the file")
	r.AtLeast("load.rps", 1500, 2000, "requests/s", "")
	r.Add("idle.healthz_rps", 9000, "requests/s", "")
	r.AtMost("monday.last_over_ideal", math.NaN(), 1.15, "ratio", "")
	path := filepath.Join(t.TempDir(), "bench", "results.json")
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("results.json is not JSON: %v\n%s", err, b)
	}
	want := map[string]map[string]any{
		"load.p99_ms":            {"value": 42.5, "target": 50.0, "unit": "ms"},
		"load.rps":               {"value": 1500.0, "target": 2000.0, "unit": "requests/s"},
		"idle.healthz_rps":       {"value": 9000.0, "target": nil, "unit": "requests/s"},
		"monday.last_over_ideal": {"value": nil, "target": 1.15, "unit": "ratio"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d figures, want %d: %s", len(got), len(want), b)
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("figure %s missing", name)
			continue
		}
		if len(g) != 3 {
			t.Errorf("%s has fields %v, want exactly value, target and unit", name, g)
		}
		for k, v := range w {
			if g[k] != v {
				t.Errorf("%s.%s = %v, want %v", name, k, g[k], v)
			}
		}
	}
}

func TestTableSaysWhichTargetsAreMet(t *testing.T) {
	r := NewResults()
	r.AtMost("load.p99_ms", 80, 50, "ms", "")
	r.AtLeast("idle.read_rps", 6000, 5000, "requests/s", "")
	r.Add("idle.healthz_rps", 9000, "requests/s", "")
	var b strings.Builder
	r.PrintTable(&b)
	lines := map[string]string{}
	for _, l := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	if l := lines["load.p99_ms"]; !strings.Contains(l, "≤ 50") || !strings.Contains(l, "NO") {
		t.Errorf("p99 of 80 ms against ≤ 50: %q", l)
	}
	if l := lines["idle.read_rps"]; !strings.Contains(l, "≥ 5000") || !strings.Contains(l, "yes") {
		t.Errorf("6000 req/s against ≥ 5000: %q", l)
	}
	if l := lines["idle.healthz_rps"]; strings.Contains(l, "yes") || strings.Contains(l, "NO") {
		t.Errorf("a figure without a target is neither met nor missed: %q", l)
	}
}

func TestParseBenchOutputJoinsTest2JSONPieces(t *testing.T) {
	out := strings.Join([]string{
		`{"Action":"start","Package":"p"}`,
		`{"Action":"output","Package":"p","Output":"BenchmarkGradeAll/L=200ms-2         \t"}`,
		`{"Action":"output","Package":"p","Output":"       1\t2370000000 ns/op\t         1.180 ratio\t         2.370 seconds\n"}`,
		`{"Action":"output","Package":"p","Output":"BenchmarkGradeAll429Storm-2 \t       1\t10810000000 ns/op\t 0 lost\t 1.247 calls/sub\n"}`,
		`{"Action":"output","Package":"p","Output":"PASS\n"}`,
	}, "\n")
	lines := parseBenchOutput([]byte(out))
	if v, ok := metric(lines, "BenchmarkGradeAll/L=200ms", "ratio"); !ok || v != 1.18 {
		t.Errorf("L=200ms ratio = %v, %v; want 1.18", v, ok)
	}
	if v, ok := metric(lines, "BenchmarkGradeAll429Storm", "calls/sub"); !ok || v != 1.247 {
		t.Errorf("storm calls/sub = %v, %v; want 1.247", v, ok)
	}
	if _, ok := metric(lines, "BenchmarkGradeAll429Storm", "x-ideal"); ok {
		t.Error("a metric the benchmark did not report was found")
	}
}

func TestPerfectWorkerHonoursSlotsAndTheSlidingWindow(t *testing.T) {
	for _, c := range []struct {
		calls, slots, rpm int
		lat, want         time.Duration
	}{
		// No limit: waves of 32.
		{300, 32, 0, 2 * time.Second, 10 * 2 * time.Second},
		// 40 calls under a limit of 30 a minute: the 31st starts a minute
		// after the first.
		{40, 32, 30, time.Second, time.Minute + time.Second},
		// 1200 at 500/min, 32 slots of 2 s: the last call starts two
		// minutes after call 199, which starts in wave 7 (12 s).
		{1200, 32, 500, 2 * time.Second, 12*time.Second + 2*time.Minute + 2*time.Second},
	} {
		if got := perfectWorker(c.calls, c.slots, c.rpm, c.lat); got != c.want {
			t.Errorf("perfectWorker(%d calls, %d slots, %d/min, %s) = %s, want %s", c.calls, c.slots, c.rpm, c.lat, got, c.want)
		}
	}
}
