package result_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/result"
)

// These tests are issue 19's first point: a teacher's edit is never
// overwritten by the AI unless the teacher asks for it.

// workGrading works the queued grade_submission job of each submission at
// once, as a worker would.
func (b *bundle) workGrading(t *testing.T, ids ...uuid.UUID) {
	t.Helper()
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewGradeSubmissionWorker(b.deps))
	for _, id := range ids {
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		res, err := worker.Work(b.ctx, t, tx, queue.GradeSubmissionArgs{SubmissionID: id}, nil)
		_ = tx.Rollback(b.ctx)
		require.NoError(t, err)
		require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	}
}

// queuedJobs is how many grade_submission jobs wait for the submission
// (gradeNow's are worked in a rolled-back transaction, so they stay).
func (b *bundle) queuedJobs(t *testing.T, id uuid.UUID) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT count(*) FROM river_job WHERE kind = 'grade_submission'
		AND state IN ('available', 'scheduled', 'pending', 'retryable', 'running')
		AND args @> jsonb_build_object('submission_id', $1::text)`, id.String()).Scan(&n))
	return n
}

// withBudget is b's result service counting grading against a team
// budget of 100 calls a day.
func (b *bundle) withBudget() (*result.Service, *ratelimit.AIBudget) {
	budget := &ratelimit.AIBudget{Limiter: &ratelimit.Limiter{Pool: b.pool}, Team: ratelimit.Rule{Limit: 100, Window: 24 * time.Hour}}
	return &result.Service{Pool: b.svc.Pool, Assignments: b.svc.Assignments, Model: b.svc.Model, Jobs: b.svc.Jobs, Budget: budget}, budget
}

func TestATickIsKeptWhenTheClassIsGradedAgain(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, photosynthesisText, photosynthesisText)
	graded := b.gradeNow(t, a, asgID, ids...)
	got, _ := total(t, graded[0])
	require.Equal(t, 6.0, got)

	// The teacher ticks "Evaporation from oceans" (2 points) on the first.
	change, err := b.svc.ToggleCriterion(b.ctx, a, result.Toggle{ResultID: graded[0].ID, Path: []int{1}, CriterionIndex: 0})
	require.NoError(t, err)
	require.Equal(t, 2.0, change)
	ticked := b.get(t, a, asgID, ids[0])
	require.Equal(t, grading.StatusReviewed, ticked.Status, "a tick makes the result the teacher's")
	require.NotNil(t, ticked.ReviewedAt)
	got, _ = total(t, ticked)
	require.Equal(t, 8.0, got)

	// "Grade selected" on both: the reviewed one is skipped, unchanged and
	// not counted against the budget; the other is graded again.
	svc, budget := b.withBudget()
	before, _ := budget.TeamUsage(b.ctx, a.TeamID)
	jobsBefore := b.queuedJobs(t, ids[0])
	started, err := svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	require.Equal(t, grading.StatusReviewed, started[0].Status)
	require.Equal(t, grading.StatusGrading, started[1].Status)
	require.Equal(t, 1, result.Skipped(started))
	after, _ := budget.TeamUsage(b.ctx, a.TeamID)
	require.Equal(t, before.Used+1, after.Used, "only the graded one counts")
	require.Equal(t, jobsBefore, b.queuedJobs(t, ids[0]), "nothing is queued for the reviewed one")
	b.workGrading(t, ids[1])

	kept := b.get(t, a, asgID, ids[0])
	require.Equal(t, grading.StatusReviewed, kept.Status)
	got, _ = total(t, kept)
	require.Equal(t, 8.0, got, "the tick stays")
	require.Equal(t, []bool{true, false}, answers(t, kept.Answers)[1].Grade.Criteria)
	require.Equal(t, 1, b.writes(t, ids[0]), "the AI never wrote it again")
	require.Equal(t, 2, b.writes(t, ids[1]))

	// Only reviewed ones asked for: nothing at all is counted or queued.
	before, _ = budget.TeamUsage(b.ctx, a.TeamID)
	started, err = svc.RunMany(b.ctx, a, asgID, ids[:1])
	require.NoError(t, err)
	require.Equal(t, grading.StatusReviewed, started[0].Status)
	after, _ = budget.TeamUsage(b.ctx, a.TeamID)
	require.Equal(t, before.Used, after.Used)
}

func TestOverwriteReviewedGradesTheTeachersResultAgain(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, photosynthesisText)
	fr := b.gradeNow(t, a, asgID, ids...)[0]
	_, err := b.svc.ToggleCriterion(b.ctx, a, result.Toggle{ResultID: fr.ID, Path: []int{1}, CriterionIndex: 0})
	require.NoError(t, err)

	svc, budget := b.withBudget()
	before, _ := budget.TeamUsage(b.ctx, a.TeamID)
	started, err := svc.RunMany(b.ctx, a, asgID, ids, result.RunOptions{OverwriteReviewed: true})
	require.NoError(t, err)
	require.Equal(t, grading.StatusGrading, started[0].Status)
	require.Zero(t, result.Skipped(started))
	after, _ := budget.TeamUsage(b.ctx, a.TeamID)
	require.Equal(t, before.Used+1, after.Used)
	b.workGrading(t, ids...)

	regraded := b.get(t, a, asgID, ids[0])
	require.Equal(t, grading.StatusGraded, regraded.Status)
	require.Nil(t, regraded.ReviewedAt)
	got, _ := total(t, regraded)
	require.Equal(t, 6.0, got, "the AI's grade replaces the tick, as asked")
}

func TestGradeOnePubLeavesAReviewedResultAloneUnlessAsked(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, true)
	ids := b.submit(t, a, asgID, photosynthesisText)
	fr := b.gradeNow(t, a, asgID, ids...)[0]
	_, err := b.svc.ToggleCriterion(b.ctx, a, result.Toggle{ResultID: fr.ID, Path: []int{1}, CriterionIndex: 0})
	require.NoError(t, err)

	svc, budget := b.withBudget()
	before, _ := budget.TeamUsage(b.ctx, a.TeamID)
	jobsBefore := b.queuedJobs(t, ids[0])
	for _, who := range []identity.Actor{a, student(a)} {
		g, err := svc.Grade(b.ctx, who, ids[0], asgID, grading.ProcessGrade)
		require.NoError(t, err)
		require.Equal(t, grading.StatusReviewed, g.Status)
	}
	// a student cannot ask to overwrite the teacher's grading
	g, err := svc.Grade(b.ctx, student(a), ids[0], asgID, grading.ProcessGrade, result.RunOptions{OverwriteReviewed: true})
	require.NoError(t, err)
	require.Equal(t, grading.StatusReviewed, g.Status)
	after, _ := budget.TeamUsage(b.ctx, a.TeamID)
	require.Equal(t, before.Used, after.Used, "nothing is counted")
	require.Equal(t, jobsBefore, b.queuedJobs(t, ids[0]))
	got, _ := total(t, b.get(t, a, asgID, ids[0]))
	require.Equal(t, 8.0, got)

	g, err = svc.Grade(b.ctx, a, ids[0], asgID, grading.ProcessGrade, result.RunOptions{OverwriteReviewed: true})
	require.NoError(t, err)
	require.Equal(t, grading.StatusGrading, g.Status)
	require.Equal(t, jobsBefore+1, b.queuedJobs(t, ids[0]))
}

func TestEveryEditOfTheTeachersMarksTheResultReviewed(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	reviewed := func(t *testing.T, asgID, id uuid.UUID) {
		t.Helper()
		fr := b.get(t, a, asgID, id)
		require.Equal(t, grading.StatusReviewed, fr.Status)
		require.NotNil(t, fr.ReviewedAt)
	}

	grade := b.define(t, a, assignment.TypeGrade, false)
	gradeIDs := b.submit(t, a, grade, photosynthesisText, photosynthesisText, photosynthesisText)
	graded := b.gradeNow(t, a, grade, gradeIDs...)
	// a tick
	_, err := b.svc.ToggleCriterion(b.ctx, a, result.Toggle{ResultID: graded[0].ID, Path: []int{0, 0}, CriterionIndex: 0})
	require.NoError(t, err)
	reviewed(t, grade, gradeIDs[0])
	// an adjustment
	edit := editable(t, graded[1].Answers)
	grade0 := edit[1]["grade"].(map[string]any)
	grade0["gradeAdjustment"] = 0.5
	raw, err := json.Marshal(edit)
	require.NoError(t, err)
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{Answers: raw}, ResultID: graded[1].ID})
	require.NoError(t, err)
	reviewed(t, grade, gradeIDs[1])
	// a comment
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{Answers: graded[2].Answers, Feedback: "See me."}, ResultID: graded[2].ID})
	require.NoError(t, err)
	reviewed(t, grade, gradeIDs[2])

	// highlights
	feedback := b.define(t, a, assignment.TypeFeedback, false)
	letter := "Dear Sam, we went to the the beach."
	fr := b.gradeNow(t, a, feedback, b.submit(t, a, feedback, letter)...)[0]
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{HighlightedText: `Dear Sam, we went to the the <praise comment="Vivid.">beach</praise>.`}, ResultID: fr.ID})
	require.NoError(t, err)
	reviewed(t, feedback, fr.Submission)

	// rubric levels and points
	rubricAsg := b.define(t, a, assignment.TypeRubricFeedback, false)
	fr = b.gradeNow(t, a, rubricAsg, b.submit(t, a, rubricAsg, "Cities should plant trees. Some evidence shows they cool streets.")...)[0]
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{CriteriaLevels: []int{0, 0}, CriteriaPoints: []float64{3, 5}, CriteriaFeedback: []string{"", ""}, HighlightedText: fr.HighlightedText}, ResultID: fr.ID})
	require.NoError(t, err)
	reviewed(t, rubricAsg, fr.Submission)

	// prompt feedback, also on a result the AI never finished (failed)
	prompt := b.define(t, a, assignment.TypePrompt, false)
	promptIDs := b.submit(t, a, prompt, "Rivers shape valleys.")
	fr = b.get(t, a, prompt, promptIDs[0])
	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET status = 'failed', error = 'The model timed out.' WHERE id = $1`, fr.ID)
	require.NoError(t, err)
	require.NoError(t, b.svc.UpdatePromptFeedback(b.ctx, a, fr.ID, "Written by the teacher."))
	reviewed(t, prompt, promptIDs[0])
	started, err := b.svc.RunMany(b.ctx, a, prompt, promptIDs)
	require.NoError(t, err)
	require.Equal(t, grading.StatusReviewed, started[0].Status)
	require.Equal(t, "Written by the teacher.", b.get(t, a, prompt, promptIDs[0]).Feedback)
}

func TestAnAdjustmentKeepsEachQuestionWithinZeroAndItsMaximum(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, "Evaporation from the oceans.")
	fr := b.gradeNow(t, a, asgID, ids...)[0]
	tree := answers(t, fr.Answers)
	// Question 2 (worth 3: evaporation 2, condensation 1) scores 2.
	require.Equal(t, []bool{true, false}, tree[1].Grade.Criteria)
	before, _ := total(t, fr)

	// +4 would make it 6 / 3: it is saved as +1, the question's maximum.
	edit := editable(t, fr.Answers)
	grade(edit[1])["gradeAdjustment"] = 4
	raw, err := json.Marshal(edit)
	require.NoError(t, err)
	saved, err := b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{Answers: raw}, ResultID: fr.ID})
	require.NoError(t, err)
	q2 := answers(t, saved.Answers)[1].Grade
	require.Equal(t, 1.0, q2.GradeAdjustment)
	require.Equal(t, 3.0, q2.Points+q2.GradeAdjustment, "question 2: 3 / 3")
	got, _ := total(t, saved)
	require.Equal(t, before+1, got)

	// −10 would make it −8: it is saved as −2, the question scores 0 and
	// the other questions still count.
	grade(edit[1])["gradeAdjustment"] = -10
	raw, err = json.Marshal(edit)
	require.NoError(t, err)
	saved, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{Answers: raw}, ResultID: fr.ID})
	require.NoError(t, err)
	q2 = answers(t, saved.Answers)[1].Grade
	require.Equal(t, -2.0, q2.GradeAdjustment)
	got, _ = total(t, saved)
	require.Equal(t, before-2, got)

	// +1 on 2 / 3, then a tick of condensation (1 point): 3 + 1 counts as
	// 3 / 3; undoing the tick gives the +1 back.
	grade(edit[1])["gradeAdjustment"] = 1
	raw, err = json.Marshal(edit)
	require.NoError(t, err)
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultFields: assignment.ResultFields{Answers: raw}, ResultID: fr.ID})
	require.NoError(t, err)
	for _, want := range []struct{ points, adjustment float64 }{{3, 0}, {2, 1}} {
		_, err = b.svc.ToggleCriterion(b.ctx, a, result.Toggle{ResultID: fr.ID, Path: []int{1}, CriterionIndex: 1})
		require.NoError(t, err)
		now := b.get(t, a, asgID, ids[0])
		q2 = answers(t, now.Answers)[1].Grade
		require.Equal(t, want.points, q2.Points)
		require.Equal(t, want.adjustment, q2.GradeAdjustment)
		got, _ = total(t, now)
		require.Equal(t, before+1, got, "question 2 scores 3 either way")
	}
}
