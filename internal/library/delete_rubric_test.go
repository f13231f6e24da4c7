package library_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/store"
)

// gradedResult stores a graded rubric-feedback result with the teacher's
// levels, points and feedback, and returns its id.
func (b *bundle) gradedResult(t *testing.T, asg store.Assignment, fn store.Function, levels, points, feedback string) uuid.UUID {
	t.Helper()
	sub := b.submission(t, asg)
	var id uuid.UUID
	require.NoError(t, b.svc.Pool.QueryRow(b.ctx, `
		INSERT INTO function_results (team_id, assignment_id, submission_id, function_id, status, criteria_levels, criteria_points, criteria_feedback)
		VALUES ($1, $2, $3, $4, 'graded', $5, $6, $7) RETURNING id`,
		asg.TeamID, asg.ID, sub.ID, fn.ID, levels, points, feedback).Scan(&id))
	return id
}

// resultScores are a result's stored levels, points and feedback.
func (b *bundle) resultScores(t *testing.T, id uuid.UUID) [3]string {
	t.Helper()
	var out [3]string
	require.NoError(t, b.svc.Pool.QueryRow(b.ctx,
		`SELECT criteria_levels::text, criteria_points::text, criteria_feedback::text FROM function_results WHERE id = $1`, id).
		Scan(&out[0], &out[1], &out[2]))
	return out
}

func TestDeleteRubricRefusedWhileAnAssignmentGradesAgainstIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	mate := b.mate(t, ada, "Cy")
	rub := b.rubric(t, ada, "Argument")
	asg := b.assignment(t, ada, "Essay 3", store.AssignmentTypeRubricFeedback)
	fn := b.function(t, asg, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	r1 := b.gradedResult(t, asg, fn, `[1]`, `[2]`, `[""]`)
	r2 := b.gradedResult(t, asg, fn, `[0]`, `[4]`, `["Strong thesis, well argued."]`)
	before := [2][3]string{b.resultScores(t, r1), b.resultScores(t, r2)}

	// A colleague of the same team tidies the library: refused, naming the
	// assignment; nothing changes.
	requireCode(t, b.svc.DeleteRubric(b.ctx, mate, rub.ID), apperr.Conflict,
		"This rubric is used by “Essay 3”. Choose another rubric for it or delete it first.")
	_, err := store.Q.GetRubric(b.ctx, b.svc.Pool, store.GetRubricParams{ID: rub.ID, TeamID: ada.TeamID})
	require.NoError(t, err, "the rubric is still in the library")
	require.Equal(t, uuid.NullUUID{UUID: rub.ID, Valid: true}, b.fn(t, ada, asg.ID).RubricID)
	f, _, err := assignment.LoadFunction(b.ctx, b.svc.Pool, ada.TeamID, asg.ID)
	require.NoError(t, err)
	require.NotNil(t, f.Rubric, "the assignment still grades against its rubric")
	require.Equal(t, "Argument", f.Rubric.Name)
	require.Equal(t, before, [2][3]string{b.resultScores(t, r1), b.resultScores(t, r2)}, "the results keep their levels, points and feedback")
	require.Len(t, b.lib(t, ada).Rubrics, 1)
}

func TestDeleteRubricRefusedWhileAGradeQuestionUsesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	rub := b.rubric(t, ada, "Argument")
	asg := b.assignment(t, ada, "Argument essay", store.AssignmentTypeGrade)
	// The rubric sits on a subquestion, two levels down.
	questions := `[{"questionText":"Q1","context":"","rubricId":null,"criteria":[{"description":"d","points":1}],"subquestions":[` +
		`{"questionText":"Q1a","context":"","rubricId":"` + rub.ID.String() + `","criteria":[{"description":"d","points":1}],"subquestions":[]}]}]`
	b.function(t, asg, uuid.NullUUID{}, questions)

	requireCode(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID), apperr.Conflict,
		"This rubric is used by “Argument essay”. Choose another rubric for it or delete it first.")
	require.Len(t, b.lib(t, ada).Rubrics, 1)
}

func TestDeleteRubricNamesThreeAssignmentsThenCounts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	rub := b.rubric(t, ada, "Argument")
	// Newest first, as the library lists them.
	for _, name := range []string{"E", "D", "C", "B", "A"} {
		asg := b.assignment(t, ada, name, store.AssignmentTypeRubricFeedback)
		b.function(t, asg, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	}
	requireCode(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID), apperr.Conflict,
		"This rubric is used by “A”, “B”, “C” and 2 more. Choose another rubric for them or delete them first.")

	require.Equal(t, "This rubric is used by “Essay 3” and “Argument essay”. Choose another rubric for them or delete them first.",
		library.RubricInUseMessage([]string{"Essay 3", "Argument essay"}))
	require.Equal(t, "This rubric is used by “A”, “B” and “C”. Choose another rubric for them or delete them first.",
		library.RubricInUseMessage([]string{"A", "B", "C"}))
	require.Equal(t, "This rubric is used by “A”, “B”, “C” and 1 more. Choose another rubric for them or delete them first.",
		library.RubricInUseMessage([]string{"A", "B", "C", "D"}))
}

func TestDeleteUnusedRubricAndAnotherTeams(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	unused := b.rubric(t, ada, "Unused")
	used := b.rubric(t, ada, "Used")
	// Another team's assignment naming Ada's rubric id does not hold it.
	foreign := b.assignment(t, bob, "Bob's", store.AssignmentTypeGrade)
	b.function(t, foreign, uuid.NullUUID{}, `[{"questionText":"Q","context":"","rubricId":"`+unused.ID.String()+`","criteria":[],"subquestions":[]}]`)
	asg := b.assignment(t, ada, "Essay", store.AssignmentTypeRubricFeedback)
	b.function(t, asg, uuid.NullUUID{UUID: used.ID, Valid: true}, `[]`)

	// Another team's rubric, used or not, is not found, and says nothing of
	// its assignments.
	requireCode(t, b.svc.DeleteRubric(b.ctx, bob, unused.ID), apperr.NotFound, "")
	requireCode(t, b.svc.DeleteRubric(b.ctx, bob, used.ID), apperr.NotFound, "")
	requireCode(t, b.svc.DeleteRubric(b.ctx, ada, uuid.New()), apperr.NotFound, "")
	require.Len(t, b.lib(t, ada).Rubrics, 2)

	require.NoError(t, b.svc.DeleteRubric(b.ctx, ada, unused.ID))
	rubrics := b.lib(t, ada).Rubrics
	require.Len(t, rubrics, 1)
	require.Equal(t, used.ID, rubrics[0].ID)
}

// A definition being saved holds its rubrics (assignment's lockOwnRubrics):
// a delete at the same time waits for it and then sees the new use.
func TestDeleteRubricWaitsForADefinitionBeingSaved(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	rub := b.rubric(t, ada, "Argument")
	// A grade question's rubric has no foreign key: only the lock holds it.
	asg := b.assignment(t, ada, "Essay", store.AssignmentTypeGrade)

	tx, err := b.svc.Pool.Begin(b.ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(b.ctx) }()
	ids, err := store.Q.LockTeamRubrics(b.ctx, tx, store.LockTeamRubricsParams{TeamID: ada.TeamID, Ids: []uuid.UUID{rub.ID}})
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{rub.ID}, ids)

	done := make(chan error, 1)
	go func() { done <- b.svc.DeleteRubric(b.ctx, ada, rub.ID) }()
	select {
	case err := <-done:
		t.Fatalf("the delete did not wait for the definition being saved: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	_, err = store.Q.CreateFunction(b.ctx, tx, store.CreateFunctionParams{
		TeamID: ada.TeamID, AssignmentID: asg.ID, Type: asg.Type,
		Highlights: json.RawMessage(`[]`),
		Questions:  json.RawMessage(`[{"questionText":"Q","context":"","rubricId":"` + rub.ID.String() + `","criteria":[],"subquestions":[]}]`),
	})
	require.NoError(t, err)
	require.NoError(t, tx.Commit(b.ctx))

	requireCode(t, <-done, apperr.Conflict, "This rubric is used by “Essay”. Choose another rubric for it or delete it first.")
	require.Len(t, b.lib(t, ada).Rubrics, 1)
}
