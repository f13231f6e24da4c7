package result

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// RunOutdated is runFunctionOnMany with onlyOutdated: of the submissions
// asked, only those whose results were graded against an earlier version
// of the definition (assignment.Outdated) are graded again. The job keeps
// the picks of every question that did not change (grading.KeepUnchanged);
// a change outside the questions (a highlighter, the rubric, the prompt,
// the context) regrades the whole result. Reviewed results are skipped unless opts says
// OverwriteReviewed, as in RunMany. It answers the results started, in the
// order asked (none when nothing is outdated).
func (s *Service) RunOutdated(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, submissionIDs []uuid.UUID, opts ...RunOptions) ([]FunctionResult, error) {
	o := options(opts)
	o.OnlyOutdated = true
	ids, asg, fn, err := s.runTarget(ctx, a, assignmentID, submissionIDs)
	if err != nil {
		return nil, err
	}
	rows, err := store.Q.ListAssignmentFunctionResults(ctx, s.Pool, store.ListAssignmentFunctionResultsParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, fmt.Errorf("list results of assignment %s: %w", assignmentID, err)
	}
	bySubmission := make(map[uuid.UUID]store.FunctionResult, len(rows))
	for _, r := range rows {
		bySubmission[r.SubmissionID] = r
	}
	var outdated []uuid.UUID
	marker := assignment.NewOutdatedMarker(fn)
	for _, id := range ids {
		r, ok := bySubmission[id]
		if !ok {
			return nil, apperr.ErrNotFound
		}
		fr := assignment.FunctionResultFromRow(r)
		marker.Mark(&fr)
		if fr.Outdated && !o.skips(fr.Status) {
			outdated = append(outdated, id)
		}
	}
	if len(outdated) == 0 {
		return []FunctionResult{}, nil
	}
	var started []store.FunctionResult
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		started, err = s.startIdle(ctx, tx, a.TeamID, assignmentID, string(asg.Type), outdated, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]FunctionResult, len(started))
	for i, r := range started {
		out[i] = assignment.FunctionResultFromRow(r)
	}
	return out, nil
}
