package jobs_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/result"
)

// benchmarks grades the submissions and marks every result a benchmark.
func (g *gradeBundle) benchmarks(t *testing.T, asgID uuid.UUID, ids []uuid.UUID) []result.FunctionResult {
	t.Helper()
	g.runMany(t, asgID, ids)
	got := g.waitFinished(t, asgID, ids)
	for i, fr := range got {
		require.Equal(t, grading.StatusGraded, fr.Status, fr.Error)
		_, err := g.results.SetBenchmark(context.Background(), g.actor, fr.ID, true)
		require.NoError(t, err)
		got[i].IsBenchmark = true
	}
	return got
}

// checkAgreement runs "Check agreement" and waits for its report.
func (g *gradeBundle) checkAgreement(t *testing.T, asgID uuid.UUID) (string, *agreement.Report) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, g.results.CheckAgreement(ctx, g.actor, asgID))
	deadline := time.Now().Add(60 * time.Second)
	for {
		asg, _, err := g.results.GetAssignment(ctx, g.actor, asgID)
		require.NoError(t, err)
		if asg.AgreementStatus != "running" {
			var r *agreement.Report
			if len(asg.Agreement) > 0 && string(asg.Agreement) != "null" {
				require.NoError(t, json.Unmarshal(asg.Agreement, &r))
			}
			return asg.AgreementStatus, r
		}
		if time.Now().After(deadline) {
			t.Fatal("agreement still running")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// outputMode is a way of asking for structured output, with the switches
// that make the demo model behave like a provider that offers it.
type outputMode struct {
	name string
	cfg  llm.Config
	opts fakellm.Options
	// format is the response_format type the mode sends ("" for none).
	format string
}

// inModes runs test once per structured-output mode, as parallel subtests
// named by mode: json_schema against the demo model as it is; json_object
// against one that refuses json_schema (JSON mode only); prompt against
// one that takes no response_format and wraps its JSON in a code fence and
// sentences.
func inModes(t *testing.T, test func(t *testing.T, m outputMode)) {
	t.Helper()
	for _, m := range []outputMode{
		{name: string(llm.ModeJSONSchema), cfg: llm.Config{OutputMode: llm.ModeJSONSchema}, format: "json_schema"},
		{name: string(llm.ModeJSONObject), cfg: llm.Config{OutputMode: llm.ModeJSONObject}, opts: fakellm.Options{RefuseJSONSchema: true},
			format: "json_object"},
		{name: string(llm.ModePrompt), cfg: llm.Config{OutputMode: llm.ModePrompt},
			opts: fakellm.Options{RefuseJSONSchema: true, RefuseJSONObject: true, Chatty: true}},
	} {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			test(t, m)
		})
	}
}

func TestCheckAgreementOfARubricAssignmentReportsLevelsAndDisagreements(t *testing.T) {
	t.Parallel()
	inModes(t, func(t *testing.T, m outputMode) {
		ctx := context.Background()
		g := setupGrading(t, m.opts, m.cfg)
		asgID := g.define(t, assignment.TypeRubricFeedback)
		ids := g.submit(t, asgID,
			newSubmission{name: "Ada", text: "Cities should plant trees. My thesis is clear and arguable: strong, cited evidence shows trees cool streets."},
			newSubmission{name: "Ben", text: "Trees."},
			newSubmission{name: "Cy", text: "Parks are nice. Some evidence says so."})
		g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
		bench := g.benchmarks(t, asgID, ids)
		require.Equal(t, []float64{1, 0.5}, bench[1].CriteriaPoints, "the AI put Ben's essay at the lowest levels")
		// The teacher sees a vague thesis in Ben's one word: level 2 of 3.
		_, err := g.results.Update(ctx, g.actor, result.Edit{ResultFields: assignment.ResultFields{CriteriaLevels: []int{1, 2}, CriteriaPoints: []float64{2, 0.5}, CriteriaFeedback: []string{"A thesis, barely.", "No evidence."}, HighlightedText: bench[1].HighlightedText}, ResultID: bench[1].ID})
		require.NoError(t, err)
		calls := g.demo.Stats().Tasks[grading.TaskRubricFeedback]

		status, report := g.checkAgreement(t, asgID)
		require.Equal(t, "done", status)
		require.NotNil(t, report)
		require.Equal(t, 3, report.Benchmarks)
		require.Equal(t, calls+3, g.demo.Stats().Tasks[grading.TaskRubricFeedback], "one regrade per benchmark")
		require.Equal(t, []string{m.format}, slices.Collect(maps.Keys(g.demo.Stats().Formats)), "every call in the mode's format")
		require.Len(t, report.Criteria, 2)
		thesis, evidence := report.Criteria[0], report.Criteria[1]
		require.Equal(t, "Thesis", thesis.Label)
		require.InDelta(t, 2.0/3, thesis.Exact, 1e-9)
		require.Equal(t, 1.0, *thesis.WithinOne)
		require.InDelta(t, -1.0/3, thesis.MeanPointDiff, 1e-9, "the AI gave Ben 1 point, the teacher 2")
		require.Nil(t, thesis.Accuracy)
		require.Equal(t, "Evidence", evidence.Label)
		require.Equal(t, 1.0, evidence.Exact)
		require.Zero(t, evidence.MeanPointDiff)
		require.InDelta(t, 5.0/6, report.Overall.Exact, 1e-9)
		require.NotNil(t, report.Overall.Kappa)
		require.Less(t, *report.Overall.Kappa, 1.0)
		require.Equal(t, []agreement.Disagreement{{SubmissionID: ids[1].String(), SubmissionName: "Ben", Label: "Thesis",
			Teacher: "level 2 of 3", AI: "level 3 of 3"}}, report.Disagreements)

		// The regrades are never written to the results.
		for i, id := range ids {
			require.Equal(t, 1, g.stored(t, id).Writes, "result %d", i)
		}
		require.Equal(t, grading.StatusReviewed, g.stored(t, ids[1]).Status)

		// A check whose regrade does not fit twice fails at once, without
		// retrying, and the last report stays.
		g.demo.FailNext(fakellm.FaultMalformed, 2)
		status, kept := g.checkAgreement(t, asgID)
		require.Equal(t, "failed", status)
		require.Equal(t, report, kept)
		checks := g.finishedJobs(t, "check_agreement")
		require.Len(t, checks, 2)
		require.Equal(t, 1, checks[1].Attempt)
	})
}

func TestCheckAgreementOfAGradeAssignmentReportsAccuracy(t *testing.T) {
	t.Parallel()
	inModes(t, func(t *testing.T, m outputMode) {
		ctx := context.Background()
		g := setupGrading(t, m.opts, m.cfg)
		asgID := g.define(t, assignment.TypeGrade)
		ids := g.submit(t, asgID,
			newSubmission{name: "Ada", text: photosynthesis},
			newSubmission{name: "Ben", text: "Water evaporates from the oceans and condensation forms clouds."},
			newSubmission{name: "Cy", text: "I do not know."})
		g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
		bench := g.benchmarks(t, asgID, ids)
		// The teacher credits Cy with naming chlorophyll (2 points).
		change, err := g.results.ToggleCriterion(ctx, g.actor, result.Toggle{ResultID: bench[2].ID, Path: []int{0}, CriterionIndex: 0})
		require.NoError(t, err)
		require.Equal(t, 2.0, change)

		status, report := g.checkAgreement(t, asgID)
		require.Equal(t, "done", status)
		require.Equal(t, 3, report.Benchmarks)
		require.Len(t, report.Criteria, 5, "every criterion at every level")
		first := report.Criteria[0]
		require.Equal(t, "Q1 criterion 1: Names chlorophyll pigment", first.Label)
		require.InDelta(t, 2.0/3, *first.Accuracy, 1e-9)
		require.InDelta(t, -2.0/3, first.MeanPointDiff, 1e-9)
		require.Nil(t, first.Kappa)
		require.Nil(t, first.WithinOne)
		require.Equal(t, "Q1.1 criterion 1: Chloroplasts in leaf cells", report.Criteria[2].Label)
		for _, c := range report.Criteria[1:] {
			require.Equal(t, 1.0, *c.Accuracy, c.Label)
		}
		require.InDelta(t, 14.0/15, *report.Overall.Accuracy, 1e-9)
		require.InDelta(t, -2.0/3, report.Overall.MeanPointDiff, 1e-9, "per submission: 0, 0 and −2")
		require.Nil(t, report.Overall.Kappa)
		require.Equal(t, []agreement.Disagreement{{SubmissionID: ids[2].String(), SubmissionName: "Cy",
			Label: "Q1 criterion 1: Names chlorophyll pigment", Teacher: "met", AI: "not met"}}, report.Disagreements)
		for _, id := range ids {
			require.Equal(t, 1, g.stored(t, id).Writes)
		}
	})
}

// "Check agreement" regrades every benchmark with the model: its tokens
// count against the team's AI budget like grading's, also when the check
// fails (its report has no usage of its own to show them on).
func TestCheckAgreementCountsItsTokensAgainstTheTeamBudget(t *testing.T) {
	t.Parallel()
	inModes(t, func(t *testing.T, m outputMode) {
		ctx := context.Background()
		g := setupGrading(t, m.opts, m.cfg)
		budget := &ratelimit.AIBudget{Limiter: &ratelimit.Limiter{Pool: g.pool}, TeamTokens: ratelimit.Rule{Limit: 1_000_000, Window: 24 * time.Hour}}
		g.deps.Budget = budget
		asgID := g.define(t, assignment.TypeGrade)
		ids := g.submit(t, asgID,
			newSubmission{name: "Ada", text: photosynthesis},
			newSubmission{name: "Ben", text: "Water evaporates from the oceans and condensation forms clouds."},
			newSubmission{name: "Cy", text: "I do not know."})
		g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
		g.benchmarks(t, asgID, ids)
		var graded int64
		require.NoError(t, g.pool.QueryRow(ctx, `SELECT sum(prompt_tokens + completion_tokens)
			FROM function_results WHERE assignment_id = $1`, asgID).Scan(&graded))
		_, before := budget.TeamUsage(ctx, g.actor.TeamID)
		require.Equal(t, graded, before.Used, "so far, the grading runs' tokens")
		calls := g.demo.Stats().Requests

		status, _ := g.checkAgreement(t, asgID)
		require.Equal(t, "done", status)
		require.Equal(t, calls+3, g.demo.Stats().Requests, "one regrade per benchmark")
		_, after := budget.TeamUsage(ctx, g.actor.TeamID)
		require.Greater(t, after.Used, before.Used+graded/2, "three regrades, each with the other benchmarks as examples")

		// A check that fails after its calls counts them too.
		g.demo.FailNext(fakellm.FaultMalformed, 2)
		status, _ = g.checkAgreement(t, asgID)
		require.Equal(t, "failed", status)
		_, failed := budget.TeamUsage(ctx, g.actor.TeamID)
		require.Greater(t, failed.Used, after.Used, "the two answers that did not fit")
	})
}
