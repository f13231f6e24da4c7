package grading_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/rubric"
)

func pts(x float64) *float64 { return &x }

// essayRubric has a criterion without ranges (3 levels, best first: worth
// 3, 2, 1) and one with ranges (4–5, 2–3, 0–1).
func essayRubric() rubric.Rubric {
	return rubric.Rubric{Name: "Essay", Criteria: []rubric.Criterion{
		{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
		{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong, cited evidence", "Some evidence", "No evidence"}, UseRange: true,
			LevelRanges: []rubric.LevelRange{
				{LevelDescriptionsIndex: 0, Min: pts(4), Max: pts(5)},
				{LevelDescriptionsIndex: 1, Min: pts(2), Max: pts(3)},
				{LevelDescriptionsIndex: 2, Min: pts(0), Max: pts(1)},
			}},
	}}
}

func TestLevelPointsAreBestFirst(t *testing.T) {
	t.Parallel()
	c := essayRubric().Criteria[0]
	require.Equal(t, 3.0, grading.LevelPoints(c, 0))
	require.Equal(t, 1.0, grading.LevelPoints(c, 2))
	require.Zero(t, grading.LevelPoints(c, 3))
	require.Zero(t, grading.LevelPoints(c, -1))
}

func TestRubricTotals(t *testing.T) {
	t.Parallel()
	r := essayRubric()
	// Level 2 of 3 without ranges is worth 2, whatever points were stored;
	// 4.5 is within level 1's range.
	total, maxPts := grading.RubricTotals(r, []int{1, 0}, []float64{99, 4.5})
	require.Equal(t, 6.5, total)
	require.Equal(t, 8.0, maxPts)

	// Points outside the chosen level's range count at its edge; a missing
	// or impossible level counts 0.
	total, _ = grading.RubricTotals(r, []int{0, 1}, []float64{0, 40})
	require.Equal(t, 6.0, total)
	total, _ = grading.RubricTotals(r, []int{7}, nil)
	require.Zero(t, total)
	total, _ = grading.RubricTotals(r, []int{0, 2}, []float64{0, math.NaN()})
	require.Equal(t, 3.0, total)

	require.Equal(t, []float64{1, 2.5}, grading.RubricPoints(r, []int{2, 1}, []float64{50, 2.5}))
}

func TestValidateRubric(t *testing.T) {
	t.Parallel()
	r := essayRubric()
	require.NoError(t, grading.ValidateRubric(r, []int{0, 1}, []float64{0, 3}, []string{"Clear.", "Some."}))
	// Points of a criterion without ranges follow the level and are not
	// checked.
	require.NoError(t, grading.ValidateRubric(r, []int{2, 2}, []float64{123, 0.5}, []string{"", ""}))

	for name, tc := range map[string]struct {
		levels   []int
		points   []float64
		feedback []string
		msg      string
	}{
		"too few levels":  {[]int{0}, []float64{0, 3}, []string{"", ""}, grading.MsgRubricCounts},
		"too many points": {[]int{0, 1}, []float64{0, 3, 1}, []string{"", ""}, grading.MsgRubricCounts},
		"no feedback":     {[]int{0, 1}, []float64{0, 3}, nil, grading.MsgRubricCounts},
		"level too high":  {[]int{3, 1}, []float64{0, 3}, []string{"", ""}, "Criterion 1: choose one of its 3 levels"},
		"negative level":  {[]int{0, -1}, []float64{0, 3}, []string{"", ""}, "Criterion 2: choose one of its 3 levels"},
		"above the range": {[]int{0, 1}, []float64{0, 3.5}, []string{"", ""}, "Criterion 2: points must be from 2 to 3 for the chosen level"},
		"below the range": {[]int{0, 0}, []float64{0, 3}, []string{"", ""}, "Criterion 2: points must be from 4 to 5 for the chosen level"},
		"not a number":    {[]int{0, 0}, []float64{0, math.Inf(1)}, []string{"", ""}, "Criterion 2: points must be from 4 to 5 for the chosen level"},
	} {
		err := grading.ValidateRubric(r, tc.levels, tc.points, tc.feedback)
		require.Error(t, err, name)
		require.Equal(t, apperr.Invalid, apperr.From(err).Code, name)
		require.Equal(t, tc.msg, apperr.From(err).Message, name)
	}
}

func TestRubricHighlightKeys(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"criterion1", "criterion2"}, grading.RubricHighlightKeys(essayRubric()))
}
