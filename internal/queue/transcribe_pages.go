package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// TranscribePagesArgs asks for the pages of a handwritten submission that
// have no text layer to be transcribed by the vision model. extract_text
// queues it instead of ocr_pages when the submission or its assignment is
// handwritten: tesseract cannot read handwriting.
type TranscribePagesArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
}

// Kind implements river.JobArgs.
func (TranscribePagesArgs) Kind() string { return "transcribe_pages" }

// InsertOpts puts the job on the ai queue, once per submission. Rate limits
// snooze the job, which uses no attempt.
func (TranscribePagesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueAI, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}
