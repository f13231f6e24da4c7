package result

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
)

// MaxPerRun caps the submissions of one runFunctionOnMany call.
const MaxPerRun = 1000

// Messages users see.
const (
	MsgNoneToGrade      = "Please choose at least one submission to grade."
	MsgTooManyToGrade   = "You can grade at most 1000 submissions at once."
	MsgWrongProcess     = "This process does not match the assignment's type."
	MsgNoFunction       = "Define the assignment (its questions, highlighters, rubric or prompt) before grading."
	MsgNoInstant        = "Instant feedback is not turned on for this assignment."
	MsgAlreadyRequested = "Your work is already being graded."
)

// MsgFeedbackWaits tells a student that their instant feedback waits for
// the teacher: the team's AI budget is spent, and the work is saved.
const MsgFeedbackWaits = "Your work is saved. Instant feedback is not available right now, so your teacher " +
	"will grade your work, and your feedback will appear on this page then."

// RunOptions is what a grade request asks beyond its submissions.
type RunOptions struct {
	// OverwriteReviewed grades results the teacher reviewed (ticked,
	// adjusted, commented, …) again too, replacing their edits; without
	// it they are skipped.
	OverwriteReviewed bool
	// OnlyOutdated (set by RunOutdated) asks the grading jobs to keep the
	// picks of every question that did not change since the result was
	// graded.
	OnlyOutdated bool
}

// skips reports whether a run leaves a result with status as it is: one
// already in progress (a job is queued for it), or one the teacher
// reviewed, unless asked to overwrite it.
func (o RunOptions) skips(status string) bool {
	return grading.IsInProgress(status) || (status == grading.StatusReviewed && !o.OverwriteReviewed)
}

// options is the RunOptions of a call that may leave them out.
func options(opts []RunOptions) RunOptions {
	if len(opts) == 0 {
		return RunOptions{}
	}
	return opts[0]
}

// RunMany starts the AI on submissions of an assignment (grade-all and
// grade-selected): in one transaction every selected result not already in
// progress takes the type's in-progress status, is counted against the
// team's AI budget (one call each; all or none: past it, 429 with how many
// calls are left and when they renew, and nothing is queued) and has one
// grading job queued. A result already in progress is not queued again,
// and a result the teacher reviewed is skipped unless opts asks to
// overwrite it (a skipped one is not counted against the budget); both
// come back with their status, like the others, in the order asked (see
// Skipped). A submission whose text is still being read is graded when it
// is ready.
func (s *Service) RunMany(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, submissionIDs []uuid.UUID, opts ...RunOptions) ([]FunctionResult, error) {
	ids, asg, _, err := s.runTarget(ctx, a, assignmentID, submissionIDs)
	if err != nil {
		return nil, err
	}
	var rows []store.FunctionResult
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		rows, err = s.startIdle(ctx, tx, a.TeamID, assignmentID, string(asg.Type), ids, options(opts))
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]FunctionResult, len(rows))
	for i, r := range rows {
		out[i] = assignment.FunctionResultFromRow(r)
	}
	return out, nil
}

// startIdle locks the results of ids, counts those opts does not skip
// against the team's AI budget and starts them; the rest are left as they
// are (in progress, or reviewed). It returns every result as it now is,
// in the order of ids; an id that is not a submission of the assignment
// makes the whole call not found.
func (s *Service) startIdle(ctx context.Context, tx pgx.Tx, teamID, assignmentID uuid.UUID, typ string, ids []uuid.UUID, opts RunOptions) ([]store.FunctionResult, error) {
	cur, err := store.Q.LockRuns(ctx, tx, store.LockRunsParams{AssignmentID: assignmentID, TeamID: teamID, SubmissionIds: ids})
	if err != nil {
		return nil, fmt.Errorf("lock results on assignment %s: %w", assignmentID, err)
	}
	if len(cur) != len(ids) {
		return nil, apperr.ErrNotFound
	}
	bySubmission := make(map[uuid.UUID]store.FunctionResult, len(cur))
	for _, r := range cur {
		bySubmission[r.SubmissionID] = r
	}
	var idle []uuid.UUID
	for _, id := range ids {
		if !opts.skips(bySubmission[id].Status) {
			idle = append(idle, id)
		}
	}
	if len(idle) > 0 {
		if err := s.Budget.Grade(ctx, tx, teamID, len(idle)); err != nil {
			return nil, err
		}
		started, err := s.start(ctx, tx, teamID, assignmentID, typ, idle, opts)
		if err != nil {
			return nil, err
		}
		for _, r := range started {
			bySubmission[r.SubmissionID] = r
		}
	}
	out := make([]store.FunctionResult, len(ids))
	for i, id := range ids {
		out[i] = bySubmission[id]
	}
	return out, nil
}

// start puts results in progress and queues their jobs; opts.OnlyOutdated
// asks the jobs to keep the picks of questions that did not change
// (RunOutdated).
func (s *Service) start(ctx context.Context, tx pgx.Tx, teamID, assignmentID uuid.UUID, typ string, ids []uuid.UUID, opts RunOptions) ([]store.FunctionResult, error) {
	rows, err := store.Q.StartRuns(ctx, tx, store.StartRunsParams{
		Status: grading.InProgressStatus(typ), AssignmentID: assignmentID, TeamID: teamID, SubmissionIds: ids,
	})
	if err != nil {
		return nil, fmt.Errorf("start runs on assignment %s: %w", assignmentID, err)
	}
	if len(rows) != len(ids) {
		return nil, apperr.ErrNotFound
	}
	params := make([]river.InsertManyParams, len(rows))
	for i, r := range rows {
		params[i] = river.InsertManyParams{Args: queue.GradeSubmissionArgs{SubmissionID: r.SubmissionID, OnlyOutdated: opts.OnlyOutdated}}
	}
	if err := queue.InsertFairTx(ctx, s.Jobs, tx, queue.QueueAI, params); err != nil {
		return nil, fmt.Errorf("queue %d grading jobs: %w", len(params), err)
	}
	return rows, nil
}

// Graded is what asking for one submission's grading answers.
type Graded struct {
	// Status is the result's status: in progress once started.
	Status string
	// Message, for a student, says that their instant feedback waits for
	// the teacher (the team's AI budget is spent); "" otherwise.
	Message string
}

// GradeOne is Grade's status alone.
func (s *Service) GradeOne(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, processName string, opts ...RunOptions) (string, error) {
	g, err := s.Grade(ctx, a, submissionID, assignmentID, processName, opts...)
	return g.Status, err
}

// Skipped is how many results of a RunMany answer were left as the
// teacher reviewed them: a run starts every other result it does not find
// in progress, so a reviewed one in its answer was skipped.
func Skipped(results []FunctionResult) int {
	n := 0
	for _, r := range results {
		if r.Status == grading.StatusReviewed {
			n++
		}
	}
	return n
}

// Grade starts the AI on one submission (gradeOnePub). processName must
// be the assignment type's. A result already in progress is not started
// again: its status is the answer, and so is a result the teacher reviewed
// unless opts asks to overwrite it (nothing is started or counted). A
// student (an actor without a user: the view token's) may only ask when
// instant feedback is on, and only once.
// The run counts one call against the team's AI budget; past it, a
// teacher gets 429 with how much is left and when it renews, while a
// student's work stays saved and unstarted for the teacher to grade, and
// the answer's Message says so.
func (s *Service) Grade(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, processName string, opts ...RunOptions) (Graded, error) {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Graded{}, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	typ := string(asg.Type)
	if processName != grading.ProcessFor(typ) {
		return Graded{}, apperr.New(apperr.Invalid, MsgWrongProcess)
	}
	student := a.UserID == uuid.Nil
	if student && !asg.ProvideInstantFeedback {
		return Graded{}, apperr.New(apperr.Forbidden, MsgNoInstant)
	}
	// a student's page asks once; asking again (or asking while a run is
	// under way) must not run, and bill, the AI again; a teacher's request
	// leaves a reviewed result alone unless it asks to overwrite it
	o := options(opts)
	started := func(status string) bool {
		return o.skips(status) || (student && status != "" && status != grading.StatusReadyToGrade)
	}
	cur, err := store.Q.GetSubmissionResult(ctx, s.Pool, store.GetSubmissionResultParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: a.TeamID,
	})
	if err != nil {
		return Graded{}, store.NotFound(fmt.Errorf("load result of submission %s: %w", submissionID, err))
	}
	if started(cur.Status) {
		return Graded{Status: cur.Status}, nil
	}
	if _, err := s.Assignments.GetFunction(ctx, a, assignmentID, ""); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return Graded{}, apperr.New(apperr.Invalid, MsgNoFunction)
		}
		return Graded{}, err
	}
	var out Graded
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		// the row lock makes requests at once (a double click, a reload)
		// take turns: only the first starts a run
		locked, err := store.Q.LockFunctionResult(ctx, tx, store.LockFunctionResultParams{ID: cur.ID, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("lock result of submission %s: %w", submissionID, err))
		}
		if started(locked.Status) {
			out.Status = locked.Status
			return nil
		}
		if err := s.Budget.Grade(ctx, tx, a.TeamID, 1); err != nil {
			if student && errors.Is(err, ratelimit.ErrLimited) {
				out = Graded{Status: locked.Status, Message: MsgFeedbackWaits}
				return nil
			}
			return err
		}
		rows, err := s.start(ctx, tx, a.TeamID, assignmentID, typ, []uuid.UUID{submissionID}, RunOptions{})
		if err != nil {
			return err
		}
		out.Status = rows[0].Status
		return nil
	})
	return out, err
}

// unique returns ids without repeats, in their first order.
func unique(ids []uuid.UUID) []uuid.UUID {
	seen := make(map[uuid.UUID]bool, len(ids))
	out := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// runTarget checks a grade request's submissions (at least one, at most
// MaxPerRun; repeats dropped) and loads its assignment and definition: an
// assignment not yet defined cannot be graded.
func (s *Service) runTarget(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, submissionIDs []uuid.UUID) ([]uuid.UUID, store.Assignment, assignment.Function, error) {
	ids := unique(submissionIDs)
	switch {
	case len(ids) == 0:
		return nil, store.Assignment{}, assignment.Function{}, apperr.New(apperr.Invalid, MsgNoneToGrade)
	case len(ids) > MaxPerRun:
		return nil, store.Assignment{}, assignment.Function{}, apperr.New(apperr.Invalid, MsgTooManyToGrade)
	}
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, asg, assignment.Function{}, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	fn, err := s.Assignments.GetFunction(ctx, a, assignmentID, "")
	if errors.Is(err, apperr.ErrNotFound) {
		return nil, asg, fn, apperr.New(apperr.Invalid, MsgNoFunction)
	}
	return ids, asg, fn, err
}
