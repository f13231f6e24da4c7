package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

func numCPU() int { return runtime.NumCPU() }

// apiLoad measures the API idle (GET /healthz and an authenticated read by
// id, with a CPU profile of the API) and under load (the UI's mix of reads
// and writes from 50 clients while a batch is graded).
func apiLoad(ctx context.Context, root, admin, logDir, outDir string, s settings, res *Results) error {
	fmt.Printf("\n-- API under load: stack with the demo model at %s, API pool %s --\n", s.loadLat, map[bool]string{true: "default", false: strconv.Itoa(s.apiConns)}[s.apiConns == 0])
	st, err := startStack(ctx, root, admin, logDir, stackOptions{Latency: s.loadLat, APIConns: s.apiConns})
	if err != nil {
		return err
	}
	defer st.Stop()
	email := "load-" + randomHex(4) + "@school.test"
	owner, err := signIn(ctx, st.BaseURL, "Load Teacher", email)
	if err != nil {
		return err
	}

	// A small class, graded, whose results the clients read and edit.
	small, err := owner.createGradeAssignment(ctx, "Small class")
	if err != nil {
		return err
	}
	if err := owner.upload(ctx, small, s.smallSize, 8); err != nil {
		return err
	}
	sv, err := owner.waitReady(ctx, small, s.smallSize, 2*time.Minute)
	if err != nil {
		return err
	}
	if err := owner.runAll(ctx, sv); err != nil {
		return err
	}
	if sv, err = waitGraded(ctx, owner, small, s.smallSize, 2*time.Minute); err != nil {
		return err
	}
	// The batch that drains while the clients work.
	big, err := owner.createGradeAssignment(ctx, "Year 10 science")
	if err != nil {
		return err
	}
	t0 := time.Now()
	if err := owner.upload(ctx, big, s.batch, 8); err != nil {
		return err
	}
	bv, err := owner.waitReady(ctx, big, s.batch, 4*time.Minute)
	if err != nil {
		return err
	}
	fmt.Printf("uploaded and extracted %d + %d submissions (the batch in %s)\n", s.smallSize, s.batch, time.Since(t0).Round(100*time.Millisecond))

	// Each client is a browser of its own: the same teacher signed in
	// s.clients times, so every request looks its session up.
	clients := make([]*teacher, s.clients)
	for i := range clients {
		if clients[i], err = signIn(ctx, st.BaseURL, "Load Teacher", email); err != nil {
			return err
		}
	}
	stats, err := newDBStats(ctx, admin, st.dbName)
	if err != nil {
		return err
	}
	defer stats.Close()

	// Idle: /healthz, then functionResult/get, profiled.
	x0, _ := stats.xacts(ctx)
	h0 := time.Now()
	hz := runLoad(ctx, clients, s.healthFor, []op{healthzOp(st.BaseURL)})
	time.Sleep(1200 * time.Millisecond) // PostgreSQL publishes a backend's counts within a second of its going idle
	x1, _ := stats.xacts(ctx)
	baseRate := float64(x1-x0) / time.Since(h0).Seconds()

	readMix := []op{resultGet(small, sv)}
	profPath := filepath.Join(outDir, "api-cpu.pprof")
	profDone := make(chan error, 1)
	go func() {
		secs := max(1, int(s.idleFor.Seconds())-1)
		profDone <- fetchProfile(ctx, st.PprofURL+"/profile?seconds="+strconv.Itoa(secs), profPath)
	}()
	r0 := time.Now()
	rd := runLoad(ctx, clients, s.idleFor, readMix)
	profErr := <-profDone
	time.Sleep(1200 * time.Millisecond)
	x2, _ := stats.xacts(ctx)
	txPerRead := (float64(x2-x1) - baseRate*time.Since(r0).Seconds()) / float64(len(rd.all)+rd.errCount())

	hzP99, rdP99 := Percentile(hz.all, 99), Percentile(rd.all, 99)
	res.Add("idle.healthz_rps", hz.rps(), "requests/s", fmt.Sprintf("GET /healthz, %d clients", s.clients))
	res.Add("idle.healthz_p99_ms", ms(hzP99), "ms", "")
	res.AtLeast("idle.read_rps", rd.rps(), 5000, "requests/s", fmt.Sprintf("functionResult/get by id, %d clients, %d errors", s.clients, rd.errCount()))
	res.Add("idle.read_p50_ms", ms(Percentile(rd.all, 50)), "ms", "")
	res.Add("idle.read_p99_ms", ms(rdP99), "ms", "")
	res.Add("idle.healthz_rps_over_read_rps", hz.rps()/rd.rps(), "ratio", "what an authenticated read costs in /healthz requests")
	res.Add("idle.transactions_per_read", txPerRead, "transactions", "PostgreSQL commits per functionResult/get (pg_stat_database)")
	if rd.errCount() > 0 {
		fmt.Println("idle read errors:", rd.describeErrors())
	}
	if profErr != nil {
		fmt.Println("profile:", profErr)
	} else {
		summarizeProfile(ctx, "API CPU profile during the idle reads", profPath, filepath.Join(outDir, "api-cpu.txt"))
	}

	// Under load: grade the batch, then /healthz and the UI's mix while it drains.
	if err := owner.runAll(ctx, bv); err != nil {
		return err
	}
	pressed := time.Now()
	hzLoad := runLoad(ctx, clients, s.healthFor, []op{healthzOp(st.BaseURL)})
	cpu0, _ := cpuTime(st.Pid("api"))
	mixProf := filepath.Join(outDir, "api-cpu-load.pprof")
	go func() {
		secs := max(1, int(s.mixedFor.Seconds())-2)
		profDone <- fetchProfile(ctx, st.PprofURL+"/profile?seconds="+strconv.Itoa(secs), mixProf)
	}()
	mx := runLoad(ctx, clients, s.mixedFor, uiMix(small, big, sv))
	cpu1, _ := cpuTime(st.Pid("api"))
	if err := <-profDone; err != nil {
		fmt.Println("profile:", err)
	} else {
		summarizeProfile(ctx, "API CPU profile during the mixed load", mixProf, filepath.Join(outDir, "api-cpu-load.txt"))
	}
	after, _, _ := owner.getAssignment(ctx, big)
	done, failed, running := counts(after)
	if mx.errCount() > 0 {
		fmt.Println("load errors:", mx.describeErrors())
	}
	p99, hp99 := Percentile(mx.all, 99), Percentile(hzLoad.all, 99)
	note := fmt.Sprintf("%d clients, 80 %% reads / 20 %% writes, %d errors", s.clients, mx.errCount())
	res.Add("load.p50_ms", ms(Percentile(mx.all, 50)), "ms", note)
	res.AtMost("load.p99_ms", ms(p99), 50, "ms", "")
	res.AtLeast("load.rps", mx.rps(), 2000, "requests/s", "")
	res.Add("load.healthz_p99_ms", ms(hp99), "ms", "GET /healthz, same clients, same batch draining")
	res.Add("load.p99_over_healthz_p99", ms(p99)/ms(hp99), "ratio", "")
	res.Add("load.api_cpu_cores", (cpu1-cpu0).Seconds()/mx.elapsed.Seconds(), "cores", "the API process's CPU during the mix")
	res.Add("load.batch_done_during_load", float64(done), "results", fmt.Sprintf("of %d, %d failed, %d still grading %s after grade-all", s.batch, failed, running, time.Since(pressed).Round(time.Second)))
	for _, o := range uiMix(small, big, sv) {
		d := mx.byOp[o.name]
		fmt.Printf("  %-28s n=%6d  p50 %6.1f ms  p99 %6.1f ms\n", o.name, len(d), ms(Percentile(d, 50)), ms(Percentile(d, 99)))
	}
	return nil
}

// waitGraded polls assignment/get until n results are done.
func waitGraded(ctx context.Context, t *teacher, asgID string, n int, timeout time.Duration) (assignmentView, error) {
	deadline := time.Now().Add(timeout)
	for {
		v, _, err := t.getAssignment(ctx, asgID)
		if err != nil {
			return v, err
		}
		done, failed, _ := counts(v)
		if failed > 0 {
			return v, fmt.Errorf("%d results failed", failed)
		}
		if done == n {
			return v, nil
		}
		if time.Now().After(deadline) {
			return v, fmt.Errorf("%d of %d results graded after %s", done, n, timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// resultGet is functionResult/get of a random result of the class.
func resultGet(asgID string, v assignmentView) op {
	return op{name: "functionResult/get", weight: 20, do: func(ctx context.Context, c *teacher, rng *rand.Rand) (time.Duration, error) {
		s := v.Submissions[rng.IntN(len(v.Submissions))]
		return c.call(ctx, http.MethodPost, "db/functionResult/get", map[string]string{"submissionId": s.ID, "assignmentId": asgID}, nil)
	}}
}

// uiMix is what teachers do while a batch drains: 80 % reads (the
// submission list of a class, a result, the status poll of the batch being
// graded) and 20 % writes (a criterion ticked, overall comments saved).
func uiMix(small, big string, sv assignmentView) []op {
	results := sv.FunctionResults
	return []op{
		{name: "assignment/get (list, 30)", weight: 40, do: func(ctx context.Context, c *teacher, _ *rand.Rand) (time.Duration, error) {
			return c.call(ctx, http.MethodPost, "db/assignment/get", map[string]string{"assignmentId": small}, nil)
		}},
		resultGet(small, sv),
		{name: "assignment/get (poll, batch)", weight: 20, do: func(ctx context.Context, c *teacher, _ *rand.Rand) (time.Duration, error) {
			return c.call(ctx, http.MethodPost, "db/assignment/get", map[string]string{"assignmentId": big}, nil)
		}},
		{name: "toggleCriterion", weight: 10, do: func(ctx context.Context, c *teacher, rng *rand.Rand) (time.Duration, error) {
			r := results[rng.IntN(len(results))]
			return c.call(ctx, http.MethodPost, "db/gradeFunction/toggleCriterion", map[string]any{
				"gradeFunctionId": r.ID, "questionIndexPath": []int{rng.IntN(2)}, "criterionIndex": rng.IntN(2), "questionsCriterion": nil,
			}, nil)
		}},
		{name: "functionResult/update", weight: 10, do: func(ctx context.Context, c *teacher, rng *rand.Rand) (time.Duration, error) {
			r := results[rng.IntN(len(results))]
			return c.call(ctx, http.MethodPost, "db/functionResult/update", map[string]any{
				"_id": r.ID, "submissionId": r.Submission, "overallComments": fmt.Sprintf("Good work overall (%d).", rng.IntN(1000)),
			}, nil)
		}},
	}
}

// dbStats reads PostgreSQL's counters for the stack's database.
type dbStats struct {
	conn *pgx.Conn
	db   string
}

func newDBStats(ctx context.Context, admin, db string) (*dbStats, error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return nil, err
	}
	return &dbStats{conn: conn, db: db}, nil
}

func (d *dbStats) Close() { _ = d.conn.Close(context.Background()) }

// xacts is the database's committed and rolled back transactions so far.
func (d *dbStats) xacts(ctx context.Context) (int64, error) {
	var n int64
	err := d.conn.QueryRow(ctx, `SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = $1`, d.db).Scan(&n)
	return n, err
}

// backends are the server processes of the connections of application app.
func (d *dbStats) backends(ctx context.Context, app string) ([]int, error) {
	rows, err := d.conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`, d.db, app)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

func fetchProfile(ctx context.Context, url, path string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		return fmt.Errorf("%s: %d %s", url, res.StatusCode, truncate(string(b), 200))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// profileGroups sort the profile's own (flat) time by where it is spent.
var profileGroups = []struct{ name, re string }{
	{"PostgreSQL client (pgx)", `^github\.com/jackc/`},
	{"logging (slog)", `^log/slog|internal/logging`},
	{"JSON", `^encoding/json|gin/render|gin/binding`},
	{"Gin and net/http", `^net/http|gin-gonic/gin|^net/textproto|^bufio`},
	{"network syscalls", `^syscall|^internal/poll|^net\.|^internal/runtime/syscall`},
	{"crypto", `^crypto/|golang\.org/x/crypto`},
	{"Markwell's code", `markwell/markwell/`},
	{"Go runtime (GC, scheduler, allocation)", `^runtime\.|^internal/runtime|^sync|^aeshash|^memeqbody|^indexbytebody`},
}

// profileCum are functions whose cumulative share says where a request goes.
var profileCum = []struct{ name, re string }{
	{"session lookup (auth.Service.Session)", `auth\.\(\*Service\)\.Session$`},
	{"request log line (slog Logger.log)", `^log/slog\.\(\*Logger\)\.log$`},
	{"functionResult/get (resultHandlers.get)", `resultHandlers\)\.get$`},
	{"assignment/get (assignmentHandlers.get)", `assignmentHandlers\)\.get$`},
	{"totals of results (result.scorer.score)", `result\.scorer\.score$`},
	{"submission list (submission.Service.List)", `submission\.\(\*Service\)\.List$`},
	{"CSRF check", `csrfProtect\.func1$`},
	{"metrics middleware", `httpMetrics\)\.middleware\.func1$`},
	{"writing the JSON answer", `gin\.\(\*Context\)\.JSON$`},
}

var topLine = regexp.MustCompile(`^\s*([\d.]+\w*)\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+\w*)\s+([\d.]+)%\s+(.+)$`)

// summarizeProfile prints where the API's CPU went, by group and for a few
// functions, and saves pprof's own top lists next to the profile.
func summarizeProfile(ctx context.Context, title, prof, txt string) {
	flat, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=100000", prof).Output()
	if err != nil {
		fmt.Println("go tool pprof:", err)
		return
	}
	cum, _ := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-cum", "-nodecount=250", prof).Output()
	_ = os.WriteFile(txt, append(append(firstLines(flat, 45), "\n--- by cumulative time ---\n"...), cum...), 0o644)

	groups := map[string]float64{}
	for _, l := range strings.Split(string(flat), "\n") {
		m := topLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		pct, _ := strconv.ParseFloat(m[2], 64)
		name := "other"
		for _, g := range profileGroups {
			if regexp.MustCompile(g.re).MatchString(m[6]) {
				name = g.name
				break
			}
		}
		groups[name] += pct
	}
	fmt.Println(title, "(share of samples; go tool pprof", prof+"):")
	type kv struct {
		k string
		v float64
	}
	var gs []kv
	for k, v := range groups {
		gs = append(gs, kv{k, v})
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].v > gs[j].v })
	for _, g := range gs {
		fmt.Printf("  own time  %5.1f %%  %s\n", g.v, g.k)
	}
	for _, c := range profileCum {
		re := regexp.MustCompile(c.re)
		best := -1.0
		for _, l := range strings.Split(string(cum), "\n") {
			if m := topLine.FindStringSubmatch(l); m != nil && re.MatchString(m[6]) {
				v, _ := strconv.ParseFloat(m[5], 64)
				best = max(best, v)
			}
		}
		if best >= 0 {
			fmt.Printf("  with callees %5.1f %%  %s\n", best, c.name)
		}
	}
	fmt.Println("  (full lists:", txt+")")
}

func firstLines(b []byte, n int) []byte {
	lines := strings.SplitAfterN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return []byte(strings.Join(lines, ""))
}
