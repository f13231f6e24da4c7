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
	return passbackRetry(job.Attempt)
}

// Work implements river.Worker. Scores that fail stay "failed" with the
// platform's answer as a sentence and the job is retried for them; after
// the last attempt they say that Markwell stopped trying.
func (w *LTIScoreWorker) Work(ctx context.Context, job *river.Job[queue.LTIScoreArgs]) error {
	a := job.Args
	p := passback{
		name:  "lti scores",
		attrs: []any{"assignment_id", a.AssignmentID},
		send: func(ctx context.Context, _ bool) error {
			return w.deps.LTI.SendScores(ctx, a.TeamID, a.AssignmentID)
		},
		abandon: func(ctx context.Context) error {
			if w.deps.LTI == nil {
				return nil
			}
			return w.deps.LTI.AbandonScores(ctx, a.TeamID, a.AssignmentID)
		},
	}
	if w.deps.LTI == nil {
		p.unavailable = errors.New("lti_score: this worker has no LTI service")
	}
	return p.run(ctx, w.deps.logger(), job.JobRow)
}
