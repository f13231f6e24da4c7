package agreement_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/agreement"
)

var criteria = []agreement.Criterion{
	{Label: "Thesis", Kind: agreement.KindLevels, Levels: 3},
	{Label: "Evidence", Kind: agreement.KindLevels, Levels: 4},
	{Label: "Cites sources", Kind: agreement.KindBoolean},
}

// j is a judgement whose points are Teacher·perUnit and AI·perUnit.
func j(id, name string, criterion int, teacher, ai, perUnit float64) agreement.Judgement {
	return agreement.Judgement{
		SubmissionID: id, SubmissionName: name, CriterionIndex: criterion,
		Teacher: teacher, AI: ai, TeacherPoints: teacher * perUnit, AIPoints: ai * perUnit,
	}
}

// benchmarkJudgements are four benchmarks, deliberately not in name order.
//
//	             Thesis (3 levels)  Evidence (4 levels, 2 pt/level)  Cites sources (2 pt)
//	             teacher  AI        teacher  AI                      teacher  AI
//	Dan   (s4)      2      0           0      1                        0      0
//	Ben   (s2)      1      2           2      3                        0      1
//	Ada   (s1)      2      2           3      3                        1      1
//	Cleo  (s3)      0      0           1      2                        1      1
func benchmarkJudgements() []agreement.Judgement {
	return []agreement.Judgement{
		j("s4", "Dan", 0, 2, 0, 1), j("s4", "Dan", 2, 0, 0, 2), j("s4", "Dan", 1, 0, 1, 2),
		j("s2", "Ben", 0, 1, 2, 1), j("s2", "Ben", 1, 2, 3, 2), j("s2", "Ben", 2, 0, 1, 2),
		j("s1", "Ada", 0, 2, 2, 1), j("s1", "Ada", 1, 3, 3, 2), j("s1", "Ada", 2, 1, 1, 2),
		j("s3", "Cleo", 0, 0, 0, 1), j("s3", "Cleo", 1, 1, 2, 2), j("s3", "Cleo", 2, 1, 1, 2),
	}
}

func TestCompareHandComputed(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	r := agreement.Compare(criteria, benchmarkJudgements(), 4, now)

	require.Equal(t, 4, r.Benchmarks)
	require.Equal(t, now.UTC(), r.ComputedAt)
	require.Len(t, r.Criteria, 3)

	// Thesis, pairs (2,0) (1,2) (2,2) (0,0): exact 2/4; |diff| 2,1,0,0 → within one 3/4.
	// Rows (teacher) 1,1,2; columns (AI) 2,0,2; w = 0.25 one apart, 1 two apart.
	// Σ w·O = 1·O20 + 0.25·O12 = 1.25.
	// E = row·col/4: E00 .5, E02 .5, E10 .5, E12 .5, E20 1, E22 1.
	// Σ w·E = 1·.5 (02) + .25·.5 (10) + .25·.5 (12) + 1·1 (20) = 1.75.
	// kappa = 1 − 1.25/1.75 = 2/7 ≈ 0.2857. Points: (−2 + 1 + 0 + 0)/4 = −0.25.
	thesis := r.Criteria[0]
	require.Equal(t, "Thesis", thesis.Label)
	require.InDelta(t, 0.5, thesis.Exact, 1e-12)
	require.InDelta(t, 0.75, *thesis.WithinOne, 1e-12)
	require.InDelta(t, 0.2857, *thesis.Kappa, 0.00005)
	require.Nil(t, thesis.Accuracy)
	require.InDelta(t, -0.25, thesis.MeanPointDiff, 1e-12)

	// Evidence, pairs (0,1) (2,3) (3,3) (1,2): exact 1/4, all within one.
	// Rows 1,1,1,1; columns 0,1,1,2; w = (i−j)²/9.
	// Σ w·O = 3·(1/9) = 1/3.
	// Σ w·E = Σj col_j·Σi (i−j)² /(9·4) = (1·6 + 1·6 + 2·14)/36 = 40/36 = 10/9.
	// kappa = 1 − (1/3)/(10/9) = 0.7. Points: (2 + 2 + 0 + 2)/4 = 1.5.
	evidence := r.Criteria[1]
	require.Equal(t, "Evidence", evidence.Label)
	require.InDelta(t, 0.25, evidence.Exact, 1e-12)
	require.InDelta(t, 1, *evidence.WithinOne, 1e-12)
	require.InDelta(t, 0.7, *evidence.Kappa, 1e-12)
	require.Nil(t, evidence.Accuracy)
	require.InDelta(t, 1.5, evidence.MeanPointDiff, 1e-12)

	// Cites sources: 3 of 4 the same; points (0 + 2 + 0 + 0)/4 = 0.5.
	sources := r.Criteria[2]
	require.Equal(t, "Cites sources", sources.Label)
	require.InDelta(t, 0.75, sources.Exact, 1e-12)
	require.InDelta(t, 0.75, *sources.Accuracy, 1e-12)
	require.Nil(t, sources.WithinOne)
	require.Nil(t, sources.Kappa)
	require.InDelta(t, 0.5, sources.MeanPointDiff, 1e-12)

	// Overall: exact (2 + 1 + 3)/12 = 0.5; within one (3 + 4)/8 = 0.875;
	// accuracy 3/4 (booleans only).
	// Kappa pools the 8 level pairs over k = 4 (the most levels):
	// teacher 2,1,2,0,0,2,3,1 → rows 2,2,3,1; AI 0,2,2,0,1,3,3,2 → columns 2,1,3,2.
	// Σ (i−j)²·O = 4+1+0+0+1+1+0+1 = 8, so Σ w·O = 8/9.
	// Σ (i−j)²·row_i·col_j: i=0: 2·(0+1+12+18) = 62; i=1: 2·(2+0+3+8) = 26;
	// i=2: 3·(8+1+0+2) = 33; i=3: 1·(18+4+3+0) = 25; total 146, so
	// Σ w·E = 146/(9·8). kappa = 1 − 8·8/146 = 82/146 ≈ 0.5616.
	// Points per submission (AI − teacher over its criteria): Dan −2+2+0 = 0,
	// Ben 1+2+2 = 5, Ada 0, Cleo 0+2+0 = 2 → 7/4 = 1.75.
	require.InDelta(t, 0.5, r.Overall.Exact, 1e-12)
	require.InDelta(t, 0.875, *r.Overall.WithinOne, 1e-12)
	require.InDelta(t, 0.75, *r.Overall.Accuracy, 1e-12)
	require.InDelta(t, 0.5616, *r.Overall.Kappa, 0.00005)
	require.InDelta(t, 1.75, r.Overall.MeanPointDiff, 1e-12)

	require.Equal(t, []agreement.Disagreement{
		{SubmissionID: "s2", SubmissionName: "Ben", Label: "Thesis", Teacher: "level 2 of 3", AI: "level 3 of 3"},
		{SubmissionID: "s2", SubmissionName: "Ben", Label: "Evidence", Teacher: "level 3 of 4", AI: "level 4 of 4"},
		{SubmissionID: "s2", SubmissionName: "Ben", Label: "Cites sources", Teacher: "not met", AI: "met"},
		{SubmissionID: "s3", SubmissionName: "Cleo", Label: "Evidence", Teacher: "level 2 of 4", AI: "level 3 of 4"},
		{SubmissionID: "s4", SubmissionName: "Dan", Label: "Thesis", Teacher: "level 3 of 3", AI: "level 1 of 3"},
		{SubmissionID: "s4", SubmissionName: "Dan", Label: "Evidence", Teacher: "level 1 of 4", AI: "level 2 of 4"},
	}, r.Disagreements)
}

func TestComparePerfectAgreement(t *testing.T) {
	t.Parallel()
	var js []agreement.Judgement
	for _, x := range benchmarkJudgements() {
		x.AI, x.AIPoints = x.Teacher, x.TeacherPoints
		js = append(js, x)
	}
	r := agreement.Compare(criteria, js, 4, time.Now())
	require.Equal(t, 1.0, r.Overall.Exact)
	require.Equal(t, 1.0, *r.Overall.Kappa)
	require.Equal(t, 1.0, *r.Overall.Accuracy)
	require.Zero(t, r.Overall.MeanPointDiff)
	for _, c := range r.Criteria {
		require.Equal(t, 1.0, c.Exact, c.Label)
	}
	require.Empty(t, r.Disagreements)
	require.NotNil(t, r.Disagreements, "an empty list, not null, in JSON")
}

func TestCompareAIHarsherGivesNegativeDiff(t *testing.T) {
	t.Parallel()
	// The AI marks every level one lower and the boolean not met: it is
	// harsher, so AI − teacher is negative.
	js := []agreement.Judgement{
		j("a", "A", 0, 2, 1, 1), j("a", "A", 2, 1, 0, 3),
		j("b", "B", 0, 1, 0, 1), j("b", "B", 2, 1, 0, 3),
	}
	r := agreement.Compare(criteria, js, 2, time.Now())
	require.InDelta(t, -1, r.Criteria[0].MeanPointDiff, 1e-12)
	require.InDelta(t, -3, r.Criteria[1].MeanPointDiff, 1e-12)
	require.InDelta(t, -4, r.Overall.MeanPointDiff, 1e-12, "per submission: −1 − 3")
	require.Equal(t, 1.0, *r.Overall.WithinOne)
	require.Zero(t, *r.Overall.Accuracy)
}

func TestCompareEdges(t *testing.T) {
	t.Parallel()
	t.Run("no judgements", func(t *testing.T) {
		t.Parallel()
		r := agreement.Compare(criteria, nil, 3, time.Now())
		require.Equal(t, agreement.Figures{}, r.Overall)
		require.Equal(t, []agreement.CriterionFigures{}, r.Criteria)
		require.Equal(t, []agreement.Disagreement{}, r.Disagreements)
	})
	t.Run("kappa undefined when every level is the same", func(t *testing.T) {
		t.Parallel()
		js := []agreement.Judgement{j("a", "A", 0, 1, 1, 1), j("b", "B", 0, 1, 1, 1), j("c", "C", 0, 1, 1, 1)}
		r := agreement.Compare(criteria, js, 3, time.Now())
		require.Len(t, r.Criteria, 1, "criteria without judgements are left out")
		require.Nil(t, r.Criteria[0].Kappa)
		require.Nil(t, r.Overall.Kappa)
		require.Equal(t, 1.0, r.Criteria[0].Exact)
		require.Nil(t, r.Overall.Accuracy, "no boolean judgements")
	})
	t.Run("booleans only", func(t *testing.T) {
		t.Parallel()
		js := []agreement.Judgement{j("a", "A", 2, 1, 1, 1), j("b", "B", 2, 0, 1, 1)}
		r := agreement.Compare(criteria, js, 2, time.Now())
		require.Nil(t, r.Overall.Kappa)
		require.Nil(t, r.Overall.WithinOne)
		require.InDelta(t, 0.5, *r.Overall.Accuracy, 1e-12)
	})
	t.Run("out of range values are clamped and unknown criteria ignored", func(t *testing.T) {
		t.Parallel()
		js := []agreement.Judgement{
			j("a", "A", 0, 2, 7, 1), j("a", "A", 2, 1, 0.6, 1), j("a", "A", 9, 0, 1, 1), j("a", "A", -1, 0, 1, 1),
		}
		r := agreement.Compare(criteria, js, 1, time.Now())
		require.Len(t, r.Criteria, 2)
		require.Equal(t, 1.0, r.Overall.Exact, "7 is level 3 of 3, 0.6 is met")
		require.Empty(t, r.Disagreements)
	})
}

func TestReportJSONShape(t *testing.T) {
	t.Parallel()
	r := agreement.Compare(criteria, benchmarkJudgements(), 4, time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	raw, err := json.Marshal(r)
	require.NoError(t, err)

	var got map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, []string{"benchmarks", "computedAt", "criteria", "disagreements", "overall"}, keysOf(t, raw))
	require.JSONEq(t, `"2025-01-02T03:04:05Z"`, string(got["computedAt"]))
	require.Equal(t, []string{"accuracy", "exact", "kappa", "meanPointDiff", "withinOne"}, keysOf(t, got["overall"]))

	var list []json.RawMessage
	require.NoError(t, json.Unmarshal(got["criteria"], &list))
	require.Equal(t, []string{"accuracy", "exact", "kappa", "label", "meanPointDiff", "withinOne"}, keysOf(t, list[0]))
	require.Contains(t, string(list[2]), `"withinOne":null`, "boolean criteria have no withinOne")
	require.Contains(t, string(list[2]), `"kappa":null`)

	require.NoError(t, json.Unmarshal(got["disagreements"], &list))
	require.Equal(t, []string{"ai", "label", "submissionId", "submissionName", "teacher"}, keysOf(t, list[0]))
}

// keysOf returns the sorted keys of a JSON object.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
