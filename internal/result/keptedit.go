package result

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/store"
)

// A teacher's edit of a result whose class is kept in memory (the page she
// edits it on polls it) is computed from the result and the definition
// kept there and written in one statement that checks that neither has
// been written since (their stamps): one round trip instead of a
// transaction that locks the row and reads the definition. When either
// moved, or anything here would refuse the edit, the edit takes the
// locking way, whose answer (and error) is authoritative. An edit is
// never computed from a stale row: the statement would not match it.

// keptEdit is what an edit is computed from: a result and its definition
// as a kept class holds them, with their stamps.
type keptEdit struct {
	row     store.FunctionResult
	fn      assignment.Function
	stamp   string
	fnStamp string
}

// keptForEdit is the team's result id as a kept class holds it; ok false
// when no class holds it, or it or its definition cannot be checked by
// stamp (a stamp of 0; a library rubric embedded, which has none).
func (s *Service) keptForEdit(a identity.Actor, id uuid.UUID) (keptEdit, bool) {
	if s.NoClassCache {
		return keptEdit{}, false
	}
	st := s.classes.holding(id, a.TeamID)
	if st == nil {
		return keptEdit{}, false
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.at.Snapshot == "" || st.fn == nil || st.fnXid == 0 ||
		process.Uses(st.fn.Type, process.PartRubric) && st.fn.RubricID != nil {
		return keptEdit{}, false
	}
	for _, r := range st.results {
		if r.ID == id {
			if r.ChangedXid.Uint64 == 0 || r.TeamID != a.TeamID || grading.IsInProgress(r.Status) {
				return keptEdit{}, false
			}
			return keptEdit{
				row: r, fn: *st.fn,
				stamp:   strconv.FormatUint(r.ChangedXid.Uint64, 10),
				fnStamp: strconv.FormatUint(st.fnXid, 10),
			}, true
		}
	}
	return keptEdit{}, false
}

// toggleKept is ToggleCriterion from a kept class; ok false when it could
// not be written that way.
func (s *Service) toggleKept(ctx context.Context, a identity.Actor, t Toggle) (float64, bool, error) {
	k, ok := s.keptForEdit(a, t.ResultID)
	if !ok {
		return 0, false, nil
	}
	toggler, ok := grading.Type(k.fn.Type).(grading.Toggler)
	if !ok {
		return 0, false, nil
	}
	answers, delta, err := toggler.Toggle(k.fn, k.row.Answers, t.Path, t.CriterionIndex)
	if err != nil {
		return 0, false, nil // the locking way says why
	}
	saved, err := store.Q.SaveTickedAnswersIfUnchanged(ctx, s.Pool, store.SaveTickedAnswersIfUnchangedParams{
		Answers: answers, ID: k.row.ID, TeamID: a.TeamID, Stamp: k.stamp, FunctionStamp: k.fnStamp,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	s.classes.kept.Add(1)
	s.classes.wrote(a.TeamID, k.row, saved)
	return delta, true, nil
}

// updateKept is Update from a kept class; ok false when it could not be
// written that way.
func (s *Service) updateKept(ctx context.Context, a identity.Actor, e Edit) (FunctionResult, bool, error) {
	k, ok := s.keptForEdit(a, e.ResultID)
	if !ok || e.SubmissionID != uuid.Nil && e.SubmissionID != k.row.SubmissionID || e.changedSince(k.row) != nil {
		// a kept row older than the client's: the locking way reads the
		// stored one and judges
		return FunctionResult{}, false, nil
	}
	p, err := editParams(a, k.fn, k.row, e)
	if err != nil {
		return FunctionResult{}, false, nil // the locking way says why
	}
	saved, err := store.Q.SaveTeacherEditIfUnchanged(ctx, s.Pool, store.SaveTeacherEditIfUnchangedParams{
		Feedback: p.Feedback, HighlightedText: p.HighlightedText, CriteriaLevels: p.CriteriaLevels,
		CriteriaPoints: p.CriteriaPoints, CriteriaFeedback: p.CriteriaFeedback, OverallComments: p.OverallComments,
		Answers: p.Answers, Status: p.Status, ID: p.ID, TeamID: p.TeamID, Stamp: k.stamp, FunctionStamp: k.fnStamp,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return FunctionResult{}, false, nil
	}
	if err != nil {
		return FunctionResult{}, false, err
	}
	s.classes.kept.Add(1)
	s.classes.wrote(a.TeamID, k.row, saved)
	fr, err := s.presentWith(ctx, saved, k.fn)
	return fr, true, err
}

// wrote puts a result a kept edit wrote from was into its kept class, so
// the next edit of it is computed from what it wrote, not refused by its
// own stamp until a catch-up reads it back. Only while the class still
// holds was: a catch-up may have brought a newer row, or an older one
// (what it reads is at its own version; the row it replaced carries its
// stamp either way, so an edit from it is refused, never wrong).
func (c *classCache) wrote(team uuid.UUID, was, saved store.FunctionResult) {
	st := c.holding(saved.ID, team)
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	i := slices.IndexFunc(st.results, func(r store.FunctionResult) bool { return r.ID == saved.ID })
	if i < 0 || st.results[i].ChangedXid != was.ChangedXid || saved.ChangedXid.Uint64 == 0 {
		return
	}
	// results is never modified in place: answers under way may hold it.
	st.results = slices.Clone(st.results)
	st.results[i] = saved
	st.bytes = rowsBytes(st.results, st.list)
}
