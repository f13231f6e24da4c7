package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// BuildReportsArgs asks for a "Print reports" run (a row of reports) to be
// built: a PDF feedback report per student, converted by LibreOffice in
// batches, stored as a ZIP of them and one combined PDF (internal/report).
type BuildReportsArgs struct {
	ReportID uuid.UUID `json:"report_id"`
	TeamID   uuid.UUID `json:"team_id"`
}

// Kind implements river.JobArgs.
func (BuildReportsArgs) Kind() string { return "build_reports" }

// InsertOpts puts the job on the default queue. Every attempt builds the
// whole run again (the row is only done once both files are stored), so a
// worker that died mid-way leaves a run River retries.
func (BuildReportsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 3}
}
