//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/migrate"
	"github.com/markwell/markwell/internal/testdb"
)

// A worker is killed with SIGKILL in the middle of grading a class and
// another is started: the jobs the dead one held are rescued and run again,
// every result is graded and written exactly once.
func TestFault_WorkerKilledMidBatch(t *testing.T) {
	parallel(t)
	n := pick(300, 50)
	s := newStack(t, testdb.Isolated(t), t.TempDir())
	s.startModel("--latency", modelLatency)
	s.startAPI()
	s.signIn()
	first := s.startWorker()
	asg, ids := s.class(n)
	began := time.Now()
	s.gradeAll(asg, ids)

	at := s.waitMidBatch(asg, n/4)
	first.stop(syscall.SIGKILL, 5*time.Second)
	killedAt := time.Now()
	left := s.jobStates()["running"]
	t.Logf("killed the worker %s into the batch: %s; %d jobs left running", killedAt.Sub(began).Round(100*time.Millisecond), at, left)
	require.Positive(t, left, "the dead worker left grading jobs running")

	s.startWorker()
	done := s.settle(asg, 2*time.Minute)
	s.assertFinal(asg, n, "graded", "", 1, 1)
	retried, extra := s.retries()
	require.Positive(t, retried, "the dead worker's jobs ran again")
	figure(t, "batch", n)
	figure(t, "results written before the kill", at.graded)
	figure(t, "jobs left running by the dead worker", left)
	figure(t, "jobs retried", retried)
	figure(t, "extra attempts", extra)
	figure(t, "kill to last result", done.Sub(killedAt))
}

// PostgreSQL is restarted in the middle of a batch (a cluster of the
// test's own, never the shared server): the workers carry on, the API
// answers /readyz and an authenticated read within 5 s of the database
// coming back, and every result is graded exactly once.
func TestFault_PostgresRestartMidBatch(t *testing.T) {
	parallel(t)
	n := pick(300, 50)
	down := pick(5*time.Second, 2*time.Second)
	pg := newCluster(t)
	s := newStack(t, pg.pool, t.TempDir())
	s.startModel("--latency", modelLatency)
	s.startAPI()
	s.signIn()
	worker := s.startWorker()
	asg, ids := s.class(n)
	s.gradeAll(asg, ids)

	at := s.waitMidBatch(asg, n/4)
	stoppedAt := time.Now()
	pg.stop()
	t.Logf("stopped PostgreSQL mid-batch (%s) in %s", at, time.Since(stoppedAt).Round(100*time.Millisecond))
	status, _, err := s.teacher.try("GET", "/readyz", nil)
	require.True(t, err != nil || status == http.StatusServiceUnavailable, "readyz while the database is down: %d %v", status, err)
	time.Sleep(down)
	pg.start()
	upAt := time.Now()

	// The API: /readyz and a read that needs the session and the team.
	ready := waitStatus(t, s.teacher, "/readyz", 30*time.Second)
	read := waitStatus(t, s.teacher, "/api/v1/db/rubric/list", 30*time.Second)
	require.LessOrEqual(t, ready.Sub(upAt), 5*time.Second, "/readyz answers within 5 s of the database coming back")
	require.LessOrEqual(t, read.Sub(upAt), 5*time.Second, "an authenticated read answers within 5 s of the database coming back")

	done := s.settle(asg, 3*time.Minute)
	require.True(t, worker.running(), "the worker outlived the restart")
	s.assertFinal(asg, n, "graded", "", 1, 1)
	retried, extra := s.retries()
	figure(t, "batch", n)
	figure(t, "database down for", upAt.Sub(stoppedAt))
	figure(t, "API /readyz after the database is back", ready.Sub(upAt))
	figure(t, "authenticated read after it is back", read.Sub(upAt))
	figure(t, "jobs retried", retried)
	figure(t, "extra attempts", extra)
	figure(t, "database back to last result", done.Sub(upAt))
}

// The demo model goes away in the middle of a batch and comes back after an
// outage shorter than the retry budget (5 attempts, River's backoff of
// 1 s, 16 s, 81 s and 256 s: about 6 minutes): the failed attempts are
// retried and every result is graded, none failed.
func TestFault_ModelDownMidBatch(t *testing.T) {
	parallel(t)
	n := pick(300, 50)
	outage := pick(30*time.Second, 5*time.Second)
	s := newStack(t, testdb.Isolated(t), t.TempDir())
	s.startModel("--latency", modelLatency)
	s.startAPI()
	s.signIn()
	s.startWorker()
	asg, ids := s.class(n)
	s.gradeAll(asg, ids)

	at := s.waitMidBatch(asg, n/4)
	s.stopModel()
	downAt := time.Now()
	t.Logf("stopped the model mid-batch: %s", at)
	time.Sleep(outage)
	s.startModel("--latency", modelLatency)
	upAt := time.Now()

	done := s.settle(asg, outage+4*time.Minute)
	s.assertFinal(asg, n, "graded", "", 1, 1)
	retried, extra := s.retries()
	require.Positive(t, retried, "attempts that met the outage were retried")
	figure(t, "batch", n)
	figure(t, "model down for", upAt.Sub(downAt))
	figure(t, "jobs retried", retried)
	figure(t, "extra attempts", extra)
	figure(t, "model back to last result", done.Sub(upAt))
}

// The demo model answers nothing but malformed JSON: each result fails
// after the one retry with the teacher-facing reason, its job is cancelled
// (not retried for minutes), nothing stays in progress; once the model is
// well again, grading them again works.
func TestFault_MalformedModelOutput(t *testing.T) {
	parallel(t)
	n := pick(300, 50)
	s := newStack(t, testdb.Isolated(t), t.TempDir())
	s.startModel("--rate-malformed", "1")
	s.startAPI()
	s.signIn()
	s.startWorker()
	asg, ids := s.class(n)
	began := time.Now()
	s.gradeAll(asg, ids)

	failedAt := s.settle(asg, 2*time.Minute)
	s.assertFinal(asg, n, "failed", reasonDidNotFit, 0, 1)
	states := s.jobStates()
	require.Equal(t, map[string]int{"cancelled": n}, states, "a broken answer is final: the jobs are cancelled, not retried")
	// The teacher reads the reason through the API.
	status, out := s.teacher.do(t, "POST", "/api/v1/db/functionResult/get", map[string]any{"assignmentId": asg, "submissionId": ids[0]})
	require.Equal(t, http.StatusOK, status, "%v", out)
	fr, _ := out["data"].(map[string]any)["functionResult"].(map[string]any)
	require.Equal(t, "failed", fr["status"])
	require.Equal(t, reasonDidNotFit, fr["error"])
	figure(t, "batch", n)
	figure(t, "grade all to the last failure", failedAt.Sub(began))

	// The model is well again: "Grade all" once more grades every one.
	s.stopModel()
	s.startModel("--latency", "50ms")
	again := time.Now()
	s.gradeAll(asg, ids)
	done := s.settle(asg, 2*time.Minute)
	s.assertFinal(asg, n, "graded", "", 1, 2)
	figure(t, "regrade to last result", done.Sub(again))
}

// waitStatus polls path until it answers 200 and returns when it did.
func waitStatus(t *testing.T, c *client, path string, limit time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		status, _, err := c.try("GET", path, nil)
		if err == nil && status == http.StatusOK {
			return time.Now()
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no 200 within %s (last: %d %v)", path, limit, status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- a PostgreSQL cluster of the test's own ------------------------------------

// cluster is a throwaway PostgreSQL server, so a restart touches nobody
// else's: initdb into a temporary directory, owned by the postgres OS user
// when the tests run as root (initdb refuses root), on a free port.
type cluster struct {
	t    *testing.T
	bin  string
	data string
	log  string
	port int
	pool *pgxpool.Pool
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		t.Skip("PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql")
	}
	dir, err := os.MkdirTemp("", "markwell-faults-pg-")
	require.NoError(t, err)
	c := &cluster{t: t, bin: bin, data: filepath.Join(dir, "data"), log: filepath.Join(dir, "postgres.log"), port: freePort(t)}
	if os.Geteuid() == 0 {
		out, err := exec.Command("chown", "postgres:postgres", dir).CombinedOutput()
		require.NoError(t, err, "chown: %s", out)
	}
	t.Cleanup(func() {
		if c.pool != nil {
			c.pool.Close()
		}
		_ = c.owner(filepath.Join(bin, "pg_ctl"), "-D", c.data, "-m", "immediate", "-w", "stop")
		if t.Failed() {
			if b, err := os.ReadFile(c.log); err == nil {
				t.Logf("postgres log:\n%s", b)
			}
		}
		_ = os.RemoveAll(dir)
	})
	require.NoError(t, c.owner(filepath.Join(bin, "initdb"), "-D", c.data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"))
	conf := "listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 200\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
	f, err := os.OpenFile(filepath.Join(c.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(conf)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	c.start()

	ctx := context.Background()
	admin, err := pgxpool.New(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port))
	require.NoError(t, err)
	_, err = admin.Exec(ctx, "CREATE DATABASE markwell")
	admin.Close()
	require.NoError(t, err)
	c.pool, err = pgxpool.New(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/markwell?sslmode=disable", c.port))
	require.NoError(t, err)
	require.NoError(t, migrate.Up(ctx, c.pool, slog.New(slog.NewTextHandler(io.Discard, nil))))
	return c
}

// start starts the server and waits until it accepts connections.
func (c *cluster) start() {
	c.t.Helper()
	require.NoError(c.t, c.owner(filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-l", c.log, "-o", fmt.Sprintf("-p %d", c.port), "-w", "-t", "60", "start"))
}

// stop shuts it down as an operator's restart does (fast: sessions are
// ended, in-flight transactions rolled back).
func (c *cluster) stop() {
	c.t.Helper()
	require.NoError(c.t, c.owner(filepath.Join(c.bin, "pg_ctl"), "-D", c.data, "-m", "fast", "-w", "stop"))
}

// owner runs a PostgreSQL program as the data directory's owner.
func (c *cluster) owner(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", name}, args...)...)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return nil
}

// pgBinDir finds initdb and pg_ctl as scripts/pg.sh does.
func pgBinDir() string {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		d := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for i := len(matches) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(matches[i], "initdb")); err == nil {
			return matches[i]
		}
	}
	return ""
}
