package queue

import (
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// SendResultEmailArgs asks for the email that carries a released result's
// link to its student. ReleasedAt names the release it was queued for: a
// release revoked (or revoked and released again with a new link) since
// then is not emailed by this job.
type SendResultEmailArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
	TeamID       uuid.UUID `json:"team_id"`
	ReleasedAt   time.Time `json:"released_at"`
}

// Kind implements river.JobArgs.
func (SendResultEmailArgs) Kind() string { return "send_result_email" }

// InsertOpts puts the job on the default queue. Eight attempts with River's
// backoff span a few hours: a mail server down for a while still delivers.
func (SendResultEmailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 8}
}
