package result

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// Messages users see.
const (
	MsgFewBenchmarks    = "Mark at least 3 results as benchmarks to check agreement."
	MsgAgreementTypes   = "Agreement can be checked on grade and rubric-feedback assignments."
	MsgAgreementRunning = "Agreement is already being checked."
)

// ClassSummary is what the class met and missed, as stored on the
// assignment.
type ClassSummary struct {
	grading.Summary
	GeneratedAt time.Time `json:"generatedAt"`
}

// GenerateSummary asks the summary model what the class met and missed
// from the page's criteria breakdown and stores it on the assignment.
func (s *Service) GenerateSummary(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, breakdown []grading.CriterionRate) (ClassSummary, error) {
	if _, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID}); err != nil {
		return ClassSummary{}, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	if s.Model == nil {
		return ClassSummary{}, apperr.New(apperr.Upstream, grading.MsgSummaryFailed)
	}
	sum, _, err := grading.Summarize(ctx, s.Model, breakdown)
	if err != nil {
		return ClassSummary{}, err
	}
	out := ClassSummary{Summary: sum, GeneratedAt: time.Now().UTC()}
	data, err := json.Marshal(out)
	if err != nil {
		return ClassSummary{}, err
	}
	if err := store.Q.SaveClassSummary(ctx, s.Pool, store.SaveClassSummaryParams{
		ClassSummary: data, ID: assignmentID, TeamID: a.TeamID,
	}); err != nil {
		return ClassSummary{}, fmt.Errorf("save summary of assignment %s: %w", assignmentID, err)
	}
	return out, nil
}

// CheckAgreement starts "Check agreement" on an assignment with at least
// three benchmark results: a job regrades each with the others as
// examples and stores the report on the assignment.
func (s *Service) CheckAgreement(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) error {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	if _, ok := grading.AgreementFor(string(asg.Type)); !ok {
		return apperr.New(apperr.Invalid, MsgAgreementTypes)
	}
	bench, err := store.Q.ListBenchmarks(ctx, s.Pool, store.ListBenchmarksParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return fmt.Errorf("count benchmarks of assignment %s: %w", assignmentID, err)
	}
	if len(bench) < queue.MinBenchmarks {
		return apperr.New(apperr.Invalid, MsgFewBenchmarks)
	}
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		n, err := store.Q.StartAgreement(ctx, tx, store.StartAgreementParams{ID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("start agreement of assignment %s: %w", assignmentID, err)
		}
		if n == 0 {
			return apperr.New(apperr.Conflict, MsgAgreementRunning)
		}
		_, err = s.Jobs.InsertTx(ctx, tx, queue.CheckAgreementArgs{AssignmentID: assignmentID, TeamID: a.TeamID}, nil)
		return err
	})
}
