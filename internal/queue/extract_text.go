package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// ExtractTextArgs asks for the text of one uploaded submission.
type ExtractTextArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
}

// Kind implements river.JobArgs.
func (ExtractTextArgs) Kind() string { return "extract_text" }

// InsertOpts puts the job on the extract queue, once per submission.
func (ExtractTextArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueExtract, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}
