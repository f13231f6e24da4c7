package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// passback is the shape both grade-passback jobs share (pass_back_grades
// to Google Classroom, lti_score to an LMS): each attempt sends what is
// still pending; a failed attempt is logged and retried later (a minute,
// then longer: the other side was busy or down); the last failed attempt,
// or a worker without the service, abandons what is pending (so the
// teacher sees it failed for good and can send again) and cancels the job.
type passback struct {
	// name says in the log what was not sent ("google classroom grades").
	name string
	// attrs name the run in the log ("passback_id", id).
	attrs []any
	// unavailable, when not nil, is why this worker cannot send at all.
	unavailable error
	// send sends what is pending; last is the job's final attempt.
	send func(ctx context.Context, last bool) error
	// abandon ends what is still pending for good; it needs only the
	// database.
	abandon func(ctx context.Context) error
}

// passbackRetry is when a failed passback attempt runs again.
func passbackRetry(attempt int) time.Time {
	return time.Now().Add(time.Duration(attempt) * time.Minute)
}

// run runs one attempt of job.
func (p passback) run(ctx context.Context, log *slog.Logger, job *rivertype.JobRow) error {
	if p.unavailable != nil {
		return p.giveUp(ctx, p.unavailable)
	}
	last := job.Attempt >= job.MaxAttempts
	err := p.send(ctx, last)
	switch {
	case err == nil:
		return nil
	case last:
		log.Error(p.name+" not sent and the job failed for good; abandoning what is pending", append(p.attrs, "err", err)...)
		return p.giveUp(ctx, err)
	}
	log.Warn(p.name+" not all sent; will retry", append(p.attrs, "attempt", job.Attempt, "err", err)...)
	return err
}

// giveUp abandons what is pending and cancels the job: the run must end,
// or it would keep the assignment from sending again.
func (p passback) giveUp(ctx context.Context, err error) error {
	if p.abandon != nil {
		if aerr := p.abandon(context.WithoutCancel(ctx)); aerr != nil {
			return errors.Join(err, aerr)
		}
	}
	return river.JobCancel(err)
}
