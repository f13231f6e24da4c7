package result_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// These tests run grade-all as a teacher would: real PostgreSQL, River
// workers on the ai queue, the demo model over HTTP through the OpenAI
// client.

// requireUsage checks each result's recorded usage (one demo model call)
// and that assignment/get sums it.
func requireUsage(t *testing.T, asg assignment.Assignment, results []result.FunctionResult) {
	t.Helper()
	var prompt, completion int
	for i, r := range results {
		require.NotNil(t, r.Usage, "result %d", i)
		require.Equal(t, fakellm.DefaultModel, r.Usage.Model, "result %d", i)
		require.Equal(t, 1, r.Usage.Calls, "result %d: one call", i)
		require.Positive(t, r.Usage.PromptTokens, "result %d", i)
		require.Positive(t, r.Usage.CompletionTokens, "result %d", i)
		prompt += r.Usage.PromptTokens
		completion += r.Usage.CompletionTokens
	}
	require.NotNil(t, asg.Usage)
	require.Equal(t, len(results), asg.Usage.Calls)
	require.Equal(t, prompt, asg.Usage.PromptTokens)
	require.Equal(t, completion, asg.Usage.CompletionTokens)
	require.Zero(t, asg.Usage.CostUSD, "no price table: the demo model is free")
}

func TestGradeAllGradesNestedAnswersAndTotalsFollowTheCriteria(t *testing.T) {
	t.Parallel()
	b := setup(t, true, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, photosynthesisText, "Water evaporates from the oceans and condensation forms clouds.", "I do not know.")

	started, err := b.svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	require.Len(t, started, 3)
	for _, r := range started {
		require.Equal(t, grading.StatusGrading, r.Status)
	}
	b.startWorker(t)
	asg, results := b.waitFinished(t, a, asgID)
	require.Len(t, results, 3)
	want := map[int]float64{0: 6, 1: 3, 2: 0}
	for i, r := range results {
		require.Equal(t, grading.StatusGraded, r.Status, "result %d: %s", i, r.Error)
		require.Empty(t, r.Error)
		require.NotNil(t, r.GradedAt)
		require.Equal(t, 1, b.writes(t, r.Submission))
		got, most := total(t, r)
		require.Equal(t, want[i], got, "result %d", i)
		require.Equal(t, 10.0, most)
		require.Contains(t, r.Feedback, "Demo model")
	}
	requireUsage(t, asg, results)

	first := b.get(t, a, asgID, ids[0])
	tree := answers(t, first.Answers)
	require.Len(t, tree, 2, "one node per top-level question")
	require.Equal(t, []bool{true, true}, tree[0].Grade.Criteria)
	require.Equal(t, 5.0, tree[0].Grade.Points)
	require.Equal(t, []bool{true}, tree[0].Subanswers[0].Grade.Criteria)
	require.Equal(t, []bool{false}, tree[0].Subanswers[0].Subanswers[0].Grade.Criteria, "the third level is graded too")
	require.Contains(t, tree[0].Subanswers[0].Subanswers[0].Grade.Feedback, "palisade")
	require.Equal(t, []bool{false, false}, tree[1].Grade.Criteria)
	require.NotNil(t, tree[1].AnswerMedia, "the tree keeps answerMedia")

	// The teacher doubles the chlorophyll criterion: every total follows at
	// once, without asking the model again.
	calls := b.demo.Stats().Requests
	fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
	require.NoError(t, err)
	qs := fn.Questions
	qs[0].Criteria[0].Points = 4
	_, err = b.asgs.UpdateFunction(b.ctx, a, fn.ID, asgID, assignment.FunctionInput{Questions: qs})
	require.NoError(t, err)
	got, most := total(t, b.get(t, a, asgID, ids[0]))
	require.Equal(t, [2]float64{8, 12}, [2]float64{got, most})
	require.Equal(t, 7.0, answers(t, b.get(t, a, asgID, ids[0]).Answers)[0].Grade.Points, "question 1: 4 + 3 points")
	_, results = b.waitFinished(t, a, asgID)
	got, _ = total(t, results[1])
	require.Equal(t, 3.0, got, "a result that missed the criterion keeps its total")
	require.Equal(t, calls, b.demo.Stats().Requests, "no regrading")
	require.Equal(t, 1, b.writes(t, ids[0]))
}

var grammarTag = regexp.MustCompile(`<grammar comment="[^"]+">the the</grammar>`)

func TestGradeAllAnnotatesAFeedbackAssignmentWithTheGrammarHighlighter(t *testing.T) {
	t.Parallel()
	b := setup(t, true, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeFeedback, false)
	letters := []string{
		"Dear Sam, we went to the the beach and it was sunny. See you soon.",
		"Dear Kim, the museum was closed, so we walked by the river. Write back soon.",
	}
	ids := b.submit(t, a, asgID, letters...)
	started, err := b.svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	require.Equal(t, grading.StatusAnnotating, started[0].Status)
	b.startWorker(t)
	asg, results := b.waitFinished(t, a, asgID)
	for i, r := range results {
		require.Equal(t, grading.StatusAnnotated, r.Status, "result %d: %s", i, r.Error)
		require.Equal(t, letters[i], highlight.Plain(r.HighlightedText), "the student's words are kept")
		require.Nil(t, r.TotalPoints, "feedback has no points")
		require.Equal(t, 0, *r.DroppedHighlights)
		require.NotEmpty(t, r.Feedback)
	}
	require.Regexp(t, grammarTag, results[0].HighlightedText)
	_, items := highlight.Parse(results[0].HighlightedText)
	require.Len(t, items, 1)
	require.Equal(t, "grammar", items[0].Type)
	require.NotContains(t, results[1].HighlightedText, "<grammar", "nothing to correct")
	requireUsage(t, asg, results)
}

func TestGradeAllAssessesARubricWithLevelsInRange(t *testing.T) {
	t.Parallel()
	b := setup(t, true, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeRubricFeedback, false)
	ids := b.submit(t, a, asgID,
		"Cities should plant trees. My thesis is clear and arguable: strong, cited evidence shows trees cool streets.",
		"Trees.",
		strings.Repeat("Some evidence suggests parks help. ", 20))
	started, err := b.svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	require.Equal(t, grading.StatusRubricGrading, started[0].Status)
	b.startWorker(t)
	asg, results := b.waitFinished(t, a, asgID)
	ranges := [][2]float64{{4, 5}, {2, 3}, {0, 1}}
	for i, r := range results {
		require.Equal(t, grading.StatusGraded, r.Status, "result %d: %s", i, r.Error)
		levels, points, feedback := r.CriteriaLevels, r.CriteriaPoints, r.CriteriaFeedback
		require.Len(t, levels, 2)
		require.Len(t, points, 2)
		require.Len(t, feedback, 2)
		for c, l := range levels {
			require.True(t, l >= 0 && l < 3, "result %d criterion %d: level %d", i, c, l)
		}
		require.Equal(t, float64(3-levels[0]), points[0], "without ranges a level is worth n − index")
		require.GreaterOrEqual(t, points[1], ranges[levels[1]][0])
		require.LessOrEqual(t, points[1], ranges[levels[1]][1])
		got, most := total(t, r)
		require.Equal(t, 8.0, most)
		require.Equal(t, points[0]+points[1], got)
		require.NotEmpty(t, r.OverallComments)
		require.Contains(t, r.HighlightedText, "<criterion1 comment=")
	}
	require.Equal(t, []int{0, 0}, levelsOf(t, results[0]), "the words of the best levels")
	require.Equal(t, []int{2, 2}, levelsOf(t, results[1]), "one word: the lowest levels")
	requireUsage(t, asg, results)
}

func TestGradeAllWritesPromptFeedback(t *testing.T) {
	t.Parallel()
	b := setup(t, true, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypePrompt, false)
	ids := b.submit(t, a, asgID, "Rivers shape valleys. They carry sediment to the sea.", "Mountains are old.")
	started, err := b.svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	require.Equal(t, grading.StatusGrading, started[0].Status)
	b.startWorker(t)
	asg, results := b.waitFinished(t, a, asgID)
	for i, r := range results {
		require.Equal(t, grading.StatusGraded, r.Status, "result %d: %s", i, r.Error)
		require.Contains(t, r.Feedback, "Say how well the argument flows.", "the teacher's prompt was followed")
		require.Nil(t, r.TotalPoints)
	}
	require.Contains(t, results[0].Feedback, "9 words in 2 sentences")
	requireUsage(t, asg, results)
}

// Monday morning: a team that presses grade-all on 30 essays just after
// another team pressed it on 300 must not wait for all 300. Each class's
// k-th essay is graded among the others' k-th ones.
func TestGradeAllClassesTakeTurns(t *testing.T) {
	t.Parallel()
	b := setup(t, true, fakellm.Options{})
	big, small := b.teacher(t), b.teacher(t)
	bigAsg := b.define(t, big, assignment.TypeGrade, false)
	smallAsg := b.define(t, small, assignment.TypeGrade, false)
	texts := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("Essay %d: %s", i, photosynthesisText)
		}
		return out
	}
	bigIDs := b.submit(t, big, bigAsg, texts(40)...)
	smallIDs := b.submit(t, small, smallAsg, texts(5)...)
	_, err := b.svc.RunMany(b.ctx, big, bigAsg, bigIDs)
	require.NoError(t, err)
	_, err = b.svc.RunMany(b.ctx, small, smallAsg, smallIDs)
	require.NoError(t, err)

	b.startWorkerWidth(t, 1) // one slot: the order graded is the order River serves
	b.waitFinished(t, big, bigAsg)
	b.waitFinished(t, small, smallAsg)
	rows, err := b.pool.Query(b.ctx, `SELECT a.team_id FROM function_results fr JOIN assignments a ON a.id = fr.assignment_id
		WHERE fr.assignment_id = ANY($1) ORDER BY fr.graded_at, fr.id`, []uuid.UUID{bigAsg, smallAsg})
	require.NoError(t, err)
	teams, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	require.NoError(t, err)
	require.Len(t, teams, 45)
	var smallAt []int
	for i, tm := range teams {
		if tm == small.TeamID {
			smallAt = append(smallAt, i+1)
		}
	}
	// Taking turns: the small class's k-th essay is graded by position 2k
	// (first come, first served would put them at 41 to 45).
	require.Len(t, smallAt, 5)
	for k, at := range smallAt {
		require.LessOrEqual(t, at, 2*(k+1), "the small class's essays were graded at positions %v of 45", smallAt)
	}
}
