// Package grading is Markwell's four AI processes, which grade or annotate
// one submission, and the arithmetic of their results.
//
//   - GradeProcessV2 (grade): the model decides, per answer node of the
//     question tree, one boolean per criterion (keyed by the criterion's
//     number, "1", "2", …) and feedback. Points are never the model's:
//     [Retotal] computes them from the booleans and the assignment's current
//     criteria, so editing a criterion's points changes every total at once.
//   - FeedbackProcess (feedback): the model quotes passages under the
//     assignment's highlight keys with a comment; they are placed into the
//     text with highlight.Build. Passages not found or with unknown keys are
//     dropped and counted.
//   - RubricFeedbackProcess (rubric-feedback): per rubric criterion a level
//     (and points within the level's range when the criterion uses ranges),
//     feedback, overall comments and highlighted passages under the keys
//     "criterion1", "criterion2", … (see [RubricHighlightKeys]). Levels are
//     listed best first, as the rubric editor shows them: without ranges the
//     level at index i of n is worth n − i points ([LevelPoints]).
//   - PromptProcess (prompt): free-form feedback following the teacher's
//     prompt.
//
// Student text is data, never instructions: every block of material is
// fenced with a secret code, the submission's random for every call (see
// prompt.go, which also orders the prompt for the provider's prompt cache:
// what a class shares first, the student's work last), the system prompt
// says not to obey the submission, and [DetectInjection] flags attempts
// whatever the model says. Student names and emails never reach this
// package; prompts speak of "the submission".
package grading

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
)

// Process names (the spec's lambda/gradeOnePub processName).
const (
	ProcessGrade          = "GradeProcessV2"
	ProcessFeedback       = "FeedbackProcess"
	ProcessRubricFeedback = "RubricFeedbackProcess"
	ProcessPrompt         = "PromptProcess"
)

// Function result statuses (docs/api-grading.md).
const (
	StatusReadyToGrade  = "ready-to-grade"
	StatusGrading       = "grading"
	StatusRubricGrading = "rubric-grading"
	StatusAnnotating    = "annotating"
	StatusGraded        = "graded"
	StatusAnnotated     = "annotated"
	StatusFailed        = "failed"
	StatusReviewed      = "reviewed"
)

// Task names: the structured-output schema names, by which the demo model
// recognises the task.
const (
	TaskGrade          = "grade_answers"
	TaskFeedback       = "highlight_feedback"
	TaskRubricFeedback = "rubric_feedback"
	TaskPrompt         = "prompt_feedback"
	TaskSummary        = "class_summary"
)

// ProcessFor is the process that grades an assignment of type
// assignmentType (the registry's [process.Type.Process]), or "" for an
// unknown type.
func ProcessFor(assignmentType string) string {
	if t, ok := process.Lookup(assignmentType); ok {
		return t.Process()
	}
	return ""
}

// InProgressStatus is the status of a result of an assignment of type
// assignmentType while the AI works on it: grading (grade, prompt),
// rubric-grading or annotating; "" for an unknown type.
func InProgressStatus(assignmentType string) string {
	if t, ok := process.Lookup(assignmentType); ok {
		return t.InProgressStatus()
	}
	return ""
}

// DoneStatus is the status of a result the AI finished: annotated for
// feedback, graded for the other types; "" for an unknown type.
func DoneStatus(assignmentType string) string {
	if t, ok := process.Lookup(assignmentType); ok {
		return t.DoneStatus()
	}
	return ""
}

// IsInProgress reports whether status says the AI is working.
func IsInProgress(status string) bool {
	return process.IsInProgress(status)
}

// DefaultExampleBudget is the approximate number of tokens graded examples
// may take in a prompt when Input.ExampleBudget is 0.
const DefaultExampleBudget = 6000

// MaxText caps the submission text sent to the model, in characters; longer
// text is cut (and the prompt says so).
const MaxText = 60_000

// Input is everything one run needs. It holds no student name or email.
type Input struct {
	// Function is the assignment's definition; Type picks the process. For
	// rubric-feedback Function.Rubric must be set.
	Function assignment.Function
	// QuestionRubrics are the rubrics attached to grade questions
	// (Question.RubricID).
	QuestionRubrics map[uuid.UUID]rubric.Rubric
	// Text is the submission's extracted text.
	Text string
	// Answers is the result's current answers tree (may be null); the
	// coordinates and media of its nodes are kept.
	Answers json.RawMessage
	// AnswerImages are, for a handwritten grade assignment, per
	// answerbox.PathKey ("0-1"), data: URLs of the answer's crops; they are
	// sent to the vision model.
	AnswerImages map[string][]string
	// Examples are teacher-graded benchmark results of the same assignment,
	// shown to the model as calibration.
	Examples []Example
	// ExampleBudget is the approximate number of tokens the examples may
	// take (about 4 characters each); 0 means DefaultExampleBudget. Examples
	// that do not fit are left out.
	ExampleBudget int
	// FenceKey makes the code that fences the blocks a class shares (the
	// assignment, the examples) HMAC-SHA256(FenceKey, those blocks): the
	// same for every submission of the class, so the provider can cache
	// the prompt's shared prefix, and unguessable without the key (see
	// [FenceKey]). Empty means a random code for every call. The
	// submission's own code is random for every call either way.
	FenceKey []byte
}

// Example is a result the teacher graded (a benchmark) with its text.
type Example struct {
	Text   string
	Result Result
}

// Flag kinds and sources.
const (
	FlagInjection  = "injection"
	SourceDetector = "detector"
	SourceModel    = "model"
)

// Flag marks something in a submission the teacher should see: a passage
// that tries to instruct the grader.
type Flag struct {
	Kind    string `json:"kind"`
	Passage string `json:"passage"`
	Source  string `json:"source"`
}

// Result is what a run writes into a function result: every field exists
// for every type, the ones the type does not use are empty.
type Result struct {
	// The fields a run writes (the grade answers tree's points computed by
	// Retotal).
	assignment.ResultFields
	// Flags are the injection attempts found by DetectInjection and the
	// model, without repeats.
	Flags []Flag
	// DroppedHighlights counts passages the model returned that were not in
	// the text, overlapped another or named an unknown key.
	DroppedHighlights int
}

// ErrInvalidOutput is wrapped by Run's error when the model's answer broke
// the schema or the assignment twice. Retrying the job will not help by
// itself; the result fails with [Reason].
var ErrInvalidOutput = errors.New("the model's answer did not fit the assignment twice")

// errNoText is the cause when there is nothing to grade.
var errNoText = errors.New("the submission has no text")

// setupError is an assignment that cannot be graded as it is defined.
type setupError struct{ reason string }

func (e *setupError) Error() string { return "assignment cannot be graded: " + e.reason }

// Unwrap makes a setup error permanent: a retry cannot fix it.
func (e *setupError) Unwrap() error { return llm.ErrPermanent }

// Run grades or annotates one submission: it builds the prompt, calls the
// model, and checks the answer against the assignment. An answer that breaks
// the schema or the assignment (llm.ErrBadOutput, an unknown criterion, a
// level out of range, wrong counts) is retried once with the problem told to
// the model; a second failure returns an error wrapping ErrInvalidOutput.
// Model errors (rate limit, permanent, transient) are returned wrapped, so
// llm.RetryAfter and llm.IsPermanent still see them. The usage sums every
// call made, failed ones included.
func Run(ctx context.Context, model llm.Client, in Input) (Result, llm.Usage, error) {
	var total llm.Usage
	p, err := plan(in)
	if err != nil {
		return Result{}, total, err
	}
	req, err := p.request(in)
	if err != nil {
		return Result{}, total, err
	}
	for attempt := 1; ; attempt++ {
		var raw json.RawMessage
		u, err := model.CompleteJSON(ctx, req, &raw)
		total.Add(u)
		var res Result
		var report InjectionReport
		problem := err // what the model is told on a retry
		if err == nil {
			if res, report, problem = p.Finish(raw); problem != nil {
				err = fmt.Errorf("%w: %w", llm.ErrBadOutput, problem)
			}
		}
		switch {
		case err == nil:
			res.Flags = mergeFlags(DetectInjection(in.Text), report)
			return res, total, nil
		case !errors.Is(err, llm.ErrBadOutput):
			return Result{}, total, fmt.Errorf("grading %s: %w", p.Task, err)
		case attempt >= 2:
			return Result{}, total, fmt.Errorf("grading %s: %w: %w", p.Task, ErrInvalidOutput, err)
		}
		req = retryRequest(req, raw, problem)
	}
}

// Final reports whether err will not go away by running the job again: the
// provider refused the request, the assignment cannot be graded as defined,
// or the model's answer did not fit twice. The result should fail with
// [Reason].
func Final(err error) bool {
	return errors.Is(err, ErrInvalidOutput) || llm.IsPermanent(err) || errors.Is(err, errNoText)
}

// Reason is the sentence a teacher reads for a failed run: never internals.
func Reason(err error) string {
	var setup *setupError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &setup):
		return setup.reason
	case errors.Is(err, errNoText):
		return "The submission has no text to grade."
	case errors.Is(err, ErrInvalidOutput):
		return "The AI's answer did not fit this assignment twice. Please grade it again."
	case errors.Is(err, llm.ErrPermanent):
		return "The AI provider refused the request: check the AI settings, or shorten the submission if it is very long."
	case errors.Is(err, llm.ErrBadOutput):
		return "The AI's answer could not be used. Please grade it again."
	case errors.Is(err, context.DeadlineExceeded):
		return "The AI took too long to answer. Please grade it again."
	}
	if _, ok := llm.RetryAfter(err); ok {
		return "The AI provider is busy (rate limit). Please grade it again in a few minutes."
	}
	return "The AI provider could not be reached or had a problem. Please grade it again."
}
