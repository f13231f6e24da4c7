package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/queue"
)

// LTIScoreWorker posts an assignment's released scores to the LMS
// gradebooks they came from (internal/lti stores each pupil's outcome).
type LTIScoreWorker struct {
	river.WorkerDefaults[queue.LTIScoreArgs]
	deps Deps
}

// NewLTIScoreWorker returns the worker of lti_score jobs over d.
func NewLTIScoreWorker(d Deps) *LTIScoreWorker { return &LTIScoreWorker{deps: d} }

// Timeout bounds one attempt: a class, a call or two each.
func (w *LTIScoreWorker) Timeout(*river.Job[queue.LTIScoreArgs]) time.Duration {
	return 10 * time.Minute
}

// NextRetry waits a minute, then longer: the platform was down or refused.
func (w *LTIScoreWorker) NextRetry(job *river.Job[queue.LTIScoreArgs]) time.Time {
	return time.Now().Add(time.Duration(job.Attempt) * time.Minute)
}

// Work implements river.Worker. Scores that fail stay "failed" with the
// platform's answer as a sentence; the job is retried for them.
func (w *LTIScoreWorker) Work(ctx context.Context, job *river.Job[queue.LTIScoreArgs]) error {
	if w.deps.LTI == nil {
		return river.JobCancel(errors.New("lti_score: this worker has no LTI service"))
	}
	err := w.deps.LTI.SendScores(ctx, job.Args.TeamID, job.Args.AssignmentID)
	if err != nil {
		w.deps.logger().Warn("lti scores not all sent; will retry", "assignment_id", job.Args.AssignmentID, "attempt", job.Attempt, "err", err)
	}
	return err
}
