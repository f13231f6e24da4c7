package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// scaleTest is `make test-scale` (-phases scale): the multi-process layout
// on one machine — PgBouncer in transaction mode in front of PostgreSQL,
// two API replicas behind nginx, two ai workers and one ocr worker, the
// demo model — driven through the proxy with the Monday-morning scenario
// (monday.go's teachers, a smaller morning). On the way it checks that a
// sign-out and a team removal made on one replica reach the other within
// auth.SessionCacheTTL (5 s), SIGKILLs one API replica and one ai worker
// mid-run, and then checks the database: every submission graded, its
// result written once, by one grading job. Any failed request or check
// is an error (the command exits non-zero).
func scaleTest(ctx context.Context, root, admin, outDir string, s settings, res *Results) error {
	began := time.Now()
	for _, b := range []string{"nginx", "pgbouncer"} {
		if _, err := exec.LookPath(b); err != nil {
			return fmt.Errorf("%s is not installed (scripts/test-scale.sh installs it)", b)
		}
	}
	dir := filepath.Join(root, ".data", "scale", time.Now().Format("20060102-150405"))
	st, err := startScaleStack(ctx, root, admin, dir, s)
	if err != nil {
		return err
	}
	defer st.Stop()
	fmt.Printf("\n-- Scale: nginx %s over api-a %s and api-b %s; PgBouncer %s (transaction); workers ai-1, ai-2, ocr; %d × %d at LLM_RPM=%d, model %s; logs in %s --\n",
		st.BaseURL, st.apiA, st.apiB, st.pooler, s.teachers, s.perClass, s.mondayRPM, s.mondayLat, dir)

	// Every request the teachers send through the proxy is counted here.
	counter := &countingTransport{next: transport}
	transport = counter

	teachers := make([]*teacher, s.teachers)
	asgs := make([]string, s.teachers)
	views := make([]assignmentView, s.teachers)
	var wg sync.WaitGroup
	errs := make(chan error, s.teachers)
	sem := make(chan struct{}, 6)
	t0 := time.Now()
	for i := range teachers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t, err := signIn(ctx, st.BaseURL, fmt.Sprintf("Teacher %d", i+1), fmt.Sprintf("scale-%d-%s@school.test", i+1, randomHex(3)))
			if err == nil {
				teachers[i] = t
				asgs[i], err = t.createGradeAssignment(ctx, fmt.Sprintf("Class %d", i+1))
			}
			if err == nil {
				err = t.upload(ctx, asgs[i], s.perClass, 3)
			}
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	if err := firstErr(errs); err != nil {
		return err
	}
	for i, t := range teachers {
		if views[i], err = t.waitReady(ctx, asgs[i], s.perClass, 3*time.Minute); err != nil {
			return err
		}
	}
	fmt.Printf("%d classes uploaded and extracted through the proxy in %s\n", s.teachers, time.Since(t0).Round(100*time.Millisecond))

	// Everyone presses "Grade all" at once, then polls as the page does.
	pressed := time.Now()
	errs = make(chan error, s.teachers)
	for i, t := range teachers {
		wg.Add(1)
		go func(i int, t *teacher) { defer wg.Done(); errs <- t.runAll(ctx, views[i]) }(i, t)
	}
	wg.Wait()
	close(errs)
	if err := firstErr(errs); err != nil {
		return err
	}
	fmt.Printf("grade-all pressed by %d teachers in %s\n", s.teachers, time.Since(pressed).Round(time.Millisecond))

	pollCtx, stopPolls := context.WithCancel(ctx)
	defer stopPolls()
	var polls atomic.Int64
	pollsDone := make(chan struct{})
	go func() {
		defer close(pollsDone)
		var pw sync.WaitGroup
		for i, t := range teachers {
			pw.Add(1)
			go func(i int, t *teacher) {
				defer pw.Done()
				time.Sleep(time.Duration(i) * s.pollEvery / time.Duration(len(teachers)))
				for pollCtx.Err() == nil {
					// errors are counted by the transport
					_, _, _ = t.getAssignment(pollCtx, asgs[i])
					polls.Add(1)
					select {
					case <-pollCtx.Done():
					case <-time.After(s.pollEvery):
					}
				}
			}(i, t)
		}
		pw.Wait()
	}()

	// While the classes grade, with both replicas up: a sign-out and a team
	// removal made on replica A, watched from replica B.
	var failures []string
	var signOut, removal staleness
	var signOutErr, removalErr error
	var sw sync.WaitGroup
	sw.Add(2)
	// Both sign everyone in first: a sign-in drops the remembered sessions
	// of the replica it lands on, which would hide the staleness watched.
	var setUp sync.WaitGroup
	setUp.Add(2)
	go func() { defer sw.Done(); signOut, signOutErr = signOutReaches(ctx, st, &setUp) }()
	go func() { defer sw.Done(); removal, removalErr = removalReaches(ctx, st, &setUp) }()
	sw.Wait()
	if signOutErr != nil {
		failures = append(failures, "sign-out: "+signOutErr.Error())
	}
	if removalErr != nil {
		failures = append(failures, "team removal: "+removalErr.Error())
	}

	// Kill api-a and worker ai-1 once a quarter of the results are in.
	db, err := pgx.Connect(ctx, st.dbURL)
	if err != nil {
		return err
	}
	defer db.Close(context.Background())
	total := s.teachers * s.perClass
	for {
		n, err := gradedCount(ctx, db)
		if err != nil {
			return err
		}
		if n >= total/4 {
			break
		}
		if time.Since(pressed) > s.mondayWait {
			return fmt.Errorf("only %d of %d graded after %s, before the kill", n, total, s.mondayWait)
		}
		time.Sleep(200 * time.Millisecond)
	}
	killedAt := time.Now()
	gradedAtKill, _ := gradedCount(ctx, db)
	for _, name := range []string{"api-a", "worker-ai-1"} {
		if err := st.procs[name].cmd.Process.Kill(); err != nil {
			return fmt.Errorf("kill %s: %w", name, err)
		}
	}
	fmt.Printf("SIGKILL api-a and worker-ai-1 at %s after grade-all (%d of %d graded)\n", killedAt.Sub(pressed).Round(100*time.Millisecond), gradedAtKill, total)
	if gradedAtKill > total*3/4 {
		failures = append(failures, fmt.Sprintf("the kill came late (%d of %d already graded): the run proves little; give it more to grade", gradedAtKill, total))
	}

	// Wait for every result, as the teachers' pages do.
	var graded int
	for {
		graded, err = gradedCount(ctx, db)
		if err != nil {
			return err
		}
		if graded >= total || time.Since(pressed) > s.mondayWait {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	lastResult := time.Since(pressed)
	// a last round of polls sees the final state through the proxy
	time.Sleep(s.pollEvery + 500*time.Millisecond)
	stopPolls()
	<-pollsDone
	took := time.Since(began)

	check, err := checkGradedOnce(ctx, db, asgs, s.perClass, pressed)
	if err != nil {
		return err
	}
	failures = append(failures, check.problems...)
	for _, c := range []struct {
		what string
		s    staleness
	}{{"sign-out", signOut}, {"team removal", removal}} {
		if c.s.lastOK >= 5*time.Second {
			failures = append(failures, fmt.Sprintf("%s: api-b still answered as before %s after it was sent to api-a (documented: within 5 s)", c.what, c.s.lastOK.Round(time.Millisecond)))
		}
	}
	if check.firstWorst > 30*time.Second {
		failures = append(failures, fmt.Sprintf("a class waited %s for its first result (classes take turns: ≤ 30 s); per class: %s",
			check.firstWorst.Round(100*time.Millisecond), queueOrder(ctx, db, asgs, check.firsts)))
	}
	if graded < total {
		failures = append(failures, fmt.Sprintf("%d of %d results graded after %s", graded, total, s.mondayWait))
	}

	// The proxy's view: per replica, retries, what failed.
	logText, _ := os.ReadFile(filepath.Join(st.nginxDir, "access.log"))
	tally := tallyAccessLog(string(logText))
	sent, failed := counter.snapshot()
	for _, f := range failed {
		failures = append(failures, "request failed through the proxy: "+f)
	}

	fmt.Printf("\n%d requests through the proxy in %s (%d polls), %d failed; nginx: %d requests, %d retried on the other replica (%d then answered), %d answered 5xx\n",
		sent, took.Round(time.Second), polls.Load(), len(failed), tally.Requests, tally.Retried, tally.RetriedOK, tally.Failed)
	names := map[string]string{st.apiA: "api-a (killed)", st.apiB: "api-b"}
	var reps []string
	for addr := range tally.PerReplica {
		reps = append(reps, addr)
	}
	sort.Strings(reps)
	for _, addr := range reps {
		fmt.Printf("  %-16s %-22s %6d requests\n", names[addr], addr, tally.PerReplica[addr])
	}
	for _, l := range tally.FailedList {
		fmt.Printf("  nginx 5xx: %s %s → %d (tried %s: %s)\n", l.Method, l.Path, l.Status, strings.Join(l.Upstreams, ", "), strings.Join(l.Statuses, ", "))
	}
	fmt.Printf("sign-out on api-a: api-a 401 at once: %v; api-b still answered 200 for %s, 401 from %s on\n", signOut.immediate, signOut.lastOK.Round(10*time.Millisecond), signOut.first401.Round(10*time.Millisecond))
	fmt.Printf("team removal on api-a: api-b still showed the class for %s, %d from %s on\n", removal.lastOK.Round(10*time.Millisecond), removal.status, removal.first401.Round(10*time.Millisecond))
	fmt.Printf("results: %d of %d graded, each written once: %v; grading jobs per submission 1: %v; model calls %d (%d submissions called the model more than once); jobs rescued from the killed worker: %d\n",
		check.graded, total, check.writtenOnce, check.oneJob, check.modelCalls, check.multiCall, check.retriedJobs)

	note := fmt.Sprintf("%d × %d at LLM_RPM=%d, model %s; api-a and worker-ai-1 killed", s.teachers, s.perClass, s.mondayRPM, s.mondayLat)
	res.Add("scale.requests", float64(sent), "requests", "through nginx")
	res.AtMost("scale.failed_requests", float64(len(failed)), 0, "requests", "5xx or no answer through the proxy")
	res.Add("scale.proxy_retries", float64(tally.Retried), "requests", "nginx sent to the other replica")
	res.Add("scale.api_a_requests", float64(tally.PerReplica[st.apiA]), "requests", "answered by api-a (killed mid-run)")
	res.Add("scale.api_b_requests", float64(tally.PerReplica[st.apiB]), "requests", "answered by api-b")
	res.AtMost("scale.results_not_graded_once", float64(total-check.gradedOnce), 0, "results", note)
	res.Add("scale.last_result_s", lastResult.Seconds(), "s", "after grade-all, the kill and the rescue included")
	res.AtMost("scale.first_result_worst_s", check.firstWorst.Seconds(), 30, "s", "the unluckiest class's first result (classes take turns)")
	res.AtMost("scale.signout_stale_s", signOut.lastOK.Seconds(), 5, "s", fmt.Sprintf("sign-out sent to api-a until api-b's last 200 for the old cookie (401 from %.2f s)", signOut.first401.Seconds()))
	res.AtMost("scale.removal_stale_s", removal.lastOK.Seconds(), 5, "s", fmt.Sprintf("removal sent to api-a until api-b last showed the class (refused from %.2f s)", removal.first401.Seconds()))
	res.Add("scale.took_s", took.Seconds(), "s", "the whole scenario, stack start excluded")

	if len(failures) > 0 {
		return fmt.Errorf("%d problem(s):\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return nil
}

func firstErr(errs <-chan error) error {
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// countingTransport counts requests and remembers the ones that failed:
// no answer, or a 5xx.
type countingTransport struct {
	next   http.RoundTripper
	mu     sync.Mutex
	sent   int
	failed []string
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(req)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent++
	at := time.Now().Format("15:04:05.000")
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		c.failed = append(c.failed, fmt.Sprintf("%s %s %s: %v", at, req.Method, req.URL.Path, err))
	case err == nil && res.StatusCode >= 500:
		c.failed = append(c.failed, fmt.Sprintf("%s %s %s: %d", at, req.Method, req.URL.Path, res.StatusCode))
	}
	return res, err
}

func (c *countingTransport) snapshot() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, append([]string(nil), c.failed...)
}

// direct is t's browser sending straight to one replica: the same cookies
// and CSRF token (every replica shares SECRET_KEY), bypassing the proxy.
func direct(t *teacher, base string) *teacher {
	jar, _ := cookiejar.New(nil)
	from, _ := url.Parse(t.base)
	to, _ := url.Parse(base)
	jar.SetCookies(to, t.client.Jar.Cookies(from))
	return &teacher{base: base, email: t.email, csrf: t.csrf,
		client: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// staleness is how long a change made on api-a went unseen on api-b,
// counted from when the change's request was sent to when each probe was.
type staleness struct {
	immediate bool          // api-a itself refused at once
	lastOK    time.Duration // the last probe api-b still answered as before
	first401  time.Duration // the first refusal after which all were refusals
	status    int
}

// watch sends probe to api-b every 50 ms from the change at `from` until
// it has refused for a whole second (and at least until 5.5 s), and
// returns when it last succeeded and when it started refusing. The
// documented bound (auth.SessionCacheTTL) holds when lastOK < 5 s: api-b
// looked the session up before the change, and forgets it 5 s later.
func watch(ctx context.Context, from time.Time, probe func() (int, error)) (staleness, error) {
	var s staleness
	var refusedSince time.Duration = -1
	for {
		at := time.Since(from) // when the request left
		st, err := probe()
		if err != nil {
			return s, err
		}
		switch {
		case st == http.StatusOK:
			s.lastOK, refusedSince = at, -1
		case st >= 400 && st < 500:
			if refusedSince < 0 {
				refusedSince = at
			}
			s.status = st
		default:
			return s, fmt.Errorf("api-b answered %d", st)
		}
		if refusedSince >= 0 && at-refusedSince >= time.Second && at >= 5500*time.Millisecond {
			s.first401 = refusedSince
			return s, nil
		}
		if at > 15*time.Second {
			return s, fmt.Errorf("api-b still answered 200 %s after the change", s.lastOK.Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// status sends one authenticated request and returns the answer's status.
func (t *teacher) status(ctx context.Context, method, path string, body any) (int, error) {
	_, err := t.call(ctx, method, path, body, nil)
	var ae *apiError
	switch {
	case err == nil:
		return http.StatusOK, nil
	case errors.As(err, &ae):
		return ae.Status, nil
	}
	return 0, err
}

// signOutReaches signs a teacher out on api-a while api-b remembers their
// session, and measures how long api-b still lets the cookie in.
func signOutReaches(ctx context.Context, st *scaleStack, setUp *sync.WaitGroup) (staleness, error) {
	var once sync.Once
	ready := func() { once.Do(func() { setUp.Done(); setUp.Wait() }) }
	defer once.Do(setUp.Done)
	t, err := signIn(ctx, st.BaseURL, "Leaving Teacher", "scale-out-"+randomHex(3)+"@school.test")
	if err != nil {
		return staleness{}, err
	}
	ready()
	a, b := direct(t, "http://"+st.apiA), direct(t, "http://"+st.apiB)
	// api-b looks the session up now and remembers it
	for _, r := range []*teacher{a, b} {
		if st, err := r.status(ctx, http.MethodGet, "db/user/get", nil); err != nil || st != http.StatusOK {
			return staleness{}, fmt.Errorf("before the sign-out %s answered %d %v", r.base, st, err)
		}
	}
	form := url.Values{"csrfToken": {t.csrf}, "callbackUrl": {"/"}, "json": {"true"}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/api/auth/signout", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	// The cookie jar would drop the cookie with the sign-out's answer: keep
	// a copy of the old one for the replay.
	oldA, oldB := direct(a, a.base), direct(b, b.base)
	sent := time.Now()
	res, err := a.client.Do(req)
	if err != nil {
		return staleness{}, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return staleness{}, fmt.Errorf("sign-out on api-a answered %d", res.StatusCode)
	}
	var s staleness
	code, err := oldA.status(ctx, http.MethodGet, "db/user/get", nil)
	if err != nil {
		return s, err
	}
	s.immediate = code == http.StatusUnauthorized
	got, err := watch(ctx, sent, func() (int, error) { return oldB.status(ctx, http.MethodGet, "db/user/get", nil) })
	got.immediate = s.immediate
	if err == nil && !got.immediate {
		err = fmt.Errorf("api-a answered %d right after its own sign-out", code)
	}
	if err == nil && got.status != http.StatusUnauthorized {
		err = fmt.Errorf("api-b answered %d for the old cookie, want 401", got.status)
	}
	return got, err
}

// removalReaches has an owner remove a member on api-a while the member
// reads the team's class through api-b, and measures how long api-b still
// shows it.
func removalReaches(ctx context.Context, st *scaleStack, setUp *sync.WaitGroup) (staleness, error) {
	var once sync.Once
	ready := func() { once.Do(func() { setUp.Done(); setUp.Wait() }) }
	defer once.Do(setUp.Done)
	owner, err := signIn(ctx, st.BaseURL, "Owner", "scale-owner-"+randomHex(3)+"@school.test")
	if err != nil {
		return staleness{}, err
	}
	asg, err := owner.createGradeAssignment(ctx, "The team's class")
	if err != nil {
		return staleness{}, err
	}
	memberEmail := "scale-member-" + randomHex(3) + "@school.test"
	member, err := signIn(ctx, st.BaseURL, "Member", memberEmail)
	if err != nil {
		return staleness{}, err
	}
	var inv struct {
		Invite struct {
			URL string `json:"url"`
		} `json:"invite"`
	}
	if err := owner.post(ctx, "db/team/invite", map[string]string{"email": memberEmail}, &inv); err != nil {
		return staleness{}, err
	}
	token := inv.Invite.URL[strings.LastIndex(inv.Invite.URL, "/")+1:]
	accepted := time.Now()
	if err := member.post(ctx, "db/team/accept-invite", map[string]string{"token": token}, nil); err != nil {
		return staleness{}, err
	}
	var me struct {
		User struct {
			ID string `json:"_id"`
		} `json:"user"`
	}
	if _, err := member.call(ctx, http.MethodGet, "db/user/get", nil, &me); err != nil {
		return staleness{}, err
	}
	if me.User.ID == "" {
		return staleness{}, errors.New("db/user/get: no user id")
	}
	b := direct(member, "http://"+st.apiB)
	read := func() (int, error) {
		return b.status(ctx, http.MethodPost, "db/assignment/get", map[string]string{"assignmentId": asg})
	}
	// Joining is a team change too: when the member's requests before it
	// landed on api-b, api-b shows the team's class only once it forgets
	// that session, within the same 5 s.
	for {
		code, err := read()
		if err != nil {
			return staleness{}, err
		}
		if code == http.StatusOK {
			break
		}
		if time.Since(accepted) > 6*time.Second || code != http.StatusNotFound {
			return staleness{}, fmt.Errorf("%s after joining, api-b answered %d for the team's class", time.Since(accepted).Round(time.Millisecond), code)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ready()
	if code, err := read(); err != nil || code != http.StatusOK {
		return staleness{}, fmt.Errorf("before the removal api-b answered %d %v for the team's class", code, err)
	}
	a := direct(owner, "http://"+st.apiA)
	sent := time.Now()
	if err := a.post(ctx, "db/team/remove-member", map[string]string{"userId": me.User.ID}, nil); err != nil {
		return staleness{}, err
	}
	got, err := watch(ctx, sent, read)
	if err == nil && got.status != http.StatusNotFound && got.status != http.StatusForbidden {
		err = fmt.Errorf("api-b answered %d for the old team's class, want 404 or 403", got.status)
	}
	return got, err
}

// gradedCount is how many results are graded.
func gradedCount(ctx context.Context, db *pgx.Conn) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT count(*) FROM function_results WHERE status = 'graded'`).Scan(&n)
	return n, err
}

// gradedOnce is the database's account of the run.
type gradedOnce struct {
	graded, gradedOnce, modelCalls, multiCall, retriedJobs int
	writtenOnce, oneJob                                    bool
	firstWorst                                             time.Duration
	firsts                                                 []time.Duration // per class
	problems                                               []string
}

// checkGradedOnce reads every submission of the classes: one result,
// graded, written once, by exactly one grading job that finished, and the
// model called for it; and each class's first result after pressed.
func checkGradedOnce(ctx context.Context, db *pgx.Conn, asgs []string, perClass int, pressed time.Time) (gradedOnce, error) {
	g := gradedOnce{writtenOnce: true, oneJob: true}
	for i, asg := range asgs {
		rows, err := db.Query(ctx, `SELECT s.id::text,
			(SELECT count(*) FROM function_results fr WHERE fr.submission_id = s.id),
			fr.status, fr.error, fr.result_writes, fr.model_calls, fr.graded_at,
			(SELECT count(*) FROM river_job j WHERE j.kind = 'grade_submission' AND j.args ->> 'submission_id' = s.id::text),
			(SELECT count(*) FROM river_job j WHERE j.kind = 'grade_submission' AND j.args ->> 'submission_id' = s.id::text
				AND j.state <> 'completed'),
			(SELECT coalesce(max(j.attempt), 0) FROM river_job j WHERE j.kind = 'grade_submission' AND j.args ->> 'submission_id' = s.id::text)
			FROM submissions s LEFT JOIN function_results fr ON fr.submission_id = s.id
			WHERE s.assignment_id = $1::uuid`, asg)
		if err != nil {
			return g, err
		}
		seen := 0
		var first time.Time
		for rows.Next() {
			var id string
			var results, jobs, open, attempt int
			var status, errText *string
			var writes, calls *int
			var at *time.Time
			if err := rows.Scan(&id, &results, &status, &errText, &writes, &calls, &at, &jobs, &open, &attempt); err != nil {
				rows.Close()
				return g, err
			}
			seen++
			ok := true
			bad := func(format string, a ...any) {
				ok = false
				if len(g.problems) < 20 {
					g.problems = append(g.problems, fmt.Sprintf("class %d, submission %s: ", i+1, id)+fmt.Sprintf(format, a...))
				}
			}
			if results != 1 {
				bad("%d results", results)
			}
			if status == nil || *status != "graded" {
				bad("result %v (%v)", deref(status), deref(errText))
			} else {
				g.graded++
			}
			if writes == nil || *writes != 1 {
				g.writtenOnce = false
				bad("result written %v times", deref(writes))
			}
			if jobs != 1 || open != 0 {
				g.oneJob = false
				bad("%d grading jobs, %d unfinished", jobs, open)
			}
			if calls == nil || *calls < 1 {
				bad("no model call recorded")
			} else {
				g.modelCalls += *calls
				if *calls > 1 {
					g.multiCall++
				}
			}
			if attempt > 1 {
				g.retriedJobs++
			}
			if at != nil && (first.IsZero() || at.Before(first)) {
				first = *at
			}
			if ok {
				g.gradedOnce++
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return g, err
		}
		if seen != perClass {
			g.problems = append(g.problems, fmt.Sprintf("class %d has %d submissions, want %d", i+1, seen, perClass))
		}
		if first.IsZero() {
			g.problems = append(g.problems, fmt.Sprintf("class %d: no result at all", i+1))
			g.firsts = append(g.firsts, -1)
		} else {
			g.firstWorst = max(g.firstWorst, first.Sub(pressed))
			g.firsts = append(g.firsts, first.Sub(pressed))
		}
	}
	return g, nil
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// queueOrder says, per class, when its first result came and where its
// first grading job stood in River's order (priority, scheduled_at, id):
// what to look at when a class waited for its turn.
func queueOrder(ctx context.Context, db *pgx.Conn, asgs []string, firsts []time.Duration) string {
	var out []string
	for i, asg := range asgs {
		var rank, of int
		err := db.QueryRow(ctx, `WITH r AS (
			SELECT j.args ->> 'submission_id' AS sid, row_number() OVER (ORDER BY j.priority, j.scheduled_at, j.id) AS rn, count(*) OVER () AS n
			FROM river_job j WHERE j.kind = 'grade_submission')
			SELECT coalesce(min(r.rn), 0), coalesce(max(r.n), 0) FROM r JOIN submissions s ON s.id::text = r.sid WHERE s.assignment_id = $1::uuid`, asg).Scan(&rank, &of)
		if err != nil {
			return err.Error()
		}
		f := time.Duration(-1)
		if i < len(firsts) {
			f = firsts[i]
		}
		out = append(out, fmt.Sprintf("class %d first result %.1f s, first job #%d of %d", i+1, f.Seconds(), rank, of))
	}
	return strings.Join(out, "; ")
}
