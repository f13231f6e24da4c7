package jobs

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// Teacher-facing reasons of a failed run.
const (
	ReasonGradingUnfinished = "Grading did not finish. Please grade it again."
	ReasonNoText            = "The submission's text could not be read, so it could not be graded."
	ReasonNoDefinition      = "The assignment has no definition (questions, highlighters, rubric or prompt) to grade against."
	ReasonModelUnavailable  = "The AI could not be reached. Please grade it again later."
	// maxImageBytes caps one answer crop sent to the vision model.
	maxImageBytes = 4 << 20
)

// GradeSubmissionWorker runs the assignment's process on one submission
// and writes its function result once: the write is guarded by the
// in-progress status, so a retried or duplicated job never writes twice
// and never overwrites a result the teacher has reviewed.
type GradeSubmissionWorker struct {
	river.WorkerDefaults[queue.GradeSubmissionArgs]
	deps Deps
	defs definitions
	runs runWriter
}

// NewGradeSubmissionWorker returns the worker of grade_submission jobs over d.
func NewGradeSubmissionWorker(d Deps) *GradeSubmissionWorker { return &GradeSubmissionWorker{deps: d} }

// Timeout bounds one attempt (Deps.GradeTimeout, else GRADE_JOB_TIMEOUT's
// default).
func (w *GradeSubmissionWorker) Timeout(*river.Job[queue.GradeSubmissionArgs]) time.Duration {
	if w.deps.GradeTimeout > 0 {
		return w.deps.GradeTimeout
	}
	return config.DefaultGradeJobTimeout
}

// Work implements river.Worker.
func (w *GradeSubmissionWorker) Work(ctx context.Context, job *river.Job[queue.GradeSubmissionArgs]) error {
	id := job.Args.SubmissionID
	t, err := store.Q.RunTarget(ctx, w.deps.Pool, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return fmt.Errorf("load submission %s: %w", id, err)
	}
	if !grading.IsInProgress(t.Status) {
		return nil // written already, or the teacher moved on
	}
	switch t.ExtractStatus {
	case "failed":
		return w.fail(ctx, id, ReasonNoText, llm.Usage{})
	case "ready":
	default:
		return nil // the extraction queues this job again when the text is ready
	}
	if w.deps.LLM == nil {
		return w.fail(ctx, id, ReasonModelUnavailable, llm.Usage{})
	}
	in, graded, err := w.input(ctx, t)
	if errors.Is(err, errNoDefinition) {
		return w.fail(ctx, id, ReasonNoDefinition, llm.Usage{})
	}
	if err != nil {
		return err
	}
	res, usage, err := grading.Run(ctx, w.deps.LLM, in)
	w.deps.spendTokens(ctx, t.TeamID, usage)
	if err != nil {
		return w.failAttempt(ctx, job, err, usage)
	}
	if job.Args.OnlyOutdated {
		if res.Answers, err = keepUnchanged(t, in.Function, res.Answers); err != nil {
			return err
		}
	}
	return w.save(ctx, t, res, usage, graded)
}

// keepUnchanged is a targeted regrade's answers: when only questions
// changed since the result was graded, the others keep their previous
// grade; any other change (or a type without questions) keeps the run's.
func keepUnchanged(t store.RunTargetRow, fn assignment.Function, fresh json.RawMessage) (json.RawMessage, error) {
	if len(fresh) == 0 || len(fn.Questions) == 0 {
		return fresh, nil
	}
	changed, ok := assignment.OutdatedQuestions(assignment.Outdated(t.GradedParts, fn))
	if !ok {
		return fresh, nil
	}
	return grading.KeepUnchanged(fresh, t.Answers, fn.Questions, changed)
}

// save writes a finished run, once.
// graded is the fingerprints of the definition graded against
// (assignment.GradedParts).
func (w *GradeSubmissionWorker) save(ctx context.Context, t store.RunTargetRow, res grading.Result, u llm.Usage, graded json.RawMessage) error {
	flags := orEmpty(res.Flags)
	p := savedRun{
		Status: grading.DoneStatus(string(t.Type)), Feedback: res.Feedback, HighlightedText: res.HighlightedText,
		OverallComments: res.OverallComments, DroppedHighlights: int32(res.DroppedHighlights),
		Model: u.Model, ModelCalls: int32(u.Calls), PromptTokens: int32(u.PromptTokens),
		CachedPromptTokens: int32(u.CachedPromptTokens), CompletionTokens: int32(u.CompletionTokens),
		CostUsd: w.deps.Prices.Cost(u), SubmissionID: t.ID, InProgress: t.Status, GradedParts: graded,
	}
	var err error
	if p.CriteriaLevels, p.CriteriaPoints, p.CriteriaFeedback, err = res.EncodedCriteria(); err != nil {
		return err
	}
	if p.Flags, err = json.Marshal(flags); err != nil {
		return err
	}
	if len(res.Answers) > 0 {
		p.Answers = res.Answers
	}
	n, err := w.runs.save(context.WithoutCancel(ctx), w.deps.Pool, p)
	if err != nil {
		return fmt.Errorf("save result of submission %s: %w", t.ID, err)
	}
	if n == 0 {
		// the answer is discarded, but the calls were made: count them
		w.deps.logger().Info("grading result already written: nothing saved but the usage", "submission", t.ID)
		w.deps.addUsage(ctx, t.ID, u)
	}
	return nil
}

// spendTokens counts model calls' tokens (also of a failed or discarded
// run, transcription or agreement check) against the team's AI budget. A
// failure to count is logged.
func (d Deps) spendTokens(ctx context.Context, teamID uuid.UUID, u llm.Usage) {
	if err := d.Budget.SpendTokens(context.WithoutCancel(ctx), uuid.Nil, teamID, u.PromptTokens+u.CompletionTokens); err != nil {
		d.logger().Warn("count model tokens against the team's AI budget", "team", teamID, "err", err)
	}
}

// failAttempt decides what a failed run means: a rate limit snoozes the
// job; a permanent failure or an answer that twice did not fit the
// assignment fails the result at once; anything else is retried, and only
// the last attempt fails the result.
func (w *GradeSubmissionWorker) failAttempt(ctx context.Context, job *river.Job[queue.GradeSubmissionArgs], err error, u llm.Usage) error {
	id := job.Args.SubmissionID
	if wait, ok := llm.RetryAfter(err); ok {
		w.deps.logger().Info("model rate limit: grading snoozed", "submission", id, "wait", wait)
		w.deps.addUsage(ctx, id, u)
		return river.JobSnooze(wait)
	}
	permanent := grading.Final(err)
	if !permanent && job.Attempt < job.MaxAttempts {
		w.deps.addUsage(ctx, id, u)
		return err
	}
	w.deps.logger().Warn("grading failed", "submission", id, "attempt", job.Attempt, "err", err)
	if ferr := w.fail(ctx, id, grading.Reason(err), u); ferr != nil {
		return ferr
	}
	if permanent {
		return river.JobCancel(err)
	}
	return err
}

// addUsage counts what calls no guarded write counted cost (an attempt
// that will run again, a run whose answer was discarded, the transcription
// of the submission's pages), so a result's usage covers every call made
// for it. A failure to count is logged: it must not turn a retry into a
// failure.
func (d Deps) addUsage(ctx context.Context, id uuid.UUID, u llm.Usage) {
	if u.Calls == 0 {
		return
	}
	err := store.Q.AddRunUsage(context.WithoutCancel(ctx), d.Pool, store.AddRunUsageParams{
		ModelCalls: int32(u.Calls), PromptTokens: int32(u.PromptTokens), CachedPromptTokens: int32(u.CachedPromptTokens),
		CompletionTokens: int32(u.CompletionTokens), CostUsd: d.Prices.Cost(u), SubmissionID: id,
	})
	if err != nil {
		d.logger().Warn("count model usage on the submission's result", "submission", id, "err", err)
	}
}

// fail marks the result failed with a reason the teacher understands. A
// result no longer in progress is left as it is, but what the run cost is
// counted on it all the same.
func (w *GradeSubmissionWorker) fail(ctx context.Context, id uuid.UUID, reason string, u llm.Usage) error {
	n, err := store.Q.FailRun(context.WithoutCancel(ctx), w.deps.Pool, store.FailRunParams{
		Error: reason, Model: u.Model, ModelCalls: int32(u.Calls), PromptTokens: int32(u.PromptTokens),
		CachedPromptTokens: int32(u.CachedPromptTokens), CompletionTokens: int32(u.CompletionTokens),
		CostUsd: w.deps.Prices.Cost(u), SubmissionID: id,
	})
	if err != nil {
		return fmt.Errorf("mark result of submission %s failed: %w", id, err)
	}
	if n == 0 {
		w.deps.addUsage(ctx, id, u)
	}
	return nil
}

var errNoDefinition = errors.New("assignment has no function")

// input gathers what the process needs: the definition, the rubrics of its
// questions, the teacher's benchmarks and, for handwritten answers, their
// crops. Never a student's name or email.
// It also returns the fingerprints of the definition (GradedParts) the
// result will store.
func (w *GradeSubmissionWorker) input(ctx context.Context, t store.RunTargetRow) (grading.Input, json.RawMessage, error) {
	fn, qr, graded, err := w.defs.load(ctx, w.deps.Pool, t)
	if err != nil {
		return grading.Input{}, nil, err
	}
	in := grading.Input{Function: fn, QuestionRubrics: qr, Text: t.Text, Answers: t.Answers, FenceKey: w.deps.FenceKey}
	var bench []store.ListBenchmarksRow
	if t.HasBenchmarks { // most assignments have none: no query for them
		bench, err = store.Q.ListBenchmarks(ctx, w.deps.Pool, store.ListBenchmarksParams{AssignmentID: t.AssignmentID, TeamID: t.TeamID})
		if err != nil {
			return in, nil, fmt.Errorf("load benchmarks of assignment %s: %w", t.AssignmentID, err)
		}
	}
	for _, b := range bench {
		if b.SubmissionID != t.ID {
			in.Examples = append(in.Examples, ExampleFromBenchmark(b))
		}
	}
	if process.AnswerBoxes(fn.Type, t.IsHandWritten || t.AssignmentHandWritten) {
		if in.AnswerImages, err = w.answerImages(ctx, t.Answers); err != nil {
			return in, nil, err
		}
	}
	return in, graded, nil
}

// LoadFunction loads an assignment's definition by ids the caller has
// scoped, with its rubric and the rubrics its questions use
// (assignment.LoadFunction: one loader, one rule for a deleted rubric). An
// assignment without one answers errNoDefinition.
func LoadFunction(ctx context.Context, db store.DBTX, teamID, assignmentID uuid.UUID) (assignment.Function, map[uuid.UUID]rubric.Rubric, error) {
	fn, rubrics, err := assignment.LoadFunction(ctx, db, teamID, assignmentID)
	if errors.Is(err, apperr.ErrNotFound) {
		return fn, nil, errNoDefinition
	}
	return fn, rubrics, err
}

// ExampleFromBenchmark turns a teacher-checked result into a graded example.
func ExampleFromBenchmark(b store.ListBenchmarksRow) grading.Example {
	r := grading.Result{ResultFields: assignment.DecodeResultFields(
		b.Feedback, b.HighlightedText, b.OverallComments, b.CriteriaLevels, b.CriteriaPoints, b.CriteriaFeedback, b.Answers)}
	return grading.Example{Text: b.Text, Result: r}
}

// answerImages reads the crops of a handwritten result's answers as data:
// URLs, by answer path key.
func (w *GradeSubmissionWorker) answerImages(ctx context.Context, answers json.RawMessage) (map[string][]string, error) {
	media := map[string][]string{}
	collectMedia(answers, nil, media)
	out := make(map[string][]string, len(media))
	for key, blobs := range media {
		for _, k := range blobs {
			url, err := w.dataURL(ctx, k)
			if err != nil {
				return nil, err
			}
			out[key] = append(out[key], url)
		}
	}
	return out, nil
}

func (w *GradeSubmissionWorker) dataURL(ctx context.Context, key string) (string, error) {
	rc, err := w.deps.Blob.Get(ctx, key)
	if err != nil {
		return "", fmt.Errorf("read answer crop %s: %w", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxImageBytes+1))
	if err != nil {
		return "", fmt.Errorf("read answer crop %s: %w", key, err)
	}
	if len(b) > maxImageBytes {
		return "", fmt.Errorf("answer crop %s is larger than %d bytes: %w", key, maxImageBytes, llm.ErrPermanent)
	}
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b), nil
}

// collectMedia gathers the answerMedia keys of an answers tree by path key.
func collectMedia(raw json.RawMessage, parent []int, out map[string][]string) {
	var nodes []struct {
		AnswerMedia []string        `json:"answerMedia"`
		Subanswers  json.RawMessage `json:"subanswers"`
	}
	if json.Unmarshal(raw, &nodes) != nil {
		return
	}
	for i, n := range nodes {
		path := append(append([]int(nil), parent...), i)
		if len(n.AnswerMedia) > 0 {
			out[answerbox.PathKey(path)] = n.AnswerMedia
		}
		if len(n.Subanswers) > 0 {
			collectMedia(n.Subanswers, path, out)
		}
	}
}

// orEmpty makes a nil slice an empty one, so it is stored as [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
