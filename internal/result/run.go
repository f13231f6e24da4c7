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
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
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

// RunMany starts the AI on submissions of an assignment (grade-all and
// grade-selected): in one transaction every selected result takes the
// type's in-progress status and one grading job per submission is queued.
// A submission whose text is still being read is graded when it is ready.
func (s *Service) RunMany(ctx context.Context, a team.Actor, assignmentID uuid.UUID, submissionIDs []uuid.UUID) ([]FunctionResult, error) {
	ids := unique(submissionIDs)
	switch {
	case len(ids) == 0:
		return nil, apperr.New(apperr.Invalid, MsgNoneToGrade)
	case len(ids) > MaxPerRun:
		return nil, apperr.New(apperr.Invalid, MsgTooManyToGrade)
	}
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	if _, err := s.Assignments.GetFunction(ctx, a, assignmentID, ""); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return nil, apperr.New(apperr.Invalid, MsgNoFunction)
		}
		return nil, err
	}
	var rows []store.FunctionResult
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		rows, err = s.start(ctx, tx, a.TeamID, assignmentID, string(asg.Type), ids)
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

// start puts results in progress and queues their jobs; an id that is not
// a submission of the assignment makes the whole call not found.
func (s *Service) start(ctx context.Context, tx pgx.Tx, teamID, assignmentID uuid.UUID, typ string, ids []uuid.UUID) ([]store.FunctionResult, error) {
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
		params[i] = river.InsertManyParams{Args: jobs.GradeSubmissionArgs{SubmissionID: r.SubmissionID}}
	}
	if err := jobs.InsertFairTx(ctx, s.Jobs, tx, jobs.QueueAI, params); err != nil {
		return nil, fmt.Errorf("queue %d grading jobs: %w", len(params), err)
	}
	return rows, nil
}

// GradeOne starts the AI on one submission (gradeOnePub). processName must
// be the assignment type's. A student (an actor without a user: the view
// token's) may only ask when instant feedback is on, and only once.
func (s *Service) GradeOne(ctx context.Context, a team.Actor, submissionID, assignmentID uuid.UUID, processName string) (string, error) {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return "", store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	typ := string(asg.Type)
	if processName != grading.ProcessFor(typ) {
		return "", apperr.New(apperr.Invalid, MsgWrongProcess)
	}
	student := a.UserID == uuid.Nil
	if student && !asg.ProvideInstantFeedback {
		return "", apperr.New(apperr.Forbidden, MsgNoInstant)
	}
	cur, err := store.Q.GetSubmissionResult(ctx, s.Pool, store.GetSubmissionResultParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: a.TeamID,
	})
	if err != nil {
		return "", store.NotFound(fmt.Errorf("load result of submission %s: %w", submissionID, err))
	}
	if student && cur.Status != "" && cur.Status != grading.StatusReadyToGrade {
		// a student's page asks once; asking again must not run (and bill) the AI again
		return cur.Status, nil
	}
	if _, err := s.Assignments.GetFunction(ctx, a, assignmentID, ""); err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return "", apperr.New(apperr.Invalid, MsgNoFunction)
		}
		return "", err
	}
	var status string
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if student {
			// the row lock makes requests at once (a double click, a
			// reload) take turns: only the first starts a run
			locked, err := store.Q.LockFunctionResult(ctx, tx, store.LockFunctionResultParams{ID: cur.ID, TeamID: a.TeamID})
			if err != nil {
				return store.NotFound(fmt.Errorf("lock result of submission %s: %w", submissionID, err))
			}
			if locked.Status != "" && locked.Status != grading.StatusReadyToGrade {
				status = locked.Status
				return nil
			}
		}
		rows, err := s.start(ctx, tx, a.TeamID, assignmentID, typ, []uuid.UUID{submissionID})
		if err != nil {
			return err
		}
		status = rows[0].Status
		return nil
	})
	return status, err
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
