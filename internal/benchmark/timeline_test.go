package benchmark_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/markwell/markwell/internal/llm"
)

// timeline records where each grading job's time goes, so a ratio that
// misses its target says why: River hands the job over (attempted_at,
// stamped by the fetch), the worker loads its input, calls the model,
// saves the result and returns. It is River middleware around the work and
// a wrapper around the model client.
type timeline struct {
	river.MiddlewareDefaults
	mu    sync.Mutex
	spans []*span
}

type span struct {
	fetched, work, called, answered, done time.Time
}

type spanKey struct{}

var _ rivertype.WorkerMiddleware = (*timeline)(nil)

// Work implements rivertype.WorkerMiddleware.
func (t *timeline) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	if job.Kind != "grade_submission" || job.AttemptedAt == nil {
		return doInner(ctx)
	}
	s := &span{fetched: *job.AttemptedAt, work: time.Now()}
	err := doInner(context.WithValue(ctx, spanKey{}, s))
	s.done = time.Now()
	t.mu.Lock()
	t.spans = append(t.spans, s)
	t.mu.Unlock()
	return err
}

// reset forgets the spans of earlier runs.
func (t *timeline) reset() {
	t.mu.Lock()
	t.spans = nil
	t.mu.Unlock()
}

// phases are the mean time per job of each step, the mean time a slot
// stood empty per job over a run that began at start and took makespan,
// and the time from its start to River's first fetch.
type phases struct {
	first, handover, load, call, save, idle time.Duration
}

func (t *timeline) phases(start time.Time, makespan time.Duration) phases {
	t.mu.Lock()
	defer t.mu.Unlock()
	var p phases
	var held time.Duration
	n := time.Duration(len(t.spans))
	if n == 0 {
		return p
	}
	first := t.spans[0].fetched
	for _, s := range t.spans {
		if s.fetched.Before(first) {
			first = s.fetched
		}
		p.handover += s.work.Sub(s.fetched)
		p.load += s.called.Sub(s.work)
		p.call += s.answered.Sub(s.called)
		p.save += s.done.Sub(s.answered)
		held += s.done.Sub(s.fetched)
	}
	p.first = first.Sub(start)
	p.idle = (aiSlots*makespan - held) / n
	p.handover, p.load, p.call, p.save = p.handover/n, p.load/n, p.call/n, p.save/n
	return p
}

// report adds the phases to the benchmark's figures, in milliseconds.
func (p phases) report(b *testing.B) {
	for _, m := range []struct {
		d    time.Duration
		unit string
	}{{p.first, "first-fetch-ms"}, {p.handover, "handover-ms"}, {p.load, "load-ms"}, {p.call, "call-ms"}, {p.save, "save-ms"}, {p.idle, "idle-ms"}} {
		b.ReportMetric(float64(m.d)/float64(time.Millisecond), m.unit)
	}
}

// timedModel stamps the model call on the job's span.
type timedModel struct{ llm.Client }

// CompleteJSON implements llm.Client.
func (m timedModel) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	s, _ := ctx.Value(spanKey{}).(*span)
	start := time.Now()
	u, err := m.Client.CompleteJSON(ctx, req, out)
	if s != nil {
		s.called, s.answered = start, time.Now()
	}
	return u, err
}
