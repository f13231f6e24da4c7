package result_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

func TestCheckAgreementNeedsThreeBenchmarks(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeRubricFeedback, false)
	results := b.gradeNow(t, a, asgID, b.submit(t, a, asgID, "Trees.", "Some evidence.", "A clear and arguable thesis.")...)
	agreementJobs := func() int {
		var n int
		require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT count(*) FROM river_job WHERE kind = 'check_agreement'
			AND args ->> 'assignment_id' = $1`, asgID.String()).Scan(&n))
		return n
	}

	for _, r := range results[:2] {
		_, err := b.svc.SetBenchmark(b.ctx, a, r.ID, true)
		require.NoError(t, err)
	}
	err := b.svc.CheckAgreement(b.ctx, a, asgID)
	requireCode(t, err, apperr.Invalid, result.MsgFewBenchmarks)
	require.Zero(t, agreementJobs())

	_, err = b.svc.SetBenchmark(b.ctx, a, results[2].ID, true)
	require.NoError(t, err)
	require.NoError(t, b.svc.CheckAgreement(b.ctx, a, asgID))
	asg, _, err := b.svc.GetAssignment(b.ctx, a, asgID)
	require.NoError(t, err)
	require.Equal(t, "running", asg.AgreementStatus)
	require.Equal(t, 1, agreementJobs())
	err = b.svc.CheckAgreement(b.ctx, a, asgID)
	requireCode(t, err, apperr.Conflict, result.MsgAgreementRunning)
	require.Equal(t, 1, agreementJobs(), "one check at a time")

	err = b.svc.CheckAgreement(b.ctx, b.teacher(t), asgID)
	requireCode(t, err, apperr.NotFound, "")
	prompt := b.define(t, a, assignment.TypePrompt, false)
	err = b.svc.CheckAgreement(b.ctx, a, prompt)
	requireCode(t, err, apperr.Invalid, result.MsgAgreementTypes)
}

func TestGenerateSummaryStoresTheClassSummary(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	breakdown := []grading.CriterionRate{
		{Label: "Names chlorophyll", SuccessRate: 0.9, AveragePoints: 1.8, MaxPoints: 2},
		{Label: "Explains energy conversion", SuccessRate: 0.3, AveragePoints: 0.9, MaxPoints: 3},
	}
	sum, err := b.svc.GenerateSummary(b.ctx, a, asgID, breakdown)
	require.NoError(t, err)
	require.Equal(t, []string{"Names chlorophyll"}, sum.Met)
	require.Equal(t, []string{"Explains energy conversion"}, sum.Missed)
	require.Contains(t, sum.NextLesson, "Explains energy conversion")
	require.False(t, sum.GeneratedAt.IsZero())

	asg, _, err := b.svc.GetAssignment(b.ctx, a, asgID)
	require.NoError(t, err)
	require.Equal(t, "done", asg.SummaryStatus)
	var stored result.ClassSummary
	require.NoError(t, json.Unmarshal(asg.ClassSummary, &stored))
	require.Equal(t, sum.Met, stored.Met)

	_, err = b.svc.GenerateSummary(b.ctx, a, asgID, nil)
	requireCode(t, err, apperr.Invalid, grading.MsgSummaryFailed)
	_, err = b.svc.GenerateSummary(b.ctx, b.teacher(t), asgID, breakdown)
	requireCode(t, err, apperr.NotFound, "")
	noModel := &result.Service{Pool: b.pool, Assignments: b.asgs, Jobs: b.insert}
	_, err = noModel.GenerateSummary(b.ctx, a, asgID, breakdown)
	requireCode(t, err, apperr.Upstream, grading.MsgSummaryFailed)
}
