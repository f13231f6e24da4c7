package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// LTIScoreArgs asks for an assignment's released LTI scores that are not
// sent yet to be posted to their platforms' gradebooks (internal/lti).
type LTIScoreArgs struct {
	TeamID       uuid.UUID `json:"team_id"`
	AssignmentID uuid.UUID `json:"assignment_id"`
}

// Kind implements river.JobArgs.
func (LTIScoreArgs) Kind() string { return "lti_score" }

// InsertOpts puts the job on the default queue (platform calls, no model);
// a failed attempt is retried with the scores still unsent.
func (LTIScoreArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 5}
}
