package release

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
)

// DefaultPerTeamPerMinute is SMTP_PER_TEAM_PER_MINUTE's default: a class of
// 300 goes out in five minutes, and one team cannot fill the mail server's
// quota for everyone.
const DefaultPerTeamPerMinute = 60

// Mailer sends the email of one release (the send_result_email job's work).
type Mailer struct {
	Pool *pgxpool.Pool
	// SMTP is the mail server; nil marks every email failed.
	SMTP  *SMTP
	Links Links
	// Limiter and PerTeam cap the emails of one team (nil or zero: none).
	Limiter *ratelimit.Limiter
	PerTeam ratelimit.Rule
	// Now is the clock of the Date header; nil means time.Now.
	Now func() time.Time
}

// Delivery is how one attempt went.
type Delivery struct {
	// Snooze, when set, asks to try again after it without counting an
	// attempt (the team's rate limit).
	Snooze time.Duration
	// Retry is a failure worth retrying (a 4xx reply, the connection); the
	// job returns it so River retries with its backoff. On the last attempt
	// the release is marked failed with it instead.
	Retry error
}

// Deliver sends the email of the release of submissionID queued at
// releasedAt. A release revoked since, or released again with a new link,
// is not emailed. last says this is the job's last attempt.
func (m *Mailer) Deliver(ctx context.Context, submissionID, teamID uuid.UUID, releasedAt time.Time, last bool) (Delivery, error) {
	row, err := store.Q.GetReleaseForEmail(ctx, m.Pool, store.GetReleaseForEmailParams{SubmissionID: submissionID, TeamID: teamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return Delivery{}, nil // the submission was deleted
	}
	if err != nil {
		return Delivery{}, fmt.Errorf("load release of submission %s: %w", submissionID, err)
	}
	mark := func(state, msg string) error {
		return store.Q.SetReleaseEmail(context.WithoutCancel(ctx), m.Pool, store.SetReleaseEmailParams{
			EmailState: state, EmailError: msg, SubmissionID: submissionID, TeamID: teamID, ReleasedAt: releasedAt,
		})
	}
	if !row.ReleasedAt.Equal(releasedAt) {
		return Delivery{}, nil // revoked and released again: that release has its own job, if any
	}
	if row.RevokedAt != nil {
		return Delivery{}, mark(EmailNone, "Not sent: the release was revoked first.")
	}
	if m.SMTP == nil {
		return Delivery{}, mark(EmailFailed, "Email is not set up on this server.")
	}
	if m.Limiter != nil && m.PerTeam.Limit > 0 {
		u, ok, err := m.Limiter.Take(ctx, m.Pool, m.PerTeam, "email:team:"+teamID.String(), 1)
		if err != nil {
			return Delivery{}, err
		}
		if !ok {
			wait := time.Until(u.Ends)
			if m.Limiter.Now != nil {
				wait = u.Ends.Sub(m.Limiter.Now())
			}
			return Delivery{Snooze: max(wait, time.Second)}, nil
		}
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	msg, err := Letter{
		StudentName: row.StudentName, StudentEmail: row.StudentEmail, AssignmentName: row.AssignmentName,
		TeacherName: row.TeacherName, TeacherEmail: row.TeacherEmail, Link: m.Links.URL(m.Links.Token(row.TokenNonce)),
	}.Message(m.SMTP.From, now())
	if err != nil {
		return Delivery{}, mark(EmailFailed, "The email could not be written: "+err.Error())
	}
	err = m.SMTP.Send(ctx, Envelope{From: m.SMTP.From.Address, To: row.StudentEmail}, msg)
	var rejected *Rejected
	switch {
	case err == nil:
		return Delivery{}, mark(EmailSent, "")
	case errors.As(err, &rejected):
		return Delivery{}, mark(EmailBounced, rejected.Reply)
	case last:
		return Delivery{}, mark(EmailFailed, err.Error())
	default:
		if merr := store.Q.SetReleaseEmail(context.WithoutCancel(ctx), m.Pool, store.SetReleaseEmailParams{
			EmailState: EmailQueued, EmailError: "Retrying: " + err.Error(), SubmissionID: submissionID, TeamID: teamID, ReleasedAt: releasedAt,
		}); merr != nil {
			return Delivery{}, merr
		}
		return Delivery{Retry: err}, nil
	}
}
