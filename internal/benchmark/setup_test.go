package benchmark_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// The class and the queue of every grading benchmark.
const (
	classSize = 300
	aiSlots   = 32
)

// River's fetch settings for the ai queue, and why. River's defaults
// (FetchCooldown 100 ms, FetchPollInterval 1 s) cost a grade-all part of
// the model's latency per wave: when a wave of calls returns, the first
// completion fetches at once and the rest wait out the cooldown; and a
// snoozed job (a 429) becomes available with nothing to wake the producer
// until the next poll. They also cap River's own no-op rate at 32 jobs per
// cooldown (320/s), which would flatter the L=0 ratio. A 5 ms cooldown lets
// one fetch gather a wave; a 50 ms poll costs one indexed query per 50 ms
// and bounds how late a snoozed job starts.
var (
	fetchCooldown = flag.Duration("fetch-cooldown", 5*time.Millisecond, "River's FetchCooldown for the ai queue (River's default: 100ms)")
	fetchPoll     = flag.Duration("fetch-poll", 100*time.Millisecond, "River's FetchPollInterval for the ai queue (River's default: 1s)")
	dbConns       = flag.Int("db-conns", 0, "the worker's database pool size (0: pgxpool's default, as cmd/worker)")
)

// env is one benchmark's world: a teacher, the services the API uses, the
// demo model over HTTP through the OpenAI client, and a worker running the
// ai queue 32 wide.
type env struct {
	ctx context.Context
	// pool is the API's (the services, the benchmark's own queries);
	// the worker has a pool of its own, as in production.
	pool    *pgxpool.Pool
	actor   identity.Actor
	asgs    *assignment.Service
	subs    *submission.Service
	results *result.Service
	insert  *queue.Client
	demo    *fakellm.Server
	times   *timeline
	// conns counts the TCP connections the model client opened.
	conns atomic.Int64
	runs  int
}

// newEnv builds an env over the package's database with the demo model
// configured by opts, and starts its worker until the benchmark ends.
func newEnv(b *testing.B, opts fakellm.Options) *env {
	b.Helper()
	e := &env{ctx: context.Background()}
	e.pool = newPool(b, 0)
	workerPool := newPool(b, *dbConns)

	e.demo = fakellm.New(opts)
	fakellm.TeachAll(e.demo)
	ts := httptest.NewUnstartedServer(e.demo)
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			e.conns.Add(1)
		}
	}
	ts.Start()
	b.Cleanup(ts.Close)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel, Timeout: time.Minute})
	must(b, err)

	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	e.insert, err = queue.NewInsertClient(e.pool, log)
	must(b, err)
	e.asgs = &assignment.Service{Pool: e.pool}
	e.subs = &submission.Service{Pool: e.pool, Jobs: e.insert}
	e.results = &result.Service{Pool: e.pool, Assignments: e.asgs, Model: model, Jobs: e.insert}
	e.actor = e.teacher(b)

	e.times = &timeline{}
	workers := jobs.NewWorkers(jobs.Deps{Pool: workerPool, LLM: timedModel{model}, Log: log})
	river.AddWorker(workers, &noopWorker{})
	wcfg := workerConfig(workers, log)
	wcfg.Middleware = []rivertype.Middleware{e.times}
	worker, err := river.NewClient(riverpgxv5.New(workerPool), wcfg)
	must(b, err)
	must(b, worker.Start(e.ctx))
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := worker.Stop(ctx); err != nil {
			b.Logf("stop worker: %v", err)
		}
	})
	return e
}

// newPool opens a pool to the package's database, of size conns (0:
// pgxpool's default, max(4, cores)), closed when the benchmark ends.
func newPool(b *testing.B, conns int) *pgxpool.Pool {
	b.Helper()
	cfg, err := pgxpool.ParseConfig(testdb.URL())
	must(b, err)
	if conns > 0 {
		cfg.MaxConns = int32(conns)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	must(b, err)
	b.Cleanup(pool.Close)
	return pool
}

// workerConfig is jobs.NewWorkerClient's configuration for the ai queue,
// without the periodic sweeper, with the fetch settings above (defaults:
// the ai queue's own in jobs.NewWorkerClient) so other values can be
// compared.
func workerConfig(workers *river.Workers, log *slog.Logger) *river.Config {
	cfg := &river.Config{
		Queues:               map[string]river.QueueConfig{queue.QueueAI: {MaxWorkers: aiSlots}},
		Workers:              workers,
		JobTimeout:           5 * time.Minute,
		RescueStuckJobsAfter: 10 * time.Minute,
		MaxAttempts:          10,
		Logger:               log,
	}
	cfg.FetchCooldown, cfg.FetchPollInterval = *fetchCooldown, *fetchPoll
	return cfg
}

// noopArgs is River's own cost: a job that does nothing, on the ai queue.
type noopArgs struct{}

func (noopArgs) Kind() string { return "bench_noop" }

func (noopArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: queue.QueueAI} }

type noopWorker struct{ river.WorkerDefaults[noopArgs] }

func (*noopWorker) Work(context.Context, *river.Job[noopArgs]) error { return nil }

func (e *env) teacher(b *testing.B) identity.Actor {
	b.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(e.ctx, e.pool, "Team "+email)
	must(b, err)
	u, err := store.Q.CreateUser(e.ctx, e.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	must(b, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

// class creates a fresh grade assignment (2 questions of 2 criteria) and
// classSize submissions with their text extracted, in one batch as a CSV
// import writes them.
func (e *env) class(b *testing.B) (uuid.UUID, []uuid.UUID) {
	b.Helper()
	e.runs++
	asg, err := e.asgs.Create(e.ctx, e.actor, assignment.Input{Name: fmt.Sprintf("Science %d", e.runs), Type: assignment.TypeGrade})
	must(b, err)
	_, err = e.asgs.PutFunction(e.ctx, e.actor, asg.ID, assignment.FunctionInput{Questions: []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}},
		{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 2},
		}},
	}})
	must(b, err)
	row, err := store.Q.GetAssignment(e.ctx, e.pool, store.GetAssignmentParams{ID: asg.ID, TeamID: e.actor.TeamID})
	must(b, err)
	subs := make([]submission.NewSubmission, classSize)
	for i := range subs {
		subs[i] = submission.NewSubmission{Name: fmt.Sprintf("Student %d", i+1), Source: submission.SourceCSV, Text: essay(e.runs, i)}
	}
	ids := make([]uuid.UUID, 0, classSize)
	must(b, store.InTx(e.ctx, e.pool, func(tx pgx.Tx) error {
		created, _, err := e.subs.CreateTx(e.ctx, tx, e.actor.TeamID, row, subs)
		for _, s := range created {
			ids = append(ids, s.ID)
		}
		return err
	}))
	if len(ids) != classSize {
		b.Fatalf("created %d submissions, want %d", len(ids), classSize)
	}
	return asg.ID, ids
}

// sentences are what the essays are made of: some meet the criteria, most
// are the filler of a real answer.
var sentences = strings.Split(strings.TrimSpace(`
Plants are living things that make their own food from sunlight, water and air.
Chlorophyll is the green pigment in leaves that traps the energy of light.
The leaf takes in carbon dioxide through tiny holes on its underside.
The plant turns that energy into glucose, a sugar it uses to grow.
Oxygen is given off as a waste gas, which is lucky for animals like us.
Roots pull water up from the soil through thin tubes in the stem.
Photosynthesis happens mostly in the leaves because they face the sun.
In winter some trees lose their leaves and stop making food for a while.
Our class grew cress on the windowsill and the pots in the dark went yellow.
Water moves around the planet in a loop that never really ends.
The sun heats the sea and evaporation from oceans lifts water into the air as vapour.
High up the air is cold, so condensation forms clouds out of tiny droplets.
When the droplets join and get heavy they fall as rain, snow or hail.
Rivers carry the water back down the hills to the sea again.
Some water soaks into the ground and stays there for a very long time.
Puddles in the playground disappear on a warm afternoon.
My grandmother says the weather used to be colder when she was young.
I think both processes show how everything on Earth is connected.
Without plants there would be no food chains and no oxygen to breathe.
Without the water cycle the land would dry out and nothing could grow.
I was not sure about this part, so I read the textbook chapter again.
The diagram in my notes shows arrows going up from the sea and down from the clouds.
Farmers need rain at the right time or their crops will fail.
Scientists measure rainfall with a simple gauge that anyone can build.
A greenhouse keeps plants warm, but they still need light to make sugar.
Deserts get very little rain because the clouds are blocked by mountains.
Energy from the sun drives both photosynthesis and the water cycle.
I enjoyed this topic more than the one about rocks last term.
`), "\n")

// essay is a student's answer of two to three hundred words, different for
// every student of every run (the 429 storm tells retries apart by text).
func essay(run, student int) string {
	r := rand.New(rand.NewPCG(uint64(run), uint64(student)))
	n := 14 + r.IntN(10)
	var b strings.Builder
	fmt.Fprintf(&b, "Homework %d, answer %d. ", run, student+1)
	for i := range n {
		b.WriteString(sentences[r.IntN(len(sentences))])
		if i%5 == 4 {
			b.WriteString("\n\n")
		} else {
			b.WriteString(" ")
		}
	}
	return strings.TrimSpace(b.String())
}

// finished is where a run's results stand.
type finished struct {
	graded, busy int
	last         time.Time // the last result's graded_at: when it was committed
}

// waitResults polls the assignment's results until none is in progress,
// and returns how many were graded and when the last was written.
func (e *env) waitResults(b *testing.B, asgID uuid.UUID, limit time.Duration) finished {
	b.Helper()
	deadline := time.Now().Add(limit)
	for {
		var f finished
		var last *time.Time
		err := e.pool.QueryRow(e.ctx, `SELECT count(*) FILTER (WHERE status = 'graded'),
			count(*) FILTER (WHERE status IN ('grading', 'rubric-grading', 'annotating')), max(graded_at)
			FROM function_results WHERE assignment_id = $1`, asgID).Scan(&f.graded, &f.busy, &last)
		must(b, err)
		if last != nil {
			f.last = *last
		}
		if f.busy == 0 || time.Now().After(deadline) {
			return f
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noopRun is River's own rate on this database: classSize no-op jobs on
// the same queue, from their insert to the last one completed (its
// finalized_at, stamped when the job finished, before River's batched
// write: this favours River).
func (e *env) noopRun(b *testing.B) time.Duration {
	b.Helper()
	params := make([]river.InsertManyParams, classSize)
	for i := range params {
		params[i] = river.InsertManyParams{Args: noopArgs{}}
	}
	start := time.Now()
	res, err := e.insert.InsertMany(e.ctx, params)
	must(b, err)
	ids := make([]int64, len(res))
	for i, r := range res {
		ids[i] = r.Job.ID
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var done int
		var last *time.Time
		must(b, e.pool.QueryRow(e.ctx, `SELECT count(*), max(finalized_at) FROM river_job
			WHERE id = ANY($1) AND state = 'completed'`, ids).Scan(&done, &last))
		if done == len(ids) {
			return last.Sub(start)
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d no-op jobs completed", done, len(ids))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// snoozes is how often each submission's job was snoozed, in River's
// order (id), once every job is finished; it fails the benchmark when a
// job failed an attempt (the storm has nothing but 429s).
func (e *env) snoozes(b *testing.B, ids []uuid.UUID) []int {
	b.Helper()
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = id.String()
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var open int
		must(b, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = 'grade_submission'
			AND args ->> 'submission_id' = ANY($1) AND finalized_at IS NULL`, keys).Scan(&open))
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d grading jobs not finished", open)
		}
		time.Sleep(20 * time.Millisecond)
	}
	rows, err := e.pool.Query(e.ctx, `SELECT COALESCE((metadata ->> 'snoozes')::int, 0), attempt, state FROM river_job
		WHERE kind = 'grade_submission' AND args ->> 'submission_id' = ANY($1) ORDER BY id`, keys)
	must(b, err)
	out := make([]int, 0, len(ids))
	for rows.Next() {
		var n, attempt int
		var state string
		must(b, rows.Scan(&n, &attempt, &state))
		if attempt != 1 || state != "completed" {
			b.Fatalf("a grading job ended %s after %d attempts", state, attempt)
		}
		out = append(out, n)
	}
	must(b, rows.Err())
	if len(out) != len(ids) {
		b.Fatalf("%d grading jobs for %d submissions", len(out), len(ids))
	}
	return out
}

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
