package result

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// MsgFeedbackNotReady answers a student who asks for the assignment's
// definition before their result is finished.
const MsgFeedbackNotReady = "Your feedback is not ready yet."

// GetForStudent returns the result of a submission as its student reads it
// by view token (assignment.StudentResult): the status only until the
// result is finished, then the feedback the result page shows.
func (s *Service) GetForStudent(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID) (assignment.StudentResult, error) {
	fr, err := s.Get(ctx, a, submissionID, assignmentID)
	if err != nil {
		return assignment.StudentResult{}, err
	}
	return fr.ForStudentView(), nil
}

// GetFunctionForStudent returns an assignment's definition as the student
// of submissionID reads it by view token (assignment.StudentFunction), and
// only once their result is finished: before then there is nothing it would
// explain, and the answer is not found with MsgFeedbackNotReady. typ, when
// not empty, must be the assignment's type.
func (s *Service) GetFunctionForStudent(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, typ string) (assignment.StudentFunction, error) {
	row, err := store.Q.GetSubmissionResult(ctx, s.Pool, store.GetSubmissionResultParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: a.TeamID,
	})
	if err != nil {
		return assignment.StudentFunction{}, store.NotFound(fmt.Errorf("load result of submission %s: %w", submissionID, err))
	}
	if !assignment.Finished(row.Status) {
		return assignment.StudentFunction{}, apperr.New(apperr.NotFound, MsgFeedbackNotReady)
	}
	fn, err := s.Assignments.GetFunction(ctx, a, assignmentID, typ)
	if err != nil {
		return assignment.StudentFunction{}, err
	}
	var levels []int
	_ = json.Unmarshal(row.CriteriaLevels, &levels) // a level the result lacks reads as the first, as on the page
	return fn.ForStudentView(levels), nil
}
