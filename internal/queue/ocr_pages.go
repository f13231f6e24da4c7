package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// OCRPagesArgs asks for the pages of a submission that have no text layer
// (scanned PDF pages, photos) to be read by OCR. extract_text queues it.
type OCRPagesArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
}

// Kind implements river.JobArgs.
func (OCRPagesArgs) Kind() string { return "ocr_pages" }

// InsertOpts puts the job on the ocr queue, once per submission.
func (OCRPagesArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueOCR, MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}
