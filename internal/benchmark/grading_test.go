package benchmark_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/llm/fakellm"
)

// BenchmarkGradeAll presses "Grade all" on a class of 300 submissions
// whose text is ready (a grade assignment of 2 questions × 2 criteria: one
// model call each), the ai queue 32 wide, the demo model over HTTP at a
// fixed latency L. One iteration is one whole class, timed from the
// RunMany call (what grade-all runs) to the last result committed (its
// graded_at). A class takes over a second, so the default -benchtime runs
// each case once or twice; -benchtime=1x runs each exactly once.
//
// L=200ms and L=2s report
//
//	ratio           seconds ÷ (⌈300/32⌉ × L), the model's own time
//	                (targets ≤ 1.25 and ≤ 1.05)
//	seconds         grade-all to the last result
//	results/s       300 ÷ seconds
//	conns/call      TCP connections the model client opened per model call
//
// L=0 reports
//
//	ratio           results/s ÷ River's no-op jobs/s on the same database,
//	                queue and width, measured in the same iteration
//	                (target ≥ 0.10)
//	results/s       and noop/s, the two rates
//
// and all three where the time goes (last iteration; means per job):
//
//	first-fetch-ms  the RunMany call to River's first fetch (not per job)
//	handover-ms     River's fetch (attempted_at) to the worker's Work
//	load-ms         Work to the model call: the job's queries before it
//	call-ms         the model call through openai-go, L included
//	save-ms         the model's answer to Work's return: checks and SaveRun
//	idle-ms         time a slot stood empty, per job (the last wave's empty
//	                slots included: ideally (⌈300/32⌉ × 32 − 300) ÷ 300 × L)
func BenchmarkGradeAll(b *testing.B) {
	b.Run("L=0", benchThroughput)
	for _, l := range []time.Duration{200 * time.Millisecond, 2 * time.Second} {
		b.Run("L="+l.String(), func(b *testing.B) { benchLatency(b, l) })
	}
}

func benchLatency(b *testing.B, l time.Duration) {
	e := newEnv(b, fakellm.Options{Latency: l})
	ideal := time.Duration((classSize+aiSlots-1)/aiSlots) * l
	b.ResetTimer()
	var total time.Duration
	var last phases
	for range b.N {
		b.StopTimer()
		asgID, ids := e.class(b)
		e.times.reset()
		b.StartTimer()
		began := time.Now()
		took := e.gradeAll(b, asgID, ids)
		total += took
		last = e.times.phases(began, took)
	}
	b.StopTimer()
	per := total / time.Duration(b.N)
	last.report(b)
	b.ReportMetric(per.Seconds()/ideal.Seconds(), "ratio")
	b.ReportMetric(per.Seconds(), "seconds")
	b.ReportMetric(classSize/per.Seconds(), "results/s")
	b.ReportMetric(float64(e.conns.Load())/float64(e.demo.Stats().Requests), "conns/call")
}

func benchThroughput(b *testing.B) {
	e := newEnv(b, fakellm.Options{})
	e.noopRun(b) // the worker's first fetches and connections are not River's rate
	b.ResetTimer()
	var noop, grade time.Duration
	var last phases
	for range b.N {
		b.StopTimer()
		asgID, ids := e.class(b)
		b.StartTimer()
		noop += e.noopRun(b)
		e.times.reset()
		began := time.Now()
		took := e.gradeAll(b, asgID, ids)
		grade += took
		last = e.times.phases(began, took)
	}
	b.StopTimer()
	last.report(b)
	results := float64(classSize*b.N) / grade.Seconds()
	noops := float64(classSize*b.N) / noop.Seconds()
	b.ReportMetric(results/noops, "ratio")
	b.ReportMetric(results, "results/s")
	b.ReportMetric(noops, "noop/s")
}

// gradeAll grades the class and returns the time from the RunMany call to
// the last result committed; every result must end graded.
func (e *env) gradeAll(b *testing.B, asgID uuid.UUID, ids []uuid.UUID) time.Duration {
	b.Helper()
	start := time.Now()
	_, err := e.results.RunMany(e.ctx, e.actor, asgID, ids)
	must(b, err)
	f := e.waitResults(b, asgID, 3*time.Minute)
	if f.graded != len(ids) {
		b.Fatalf("%d of %d results graded, %d still in progress", f.graded, len(ids), f.busy)
	}
	return f.last.Sub(start)
}

// BenchmarkGradeAll429Storm is grade-all at L = 200 ms while 20 % of model
// calls answer 429 with Retry-After 2 s. It reports
//
//	lost           results not graded once nothing is in progress (must be 0)
//	early-retries  calls for a submission made before the Retry-After of a
//	               429 given to it had passed (must be 0)
//	calls/sub      model calls ÷ submissions (≤ 1.25; a fair 20 % storm
//	               averages 1 ÷ 0.8 = 1.25 whatever the worker does, so this
//	               checks that nothing adds calls: a client retry, a lost
//	               snooze)
//	x-ideal        seconds ÷ ideal-s (≤ 1.2)
//	ideal-s        this storm replayed through a perfect worker (see
//	               idealMakespan): each job's own 429s, every call taking
//	               L, every Retry-After honoured exactly, 32 slots, first
//	               come first served, no other cost
//	seconds        grade-all to the last result
func BenchmarkGradeAll429Storm(b *testing.B) {
	const l, retryAfter = 200 * time.Millisecond, 2 * time.Second
	e := newEnv(b, fakellm.Options{Latency: l, Rate429: 0.2, RetryAfter: retryAfter, Seed: 1})
	var lost, early, calls int64
	var took, ideal time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		asgID, ids := e.class(b)
		before := e.demo.Stats()
		b.StartTimer()
		start := time.Now()
		_, err := e.results.RunMany(e.ctx, e.actor, asgID, ids)
		must(b, err)
		f := e.waitResults(b, asgID, 3*time.Minute)
		b.StopTimer()
		after := e.demo.Stats()
		lost += int64(len(ids) - f.graded)
		early += after.EarlyRetries - before.EarlyRetries
		n := after.Requests - before.Requests
		calls += n
		if f.graded != len(ids) {
			b.Errorf("%d results lost (%d still in progress)", len(ids)-f.graded, f.busy)
			continue
		}
		took += f.last.Sub(start)
		snoozes := e.snoozes(b, ids)
		sum := int64(len(snoozes))
		for _, s := range snoozes {
			sum += int64(s)
		}
		if sum != n {
			b.Logf("River counts %d calls (jobs + snoozes), the demo model %d", sum, n)
		}
		ideal += idealMakespan(snoozes, aiSlots, l, retryAfter)
	}
	if early > 0 {
		b.Errorf("%d model calls came before their Retry-After", early)
	}
	runs := float64(b.N)
	b.ReportMetric(float64(lost)/runs, "lost")
	b.ReportMetric(float64(early)/runs, "early-retries")
	b.ReportMetric(float64(calls)/runs/classSize, "calls/sub")
	if ideal > 0 {
		b.ReportMetric(took.Seconds()/ideal.Seconds(), "x-ideal")
		b.ReportMetric(ideal.Seconds()/runs, "ideal-s")
		b.ReportMetric(took.Seconds()/runs, "seconds")
	}
}
