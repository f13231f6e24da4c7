package lti

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/result"
)

// Totals gives an assignment's results with their points, as the results
// table shows them (result.Service).
type Totals interface {
	GetAssignment(ctx context.Context, a identity.Actor, id uuid.UUID) (assignment.Assignment, []result.FunctionResult, error)
}

// ReleaseStep returns the step a release of the assignment runs in its own
// transaction (release.Input.InTx): it hands the released rows' points and
// feedback links to QueueScoresTx, which records and queues those of
// pupils who came from an LMS, so a release and its scores commit
// together. The totals are read first, before the release begins.
func (s *Service) ReleaseStep(ctx context.Context, totals Totals, a identity.Actor, assignmentID uuid.UUID) (func(context.Context, pgx.Tx, []release.Release) error, error) {
	_, rows, err := totals.GetAssignment(ctx, a, assignmentID)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]result.FunctionResult, len(rows))
	for _, r := range rows {
		byID[r.Submission] = r
	}
	return func(ctx context.Context, tx pgx.Tx, rs []release.Release) error {
		out := make([]Released, 0, len(rs))
		for _, r := range rs {
			fr := byID[r.SubmissionID]
			out = append(out, Released{SubmissionID: r.SubmissionID, StudentName: r.StudentName, Points: fr.TotalPoints, Max: fr.MaxPoints, Link: r.Link})
		}
		return s.QueueScoresTx(ctx, tx, a, assignmentID, out)
	}, nil
}
