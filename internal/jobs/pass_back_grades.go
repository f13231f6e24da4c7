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
	return time.Now().Add(time.Duration(job.Attempt) * time.Minute)
}

// Work implements river.Worker.
func (w *PassBackGradesWorker) Work(ctx context.Context, job *river.Job[queue.PassBackGradesArgs]) error {
	a := job.Args
	if w.deps.Classroom == nil {
		err := errors.New("pass_back_grades: this worker has no Google Classroom service")
		// The run must end, or it would keep the assignment from sending again.
		if aerr := classroom.AbandonPassback(ctx, w.deps.Pool, a.TeamID, a.PassbackID); aerr != nil {
			return errors.Join(err, aerr)
		}
		return river.JobCancel(err)
	}
	last := job.Attempt >= job.MaxAttempts
	err := w.deps.Classroom.RunPassback(ctx, a.TeamID, a.PassbackID, last)
	switch {
	case err == nil:
		return nil
	case last:
		w.deps.logger().Error("passback failed for good; abandoning what is pending", "passback_id", a.PassbackID, "err", err)
		if aerr := classroom.AbandonPassback(ctx, w.deps.Pool, a.TeamID, a.PassbackID); aerr != nil {
			return errors.Join(err, aerr)
		}
		return river.JobCancel(err)
	case errors.Is(err, classroom.ErrRetry):
		w.deps.logger().Warn("google classroom busy; passback will be retried", "passback_id", a.PassbackID, "attempt", job.Attempt, "err", err)
	}
	return err
}
