package assignment_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/rubric"
)

func photosynthesis(criterion string) assignment.Function {
	return assignment.Function{Type: assignment.TypeGrade, Questions: []assignment.Question{{
		ID: "q1", QuestionText: "Explain photosynthesis.",
		Criteria: []assignment.Criterion{{ID: "c1", Description: criterion, Points: 2}},
	}}}
}

// Results keep the fingerprints they were graded against in the database,
// so a fingerprint must come out the same in every release.
func TestGradedPartsAreTheStoredFingerprints(t *testing.T) {
	var parts map[string]string
	require.NoError(t, json.Unmarshal(assignment.GradedParts(photosynthesis("Names chlorophyll")), &parts))
	require.Equal(t, map[string]string{"q:q1": "b15ecbd02049fc26", "c:q1/c1": "e9c820e04ad8fbcd"}, parts)
}

// A class's read marks its results with one OutdatedMarker; each result
// must come out as MarkOutdated alone marks it.
func TestOutdatedMarkerMarksAsEachResultAlone(t *testing.T) {
	graded := time.Now()
	old := assignment.GradedParts(photosynthesis("Names chlorophyll"))
	current := photosynthesis("Names the pigment chlorophyll")
	uptodate := assignment.GradedParts(current)
	results := []assignment.FunctionResult{
		{Status: "graded", GradedAt: &graded, GradedParts: old},
		{Status: "graded", GradedAt: &graded, GradedParts: uptodate},
		{Status: "graded", GradedAt: &graded, GradedParts: old},
		{Status: "reviewed", GradedAt: &graded, GradedParts: json.RawMessage(`null`)},
		{Status: "grading", GradedAt: &graded, GradedParts: old},
		{Status: "failed", GradedAt: &graded, GradedParts: old},
		{Status: "graded", GradedParts: old},
	}
	alone := make([]assignment.FunctionResult, len(results))
	copy(alone, results)
	marker := assignment.NewOutdatedMarker(current)
	for i := range results {
		marker.Mark(&results[i])
		alone[i].MarkOutdated(current)
	}
	require.Equal(t, alone, results)
	require.True(t, results[0].Outdated)
	require.Equal(t, []string{"question 1"}, results[0].OutdatedParts)
	require.False(t, results[1].Outdated)
	require.True(t, results[2].Outdated)
	require.False(t, results[4].Outdated, "a result being graded is not outdated")
}

// The history says "1 point", not "1 points", for an added criterion worth
// one point, and counts every other amount in points.
func TestDescribeChangesCountsOnePointInTheSingular(t *testing.T) {
	old := photosynthesis("Names chlorophyll")
	added := func(points ...float64) assignment.Function {
		f := photosynthesis("Names chlorophyll")
		for i, p := range points {
			f.Questions[0].Criteria = append(f.Questions[0].Criteria, assignment.Criterion{
				ID: "n" + string(rune('1'+i)), Description: "Names the stroma", Points: p,
			})
		}
		return f
	}
	noRubric := func(string) string { return "" }
	require.Equal(t, []string{
		"added a criterion to 1: “Names the stroma” (1 point)",
		"added a criterion to 1: “Names the stroma” (0.5 points)",
		"added a criterion to 1: “Names the stroma” (3 points)",
		"added a criterion to 1: “Names the stroma” (0 points)",
	}, assignment.DescribeChanges(old, added(1, 0.5, 3, 0), noRubric))

	// A points change names no unit: "2 → 1", whatever the amounts.
	one := photosynthesis("Names chlorophyll")
	one.Questions[0].Criteria[0].Points = 1
	require.Equal(t, []string{"changed the points of 1: 2 → 1 (“Names chlorophyll”)"},
		assignment.DescribeChanges(old, one, noRubric))
}

// A saved rubric's words are part of the definition of the assignments
// that use it: a level added or a description reworded makes the results
// graded against it "graded against an earlier version" (the rubric); its
// points do not, and results graded before its words were fingerprinted
// are not outdated for want of them.
func TestARubricEditOutdatesTheResultsGradedWithIt(t *testing.T) {
	id := uuid.New()
	essay := func(levels []string, ranges bool) assignment.Function {
		r := rubric.Rubric{ID: id, Name: "Essay", Criteria: []rubric.Criterion{{CriterionDescription: "Thesis", LevelDescriptions: levels, UseRange: ranges}}}
		return assignment.Function{Type: assignment.TypeRubricFeedback, RubricID: &id, Rubric: &r}
	}
	graded := time.Now()
	asGraded := assignment.FunctionResult{Status: "graded", GradedAt: &graded, GradedParts: assignment.GradedParts(essay([]string{"Clear", "Vague"}, false))}

	same := asGraded
	same.MarkOutdated(essay([]string{"Clear", "Vague"}, true)) // points only
	require.False(t, same.Outdated)

	for _, edited := range [][]string{{"Precise", "Clear", "Vague"}, {"Clear", "Unclear"}, {"Clear"}} {
		r := asGraded
		r.MarkOutdated(essay(edited, false))
		require.True(t, r.Outdated, "%v", edited)
		require.Equal(t, []string{"the rubric"}, r.OutdatedParts)
	}

	// Graded before the rubric's words were kept: only its id was.
	before := asGraded
	before.GradedParts = json.RawMessage(`{"rubric":"` + rubricIDPrint(t, id) + `"}`)
	before.MarkOutdated(essay([]string{"Clear", "Vague"}, false))
	require.False(t, before.Outdated)
}

// rubricIDPrint is the stored fingerprint of a rubric id alone.
func rubricIDPrint(t *testing.T, id uuid.UUID) string {
	var parts map[string]string
	require.NoError(t, json.Unmarshal(assignment.GradedParts(assignment.Function{Type: assignment.TypeRubricFeedback, RubricID: &id}), &parts))
	return parts["rubric"]
}

// A result graded before a question or criterion was added is marked
// QuestionsAdded (its student would see it as not met, and the Release
// dialog warns); one graded before a question was only reworded or its
// points changed is outdated but not, and neither is one graded before a
// highlighter was added.
func TestOutdatedSaysWhetherQuestionsWereAdded(t *testing.T) {
	graded := time.Now()
	base := photosynthesis("Names chlorophyll")
	was := assignment.GradedParts(base)

	reworded := photosynthesis("Names chlorophyll")
	reworded.Questions[0].QuestionText = "Explain photosynthesis in plants."
	reworded.Questions[0].Criteria[0].Points = 4

	criterion := photosynthesis("Names chlorophyll")
	criterion.Questions[0].Criteria = append(criterion.Questions[0].Criteria, assignment.Criterion{ID: "c2", Description: "Names the stroma", Points: 1})

	question := photosynthesis("Names chlorophyll")
	question.Questions = append(question.Questions, assignment.Question{ID: "q2", QuestionText: "Where does it happen?",
		Criteria: []assignment.Criterion{{ID: "c3", Description: "Chloroplasts", Points: 1}}})

	sub := photosynthesis("Names chlorophyll")
	sub.Questions[0].Subquestions = []assignment.Question{{ID: "q1a", QuestionText: "Name the gas given off.",
		Criteria: []assignment.Criterion{{ID: "c4", Description: "Oxygen", Points: 1}}}}

	for _, tc := range []struct {
		name    string
		f       assignment.Function
		added   bool
		changed bool
	}{
		{"reworded, points changed", reworded, false, true},
		{"criterion added", criterion, true, true},
		{"question added", question, true, true},
		{"subquestion added", sub, true, true},
		{"unchanged", base, false, false},
	} {
		alone := assignment.FunctionResult{Status: "graded", GradedAt: &graded, GradedParts: was}
		alone.MarkOutdated(tc.f)
		require.Equal(t, tc.changed, alone.Outdated, tc.name)
		require.Equal(t, tc.added, alone.QuestionsAdded, tc.name)
		marked := assignment.FunctionResult{Status: "graded", GradedAt: &graded, GradedParts: was}
		assignment.NewOutdatedMarker(tc.f).Mark(&marked)
		require.Equal(t, alone, marked, tc.name)
		require.False(t, alone.ForStudent().QuestionsAdded, "never sent to a student")
	}
}
