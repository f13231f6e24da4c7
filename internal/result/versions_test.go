package result_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
)

// inputOf is a definition as the editor sends it back: the saved one,
// ids and all.
func inputOf(fn assignment.Function) assignment.FunctionInput {
	return assignment.FunctionInput{Questions: fn.Questions, Highlights: fn.Highlights, Context: fn.Context, Prompt: fn.Prompt}
}

func (b *bundle) edit(t *testing.T, a identity.Actor, asgID uuid.UUID, change func(qs []assignment.Question) []assignment.Question) {
	t.Helper()
	fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
	require.NoError(t, err)
	in := inputOf(fn)
	in.Questions = change(in.Questions)
	_, err = b.asgs.UpdateFunction(b.ctx, a, fn.ID, asgID, in)
	require.NoError(t, err)
}

// regradeOutdated is "Grade changed questions again": RunOutdated, then
// each queued job worked at once.
func (b *bundle) regradeOutdated(t *testing.T, a identity.Actor, asgID uuid.UUID, ids ...uuid.UUID) []result.FunctionResult {
	t.Helper()
	started, err := b.svc.RunOutdated(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewGradeSubmissionWorker(b.deps))
	for _, r := range started {
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		res, err := worker.Work(b.ctx, t, tx, queue.GradeSubmissionArgs{SubmissionID: r.Submission, OnlyOutdated: true}, nil)
		_ = tx.Rollback(b.ctx)
		require.NoError(t, err)
		require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	}
	return started
}

func historyLines(t *testing.T, b *bundle, a identity.Actor, asgID uuid.UUID) []string {
	t.Helper()
	h, err := b.asgs.History(b.ctx, a, asgID)
	require.NoError(t, err)
	var out []string
	for i := len(h) - 1; i >= 0; i-- {
		require.Equal(t, "T", h[i].User.Name)
		out = append(out, h[i].Changes...)
	}
	return out
}

// A criterion's text and points are corrected after grading: the total
// follows at once, the result says it was graded against an earlier
// version, "Grade changed questions again" regrades only the changed
// question (the other keeps its pick), and the history says who changed
// what.
func TestEditingAGradedAssignment(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	sub := b.submit(t, ada, asgID, photosynthesisText)[0]
	fr := b.gradeNow(t, ada, asgID, sub)[0]
	got, most := total(t, fr)
	require.Equal(t, []float64{6, 10}, []float64{got, most})
	require.False(t, fr.Outdated)

	// a pick the model would not make (water cycle, evaporation), so a
	// whole regrade would lose it; and a result graded before versions
	// were kept (graded_parts NULL) counts as graded against the version
	// the edit replaces
	_, err := b.pool.Exec(b.ctx, `UPDATE function_results
		SET answers = jsonb_set(answers, '{1,grade,criteria,0}', 'true'), graded_parts = NULL WHERE submission_id = $1`, sub)
	require.NoError(t, err)
	got, _ = total(t, b.get(t, ada, asgID, sub))
	require.Equal(t, 8.0, got)

	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[0].Criteria[0].Description = "Names the chlorophyll pigment"
		qs[0].Criteria[0].Points = 4
		return qs
	})
	fr = b.get(t, ada, asgID, sub)
	got, most = total(t, fr)
	require.Equal(t, []float64{10, 12}, []float64{got, most}, "the points change re-totals at once")
	require.True(t, fr.Outdated)
	require.Equal(t, []string{"question 1"}, fr.OutdatedParts)
	_, listed, err := b.svc.GetAssignment(b.ctx, ada, asgID)
	require.NoError(t, err)
	require.True(t, listed[0].Outdated, "the submissions table reads it too")
	require.Equal(t, []string{
		"changed a criterion of 1: “Names chlorophyll pigment” → “Names the chlorophyll pigment”",
		"changed the points of 1: 2 → 4 (“Names the chlorophyll pigment”)",
	}, historyLines(t, b, ada, asgID))

	started := b.regradeOutdated(t, ada, asgID, sub)
	require.Len(t, started, 1)
	fr = b.get(t, ada, asgID, sub)
	require.False(t, fr.Outdated, "graded against the current version now")
	tree := answers(t, fr.Answers)
	require.True(t, tree[1].Grade.Criteria[0], "the unchanged question keeps its pick")
	require.Equal(t, []bool{true, true}, tree[0].Grade.Criteria, "the changed question is graded again")
	got, _ = total(t, fr)
	require.Equal(t, 10.0, got)
	again, err := b.svc.RunOutdated(b.ctx, ada, asgID, []uuid.UUID{sub})
	require.NoError(t, err)
	require.Empty(t, again, "nothing is outdated any more")

	// the questions swap places: each answer follows its question, nothing
	// is outdated and the total stays
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question { return []assignment.Question{qs[1], qs[0]} })
	fr = b.get(t, ada, asgID, sub)
	require.False(t, fr.Outdated)
	tree = answers(t, fr.Answers)
	require.Equal(t, []bool{true, false}, tree[0].Grade.Criteria, "the water cycle's ticks moved with it")
	got, _ = total(t, fr)
	require.Equal(t, 10.0, got)

	// a removed criterion takes its tick with it; an added one marks the
	// result outdated
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[0].Criteria = qs[0].Criteria[1:]
		return qs
	})
	fr = b.get(t, ada, asgID, sub)
	got, most = total(t, fr)
	require.Equal(t, []float64{8, 10}, []float64{got, most})
	require.False(t, fr.Outdated, "a removal alone changes no grading")
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[1].Subquestions[0].Criteria = append(qs[1].Subquestions[0].Criteria, assignment.Criterion{Description: "Names the stroma", Points: 1})
		return qs
	})
	fr = b.get(t, ada, asgID, sub)
	require.Equal(t, []string{"question 2a"}, fr.OutdatedParts)
	lines := historyLines(t, b, ada, asgID)
	require.Equal(t, []string{
		"reordered the questions",
		"removed a criterion from 1: “Evaporation from oceans”",
		"added a criterion to 2a: “Names the stroma” (1 point)",
	}, lines[2:])

	// a reviewed result is left alone by the targeted regrade
	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET status = 'reviewed', reviewed_at = now() WHERE submission_id = $1`, sub)
	require.NoError(t, err)
	skipped, err := b.svc.RunOutdated(b.ctx, ada, asgID, []uuid.UUID{sub})
	require.NoError(t, err)
	require.Empty(t, skipped)

	// another team's ids are not found, and change nothing
	bob := b.teacher(t)
	fn, err := b.asgs.GetFunction(b.ctx, ada, asgID, "")
	require.NoError(t, err)
	_, err = b.asgs.History(b.ctx, bob, asgID)
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = b.asgs.UpdateFunction(b.ctx, bob, fn.ID, uuid.Nil, inputOf(fn))
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = b.svc.RunOutdated(b.ctx, bob, asgID, []uuid.UUID{sub})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	require.Len(t, historyLines(t, b, ada, asgID), 5)
}

// An API client that sends questions without ids keeps them by position:
// nothing moves and nothing is outdated when only points change.
func TestAFunctionUpdateWithoutIDsKeepsQuestionsByPosition(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	sub := b.submit(t, ada, asgID, photosynthesisText)[0]
	b.gradeNow(t, ada, asgID, sub)
	fn, err := b.asgs.GetFunction(b.ctx, ada, asgID, "")
	require.NoError(t, err)
	qs := gradeQuestions() // no ids
	qs[1].Criteria[1].Points = 5
	updated, err := b.asgs.UpdateFunction(b.ctx, ada, fn.ID, asgID, assignment.FunctionInput{Questions: qs})
	require.NoError(t, err)
	require.Equal(t, fn.Questions[0].ID, updated.Questions[0].ID)
	require.Equal(t, fn.Questions[0].Subquestions[0].Criteria[0].ID, updated.Questions[0].Subquestions[0].Criteria[0].ID)
	fr := b.get(t, ada, asgID, sub)
	require.False(t, fr.Outdated)
	got, most := total(t, fr)
	require.Equal(t, []float64{6, 14}, []float64{got, most})
	require.Equal(t, []string{"changed the points of 2: 1 → 5 (“Condensation forms clouds”)"}, historyLines(t, b, ada, asgID))
}

// A change of the library rubric an assignment uses goes into that
// assignment's history as well as marking its results: the teacher sees
// who changed what. Saving it unchanged records nothing.
func TestAChangedRubricIsInTheHistoryOfTheAssignmentsUsingIt(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeRubricFeedback, false)
	other := b.define(t, a, assignment.TypePrompt, false)
	fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
	require.NoError(t, err)
	before := historyLines(t, b, a, asgID)

	_, err = b.rubrics.Update(b.ctx, a, *fn.RubricID, essayRubric())
	require.NoError(t, err)
	require.Equal(t, before, historyLines(t, b, a, asgID), "saved unchanged: no entry")

	in := essayRubric()
	in.Criteria[0].LevelDescriptions[0] = "A clear, arguable thesis in the first paragraph"
	_, err = b.rubrics.Update(b.ctx, a, *fn.RubricID, in)
	require.NoError(t, err)
	in.Name = "Essay, revised"
	_, err = b.rubrics.Update(b.ctx, a, *fn.RubricID, in)
	require.NoError(t, err)
	require.Equal(t, append(before, "changed the rubric “Essay”", "changed the rubric “Essay” (now “Essay, revised”)"), historyLines(t, b, a, asgID))
	require.Empty(t, historyLines(t, b, a, other), "an assignment without the rubric has no entry")
}
