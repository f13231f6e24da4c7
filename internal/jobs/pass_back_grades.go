package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/queue"
)

// PassBackGradesWorker sends an assignment's grades to Google Classroom
// (internal/classroom does the work and stores each student's outcome).
type PassBackGradesWorker struct {
	river.WorkerDefaults[queue.PassBackGradesArgs]
	deps Deps
}

// NewPassBackGradesWorker returns the worker of pass_back_grades jobs over d.
func NewPassBackGradesWorker(d Deps) *PassBackGradesWorker { return &PassBackGradesWorker{deps: d} }

// Timeout bounds one attempt: a class of a few hundred students, a few
// calls each.
func (w *PassBackGradesWorker) Timeout(*river.Job[queue.PassBackGradesArgs]) time.Duration {
	return 15 * time.Minute
}

// NextRetry waits a minute, then longer: Google said it was busy or down.
func (w *PassBackGradesWorker) NextRetry(job *river.Job[queue.PassBackGradesArgs]) time.Time {
	return passbackRetry(job.Attempt)
}

// Work implements river.Worker: the students still pending are sent; on
// the last failed attempt they fail with classroom.MsgPassbackAbandoned.
func (w *PassBackGradesWorker) Work(ctx context.Context, job *river.Job[queue.PassBackGradesArgs]) error {
	a := job.Args
	p := passback{
		name:  "google classroom grades",
		attrs: []any{"passback_id", a.PassbackID},
		send: func(ctx context.Context, last bool) error {
			return w.deps.Classroom.RunPassback(ctx, a.TeamID, a.PassbackID, last)
		},
		abandon: func(ctx context.Context) error {
			return classroom.AbandonPassback(ctx, w.deps.Pool, a.TeamID, a.PassbackID)
		},
	}
	if w.deps.Classroom == nil {
		p.unavailable = errors.New("pass_back_grades: this worker has no Google Classroom service")
	}
	return p.run(ctx, w.deps.logger(), job.JobRow)
}
