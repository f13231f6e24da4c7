package result

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// ClassRead is assignment/get's answer to a poll (changes.Plan): nothing
// (NotModified), the rows changed since the client's version (Delta), or
// the whole class.
type ClassRead struct {
	// Version is where this read stood; for a 304, the client's own.
	Version     changes.Version
	NotModified bool
	Delta       bool
	Assignment  assignment.Assignment
	// Results and Submissions are the whole class, or in a delta only the
	// rows written since the client's version, in created order.
	Results     []FunctionResult
	Submissions []submission.Submission
	// DeletedSubmissionIDs and DeletedResultIDs are a delta's deletions.
	DeletedSubmissionIDs []uuid.UUID
	DeletedResultIDs     []uuid.UUID
}

// Poll is what a polling client sends: the version it holds, as the
// If-None-Match header and as the since field ("" for none).
type Poll struct {
	IfNoneMatch string
	Since       string
}

// ReadClass answers assignment/get: the assignment, its results and its
// submissions, or less when the client's version allows (changes.Plan).
// Another team's assignment is not found whatever version is sent.
func (s *Service) ReadClass(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, p Poll) (ClassRead, error) {
	now, inTeam, err := changes.NowIn(ctx, s.Pool, a.TeamID, id) // before the read's own queries
	if err != nil {
		return ClassRead{}, err
	}
	if !inTeam {
		return ClassRead{}, apperr.ErrNotFound
	}
	var client changes.Version
	answer, set, err := changes.Plan(time.Now(), p.IfNoneMatch, p.Since, func(v changes.Version) (changes.Set, error) {
		client = v
		return changes.Since(ctx, s.Pool, id, v)
	})
	if err != nil {
		return ClassRead{}, err
	}
	switch answer {
	case changes.NotModified:
		return ClassRead{Version: client, NotModified: true}, nil
	case changes.Delta:
		return s.readDelta(ctx, a, subs, id, now, set)
	}
	asg, results, err := s.GetAssignment(ctx, a, id)
	if err != nil {
		return ClassRead{}, err
	}
	list, err := subs.ListLoaded(ctx, a, id)
	if err != nil {
		return ClassRead{}, err
	}
	return ClassRead{Version: now, Assignment: asg, Results: results, Submissions: list}, nil
}

// readDelta reads the assignment and the rows set names; the usage totals
// still cover every result.
func (s *Service) readDelta(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, now changes.Version, set changes.Set) (ClassRead, error) {
	asg, fn, results, err := s.Assignments.GetUnsignedResults(ctx, a, id, set.Results)
	if err != nil {
		return ClassRead{}, err
	}
	if err := s.presentAll(ctx, asg, fn, results); err != nil {
		return ClassRead{}, err
	}
	u, err := store.Q.AssignmentUsageTotals(ctx, s.Pool, store.AssignmentUsageTotalsParams{AssignmentID: id, TeamID: a.TeamID})
	if err != nil {
		return ClassRead{}, fmt.Errorf("usage of assignment %s: %w", id, err)
	}
	asg.Usage = &assignment.Usage{
		Calls: int(u.Calls), PromptTokens: int(u.PromptTokens), CachedPromptTokens: int(u.CachedPromptTokens),
		CompletionTokens: int(u.CompletionTokens), CostUSD: u.CostUsd,
	}
	list, err := subs.ListLoadedByIDs(ctx, a, id, set.Submissions)
	if err != nil {
		return ClassRead{}, err
	}
	return ClassRead{
		Version: now, Delta: true, Assignment: asg, Results: results, Submissions: list,
		DeletedSubmissionIDs: orEmpty(set.DeletedSubmissions), DeletedResultIDs: orEmpty(set.DeletedResults),
	}, nil
}

// ResultUnchanged says whether a read of a submission's result may answer
// 304 to the client's If-None-Match: the version is usable and neither the
// result, its submission, the assignment nor its definition changed since.
// It returns the version of a read starting now (before the read's own
// queries).
func (s *Service) ResultUnchanged(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, ifNoneMatch string) (changes.Version, bool, error) {
	now, resultID, err := changes.NowForResult(ctx, s.Pool, a.TeamID, assignmentID, submissionID)
	if err != nil || resultID == uuid.Nil { // no result of the team's: the read says not found
		return now, false, err
	}
	v, err := changes.Parse(ifNoneMatch)
	if err != nil || !v.Usable(time.Now()) {
		return now, false, nil
	}
	set, err := changes.Since(ctx, s.Pool, assignmentID, v)
	if err != nil {
		return now, false, err
	}
	if set.Touches(resultID, submissionID) {
		return now, false, nil
	}
	return v, true, nil
}

func orEmpty(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}

// RowsRead is submission-rows' answer to a poll: one page of the table, or
// nothing (NotModified) when the client's version is still current.
type RowsRead struct {
	// Version is where this read stood; for a 304, the client's own.
	Version     changes.Version
	NotModified bool
	Page        Rows
}

// ReadRows answers submission-rows: the page q asks for (BuildRows), or a
// 304 when nothing in the class changed since the If-None-Match version
// (changes.Plan). Another team's assignment is not found whatever version
// is sent.
func (s *Service) ReadRows(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, ifNoneMatch string, q RowQuery) (RowsRead, error) {
	now, inTeam, err := changes.NowIn(ctx, s.Pool, a.TeamID, id) // before the read's own queries
	if err != nil {
		return RowsRead{}, err
	}
	if !inTeam {
		return RowsRead{}, apperr.ErrNotFound
	}
	var client changes.Version
	answer, _, err := changes.Plan(time.Now(), ifNoneMatch, "", func(v changes.Version) (changes.Set, error) {
		client = v
		return changes.Since(ctx, s.Pool, id, v)
	})
	if err != nil {
		return RowsRead{}, err
	}
	if answer == changes.NotModified {
		return RowsRead{Version: client, NotModified: true}, nil
	}
	results, err := s.RowResults(ctx, a, id)
	if err != nil {
		return RowsRead{}, err
	}
	list, err := subs.ListLoaded(ctx, a, id)
	if err != nil {
		return RowsRead{}, err
	}
	page := BuildRows(list, results, q)
	page.Version = now.String()
	return RowsRead{Version: now, Page: page}, nil
}
