package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// monday grades s.teachers classes of s.perClass at once under the shared
// model limit, each teacher polling their class as the UI does, and
// measures the time to the last result against the limit's ideal, each
// teacher's first result, and what the polling costs the API and
// PostgreSQL.
func monday(ctx context.Context, root, admin, logDir, outDir string, s settings, res *Results) error {
	calls := s.teachers * s.perClass
	// The limit's ideal: the calls at the limit's rate. LLM_RPM is a
	// sliding window of a minute, so a perfect worker can do better (RPM
	// calls at once, the next RPM a minute after them); perfectWorker is
	// that worker with the ai queue's 32 slots.
	ideal := time.Duration(float64(calls) / float64(s.mondayRPM) * float64(time.Minute))
	windowIdeal := perfectWorker(calls, aiSlots, s.mondayRPM, s.mondayLat)
	scaleNote := fmt.Sprintf("%d × %d at LLM_RPM=%d, model latency %s", s.teachers, s.perClass, s.mondayRPM, s.mondayLat)
	if s.scale == "scaled" && !s.quick {
		scaleNote += " (scaled; -scale full: LLM_RPM=500, 2 s)"
	}
	fmt.Printf("\n-- Monday morning: %s; ideal %s (a perfect worker: %s) --\n", scaleNote, ideal.Round(100*time.Millisecond), windowIdeal.Round(100*time.Millisecond))
	st, err := startStack(ctx, root, admin, logDir, stackOptions{Latency: s.mondayLat, RPM: s.mondayRPM})
	if err != nil {
		return err
	}
	defer st.Stop()

	// Every teacher signs in (a team each), creates an assignment and
	// uploads a class; a few at a time, as a school's morning would.
	teachers := make([]*teacher, s.teachers)
	asgs := make([]string, s.teachers)
	views := make([]assignmentView, s.teachers)
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, s.teachers)
	sem := make(chan struct{}, 8)
	for i := range teachers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t, err := signIn(ctx, st.BaseURL, fmt.Sprintf("Teacher %d", i+1), fmt.Sprintf("monday-%d-%s@school.test", i+1, randomHex(3)))
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
	for err := range errs {
		if err != nil {
			return err
		}
	}
	for i, t := range teachers {
		if views[i], err = t.waitReady(ctx, asgs[i], s.perClass, 4*time.Minute); err != nil {
			return err
		}
	}
	fmt.Printf("%d classes uploaded and extracted in %s\n", s.teachers, time.Since(t0).Round(100*time.Millisecond))

	stats, err := newDBStats(ctx, admin, st.dbName)
	if err != nil {
		return err
	}
	defer stats.Close()
	apiPid := st.Pid("api")
	// The API's own idle CPU, to subtract.
	idle0, _ := cpuTime(apiPid)
	time.Sleep(3 * time.Second)
	idle1, _ := cpuTime(apiPid)
	idleRate := (idle1 - idle0).Seconds() / 3

	// Everyone presses "Grade all" at once.
	pressed := time.Now()
	errs = make(chan error, s.teachers)
	for i, t := range teachers {
		wg.Add(1)
		go func(i int, t *teacher) {
			defer wg.Done()
			errs <- t.runAll(ctx, views[i])
		}(i, t)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	fmt.Printf("grade-all pressed by %d teachers in %s\n", s.teachers, time.Since(pressed).Round(time.Millisecond))

	// Each teacher's page polls assignment/get every 2 s while anything is
	// in progress, as frontend/src/features/submissions/lib/polling.ts.
	pids, _ := stats.backends(ctx, "markwell-api")
	api0, db0 := cpuOf([]int{apiPid}), cpuOf(pids)
	w0 := time.Now()
	// The API's CPU profile over the first 20 s of polling (or less, on a
	// quick run): where a poll's time goes.
	pollProf := filepath.Join(outDir, "api-cpu-poll.pprof")
	profDone := make(chan error, 1)
	go func() {
		secs := max(1, min(20, int(s.mondayWait.Seconds()/4)))
		profDone <- fetchProfile(ctx, st.PprofURL+"/profile?seconds="+strconv.Itoa(secs), pollProf)
	}()
	var polls, pollErrs atomic.Int64
	var pollTime atomic.Int64
	kinds := &readKinds{}
	finals := make([]assignmentView, s.teachers)
	deadline := pressed.Add(s.mondayWait)
	for i, t := range teachers {
		wg.Add(1)
		go func(i int, t *teacher) {
			defer wg.Done()
			// The pages do not poll in step.
			time.Sleep(time.Duration(i) * s.pollEvery / time.Duration(s.teachers))
			// The page holds its class and the version it read, and polls
			// with it (If-None-Match and since): a 304 when nothing
			// changed, a delta merged into what it holds otherwise.
			page := &revalidated{merge: true, view: views[i]}
			for time.Now().Before(deadline) && ctx.Err() == nil {
				kind, took, err := t.pollAssignment(ctx, asgs[i], page)
				polls.Add(1)
				pollTime.Add(int64(took))
				if err != nil {
					pollErrs.Add(1)
				} else {
					kinds.add(kind)
					finals[i] = page.view
					if _, _, running := counts(page.view); running == 0 {
						return
					}
				}
				time.Sleep(s.pollEvery)
			}
		}(i, t)
	}
	wg.Wait()
	window := time.Since(w0)
	if err := <-profDone; err != nil {
		fmt.Println("profile:", err)
	} else {
		summarizeProfile(ctx, "API CPU profile during the polling", pollProf, filepath.Join(outDir, "api-cpu-poll.txt"))
	}
	pids2, _ := stats.backends(ctx, "markwell-api")
	api1, db1 := cpuOf([]int{apiPid}), cpuOf(append(pids, pids2...))
	apiCPU := cpuDelta(api0, api1).Seconds() - idleRate*window.Seconds()
	dbCPU := cpuDelta(db0, db1).Seconds()

	// The results, by their graded_at.
	var last time.Time
	var firstWorst time.Duration
	var done, failed, running int
	for i, v := range finals {
		var first time.Time
		for _, r := range v.FunctionResults {
			switch {
			case r.Status == "failed":
				failed++
			case inProgress(r.Status):
				running++
			default:
				done++
			}
			if r.GradedAt == nil {
				continue
			}
			g, err := time.Parse(time.RFC3339Nano, *r.GradedAt)
			if err != nil {
				return fmt.Errorf("gradedAt %q: %w", *r.GradedAt, err)
			}
			if first.IsZero() || g.Before(first) {
				first = g
			}
			if g.After(last) {
				last = g
			}
		}
		if first.IsZero() {
			fmt.Printf("teacher %d: no result at all\n", i+1)
			firstWorst = s.mondayWait
			continue
		}
		firstWorst = max(firstWorst, first.Sub(pressed))
	}
	took := last.Sub(pressed)
	res.Add("monday.last_result_s", took.Seconds(), "s", scaleNote)
	res.Add("monday.ideal_s", ideal.Seconds(), "s", fmt.Sprintf("%d calls at %d per minute", calls, s.mondayRPM))
	res.AtMost("monday.last_over_ideal", took.Seconds()/ideal.Seconds(), 1.15, "ratio", fmt.Sprintf("%d graded, %d failed, %d unfinished", done, failed, running))
	res.Add("monday.perfect_worker_s", windowIdeal.Seconds(), "s", fmt.Sprintf("%d slots, every call %s, the sliding minute window honoured exactly", aiSlots, s.mondayLat))
	res.Add("monday.last_over_perfect_worker", took.Seconds()/windowIdeal.Seconds(), "ratio", "")
	res.AtMost("monday.first_result_worst_s", firstWorst.Seconds(), 30, "s", "the unluckiest teacher's first result after grade-all")
	res.AtMost("monday.results_not_graded", float64(failed+running), 0, "results", "")

	rps := float64(polls.Load()) / window.Seconds()
	res.Add("poll.requests_per_s", rps, "requests/s", fmt.Sprintf("%d teachers polling assignment/get (%d submissions) every %s, %d errors", s.teachers, s.perClass, s.pollEvery, pollErrs.Load()))
	res.Add("poll.api_cpu_pct_core", 100*apiCPU/window.Seconds(), "% of one core", "the API process, /proc/<pid>/stat, its idle rate subtracted")
	res.Add("poll.db_cpu_pct_core", 100*dbCPU/window.Seconds(), "% of one core", "the API's PostgreSQL backends, /proc/<pid>/stat")
	res.Add("poll.wall_ms_per_s", float64(pollTime.Load())/float64(time.Millisecond)/window.Seconds(), "ms/s", "sum of poll response times per second (an upper bound on the database time)")
	res.AtMost("poll.cost_pct_core", 100*(apiCPU+dbCPU)/window.Seconds(), 2, "% of one core", "API + database CPU of the polling")
	res.Add("poll.not_modified", float64(kinds.notModified.Load())/float64(kinds.total()), "share", "of the polls: 304")
	res.Add("poll.delta", float64(kinds.delta.Load())/float64(kinds.total()), "share", "of the polls: a delta (the rest: full answers)")

	// The floor under poll.cost_pct_core: the same pages asking /healthz
	// (no session, no database) at the same rate cost this much of the API
	// process, the price of waking it that often.
	floor := pollFloor(ctx, st.BaseURL+"/healthz", apiPid, s.teachers, s.pollEvery, idleRate, min(10*time.Second, s.mondayWait/4))
	res.Add("poll.healthz_floor_pct_core", floor, "% of one core", fmt.Sprintf("GET /healthz by %d pages every %s: the API's cost of waking that often, under any poll", s.teachers, s.pollEvery))
	return nil
}

// pollFloor is the API's CPU (% of one core, idle subtracted) while n pages,
// each on its own connection, GET url every `every` for d.
func pollFloor(ctx context.Context, url string, apiPid, n int, every time.Duration, idleRate float64, d time.Duration) float64 {
	c0 := cpuOf([]int{apiPid})
	t0 := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 10 * time.Second}
			defer client.CloseIdleConnections()
			time.Sleep(time.Duration(i) * every / time.Duration(n))
			for time.Since(t0) < d && ctx.Err() == nil {
				if res, err := client.Get(url); err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				time.Sleep(every)
			}
		}()
	}
	wg.Wait()
	window := time.Since(t0)
	return 100 * (cpuDelta(c0, cpuOf([]int{apiPid})).Seconds() - idleRate*window.Seconds()) / window.Seconds()
}

// aiSlots is the ai queue's width (WORKER_QUEUES' default ai=32).
const aiSlots = 32

// perfectWorker is when the last of calls ends for a worker with slots
// slots, every call taking lat, under at most rpm calls in any minute
// (LLM_RPM's sliding window), calls started in order as soon as a slot and
// the window allow.
func perfectWorker(calls, slots, rpm int, lat time.Duration) time.Duration {
	if calls == 0 {
		return 0
	}
	start := make([]time.Duration, calls)
	for i := range start {
		if i >= slots {
			start[i] = start[i-slots] + lat
		}
		if rpm > 0 && i >= rpm {
			start[i] = max(start[i], start[i-rpm]+time.Minute)
		}
	}
	return start[calls-1] + lat
}
