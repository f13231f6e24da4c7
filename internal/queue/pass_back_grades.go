package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// PassBackGradesArgs asks for a "Send grades to Classroom" run to be worked
// through: each pending student's grade is set in Google Classroom (and the
// work returned when the teacher asked), one call per student.
type PassBackGradesArgs struct {
	PassbackID uuid.UUID `json:"passback_id"`
	TeamID     uuid.UUID `json:"team_id"`
}

// Kind implements river.JobArgs.
func (PassBackGradesArgs) Kind() string { return "pass_back_grades" }

// InsertOpts puts the job on the default queue (Google calls, no model).
// A retried attempt goes on with the students still pending; the last one
// stores a sentence for each of them.
func (PassBackGradesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 5}
}
