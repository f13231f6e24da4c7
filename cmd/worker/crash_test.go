package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Crash settings: a job is rescued 3 s after it was left running, and the
// whole class must be ready well within River's leader TTL (15 s, after
// which the new worker leads and rescues) plus a few rescue intervals.
const (
	crashJobTimeout  = 2 * time.Second
	crashRescueAfter = 3 * time.Second
	crashDeadline    = 45 * time.Second
	crashClassSize   = 50
)

// process is a running worker binary and its output.
type process struct {
	cmd *exec.Cmd
	out *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The real worker binary is killed with SIGKILL while it is extracting a
// class of 50 submissions; a new one started afterwards rescues the jobs
// the dead one left running. Every submission ends ready, and each
// extraction was written exactly once.
func TestWorker_KilledMidExtractionLosesNothingAndWritesOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the worker, kills it and waits for River to rescue its jobs")
	}
	t.Parallel()
	ctx := context.Background()
	pool := testdb.Isolated(t)
	blobDir := t.TempDir()
	began := time.Now()
	bin := buildWorker(t)
	t.Logf("worker built in %s", time.Since(began).Round(100*time.Millisecond))
	ids := addClass(t, pool, blobDir)

	env := workerEnv(pool.Config().ConnString(), blobDir)
	first := startWorker(t, bin, env)
	startedAt := time.Now()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("first worker's log:\n%s", first.out.String())
		}
	})

	// Kill it once it has finished some files and is reading others.
	deadline := time.Now().Add(60 * time.Second)
	for {
		// A submission can be "extracting" with no job running (its pages
		// handed to the OCR job, not yet fetched): wait for a running job too.
		counts := statusCounts(t, pool)
		if counts["ready"] >= 1 && counts["extracting"] >= 1 && jobStates(t, pool)["running"] >= 1 {
			break
		}
		if time.Now().After(deadline) || counts["ready"] == crashClassSize {
			t.Fatalf("never caught the worker mid-class: %v", counts)
		}
		time.Sleep(2 * time.Millisecond)
	}
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGKILL))
	_ = first.cmd.Wait()
	killedAt := time.Now()
	t.Logf("killed %s after it started", killedAt.Sub(startedAt).Round(100*time.Millisecond))

	counts := statusCounts(t, pool)
	t.Logf("killed with %v; jobs: %v", counts, jobStates(t, pool))
	require.Less(t, counts["ready"], crashClassSize, "the class was not finished when the worker died")
	require.Positive(t, jobStates(t, pool)["running"], "the dead worker left jobs running")

	second := startWorker(t, bin, env)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("second worker's log:\n%s", second.out.String())
		}
		_ = second.cmd.Process.Signal(syscall.SIGTERM)
		_ = second.cmd.Wait()
	})
	// Done when every file is read and the dead worker's jobs have been
	// rescued and run again: a job that had written its text before the kill
	// still shows "running" until the rescuer picks it up.
	for {
		counts = statusCounts(t, pool)
		states := jobStates(t, pool)
		if counts["ready"] == crashClassSize && states["running"] == 0 && states["available"] == 0 && states["retryable"] == 0 {
			break
		}
		if time.Since(killedAt) > crashDeadline {
			t.Fatalf("%s after the kill: %v; jobs: %v", crashDeadline, counts, jobStates(t, pool))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("all %d ready %s after the kill", crashClassSize, time.Since(killedAt).Round(100*time.Millisecond))

	rows, err := pool.Query(ctx, `SELECT id, extract_writes, coalesce(extracted_text, ''), extract_error FROM submissions`)
	require.NoError(t, err)
	seen := 0
	for rows.Next() {
		var id uuid.UUID
		var writes int
		var text, problem string
		require.NoError(t, rows.Scan(&id, &writes, &text, &problem))
		require.Equal(t, 1, writes, "submission %s written exactly once", id)
		require.NotEmpty(t, text, "submission %s has its text", id)
		require.Empty(t, problem, "submission %s", id)
		if want, ok := ids[id]; ok {
			require.Equal(t, want, text, "a text file's submission holds its own text")
		}
		seen++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, crashClassSize, seen)
	var rescued int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind IN ('extract_text', 'ocr_pages') AND attempt > 1`).Scan(&rescued))
	require.Positive(t, rescued, "jobs of the dead worker ran again")
	t.Logf("%d jobs ran again after the crash", rescued)
}

// buildWorker builds this command into a temporary directory, or answers
// WORKER_BIN when it is set: scripts/test.sh builds .data/bin/worker from the
// same tree before the Go tests, and linking a second copy here took 68 s of
// this test's 97 s on the loaded 2-core machine.
func buildWorker(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("WORKER_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		require.NoError(t, err)
		_, err = os.Stat(abs)
		require.NoError(t, err, "WORKER_BIN")
		return abs
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "worker")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// addClass stores 50 small files (text, Word, PDF) and writes their rows
// and extraction jobs in one transaction. It returns the text files' texts
// by submission id.
func addClass(t *testing.T, pool *pgxpool.Pool, blobDir string) map[uuid.UUID]string {
	t.Helper()
	ctx := context.Background()
	blobs, err := blob.NewLocal(blob.Config{Dir: blobDir, PublicURL: "http://localhost:8080", Secret: []byte(secret)})
	require.NoError(t, err)
	fixture := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "extract", "testdata", name))
		require.NoError(t, err)
		return data
	}
	docx, pdf := fixture("report.docx"), fixture("text-3pages.pdf")

	var teamID, asgID uuid.UUID
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO teams (name) VALUES ('Crash') RETURNING id`).Scan(&teamID))
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO assignments (team_id, name, type) VALUES ($1, 'Essay', 'feedback') RETURNING id`,
		teamID).Scan(&asgID))
	insert, err := queue.NewInsertClient(pool, nil)
	require.NoError(t, err)

	texts := map[uuid.UUID]string{}
	require.NoError(t, store.InTx(ctx, pool, func(tx pgx.Tx) error {
		for i := range crashClassSize {
			name, ctype, data := fmt.Sprintf("essay-%02d.txt", i), "text/plain", []byte(nil)
			switch i % 3 {
			case 0:
				data = []byte(fmt.Sprintf("Essay %d. Rivers carry water from the hills to the sea.", i))
			case 1:
				name, ctype, data = fmt.Sprintf("report-%02d.docx", i), "application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx
			case 2:
				name, ctype, data = fmt.Sprintf("essay-%02d.pdf", i), "application/pdf", pdf
			}
			key := "assignments/" + asgID.String() + "/submissions/" + name
			if err := blobs.Put(ctx, key, bytes.NewReader(data), int64(len(data)), ctype); err != nil {
				return err
			}
			var id uuid.UUID
			if err := tx.QueryRow(ctx, `INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type)
				VALUES ($1, $2, $3, $4, $5) RETURNING id`, teamID, asgID, name, key, ctype).Scan(&id); err != nil {
				return err
			}
			if _, err := insert.InsertTx(ctx, tx, queue.ExtractTextArgs{SubmissionID: id}, nil); err != nil {
				return err
			}
			if i%3 == 0 {
				texts[id] = string(data)
			}
		}
		return nil
	}))
	return texts
}

const secret = "crash-test-secret-0123456789abcdef"

// workerEnv is the worker's configuration: this test's database and blob
// directory, short job timeout and rescue, the extract and ocr queues.
func workerEnv(dbURL, blobDir string) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		// Nothing of the caller's Markwell configuration leaks in.
		if k, _, _ := strings.Cut(kv, "="); k == "PATH" || k == "HOME" || k == "TMPDIR" || k == "LANG" {
			env = append(env, kv)
		}
	}
	return append(env,
		"APP_ENV=development",
		"DATABASE_URL="+dbURL,
		"SECRET_KEY="+secret,
		"BLOB_DIR="+blobDir,
		"MIGRATE_ON_START=false",
		"WORKER_QUEUES=extract=2,ocr=1",
		"JOB_TIMEOUT="+crashJobTimeout.String(),
		"JOB_RESCUE_AFTER="+crashRescueAfter.String(),
		"LLM_BASE_URL=http://127.0.0.1:9/v1", // nothing listens: no model is needed
		"LOG_LEVEL=warn",
	)
}

func startWorker(t *testing.T, bin string, env []string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, "--addr="), out: &syncBuffer{}}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(t, p.cmd.Start())
	return p
}

// statusCounts counts submissions by extraction status.
func statusCounts(t *testing.T, pool *pgxpool.Pool) map[string]int {
	t.Helper()
	return countBy(t, pool, `SELECT extract_status, count(*) FROM submissions GROUP BY 1`)
}

// jobStates counts extraction jobs by state.
func jobStates(t *testing.T, pool *pgxpool.Pool) map[string]int {
	t.Helper()
	return countBy(t, pool, `SELECT state::text, count(*) FROM river_job WHERE kind = 'extract_text' GROUP BY 1`)
}

func countBy(t *testing.T, pool *pgxpool.Pool, query string) map[string]int {
	t.Helper()
	rows, err := pool.Query(context.Background(), query)
	require.NoError(t, err)
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		require.NoError(t, rows.Scan(&k, &n))
		out[k] = n
	}
	require.NoError(t, rows.Err())
	return out
}
