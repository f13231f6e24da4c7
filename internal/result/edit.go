package result

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// Limits on what a teacher saves.
const (
	// MaxFeedback caps a feedback text (prompt feedback, overall comments,
	// one answer's feedback) in bytes.
	MaxFeedback = 64 << 10
	// MaxHighlighted caps highlightedText in bytes.
	MaxHighlighted = 2 << 20
	// MaxAdjustment bounds a grade adjustment either way.
	MaxAdjustment = grading.MaxEditAdjustment
)

// Messages users see.
const (
	MsgFeedbackTooLong = "Feedback is too long"
	MsgBadStatus       = "A result can only be marked reviewed or not reviewed"
	MsgNotGrade        = "Criteria can only be toggled on a grade assignment's result"
	MsgNotPrompt       = "Only a prompt assignment's feedback can be edited here"
	MsgStillRunning    = "The AI is still working on this result. Please wait until it has finished."
	MsgAdjustment      = grading.MsgEditAdjustment
	// MsgChangedElsewhere refuses an edit computed from a result that has
	// been saved since (another tab, a colleague, a regrade): the client
	// reads the result again and applies its edit to that.
	MsgChangedElsewhere = "This result was changed somewhere else (another tab or a colleague) since it was opened. Reload it to see the changes."
)

// Edit is a teacher's edit of a result (functionResult/update): the whole
// result as the client holds it; what its type uses is saved.
type Edit struct {
	ResultID     uuid.UUID
	SubmissionID uuid.UUID
	assignment.ResultFields
	// Status is "reviewed" (the default) or the type's done status.
	Status string
	// BasedOn is the updatedAt of the result the client edited, when it
	// says: a result saved since is not overwritten (409,
	// MsgChangedElsewhere), since the whole result the client sends would
	// undo what was saved meanwhile.
	BasedOn *time.Time
}

// changedSince refuses an edit based on a result older than cur.
func (e Edit) changedSince(cur store.FunctionResult) error {
	if e.BasedOn != nil && !cur.UpdatedAt.Equal(*e.BasedOn) {
		return apperr.New(apperr.Conflict, MsgChangedElsewhere)
	}
	return nil
}

// Update saves a teacher's edit and marks the result reviewed (or, asked
// to, not reviewed). A result the AI is still working on cannot be edited.
// Every edit path of a teacher's (Update, ToggleCriterion,
// UpdatePromptFeedback) leaves the result reviewed, and RunMany and Grade
// skip reviewed results unless the request asks to overwrite them.
func (s *Service) Update(ctx context.Context, a identity.Actor, e Edit) (FunctionResult, error) {
	if len(e.Feedback) > MaxFeedback || len(e.OverallComments) > MaxFeedback {
		return FunctionResult{}, apperr.New(apperr.Invalid, MsgFeedbackTooLong)
	}
	if len(e.HighlightedText) > MaxHighlighted {
		return FunctionResult{}, apperr.New(apperr.TooLarge, "Highlighted text is too long")
	}
	if fr, ok, err := s.updateKept(ctx, a, e); ok || err != nil {
		return fr, err
	}
	var saved store.FunctionResult
	var fn assignment.Function
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var cur store.FunctionResult
		var err error
		cur, fn, err = s.lockForEdit(ctx, tx, a, e.ResultID)
		if err != nil {
			return err
		}
		if e.SubmissionID != uuid.Nil && e.SubmissionID != cur.SubmissionID {
			return apperr.ErrNotFound
		}
		if grading.IsInProgress(cur.Status) {
			return apperr.New(apperr.Conflict, MsgStillRunning)
		}
		if err := e.changedSince(cur); err != nil {
			return err
		}
		p, err := editParams(a, fn, cur, e)
		if err != nil {
			return err
		}
		saved, err = store.Q.SaveTeacherEdit(ctx, tx, p)
		return err
	})
	if err != nil {
		return FunctionResult{}, err
	}
	return s.presentWith(ctx, saved, fn)
}

// editParams is the write of a teacher's edit e of the stored result cur
// under its definition fn.
func editParams(a identity.Actor, fn assignment.Function, cur store.FunctionResult, e Edit) (store.SaveTeacherEditParams, error) {
	status, err := editStatus(e.Status, fn.Type)
	if err != nil {
		return store.SaveTeacherEditParams{}, err
	}
	p := store.SaveTeacherEditParams{
		ID: cur.ID, TeamID: a.TeamID, Status: status,
		Feedback: cur.Feedback, HighlightedText: cur.HighlightedText, CriteriaLevels: cur.CriteriaLevels,
		CriteriaPoints: cur.CriteriaPoints, CriteriaFeedback: cur.CriteriaFeedback,
		OverallComments: strings.TrimSpace(e.OverallComments), Answers: cur.Answers,
	}
	if err := applyEdit(fn, cur, e, &p); err != nil {
		return store.SaveTeacherEditParams{}, err
	}
	return p, nil
}

// lockForEdit locks the result a teacher edits for the rest of tx and
// reads its assignment's definition (with its rubric embedded) through tx,
// the caller's transaction (never a second connection). A result of
// another team's, or of an assignment without a definition of its type,
// is not found.
func (s *Service) lockForEdit(ctx context.Context, tx pgx.Tx, a identity.Actor, id uuid.UUID) (store.FunctionResult, assignment.Function, error) {
	row, err := store.Q.LockFunctionResultForEdit(ctx, tx, store.LockFunctionResultForEditParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return store.FunctionResult{}, assignment.Function{}, store.NotFound(fmt.Errorf("load result %s: %w", id, err))
	}
	fn, err := s.Assignments.FunctionIn(ctx, tx, a, row.Function)
	if err != nil {
		return store.FunctionResult{}, assignment.Function{}, err
	}
	return row.FunctionResult, fn, nil
}

// applyEdit checks the fields the assignment's type lets a teacher edit
// (its grading.Editor) and puts them in p.
func applyEdit(fn assignment.Function, cur store.FunctionResult, e Edit, p *store.SaveTeacherEditParams) error {
	typ := fn.Type
	editor, ok := grading.EditorFor(typ)
	if !ok {
		return nil // only the overall comments and the status
	}
	stored := storedResult(cur)
	next := e.ResultFields
	next.OverallComments = ""
	out, err := editor.Edit(fn, stored, grading.Result{ResultFields: next})
	if err != nil {
		return err
	}
	p.Feedback, p.HighlightedText, p.Answers = out.Feedback, out.HighlightedText, out.Answers
	if !slices.Equal(out.CriteriaLevels, stored.CriteriaLevels) || !slices.Equal(out.CriteriaPoints, stored.CriteriaPoints) ||
		!slices.Equal(out.CriteriaFeedback, stored.CriteriaFeedback) {
		if p.CriteriaLevels, err = json.Marshal(out.CriteriaLevels); err != nil {
			return err
		}
		if p.CriteriaPoints, err = json.Marshal(out.CriteriaPoints); err != nil {
			return err
		}
		if p.CriteriaFeedback, err = json.Marshal(out.CriteriaFeedback); err != nil {
			return err
		}
	}
	return nil
}

// storedResult is a stored result's editable fields, as a type's Editor
// reads them; lists stored in another shape read as empty.
func storedResult(cur store.FunctionResult) grading.Result {
	r := grading.Result{ResultFields: assignment.ResultFieldsFromRow(cur)}
	r.OverallComments = ""
	return r
}

// editStatus is the status an edit leaves: reviewed, or back to the type's
// done status.
func editStatus(want, typ string) (string, error) {
	switch want {
	case "", grading.StatusReviewed:
		return grading.StatusReviewed, nil
	case grading.DoneStatus(typ):
		return want, nil
	}
	return "", apperr.New(apperr.Invalid, MsgBadStatus)
}

// Toggle is gradeFunction/toggleCriterion's input.
type Toggle struct {
	ResultID       uuid.UUID
	Path           []int
	CriterionIndex int
}

// ToggleCriterion flips one criterion of one answer and returns how the
// total changed: plus the criterion's points when it was off, minus them
// when it was on, with the points the assignment stores now. Like every
// edit of the teacher's, a tick marks the result reviewed: grade-all then
// leaves it alone unless asked to grade it again (RunOptions).
func (s *Service) ToggleCriterion(ctx context.Context, a identity.Actor, t Toggle) (float64, error) {
	if change, ok, err := s.toggleKept(ctx, a, t); ok || err != nil {
		return change, err
	}
	var change float64
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		cur, fn, err := s.lockForEdit(ctx, tx, a, t.ResultID)
		if err != nil {
			return err
		}
		if grading.IsInProgress(cur.Status) {
			return apperr.New(apperr.Conflict, MsgStillRunning)
		}
		toggler, ok := grading.Type(fn.Type).(grading.Toggler)
		if !ok {
			return apperr.New(apperr.Invalid, MsgNotGrade)
		}
		answers, delta, err := toggler.Toggle(fn, cur.Answers, t.Path, t.CriterionIndex)
		if err != nil {
			return err
		}
		change = delta
		return store.Q.SaveTickedAnswers(ctx, tx, store.SaveTickedAnswersParams{Answers: answers, ID: cur.ID, TeamID: a.TeamID})
	})
	return change, err
}

// SetBenchmark marks a result as a benchmark (graded by the teacher, shown
// to the model as an example) or unmarks it.
func (s *Service) SetBenchmark(ctx context.Context, a identity.Actor, id uuid.UUID, on bool) (FunctionResult, error) {
	row, err := store.Q.SetBenchmark(ctx, s.Pool, store.SetBenchmarkParams{IsBenchmark: on, ID: id, TeamID: a.TeamID})
	if err != nil {
		return FunctionResult{}, store.NotFound(fmt.Errorf("set benchmark of result %s: %w", id, err))
	}
	return s.present(ctx, a, row)
}

// UpdatePromptFeedback saves the feedback of a prompt assignment's result
// as the teacher edited it; the result becomes reviewed, as after any edit
// of the teacher's. A result the AI is still working on cannot be edited
// (its run would overwrite the edit).
func (s *Service) UpdatePromptFeedback(ctx context.Context, a identity.Actor, id uuid.UUID, feedback string) error {
	if len(feedback) > MaxFeedback {
		return apperr.New(apperr.Invalid, MsgFeedbackTooLong)
	}
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		cur, err := store.Q.LockFunctionResult(ctx, tx, store.LockFunctionResultParams{ID: id, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("load result %s: %w", id, err))
		}
		if grading.IsInProgress(cur.Status) {
			return apperr.New(apperr.Conflict, MsgStillRunning)
		}
		n, err := store.Q.SavePromptFeedback(ctx, tx, store.SavePromptFeedbackParams{Feedback: feedback, ID: id, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("save feedback of result %s: %w", id, err)
		}
		return store.Affected(n)
	})
}
