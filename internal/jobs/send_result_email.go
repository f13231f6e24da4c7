package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/queue"
)

// errNoMailer is a send_result_email job run by a worker built without
// Deps.Mailer (a wiring mistake): nothing is sent, and the job stays to be
// retried by a worker that has one.
var errNoMailer = errors.New("send_result_email: this worker has no mailer")

// SendResultEmailWorker emails a released result's link to its student
// (release.Mailer.Deliver): River retries what is worth retrying, the
// team's rate limit snoozes the job, a bounce is recorded and done.
type SendResultEmailWorker struct {
	river.WorkerDefaults[queue.SendResultEmailArgs]
	deps Deps
}

// Timeout bounds one attempt: one SMTP conversation.
func (w *SendResultEmailWorker) Timeout(*river.Job[queue.SendResultEmailArgs]) time.Duration {
	return time.Minute
}

// Work implements river.Worker.
func (w *SendResultEmailWorker) Work(ctx context.Context, job *river.Job[queue.SendResultEmailArgs]) error {
	if w.deps.Mailer == nil {
		return errNoMailer
	}
	a := job.Args
	d, err := w.deps.Mailer.Deliver(ctx, a.SubmissionID, a.TeamID, a.ReleasedAt, job.Attempt >= job.MaxAttempts)
	switch {
	case err != nil:
		return err
	case d.Snooze > 0:
		return river.JobSnooze(d.Snooze)
	case d.Retry != nil:
		w.deps.logger().Warn("result email not sent yet; retrying", "submission", a.SubmissionID, "attempt", job.Attempt, "err", d.Retry)
		return d.Retry
	}
	return nil
}
