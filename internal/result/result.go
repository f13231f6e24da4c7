// Package result is what the AI made of each submission and what the
// teacher made of that: reading function results with their totals
// (computed from the assignment's current criteria on every read), the
// teacher's edits (criterion toggles, grade adjustments, feedback,
// highlights, rubric levels, benchmarks), starting AI runs (grade-all, a
// student's instant feedback), the class summary and "Check agreement".
// Every method takes the actor from the session; ids of other teams are not
// found.
package result

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
)

// Service reads and edits function results and starts AI runs.
type Service struct {
	Pool *pgxpool.Pool
	// Assignments loads assignments and their functions, and signs answer
	// media on reads.
	Assignments *assignment.Service
	// Model writes class summaries (its cheaper summary model); nil answers
	// 'Failed to generate summary.'.
	Model llm.Client
	// Jobs queues the grading and agreement jobs with the rows they work on.
	Jobs *queue.Client
	// Budget counts each graded submission against its team's AI budget;
	// nil counts nothing.
	Budget *ratelimit.AIBudget
	// Changes answers a poll of an unchanged class from memory when it can
	// vouch for it (changes.Clock); nil asks the database every time.
	Changes *changes.Clock
	// NoClassCache reads every class from the database (classcache.go).
	NoClassCache bool

	totals  totalsMemo
	encoded encodedResults
	classes classCache
}

// FunctionResult is a function result as the API returns it.
type FunctionResult = assignment.FunctionResult

// GetAssignment answers assignment/get: the assignment with what the AI has
// cost it, and its results with their totals.
func (s *Service) GetAssignment(ctx context.Context, a identity.Actor, id uuid.UUID) (assignment.Assignment, []FunctionResult, error) {
	asg, fn, results, err := s.Assignments.GetUnsigned(ctx, a, id)
	if err != nil {
		return asg, nil, err
	}
	if err := s.presentAll(ctx, asg, fn, results); err != nil {
		return asg, nil, err
	}
	asg.Usage = usageOf(results)
	return asg, results, nil
}

// usageOf is what the AI has cost an assignment: the sum over all its
// results, just read (store.AssignmentUsage's sum, without a second query
// per poll).
func usageOf(results []FunctionResult) *assignment.Usage {
	u := &assignment.Usage{}
	for _, r := range results {
		if ru := r.Usage; ru != nil {
			u.Calls += ru.Calls
			u.PromptTokens += ru.PromptTokens
			u.CachedPromptTokens += ru.CachedPromptTokens
			u.CompletionTokens += ru.CompletionTokens
			u.CostUSD += ru.CostUSD
		}
	}
	return u
}

// presentAll turns an assignment's stored results into their API shape, as
// assignment/get answers them: scored, marked outdated, media signed.
func (s *Service) presentAll(ctx context.Context, asg assignment.Assignment, fn *assignment.Function, results []FunctionResult) error {
	p := s.presenter(asg.Type, fn)
	for i := range results {
		p.present(&results[i])
	}
	return s.Assignments.SignResults(ctx, asg.ID, results)
}

// presenter scores results and marks them outdated against one definition.
type presenter struct {
	sc     scorer
	marker *assignment.OutdatedMarker
}

func (s *Service) presenter(typ string, fn *assignment.Function) presenter {
	p := presenter{sc: s.scorer(typ, fn)}
	if fn != nil {
		p.marker = assignment.NewOutdatedMarker(*fn)
	}
	return p
}

// present sets a result's totals and outdated marks, on the answers as
// stored (before signing, which changes them on every read).
func (p presenter) present(r *FunctionResult) {
	p.sc.score(r)
	if p.marker != nil {
		p.marker.Mark(r)
	}
}

// Get returns the result of a submission of an assignment.
func (s *Service) Get(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID) (FunctionResult, error) {
	// The result and the definition its totals need, in one round trip;
	// an assignment without a definition yet takes the longer way.
	both, err := store.Q.GetSubmissionResultWithFunction(ctx, s.Pool, store.GetSubmissionResultWithFunctionParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: a.TeamID,
	})
	if err == nil {
		fn, err := s.Assignments.FunctionIn(ctx, s.Pool, a, both.Function)
		if err != nil {
			return FunctionResult{}, err
		}
		return s.presentWith(ctx, both.FunctionResult, fn)
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return FunctionResult{}, fmt.Errorf("load result of submission %s: %w", submissionID, err)
	}
	row, err := store.Q.GetSubmissionResult(ctx, s.Pool, store.GetSubmissionResultParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: a.TeamID,
	})
	if err != nil {
		return FunctionResult{}, store.NotFound(fmt.Errorf("load result of submission %s: %w", submissionID, err))
	}
	return s.present(ctx, a, row)
}

// GetViewOnly returns a result as its student sees it: without flags,
// dropped highlights and cost, and with nothing but the status while the AI
// is still working (nothing of a previous run shows during a regrade).
func (s *Service) GetViewOnly(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID) (FunctionResult, error) {
	fr, err := s.Get(ctx, a, submissionID, assignmentID)
	if err != nil {
		return fr, err
	}
	fr = fr.ForStudent()
	if grading.IsInProgress(fr.Status) || fr.Status == "" {
		fr.ResultFields = assignment.ResultFields{CriteriaLevels: []int{}, CriteriaPoints: []float64{}, CriteriaFeedback: []string{}}
		fr.TotalPoints, fr.MaxPoints = nil, nil
	}
	return fr, nil
}

// present turns a stored result into its API shape: totals computed, media
// signed.
func (s *Service) present(ctx context.Context, a identity.Actor, row store.FunctionResult) (FunctionResult, error) {
	// The definition carries the assignment's type, so a read costs one
	// query here rather than two (the assignment, then its definition);
	// cmd/bench measures it. Only an assignment not defined yet needs the
	// assignment itself for its type.
	fn, err := s.Assignments.GetFunction(ctx, a, row.AssignmentID, "")
	switch {
	case errors.Is(err, apperr.ErrNotFound):
		asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: row.AssignmentID, TeamID: a.TeamID})
		if err != nil {
			return FunctionResult{}, store.NotFound(fmt.Errorf("load assignment %s: %w", row.AssignmentID, err))
		}
		return s.presentWith(ctx, row, assignment.Function{Type: string(asg.Type)})
	case err != nil:
		return FunctionResult{}, err
	}
	return s.presentWith(ctx, row, fn)
}

// presentWith is present with the assignment's definition at hand (only
// its type when it has none yet).
func (s *Service) presentWith(ctx context.Context, row store.FunctionResult, fn assignment.Function) (FunctionResult, error) {
	fr := assignment.FunctionResultFromRow(row)
	sc := s.scorer(fn.Type, &fn)
	sc.score(&fr) // on the answers as stored: signing changes them on every read
	fr.MarkOutdated(fn)
	one := []FunctionResult{fr}
	if err := s.Assignments.SignResults(ctx, row.AssignmentID, one); err != nil {
		return fr, err
	}
	return one[0], nil
}

// scorer computes totals with an assignment's current definition, as
// its type's grading.Scorer says.
type scorer struct {
	scorer grading.Scorer
	fn     assignment.Function
	// memo remembers grade totals under def, the questions as stored; an
	// empty def (a definition not read from the database) computes them
	// every time.
	memo *totalsMemo
	def  string
}

// scorer scores results of an assignment of type typ with its definition
// fn (nil when it has none yet: no totals).
func (s *Service) scorer(typ string, fn *assignment.Function) scorer {
	sc := scorer{memo: &s.totals}
	if fn == nil {
		return sc
	}
	if g, ok := grading.ScorerFor(typ); ok {
		sc.scorer, sc.fn, sc.def = g, *fn, fn.QuestionsKey()
	}
	return sc
}

// retotal is grading.Retotal, remembered when it can be.
func (sc scorer) retotal(answers json.RawMessage, questions []assignment.Question) (json.RawMessage, float64, float64, error) {
	if sc.def == "" {
		return grading.Retotal(answers, questions)
	}
	return sc.memo.retotal(sc.def, answers, questions)
}

// score sets a result's totals. Grade points come from its criteria
// booleans and the current criteria; a result the AI never graded has none.
func (sc scorer) score(fr *FunctionResult) {
	if sc.scorer == nil {
		return
	}
	r := grading.Result{ResultFields: fr.ResultFields}
	total, most, ok := sc.scorer.Score(sc.fn, &r, sc.retotal)
	if !ok {
		return
	}
	fr.Answers, fr.TotalPoints, fr.MaxPoints = r.Answers, &total, &most
}
