package assignment

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// Change is one saved change of an assignment: who, when and what, in the
// sentences DescribeChanges writes.
type Change struct {
	ID        uuid.UUID  `json:"_id"`
	CreatedAt time.Time  `json:"createdAt"`
	User      ChangeUser `json:"user"`
	Changes   []string   `json:"changes"`
}

// ChangeUser is the teacher who made a change ("" once their account is
// gone).
type ChangeUser struct {
	ID    *uuid.UUID `json:"_id"`
	Name  string     `json:"name"`
	Email string     `json:"email"`
}

// History lists an assignment's changes, newest first (at most 500).
func (s *Service) History(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]Change, error) {
	if _, err := s.load(ctx, a, assignmentID); err != nil {
		return nil, err
	}
	rows, err := store.Q.ListAssignmentChanges(ctx, s.Pool, store.ListAssignmentChangesParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, fmt.Errorf("list changes of assignment %s: %w", assignmentID, err)
	}
	out := make([]Change, len(rows))
	for i, r := range rows {
		c := Change{ID: r.ID, CreatedAt: r.CreatedAt, User: ChangeUser{Name: r.UserName, Email: r.UserEmail}, Changes: []string{}}
		if r.UserID.Valid {
			id := r.UserID.UUID
			c.User.ID = &id
		}
		if err := json.Unmarshal(r.Changes, &c.Changes); err != nil {
			return nil, fmt.Errorf("decode change %s: %w", r.ID, err)
		}
		out[i] = c
	}
	return out, nil
}

// RecordChange saves changes (none: nothing) of an assignment by a, in
// db's transaction: sentences without their subject ("changed the points
// of 2a: 2 → 3"), which the history shows after a's name.
func RecordChange(ctx context.Context, db store.DBTX, a identity.Actor, assignmentID uuid.UUID, changes []string) error {
	if len(changes) == 0 {
		return nil
	}
	b, err := json.Marshal(changes)
	if err != nil {
		return fmt.Errorf("encode changes: %w", err)
	}
	err = store.Q.AddAssignmentChange(ctx, db, store.AddAssignmentChangeParams{
		TeamID: a.TeamID, AssignmentID: assignmentID, UserID: uuid.NullUUID{UUID: a.UserID, Valid: a.UserID != uuid.Nil},
		Changes: b,
	})
	if err != nil {
		return fmt.Errorf("record change of assignment %s: %w", assignmentID, err)
	}
	return nil
}

// recordFunctionChange follows a definition change from before to after:
// the results' answers follow their questions and criteria, results graded
// before versions existed are taken as graded against before, and the
// change goes into the history.
func (s *Service) recordFunctionChange(ctx context.Context, db store.DBTX, a identity.Actor, before, after Function) error {
	if len(before.Questions) > 0 || len(after.Questions) > 0 {
		rows, err := store.Q.LockAssignmentResultAnswers(ctx, db, store.LockAssignmentResultAnswersParams{AssignmentID: after.AssignmentID, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("lock results of assignment %s: %w", after.AssignmentID, err)
		}
		for _, r := range rows {
			next, changed, err := RemapAnswers(r.Answers, before.Questions, after.Questions)
			if err != nil {
				return err
			}
			if !changed {
				continue
			}
			if err := store.Q.SetResultAnswers(ctx, db, store.SetResultAnswersParams{ID: r.ID, TeamID: a.TeamID, Answers: next}); err != nil {
				return fmt.Errorf("reshape answers of result %s: %w", r.ID, err)
			}
		}
		if err := remapAnswerBoxes(ctx, db, a, after.AssignmentID, before.Questions, after.Questions); err != nil {
			return err
		}
	}
	if err := store.Q.BackfillGradedParts(ctx, db, store.BackfillGradedPartsParams{
		GradedParts: GradedParts(before), AssignmentID: after.AssignmentID, TeamID: a.TeamID,
	}); err != nil {
		return fmt.Errorf("keep the version results were graded against: %w", err)
	}
	names, err := s.rubricNames(ctx, db, a, before, after)
	if err != nil {
		return err
	}
	return RecordChange(ctx, db, a, after.AssignmentID, DescribeChanges(before, after, names))
}

// rubricNames names the rubrics a change may mention.
func (s *Service) rubricNames(ctx context.Context, db store.DBTX, a identity.Actor, fs ...Function) (func(string) string, error) {
	var ids []uuid.UUID
	for _, f := range fs {
		ids = append(ids, questionRubricIDs(f.Questions)...)
		if f.RubricID != nil {
			ids = append(ids, *f.RubricID)
		}
	}
	rubrics, err := loadRubrics(ctx, db, a.TeamID, ids)
	if err != nil {
		return nil, err
	}
	return func(id string) string {
		if u, err := uuid.Parse(id); err == nil {
			if r, ok := rubrics[u]; ok {
				return r.Name
			}
		}
		return "a rubric"
	}, nil
}

// describeSettings lists what changed of an assignment's name and switches.
func describeSettings(old store.Assignment, name string, in Input) []string {
	var out []string
	if old.Name != name {
		out = append(out, fmt.Sprintf("renamed the assignment: %s → %s", quote(old.Name), quote(name)))
	}
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	if old.IsHandWritten != in.IsHandWritten {
		out = append(out, "turned handwritten "+onOff(in.IsHandWritten))
	}
	if old.ProvideInstantFeedback != in.ProvideInstantFeedback {
		out = append(out, "turned instant feedback "+onOff(in.ProvideInstantFeedback))
	}
	return out
}

// remapAnswerBoxes keeps a handwritten assignment's answer boxes on their
// questions when the questions move (RemapBoxPaths).
func remapAnswerBoxes(ctx context.Context, db store.DBTX, a identity.Actor, assignmentID uuid.UUID, before, after []Question) error {
	row, err := store.Q.AnswerBoxAssignment(ctx, db, store.AnswerBoxAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return store.NotFound(fmt.Errorf("load answer boxes of assignment %s: %w", assignmentID, err))
	}
	boxes, changed, err := RemapBoxPaths(row.AnswerBoxes, before, after)
	if err != nil || !changed {
		return err
	}
	if _, err := store.Q.SaveAnswerBoxes(ctx, db, store.SaveAnswerBoxesParams{ID: assignmentID, TeamID: a.TeamID, AnswerBoxes: boxes}); err != nil {
		return fmt.Errorf("move answer boxes of assignment %s: %w", assignmentID, err)
	}
	return nil
}
