//go:build faults

package faults_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
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

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) {
	code := testdb.Main(m)
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// full selects the full form (FAULTS=full: make test-faults); the short
// form (make test) runs smaller batches and shorter outages, all at once.
var full = os.Getenv("FAULTS") == "full"

// pick is the full form's value or the short form's.
func pick[T any](fullValue, shortValue T) T {
	if full {
		return fullValue
	}
	return shortValue
}

// parallel runs the short form's faults side by side (they mostly wait);
// the full form runs them one at a time, so its figures are its own.
func parallel(t *testing.T) {
	if !full {
		t.Parallel()
	}
}

// The workers' job settings. A grading attempt may take gradeTimeout; River
// rescues a job left running by a dead worker once it has run for longer
// than that and rescueAfter (production: 10 min and 7 min).
const (
	secret       = "faults-test-secret-0123456789abcdef"
	gradeTimeout = 5 * time.Second
	jobTimeout   = 4 * time.Second
	rescueAfter  = 6 * time.Second
	queues       = "ai=32,default=2,extract=2"
	// modelLatency is the demo model's answer time: long enough that a
	// batch is still running when the fault strikes.
	modelLatency = "500ms"
)

// Teacher-facing reasons the suite expects (internal/grading Reason).
const reasonDidNotFit = "The AI's answer did not fit this assignment twice. Please grade it again."

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds cmd/api, cmd/worker and cmd/fakellm once per run and
// returns their directory; FAULTS_BIN names a directory that holds them
// already (scripts/test.sh has just built them into .data/bin).
func binaries(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("FAULTS_BIN"); dir != "" {
		abs, err := filepath.Abs(dir)
		require.NoError(t, err)
		return abs
	}
	buildOnce.Do(func() {
		began := time.Now()
		binDir, buildErr = os.MkdirTemp("", "markwell-faults-bin-")
		if buildErr != nil {
			return
		}
		goBin, err := exec.LookPath("go")
		if err != nil {
			goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		cmd := exec.Command(goBin, "build", "-o", binDir+string(os.PathSeparator), "./cmd/api", "./cmd/worker", "./cmd/fakellm")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
		fmt.Printf("faults: binaries built in %s\n", time.Since(began).Round(100*time.Millisecond))
	})
	require.NoError(t, buildErr)
	return binDir
}

// ---- processes -------------------------------------------------------------

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

// proc is a running binary and its output.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// startProc starts bin; the test's end stops it (SIGTERM, then SIGKILL)
// and shows the end of its output when the test failed.
func startProc(t *testing.T, name, bin string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), out: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(t, p.cmd.Start(), "start %s", name)
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.stop(syscall.SIGTERM, 15*time.Second)
		if t.Failed() {
			out := p.out.String()
			if len(out) > 6000 {
				out = "…" + out[len(out)-6000:]
			}
			t.Logf("%s's output:\n%s", name, out)
		}
	})
	return p
}

// stop signals the process and waits for it, killing it after wait.
func (p *proc) stop(sig syscall.Signal, wait time.Duration) {
	if !p.running() {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(wait):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// baseEnv is the part of the caller's environment a binary may see:
// nothing of its Markwell configuration leaks in.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "PATH" || k == "HOME" || k == "TMPDIR" || k == "LANG" {
			env = append(env, kv)
		}
	}
	return env
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitHTTP waits until GET u answers 200.
func waitHTTP(t *testing.T, u string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		res, err := http.Get(u)
		if err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within %s (last error: %v)", u, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- the stack ---------------------------------------------------------------

// stack is one fault's Markwell: the API, workers and the demo model as
// real processes on free ports, over one database, and a signed-in teacher.
type stack struct {
	t         *testing.T
	bins      string
	dbURL     string
	pool      *pgxpool.Pool // the test's own, for setup and checks
	blobDir   string
	modelPort int
	model     *proc
	apiURL    string
	api       *proc
	workers   []*proc
	teacher   *client
	actor     identity.Actor
}

func newStack(t *testing.T, pool *pgxpool.Pool, blobDir string) *stack {
	t.Helper()
	return &stack{t: t, bins: binaries(t), dbURL: pool.Config().ConnString(), pool: pool, blobDir: blobDir, modelPort: freePort(t)}
}

// env is what the API and the workers share.
func (s *stack) env() []string {
	return append(baseEnv(),
		"APP_ENV=development",
		"DATABASE_URL="+s.dbURL,
		"SECRET_KEY="+secret,
		"BLOB_DIR="+s.blobDir,
		"MIGRATE_ON_START=false",
		fmt.Sprintf("LLM_BASE_URL=http://127.0.0.1:%d/v1", s.modelPort),
		"LLM_TIMEOUT=30s",
		"LOG_LEVEL=warn",
	)
}

// startModel starts the demo model on the stack's model port.
func (s *stack) startModel(args ...string) {
	s.t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", s.modelPort)
	s.model = startProc(s.t, "fakellm", filepath.Join(s.bins, "fakellm"), baseEnv(), append([]string{"--addr", addr}, args...)...)
	waitHTTP(s.t, "http://"+addr+"/healthz", 15*time.Second)
}

// stopModel kills the demo model outright: calls in flight get a reset
// connection, new ones a refused one, as when a provider goes away.
func (s *stack) stopModel() { s.model.stop(syscall.SIGKILL, 5*time.Second) }

// startAPI starts the API and waits for /healthz.
func (s *stack) startAPI() {
	s.t.Helper()
	port, metrics := freePort(s.t), freePort(s.t)
	s.apiURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(s.env(),
		fmt.Sprintf("HTTP_ADDR=127.0.0.1:%d", port),
		"PUBLIC_URL="+s.apiURL,
		fmt.Sprintf("METRICS_ADDR=127.0.0.1:%d", metrics),
		"STATIC_DIR="+s.t.TempDir(),
	)
	s.api = startProc(s.t, "api", filepath.Join(s.bins, "api"), env)
	waitHTTP(s.t, s.apiURL+"/healthz", 30*time.Second)
}

// startWorker starts one more worker process on every queue.
func (s *stack) startWorker() *proc {
	s.t.Helper()
	env := append(s.env(),
		"WORKER_QUEUES="+queues,
		"JOB_TIMEOUT="+jobTimeout.String(),
		"JOB_RESCUE_AFTER="+rescueAfter.String(),
		"GRADE_JOB_TIMEOUT="+gradeTimeout.String(),
		"SHUTDOWN_TIMEOUT=5s",
	)
	p := startProc(s.t, fmt.Sprintf("worker %d", len(s.workers)+1), filepath.Join(s.bins, "worker"), env, "--addr=")
	s.workers = append(s.workers, p)
	return p
}

// signIn makes a team and a teacher with a live session, and a client that
// holds its cookie and CSRF token, as the browser does after signing in.
func (s *stack) signIn() {
	t := s.t
	t.Helper()
	ctx := context.Background()
	email := "teacher-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, s.pool, "Faults "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, s.pool, store.CreateUserParams{Email: email, Name: "Teacher", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	s.actor = identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "Teacher", Email: email}

	raw := make([]byte, 32)
	_, _ = rand.Read(raw)
	token := base64.RawURLEncoding.EncodeToString(raw)
	hash := sha256.Sum256([]byte(token))
	require.NoError(t, store.Q.CreateSession(ctx, s.pool, store.CreateSessionParams{TokenHash: hash[:], UserID: u.ID, ExpiresAt: time.Now().Add(24 * time.Hour)}))

	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	base, err := url.Parse(s.apiURL)
	require.NoError(t, err)
	jar.SetCookies(base, []*http.Cookie{{Name: httpapi.SessionCookie, Value: token, Path: "/"}})
	s.teacher = &client{base: s.apiURL, http: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	status, out := s.teacher.do(t, "GET", "/api/auth/csrf", nil)
	require.Equal(t, http.StatusOK, status, "csrf: %v", out)
	s.teacher.csrf, _ = out["csrfToken"].(string)
	require.NotEmpty(t, s.teacher.csrf)
}

// client calls the API as the signed-in browser does.
type client struct {
	base string
	http *http.Client
	csrf string
}

// do sends a JSON request and decodes a JSON answer; a transport error
// fails the test.
func (c *client) do(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	status, out, err := c.try(method, path, body)
	require.NoError(t, err, "%s %s", method, path)
	return status, out
}

// try is do that returns a transport error instead of failing.
func (c *client) try(method, path string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.csrf != "" {
		req.Header.Set(httpapi.CSRFHeader, c.csrf)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out := map[string]any{}
	b, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(b, &out)
	return res.StatusCode, out, nil
}

// class creates a grade assignment of two questions and n submissions with
// their text, as a CSV import writes them.
func (s *stack) class(n int) (uuid.UUID, []uuid.UUID) {
	t := s.t
	t.Helper()
	ctx := context.Background()
	asgs := &assignment.Service{Pool: s.pool}
	insert, err := queue.NewInsertClient(s.pool, nil)
	require.NoError(t, err)
	subs := &submission.Service{Pool: s.pool, Jobs: insert}
	asg, err := asgs.Create(ctx, s.actor, assignment.Input{Name: "Science homework", Type: assignment.TypeGrade})
	require.NoError(t, err)
	_, err = asgs.PutFunction(ctx, s.actor, asg.ID, assignment.FunctionInput{Questions: []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}},
		{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 2},
		}},
	}})
	require.NoError(t, err)
	row, err := store.Q.GetAssignment(ctx, s.pool, store.GetAssignmentParams{ID: asg.ID, TeamID: s.actor.TeamID})
	require.NoError(t, err)
	news := make([]submission.NewSubmission, n)
	for i := range news {
		news[i] = submission.NewSubmission{Name: fmt.Sprintf("Student %d", i+1), Source: submission.SourceCSV, Text: fmt.Sprintf(
			"Answer %d. Chlorophyll is the green pigment that traps light, and the plant makes glucose sugar. "+
				"The sun drives evaporation from oceans; high up, condensation forms clouds, and rain falls again.", i+1)}
	}
	ids := make([]uuid.UUID, 0, n)
	require.NoError(t, store.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		created, _, err := subs.CreateTx(ctx, tx, s.actor.TeamID, row, news)
		for _, c := range created {
			ids = append(ids, c.ID)
		}
		return err
	}))
	require.Len(t, ids, n)
	return asg.ID, ids
}

// gradeAll presses "Grade all" through the API.
func (s *stack) gradeAll(asgID uuid.UUID, ids []uuid.UUID) {
	s.t.Helper()
	status, out := s.teacher.do(s.t, "POST", "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asgID, "submissionIds": ids})
	require.Equal(s.t, http.StatusOK, status, "grade all: %v", out)
}

// ---- where things stand --------------------------------------------------------

// progress is where an assignment's results stand.
type progress struct{ graded, failed, busy int }

func (p progress) String() string {
	return fmt.Sprintf("%d graded, %d failed, %d in progress", p.graded, p.failed, p.busy)
}

// progress reads it; ok is false while the database cannot answer.
func (s *stack) progress(asgID uuid.UUID) (progress, bool) {
	var p progress
	err := s.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE status = 'graded'), count(*) FILTER (WHERE status = 'failed'),
		count(*) FILTER (WHERE status IN ('grading', 'rubric-grading', 'annotating')) FROM function_results WHERE assignment_id = $1`,
		asgID).Scan(&p.graded, &p.failed, &p.busy)
	return p, err == nil
}

// jobStates counts the grading jobs by River state.
func (s *stack) jobStates() map[string]int {
	out := map[string]int{}
	rows, err := s.pool.Query(context.Background(), `SELECT state::text, count(*) FROM river_job WHERE kind = 'grade_submission' GROUP BY 1`)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if rows.Scan(&k, &n) == nil {
			out[k] = n
		}
	}
	return out
}

// finalJobStates are River's states of a job that will not run again.
var finalJobStates = map[string]bool{"completed": true, "cancelled": true, "discarded": true}

// busyJobs counts grading jobs not yet in a final state.
func busyJobs(states map[string]int) int {
	n := 0
	for k, v := range states {
		if !finalJobStates[k] {
			n += v
		}
	}
	return n
}

// waitMidBatch waits until the batch is under way: some results written,
// at least `busy` still in progress and a job running.
func (s *stack) waitMidBatch(asgID uuid.UUID, busy int) progress {
	s.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		p, ok := s.progress(asgID)
		if ok && p.graded >= 1 && p.busy >= busy && s.jobStates()["running"] >= 1 {
			return p
		}
		if ok && p.busy < busy {
			s.t.Fatalf("the batch ended before the fault could strike: %s", p)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the batch never got under way: %s; jobs %v", p, s.jobStates())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settle waits until no result is in progress and every grading job is in
// a final state, and returns when that was first seen.
func (s *stack) settle(asgID uuid.UUID, limit time.Duration) time.Time {
	s.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		p, ok := s.progress(asgID)
		states := s.jobStates()
		if ok && p.busy == 0 && len(states) > 0 && busyJobs(states) == 0 {
			return time.Now()
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("not settled %s after the fault: %s; jobs %v", limit, p, states)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// assertFinal checks the end of every fault: each of the n submissions has
// its text and a result in the wanted final state (with the wanted reason),
// each result was written `writes` times, and each submission has exactly
// `runs` grading jobs (none lost, none duplicated), all in a final state.
func (s *stack) assertFinal(asgID uuid.UUID, n int, status, reason string, writes, runs int) {
	t := s.t
	t.Helper()
	ctx := context.Background()
	rows, err := s.pool.Query(ctx, `SELECT s.id, s.extract_status, fr.status, fr.error, fr.result_writes,
		(SELECT count(*) FROM river_job j WHERE j.kind = 'grade_submission' AND j.args ->> 'submission_id' = s.id::text),
		(SELECT count(*) FROM river_job j WHERE j.kind = 'grade_submission' AND j.args ->> 'submission_id' = s.id::text
			AND j.state NOT IN ('completed', 'cancelled', 'discarded'))
		FROM submissions s JOIN function_results fr ON fr.submission_id = s.id WHERE s.assignment_id = $1`, asgID)
	require.NoError(t, err)
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id uuid.UUID
		var extract, got, problem string
		var w, jobCount, open int
		require.NoError(t, rows.Scan(&id, &extract, &got, &problem, &w, &jobCount, &open))
		require.Equal(t, "ready", extract, "submission %s has its text", id)
		require.Equal(t, status, got, "submission %s's result", id)
		require.Equal(t, reason, problem, "submission %s's reason", id)
		require.Equal(t, writes, w, "submission %s's result written %d times", id, writes)
		require.Equal(t, runs, jobCount, "submission %s has %d grading jobs (none lost, none doubled)", id, runs)
		require.Zero(t, open, "submission %s has a grading job that is not finished", id)
		seen++
	}
	require.NoError(t, rows.Err())
	require.Equal(t, n, seen, "every submission has a result")
}

// retries counts the grading jobs that ran more than once, and the
// attempts beyond the first of them all.
func (s *stack) retries() (jobsRetried, extraAttempts int) {
	s.t.Helper()
	require.NoError(s.t, s.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE attempt > 1),
		COALESCE(sum(attempt - 1), 0) FROM river_job WHERE kind = 'grade_submission'`).Scan(&jobsRetried, &extraAttempts))
	return jobsRetried, extraAttempts
}

// figure prints one of the fault's figures (go test -v shows them).
func figure(t *testing.T, name string, value any) {
	t.Helper()
	if d, ok := value.(time.Duration); ok {
		value = d.Round(100 * time.Millisecond)
	}
	t.Logf("FIGURE %-40s %v", name, value)
}
