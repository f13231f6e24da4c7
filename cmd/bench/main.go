// Command bench is `make bench`: Markwell's Monday-morning report. It starts
// a real stack (a fresh PostgreSQL database, the demo model at a set
// latency, the API and a worker from .data/bin) on free ports, drives it
// through the HTTP API as the UI does, gathers the figures of the Go
// benchmarks (extraction, grading overhead, the 429 storm, chat streaming),
// grades a class through the demo model for the prompt-caching figure,
// prints one table and writes bench/results.json:
//
//	{"figure": {"value": …, "target": …, "unit": …}}
//
// Build the binaries first (`go build -o .data/bin/ ./cmd/api ./cmd/worker
// ./cmd/fakellm`; `make bench` does). docs/performance.md ("The
// Monday-morning report") defines every figure and records a run.
//
//	go run ./cmd/bench                 # the whole report (scaled Monday morning)
//	go run ./cmd/bench -scale full     # Monday morning at full size (LLM_RPM=500, 2 s)
//	go run ./cmd/bench -quick          # a short smoke run of every phase
//	go run ./cmd/bench -phases load    # some phases only (cache, load, monday, go)
//	go run ./cmd/bench -phases cache   # prompt caching of a class of 30 (seconds; no stack)
//	go run ./cmd/bench -phases scale   # make test-scale: nginx, PgBouncer, two APIs, three workers; kills mid-run
//	go run ./cmd/bench -phases firstload,lcp # the first load: JavaScript per route, the library's LCP
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"
)

// settings are the run's sizes; -quick and -scale choose them.
type settings struct {
	quick  bool
	phases map[string]bool

	// API under load.
	clients   int
	batch     int
	smallSize int
	idleFor   time.Duration
	healthFor time.Duration
	mixedFor  time.Duration
	loadLat   time.Duration
	apiConns  int

	// Monday morning.
	scale      string
	teachers   int
	perClass   int
	mondayLat  time.Duration
	mondayRPM  int
	pollEvery  time.Duration
	mondayWait time.Duration

	// Go benchmarks.
	goBenchtime string
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		quick    = flag.Bool("quick", false, "a short smoke run: small sizes, a few seconds per phase, no Go benchmarks")
		scale    = flag.String("scale", "scaled", "Monday morning's size: scaled (40 × 30 at LLM_RPM=600, 1 s model latency: about 1 minute of grading) or full (40 × 30 at LLM_RPM=500, 2 s: about 4 minutes)")
		phases   = flag.String("phases", "cache,firstload,load,lcp,monday,yeargroup,go", "comma-separated phases to run: cache (prompt caching of a class of 30, seconds), firstload (each route's initial JavaScript from frontend/dist's manifest; no stack), load (API under load, idle read, profile), lcp (the library page's Largest Contentful Paint in Chromium at a 4× CPU throttle), monday (Monday morning and polling cost), yeargroup (classes of 1,500 and 10,000 on the assignment page in Chromium), go (the Go benchmarks), scale (make test-scale; not in the default list)")
		out      = flag.String("out", "bench/results.json", "where to write the figures")
		apiConns = flag.Int("api-conns", 0, "the API's database pool size for the load phase (0: the API's default, max(4, cores))")
		adminDB  = flag.String("db", "", "an admin PostgreSQL URL to create the databases from (default: $TEST_DATABASE_URL, then $DATABASE_URL)")
		cpuProf  = flag.String("cpuprofile", "", "write the bench's own CPU profile (the load generator's cost) to this file")
	)
	flag.Parse()
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	s := settings{
		quick: *quick, phases: map[string]bool{}, scale: *scale,
		clients: 50, batch: 300, smallSize: 30,
		idleFor: 6 * time.Second, healthFor: 4 * time.Second, mixedFor: 12 * time.Second, loadLat: 2 * time.Second,
		teachers: 40, perClass: 30, pollEvery: 2 * time.Second,
		goBenchtime: "1x",
	}
	s.apiConns = *apiConns
	for _, p := range strings.Split(*phases, ",") {
		switch p = strings.TrimSpace(p); p {
		case "cache", "firstload", "load", "lcp", "monday", "yeargroup", "go", "scale":
			s.phases[p] = true
		case "":
		default:
			return fmt.Errorf("-phases: unknown phase %q (want cache, firstload, load, lcp, monday, yeargroup, go or scale)", p)
		}
	}
	switch *scale {
	case "scaled":
		s.mondayLat, s.mondayRPM, s.mondayWait = time.Second, 600, 4*time.Minute
	case "full":
		s.mondayLat, s.mondayRPM, s.mondayWait = 2*time.Second, 500, 8*time.Minute
	default:
		return fmt.Errorf("-scale %q: want scaled or full", *scale)
	}
	if s.quick {
		s.batch, s.smallSize = 60, 10
		s.idleFor, s.healthFor, s.mixedFor = 2*time.Second, 1*time.Second, 3*time.Second
		s.loadLat = 500 * time.Millisecond
		s.teachers, s.perClass, s.mondayLat, s.mondayRPM, s.mondayWait = 8, 5, 500*time.Millisecond, 600, time.Minute
		delete(s.phases, "go")
	}

	admin := *adminDB
	for _, k := range []string{"TEST_DATABASE_URL", "DATABASE_URL"} {
		if admin == "" {
			admin = os.Getenv(k)
		}
	}
	// the prompt-caching phase runs in process: no database, no stack
	needStack := s.phases["load"] || s.phases["lcp"] || s.phases["monday"] || s.phases["yeargroup"] || s.phases["go"] || s.phases["scale"]
	if admin == "" && needStack {
		return errors.New("no PostgreSQL: pass -db or set TEST_DATABASE_URL (make bench uses scripts/pg.sh url)")
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	for _, b := range []string{"api", "worker", "fakellm"} {
		if _, err := os.Stat(filepath.Join(root, ".data", "bin", b)); err != nil && needStack {
			return fmt.Errorf(".data/bin/%s is missing: run `go build -o .data/bin/ ./cmd/api ./cmd/worker ./cmd/fakellm` first", b)
		}
	}
	outPath := *out
	if !filepath.IsAbs(outPath) {
		outPath = filepath.Join(root, outPath)
	}
	logDir := filepath.Join(filepath.Dir(outPath), "logs")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res := NewResults()
	began := time.Now()
	cores := numCPU()
	fmt.Printf("Markwell bench: %d cores, load average %s, phases %s%s\n", cores, loadAvg(), *phases, map[bool]string{true: " (quick)"}[s.quick])

	var failures []string
	if s.phases["cache"] {
		if err := promptCaching(ctx, res); err != nil {
			failures = append(failures, "cache: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: cache:", err)
		}
	}
	if s.phases["firstload"] && ctx.Err() == nil {
		if err := firstLoad(root, res); err != nil {
			failures = append(failures, "firstload: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: firstload:", err)
		}
	}
	if s.phases["load"] && ctx.Err() == nil {
		if err := apiLoad(ctx, root, admin, logDir, filepath.Dir(outPath), s, res); err != nil {
			failures = append(failures, "load: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: load:", err)
		}
	}
	if s.phases["lcp"] && ctx.Err() == nil {
		if err := libraryLCP(ctx, root, admin, logDir, s, res); err != nil {
			failures = append(failures, "lcp: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: lcp:", err)
		}
	}
	if s.phases["monday"] && ctx.Err() == nil {
		if err := monday(ctx, root, admin, logDir, filepath.Dir(outPath), s, res); err != nil {
			failures = append(failures, "monday: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: monday:", err)
		}
	}
	if s.phases["yeargroup"] && ctx.Err() == nil {
		if err := yeargroup(ctx, root, admin, logDir, &s, res); err != nil {
			failures = append(failures, "yeargroup: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: yeargroup:", err)
		}
	}
	if s.phases["go"] && ctx.Err() == nil {
		if err := goBenchmarks(ctx, root, admin, logDir, s, res); err != nil {
			failures = append(failures, "go: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: go benchmarks:", err)
		}
	}

	if s.phases["scale"] && ctx.Err() == nil {
		// A smaller morning than monday's: 12 classes of 20, a 2 s model and
		// 8 ai slots per worker (about 30 s of grading, so the kill lands
		// mid-run), the pages polling every second.
		sc := s
		sc.teachers, sc.perClass, sc.mondayLat, sc.mondayRPM, sc.pollEvery, sc.mondayWait = 12, 20, 2*time.Second, 600, time.Second, 4*time.Minute
		// -quick does not shrink it: the kill must land while classes are
		// still grading, after the sign-out and removal checks (~7 s).
		if err := scaleTest(ctx, root, admin, filepath.Dir(outPath), sc, res); err != nil {
			failures = append(failures, "scale: "+err.Error())
			fmt.Fprintln(os.Stderr, "bench: scale:", err)
		}
	}

	fmt.Printf("\n== Markwell bench, %s, %d cores, load average %s, took %s ==\n", time.Now().Format("2006-01-02 15:04"), cores, loadAvg(), time.Since(began).Round(time.Second))
	res.PrintTable(os.Stdout)
	if err := res.WriteFile(outPath); err != nil {
		return fmt.Errorf("write %s: %w", outPath, err)
	}
	fmt.Printf("\nwrote %s (%d figures); logs in %s\n", outPath, res.Len(), logDir)
	if len(failures) > 0 {
		return fmt.Errorf("%d phase(s) failed:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return nil
}

// repoRoot is the nearest directory up from here holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the Markwell repository (no go.mod found)")
		}
		dir = parent
	}
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
