package result

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

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
	// rows written since the client's version, in created order. Results
	// are encoded already, as a FunctionResult is sent (encodeResults).
	Results     []json.RawMessage
	Submissions []submission.Submission
	// AssignmentJSON and SubmissionsJSON, when set, are Assignment and
	// Submissions encoded already (a kept class's), sent instead.
	AssignmentJSON  json.RawMessage
	SubmissionsJSON []json.RawMessage
	// DeletedSubmissionIDs and DeletedResultIDs are a delta's deletions.
	DeletedSubmissionIDs []uuid.UUID
	DeletedResultIDs     []uuid.UUID
}

// EncodeJSON is the read as assignment/get sends it: the object
// {"assignment", "deletedFunctionResultIds", "deletedSubmissionIds",
// "delta", "functionResults", "submissions", "version"}
// (the delta's fields only in a delta), written around the results encoded
// already, so encoding/json does not compact every result's stored JSON
// again on each poll. The bytes are those json.Marshal makes of the same
// fields in a map.
func (r ClassRead) EncodeJSON() ([]byte, error) { return r.AppendJSON(nil) }

// AppendJSON is EncodeJSON appended to b (the answer's envelope, say), in
// one buffer sized for it.
func (r ClassRead) AppendJSON(b []byte) ([]byte, error) {
	size := len(b) + 512 + len(r.AssignmentJSON)
	for _, raw := range r.Results {
		size += len(raw) + 1
	}
	for _, raw := range r.SubmissionsJSON {
		size += len(raw) + 1
	}
	if r.SubmissionsJSON == nil {
		size += 400 * len(r.Submissions)
	}
	if r.AssignmentJSON == nil {
		size += 64 * len(r.Assignment.Submissions)
	}
	out := bytes.NewBuffer(slices.Grow(b, size-len(b)))
	field := func(sep, key string, v any) error {
		enc, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode %s: %w", key, err)
		}
		out.WriteString(sep + `"` + key + `":`)
		out.Write(enc)
		return nil
	}
	list := func(raws []json.RawMessage) {
		out.WriteByte('[')
		for i, raw := range raws {
			if i > 0 {
				out.WriteByte(',')
			}
			out.Write(raw)
		}
		out.WriteByte(']')
	}
	if r.AssignmentJSON != nil {
		out.WriteString(`{"assignment":`)
		out.Write(r.AssignmentJSON)
	} else if err := field("{", "assignment", r.Assignment); err != nil {
		return nil, err
	}
	if r.Delta {
		if err := field(",", "deletedFunctionResultIds", r.DeletedResultIDs); err != nil {
			return nil, err
		}
		if err := field(",", "deletedSubmissionIds", r.DeletedSubmissionIDs); err != nil {
			return nil, err
		}
		out.WriteString(`,"delta":true`)
	}
	out.WriteString(`,"functionResults":`)
	if r.Results == nil {
		out.WriteString("null")
	} else {
		list(r.Results)
	}
	if r.SubmissionsJSON != nil {
		out.WriteString(`,"submissions":`)
		list(r.SubmissionsJSON)
	} else if err := field(",", "submissions", r.Submissions); err != nil {
		return nil, err
	}
	if err := field(",", "version", r.Version.String()); err != nil {
		return nil, err
	}
	out.WriteByte('}')
	return out.Bytes(), nil
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
	if r, ok, err := s.readCached(ctx, a, subs, id, p); ok || err != nil {
		return r, err
	}
	start, err := s.startPoll(ctx, a, id, uuid.Nil, p.IfNoneMatch, p.Since) // before the read's own queries
	if err != nil {
		return ClassRead{}, err
	}
	if !start.InTeam {
		return ClassRead{}, apperr.ErrNotFound
	}
	now := start.Now
	var client changes.Version
	answer, set, err := changes.Plan(time.Now(), p.IfNoneMatch, p.Since, func(v changes.Version) (changes.Set, error) {
		client = v
		return s.changedSince(ctx, a, id, start, v)
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
	asg, fn, results, err := s.Assignments.GetUnsigned(ctx, a, id)
	if err != nil {
		return ClassRead{}, err
	}
	asg.Usage = usageOf(results)
	encoded, err := s.encodeResults(ctx, asg, fn, results)
	if err != nil {
		return ClassRead{}, err
	}
	list, err := subs.ListLoaded(ctx, a, id)
	if err != nil {
		return ClassRead{}, err
	}
	return ClassRead{Version: now, Assignment: asg, Results: encoded, Submissions: list}, nil
}

// readDelta reads the assignment and the rows set names; the usage totals
// still cover every result (summed in the assignment's own statement).
func (s *Service) readDelta(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, now changes.Version, set changes.Set) (ClassRead, error) {
	asg, fn, results, err := s.Assignments.GetUnsignedResults(ctx, a, id, set.Results)
	if err != nil {
		return ClassRead{}, err
	}
	encoded, err := s.encodeResults(ctx, asg, fn, results)
	if err != nil {
		return ClassRead{}, err
	}
	if asg.Usage == nil { // no definition: its read summed nothing
		u, err := store.Q.AssignmentUsageTotals(ctx, s.Pool, store.AssignmentUsageTotalsParams{AssignmentID: id, TeamID: a.TeamID})
		if err != nil {
			return ClassRead{}, fmt.Errorf("usage of assignment %s: %w", id, err)
		}
		asg.Usage = &assignment.Usage{
			Calls: int(u.Calls), PromptTokens: int(u.PromptTokens), CachedPromptTokens: int(u.CachedPromptTokens),
			CompletionTokens: int(u.CompletionTokens), CostUSD: u.CostUsd,
		}
	}
	list, err := subs.ListLoadedByIDs(ctx, a, id, set.Submissions)
	if err != nil {
		return ClassRead{}, err
	}
	return ClassRead{
		Version: now, Delta: true, Assignment: asg, Results: encoded, Submissions: list,
		DeletedSubmissionIDs: orEmpty(set.DeletedSubmissions), DeletedResultIDs: orEmpty(set.DeletedResults),
	}, nil
}

// ResultUnchanged says whether a read of a submission's result may answer
// 304 to the client's If-None-Match: the version is usable and neither the
// result, its submission, the assignment nor its definition changed since.
// It returns the version of a read starting now (before the read's own
// queries).
func (s *Service) ResultUnchanged(ctx context.Context, a identity.Actor, submissionID, assignmentID uuid.UUID, ifNoneMatch string) (changes.Version, bool, error) {
	start, err := s.startPoll(ctx, a, assignmentID, submissionID, ifNoneMatch)
	if err != nil || start.ResultID == uuid.Nil { // no result of the team's: the read says not found
		return start.Now, false, err
	}
	if start.Since.Snapshot == "" || start.Changes.Touches(start.ResultID, submissionID) {
		return start.Now, false, nil
	}
	return start.Since, true, nil
}

// startPoll begins a polled read (changes.Start) with the first usable
// version the client sent: for a poll whose versions agree, as the UI's
// do, the 304 or the delta's list of rows costs this one round trip, and a
// 304 none when the change listener can vouch for it (changes.Clock).
func (s *Service) startPoll(ctx context.Context, a identity.Actor, assignmentID, submissionID uuid.UUID, sent ...string) (changes.Read, error) {
	return s.Changes.Start(ctx, s.Pool, a.TeamID, assignmentID, submissionID, changes.Pick(time.Now(), sent...))
}

// changedSince is changes.Plan's question for a poll begun with start:
// what it already knows when v is the version start was given, another
// round trip otherwise.
func (s *Service) changedSince(ctx context.Context, a identity.Actor, id uuid.UUID, start changes.Read, v changes.Version) (changes.Set, error) {
	if v == start.Since {
		return start.Changes, nil
	}
	return changes.Since(ctx, s.Pool, a.TeamID, id, v)
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
	start, err := s.startPoll(ctx, a, id, uuid.Nil, ifNoneMatch) // before the read's own queries
	if err != nil {
		return RowsRead{}, err
	}
	if !start.InTeam {
		return RowsRead{}, apperr.ErrNotFound
	}
	now := start.Now
	var client changes.Version
	answer, _, err := changes.Plan(time.Now(), ifNoneMatch, "", func(v changes.Version) (changes.Set, error) {
		client = v
		return s.changedSince(ctx, a, id, start, v)
	})
	if err != nil {
		return RowsRead{}, err
	}
	if answer == changes.NotModified {
		return RowsRead{Version: client, NotModified: true}, nil
	}
	// The class's results and its submissions as the table sorts them (the
	// whole class, then the page's rows whole: a class of 10,000 does not
	// read every preview for a page of 50), read side by side on two
	// connections: for a year group each is tens of milliseconds, and the
	// first row of the page waits on both.
	whole := q.Sort == "preview"
	var (
		results []RowResult
		list    []submission.Submission
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		results, err = s.RowResults(gctx, a, id)
		return err
	})
	g.Go(func() (err error) {
		if whole {
			list, err = subs.ListLoaded(gctx, a, id)
		} else {
			list, err = subs.ListForSorting(gctx, a, id)
		}
		return err
	})
	if err := g.Wait(); err != nil {
		return RowsRead{}, err
	}
	page := BuildRows(list, results, q)
	if !whole {
		if page.Rows, err = wholeRows(ctx, a, subs, id, page.Rows); err != nil {
			return RowsRead{}, err
		}
	}
	page.Version = now.String()
	return RowsRead{Version: now, Page: page}, nil
}

// wholeRows gives a page's rows their whole submissions, in the page's
// order; a row whose submission was deleted since is left out.
func wholeRows(ctx context.Context, a identity.Actor, subs *submission.Service, id uuid.UUID, rows []Row) ([]Row, error) {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	list, err := subs.ListLoadedByIDs(ctx, a, id, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]submission.Submission, len(list))
	for _, s := range list {
		byID[s.ID] = s
	}
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		if s, ok := byID[r.ID]; ok {
			r.Submission = s
			out = append(out, r)
		}
	}
	return out, nil
}
