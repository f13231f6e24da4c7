package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// GradeSubmissionArgs asks for the AI to grade or annotate one submission
// with its assignment's process (GradeProcessV2, FeedbackProcess,
// RubricFeedbackProcess or PromptProcess). runFunctionOnMany and gradeOnePub
// queue it with the result's in-progress status; extract_text queues it
// when grading was asked for before the text was read.
type GradeSubmissionArgs struct {
	SubmissionID uuid.UUID `json:"submission_id"`
	// OnlyOutdated (runFunctionOnMany's onlyOutdated) keeps the previous
	// grade of every question that did not change since the result was
	// graded (grading.KeepUnchanged).
	OnlyOutdated bool `json:"only_outdated,omitempty"`
}

// Kind implements river.JobArgs.
func (GradeSubmissionArgs) Kind() string { return "grade_submission" }

// InsertOpts puts the job on the ai queue. Rate limits snooze it (no
// attempt used); 5xx and timeouts retry with River's backoff.
func (GradeSubmissionArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueAI, MaxAttempts: 5}
}
