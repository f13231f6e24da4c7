package result_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// TestUpdateRefusesMoreThanMaxEditHighlights: a teacher's highlightedText
// of 1,000 highlights is saved; one of 1,001 is refused with a sentence and
// changes nothing, not even the feedback sent with it. Every highlight is a
// footnote of the printed report.
func TestUpdateRefusesMoreThanMaxEditHighlights(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeFeedback, false)
	words := make([]string, grading.MaxEditHighlights+5)
	for i := range words {
		words[i] = "w" + strconv.Itoa(i)
	}
	ids := b.submit(t, a, asgID, strings.Join(words, " "))
	fr := b.gradeNow(t, a, asgID, ids...)[0]

	// tagged highlights the first n words.
	tagged := func(n int) string {
		parts := make([]string, len(words))
		for i, w := range words {
			parts[i] = w
			if i < n {
				parts[i] = `<grammar comment="Note ` + strconv.Itoa(i) + `">` + w + `</grammar>`
			}
		}
		return strings.Join(parts, " ")
	}

	most := tagged(grading.MaxEditHighlights)
	saved, err := b.svc.Update(b.ctx, a, result.Edit{ResultID: fr.ID,
		ResultFields: assignment.ResultFields{HighlightedText: most, Feedback: "Kept."}})
	require.NoError(t, err)
	_, items := highlight.Parse(saved.HighlightedText)
	require.Len(t, items, grading.MaxEditHighlights)

	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultID: fr.ID,
		ResultFields: assignment.ResultFields{HighlightedText: tagged(grading.MaxEditHighlights + 1), Feedback: "Changed."}})
	requireCode(t, err, apperr.Invalid, grading.MsgTooManyHighlights)
	require.Equal(t, "A result can have at most 1000 highlights", grading.MsgTooManyHighlights)
	got := b.get(t, a, asgID, ids[0])
	require.Equal(t, most, got.HighlightedText, "a refused edit changes nothing")
	require.Equal(t, "Kept.", got.Feedback)

	// The same refusal on a rubric-feedback result.
	rf := b.define(t, a, assignment.TypeRubricFeedback, false)
	ids = b.submit(t, a, rf, strings.Join(words, " "))
	fr = b.gradeNow(t, a, rf, ids...)[0]
	over := strings.ReplaceAll(strings.ReplaceAll(tagged(grading.MaxEditHighlights+1), "<grammar", "<criterion1"), "</grammar>", "</criterion1>")
	_, err = b.svc.Update(b.ctx, a, result.Edit{ResultID: fr.ID, ResultFields: assignment.ResultFields{
		CriteriaLevels: []int{0, 0}, CriteriaPoints: []float64{3, 5}, CriteriaFeedback: []string{"", ""}, HighlightedText: over}})
	requireCode(t, err, apperr.Invalid, grading.MsgTooManyHighlights)
	require.Equal(t, fr.HighlightedText, b.get(t, a, rf, ids[0]).HighlightedText)
}
