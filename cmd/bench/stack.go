package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// stackOptions configure one throwaway stack.
type stackOptions struct {
	// Latency is the demo model's delay per chat completion.
	Latency time.Duration
	// RPM is LLM_RPM, the shared model request limit (0: none).
	RPM int
	// APIConns is the API's database pool size (0: pgxpool's default,
	// max(4, cores)), set through DATABASE_URL's pool_max_conns.
	APIConns int
	// Env adds or overrides variables of the API and the worker.
	Env map[string]string
}

// stack is the demo model, the API and one worker on free ports over a
// fresh database, as e2e/stack.mjs starts them.
type stack struct {
	BaseURL  string
	PprofURL string
	dbName   string
	dbURL    string
	adminURL string
	blobDir  string
	logDir   string
	procs    map[string]*proc
	order    []string
}

// proc is a started process; exited closes when it has ended.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

// randomHex returns n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// withDB returns the admin URL pointed at database name, with an
// application_name so the API's and the worker's backends can be told apart
// in pg_stat_activity.
func withDB(admin, name, app string) (string, error) {
	u, err := url.Parse(admin)
	if err != nil {
		return "", fmt.Errorf("database URL: %w", err)
	}
	u.Path = "/" + name
	q := u.Query()
	if app != "" {
		q.Set("application_name", app)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func adminExec(ctx context.Context, admin, sql string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redact(admin), err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(bad URL)"
	}
	return u.Redacted()
}

// startStack creates a database, migrates it with `api migrate` and starts
// fakellm, the API and a worker, waiting until each answers.
func startStack(ctx context.Context, root, admin, logDir string, o stackOptions) (*stack, error) {
	s := &stack{
		adminURL: admin, logDir: logDir, procs: map[string]*proc{},
		dbName: "markwell_bench_" + randomHex(5),
	}
	if err := adminExec(ctx, admin, "CREATE DATABASE "+s.dbName); err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			s.Stop()
		}
	}()
	var err error
	if s.dbURL, err = withDB(admin, s.dbName, ""); err != nil {
		return nil, err
	}
	ports := make([]int, 5)
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return nil, err
		}
	}
	apiPort, llmPort, workerPort, metricsPort, pprofPort := ports[0], ports[1], ports[2], ports[3], ports[4]
	if s.blobDir, err = os.MkdirTemp("", "markwell-bench-blobs-"); err != nil {
		return nil, err
	}
	s.BaseURL = fmt.Sprintf("http://127.0.0.1:%d", apiPort)
	s.PprofURL = fmt.Sprintf("http://127.0.0.1:%d/debug/pprof", pprofPort)
	apiDB, _ := withDB(admin, s.dbName, "markwell-api")
	if o.APIConns > 0 {
		apiDB += "&pool_max_conns=" + strconv.Itoa(o.APIConns)
	}
	workerDB, _ := withDB(admin, s.dbName, "markwell-worker")
	env := map[string]string{
		"APP_ENV":      "development",
		"DATABASE_URL": apiDB,
		"SECRET_KEY":   randomHex(32),
		"HTTP_ADDR":    fmt.Sprintf("127.0.0.1:%d", apiPort),
		"PUBLIC_URL":   s.BaseURL,
		"STATIC_DIR":   filepath.Join(root, "frontend", "dist"),
		"BLOB_DIR":     s.blobDir,
		"LLM_BASE_URL": fmt.Sprintf("http://127.0.0.1:%d/v1", llmPort),
		"DEMO_MODEL":   "true",
		"DEV_SIGNIN":   "true",
		"WORKER_ADDR":  fmt.Sprintf("127.0.0.1:%d", workerPort),
		"METRICS_ADDR": fmt.Sprintf("127.0.0.1:%d", metricsPort),
		// The API serves net/http/pprof here (a loopback address, like
		// METRICS_ADDR) so the benchmark can profile it under load.
		"PPROF_ADDR":                   fmt.Sprintf("127.0.0.1:%d", pprofPort),
		"MIGRATE_ON_START":             "false",
		"SIGNIN_RATE_LIMIT":            "100000/1m",
		"AI_RATE_LIMIT_TEACHER":        "100000/1m",
		"AI_RATE_LIMIT_TEAM":           "1000000/24h",
		"AI_TOKEN_LIMIT_TEACHER":       "off",
		"AI_TOKEN_LIMIT_TEAM":          "off",
		"STUDENT_RATE_LIMIT_LINK":      "100000/1h",
		"STUDENT_RATE_LIMIT_ADDR":      "100000/1h",
		"STUDENT_RATE_LIMIT_LINK_MAX":  "0",
		"STUDENT_RATE_LIMIT_SUBMITTER": "off",
		"STUDENT_RATE_LIMIT_STUDENT":   "off",
		"LOG_LEVEL":                    "info",
	}
	if o.RPM > 0 {
		env["LLM_RPM"] = strconv.Itoa(o.RPM)
	}
	for k, v := range o.Env {
		env[k] = v
	}
	bin := func(name string) string { return filepath.Join(root, ".data", "bin", name) }

	migrateEnv := map[string]string{}
	for k, v := range env {
		migrateEnv[k] = v
	}
	migrateEnv["DATABASE_URL"] = s.dbURL
	if err := s.runOnce(ctx, "migrate", bin("api"), []string{"migrate"}, migrateEnv); err != nil {
		return nil, err
	}
	if err := s.start(ctx, "fakellm", bin("fakellm"), []string{"--addr", fmt.Sprintf("127.0.0.1:%d", llmPort), "--latency", o.Latency.String()}, env,
		fmt.Sprintf("http://127.0.0.1:%d/healthz", llmPort)); err != nil {
		return nil, err
	}
	if err := s.start(ctx, "api", bin("api"), nil, env, s.BaseURL+"/readyz"); err != nil {
		return nil, err
	}
	workerEnv := map[string]string{}
	for k, v := range env {
		workerEnv[k] = v
	}
	workerEnv["DATABASE_URL"] = workerDB
	if err := s.start(ctx, "worker", bin("worker"), nil, workerEnv, fmt.Sprintf("http://127.0.0.1:%d/healthz", workerPort)); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

func environ(env map[string]string) []string {
	out := os.Environ()
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

func (s *stack) logFile(name string) (*os.File, error) {
	return os.OpenFile(filepath.Join(s.logDir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

func (s *stack) runOnce(ctx context.Context, name, path string, args []string, env map[string]string) error {
	f, err := s.logFile(name)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = environ(env), f, f
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w (see %s)", name, err, f.Name())
	}
	return nil
}

func (s *stack) start(ctx context.Context, name, path string, args []string, env map[string]string, readyURL string) error {
	f, err := s.logFile(name)
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = environ(env), f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	exited := make(chan struct{})
	s.procs[name] = &proc{cmd: cmd, exited: exited}
	s.order = append(s.order, name)
	go func() { _ = cmd.Wait(); f.Close(); close(exited) }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("%s exited early; see %s", name, f.Name())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(150 * time.Millisecond):
		}
		res, err := http.Get(readyURL)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("%s not ready after 60s; see %s", name, f.Name())
}

// Pid returns a started process's id.
func (s *stack) Pid(name string) int {
	if p := s.procs[name]; p != nil {
		return p.cmd.Process.Pid
	}
	return 0
}

// Stop stops the processes (SIGTERM, SIGKILL after 15 s) and drops the
// database and the blob directory.
func (s *stack) Stop() {
	for i := len(s.order) - 1; i >= 0; i-- {
		p := s.procs[s.order[i]]
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	if s.blobDir != "" {
		_ = os.RemoveAll(s.blobDir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := adminExec(ctx, s.adminURL, "DROP DATABASE IF EXISTS "+s.dbName+" WITH (FORCE)"); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "bench: drop database:", err)
	}
}
