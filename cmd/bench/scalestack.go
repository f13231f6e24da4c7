package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"time"
)

// scaleStack is the multi-process layout on free loopback ports: the
// processes of a stack (stack.go starts and stops them) and where they
// listen.
type scaleStack struct {
	*stack
	apiA, apiB string // host:port of the replicas
	pooler     string // PgBouncer's host:port
	nginxDir   string
}

// The workers' job settings: a killed worker's grading jobs are rescued
// once they have run longer than the grading timeout and the rescue delay
// (production: 10 and 7 minutes; docs/faults.md), so the run stays short.
const (
	scaleGradeTimeout = 20 * time.Second
	scaleJobTimeout   = 15 * time.Second
	scaleRescueAfter  = 16 * time.Second
)

// startScaleStack creates a database, migrates it directly (migrations
// hold a session advisory lock: not through a transaction pool), and
// starts the demo model, PgBouncer, the two API replicas, the three
// workers and nginx, each waited for.
func startScaleStack(ctx context.Context, root, admin, dir string, s settings) (*scaleStack, error) {
	st := &scaleStack{stack: &stack{adminURL: admin, logDir: dir, procs: map[string]*proc{}, dbName: "markwell_scale_" + randomHex(5)}}
	st.nginxDir = filepath.Join(dir, "nginx")
	for _, d := range []string{dir, st.nginxDir, filepath.Join(st.nginxDir, "tmp"), filepath.Join(dir, "blobs"), filepath.Join(dir, "static")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// nginx's workers (nobody, as root) write request bodies here.
	_ = os.Chmod(filepath.Join(st.nginxDir, "tmp"), 0o1777)
	st.blobDir = filepath.Join(dir, "blobs")
	if err := adminExec(ctx, admin, "CREATE DATABASE "+st.dbName); err != nil {
		return nil, fmt.Errorf("create database: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			st.Stop()
		}
	}()
	var err error
	if st.dbURL, err = withDB(admin, st.dbName, ""); err != nil {
		return nil, err
	}
	ports := make([]int, 10)
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return nil, err
		}
	}
	proxyPort, poolPort, apiA, apiB, llm := ports[0], ports[1], ports[2], ports[3], ports[4]
	metricsA, metricsB, w1, w2, w3 := ports[5], ports[6], ports[7], ports[8], ports[9]
	st.BaseURL = fmt.Sprintf("http://127.0.0.1:%d", proxyPort)
	st.apiA, st.apiB = fmt.Sprintf("127.0.0.1:%d", apiA), fmt.Sprintf("127.0.0.1:%d", apiB)
	st.pooler = fmt.Sprintf("127.0.0.1:%d", poolPort)

	env := map[string]string{
		"APP_ENV":          "development",
		"SECRET_KEY":       randomHex(32), // one key for every process
		"PUBLIC_URL":       st.BaseURL,    // signed URLs and cookies name the proxy
		"STATIC_DIR":       filepath.Join(dir, "static"),
		"BLOB_DIR":         st.blobDir, // one file store for every process
		"LLM_BASE_URL":     fmt.Sprintf("http://127.0.0.1:%d/v1", llm),
		"LLM_RPM":          strconv.Itoa(s.mondayRPM),
		"LLM_TIMEOUT":      "10s",
		"DEMO_MODEL":       "true",
		"DEV_SIGNIN":       "true",
		"MIGRATE_ON_START": "false",
		"JOBS_POLL_ONLY":   "true",
		"TRUSTED_PROXIES":  "127.0.0.1",
		"LOG_LEVEL":        "info",
		// Every teacher comes from 127.0.0.1: the per-address limits would
		// throttle the scenario, not a school.
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
		"JOB_TIMEOUT":                  scaleJobTimeout.String(),
		"JOB_RESCUE_AFTER":             scaleRescueAfter.String(),
		"GRADE_JOB_TIMEOUT":            scaleGradeTimeout.String(),
		"SHUTDOWN_TIMEOUT":             "5s",
	}
	with := func(extra map[string]string) map[string]string {
		m := make(map[string]string, len(env)+len(extra))
		for k, v := range env {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	bin := func(name string) string { return filepath.Join(root, ".data", "bin", name) }

	if err := st.runOnce(ctx, "migrate", bin("api"), []string{"migrate"}, with(map[string]string{"DATABASE_URL": st.dbURL})); err != nil {
		return nil, err
	}
	if err := st.start(ctx, "fakellm", bin("fakellm"), []string{"--addr", fmt.Sprintf("127.0.0.1:%d", llm), "--latency", s.mondayLat.String()}, env,
		fmt.Sprintf("http://127.0.0.1:%d/healthz", llm)); err != nil {
		return nil, err
	}

	ini, users, err := renderPgBouncer(poolerConfig{Listen: st.pooler, Server: st.dbURL, Dir: dir, PoolSize: 20})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "pgbouncer.ini"), []byte(ini), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "userlist.txt"), []byte(users), 0o644); err != nil {
		return nil, err
	}
	args := []string{filepath.Join(dir, "pgbouncer.ini")}
	if os.Geteuid() == 0 {
		// PgBouncer refuses to run as root.
		if _, err := user.Lookup("postgres"); err != nil {
			return nil, fmt.Errorf("pgbouncer needs a user other than root: %w", err)
		}
		args = append([]string{"-u", "postgres"}, args...)
	}
	if err := st.startTCP(ctx, "pgbouncer", "pgbouncer", args, env, st.pooler); err != nil {
		return nil, err
	}

	db := func(app string) string {
		u, _ := viaPgBouncer(st.dbURL, st.pooler, app)
		return u
	}
	for _, a := range []struct {
		name         string
		port, metric int
	}{{"api-a", apiA, metricsA}, {"api-b", apiB, metricsB}} {
		addr := fmt.Sprintf("127.0.0.1:%d", a.port)
		if err := st.start(ctx, a.name, bin("api"), nil, with(map[string]string{
			"DATABASE_URL": db("markwell-" + a.name),
			// LISTEN does not work through the transaction pool
			"CHANGES_LISTEN_URL": st.dbURL,
			"HTTP_ADDR":          addr,
			"METRICS_ADDR":       fmt.Sprintf("127.0.0.1:%d", a.metric),
		}), "http://"+addr+"/readyz"); err != nil {
			return nil, err
		}
	}
	for _, w := range []struct {
		name, queues string
		port         int
	}{{"worker-ai-1", "ai=8,default=5", w1}, {"worker-ai-2", "ai=8,default=5", w2}, {"worker-ocr", "extract=2,ocr=2", w3}} {
		addr := fmt.Sprintf("127.0.0.1:%d", w.port)
		if err := st.start(ctx, w.name, bin("worker"), nil, with(map[string]string{
			"DATABASE_URL":  db("markwell-" + w.name),
			"WORKER_QUEUES": w.queues,
			"WORKER_ADDR":   addr,
		}), "http://"+addr+"/healthz"); err != nil {
			return nil, err
		}
	}

	conf, err := renderNginx(proxyConfig{Listen: fmt.Sprintf("127.0.0.1:%d", proxyPort), Upstreams: []string{st.apiA, st.apiB}, Dir: st.nginxDir})
	if err != nil {
		return nil, err
	}
	confPath := filepath.Join(st.nginxDir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	nginxArgs := []string{"-p", st.nginxDir, "-c", confPath, "-e", filepath.Join(st.nginxDir, "error.log")}
	if out, err := exec.CommandContext(ctx, "nginx", append(nginxArgs, "-t", "-q")...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nginx -t: %v: %s", err, out)
	}
	if err := st.start(ctx, "nginx", "nginx", nginxArgs, env, st.BaseURL+"/readyz"); err != nil {
		return nil, err
	}
	ok = true
	return st, nil
}

// startTCP starts a process that is ready once addr accepts connections.
func (s *stack) startTCP(ctx context.Context, name, path string, args []string, env map[string]string, addr string) error {
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
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("%s exited early; see %s", name, f.Name())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if portOpen(addr) {
			return nil
		}
	}
	return fmt.Errorf("%s not listening on %s after 30s; see %s", name, addr, f.Name())
}

// portOpen reports whether something accepts connections at addr.
func portOpen(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
