package grading

import (
	"strconv"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/rubric"
)

// MsgRubricCounts is the message for a rubric-feedback edit that does not
// give one level, points and feedback per rubric criterion.
const MsgRubricCounts = "Give one level, points and feedback for each rubric criterion"

// LevelPoints is what level (an index; levels are listed best first, as the
// rubric editor shows them) of a criterion WITHOUT point ranges is worth:
// n − level for n levels, so the best level is worth n and the last 1. It
// is 0 for a level that does not exist.
func LevelPoints(c rubric.Criterion, level int) float64 {
	n := len(c.LevelDescriptions)
	if level < 0 || level >= n {
		return 0
	}
	return float64(n - level)
}

// levelRange is the point range of a level of a criterion with ranges.
func levelRange(c rubric.Criterion, level int) (lo, hi float64, ok bool) {
	for _, r := range c.LevelRanges {
		if r.LevelDescriptionsIndex == level && r.Min != nil && r.Max != nil {
			return *r.Min, *r.Max, true
		}
	}
	return 0, 0, false
}

// usesRange reports whether points of c are chosen within level ranges.
func usesRange(c rubric.Criterion) bool { return c.UseRange && len(c.LevelRanges) > 0 }

// criterionMax is the most a criterion is worth: its best level (the
// highest range maximum with ranges, n without).
func criterionMax(c rubric.Criterion) float64 {
	if !usesRange(c) {
		return float64(len(c.LevelDescriptions))
	}
	best := 0.0
	for i := range c.LevelDescriptions {
		if _, hi, ok := levelRange(c, i); ok && hi > best {
			best = hi
		}
	}
	return best
}

// RubricTotals is the total and maximum of a rubric-feedback result: per
// criterion, without ranges the level's LevelPoints (the stored points are
// not needed), with ranges the stored points kept within the chosen level's
// range; max is Σ of each criterion's best level. The total is clamped to
// [0, max]; a criterion without a valid level counts 0.
func RubricTotals(r rubric.Rubric, levels []int, points []float64) (total, max float64) {
	for i, c := range r.Criteria {
		max += criterionMax(c)
		if p, ok := RubricCriterionPoints(c, i, levels, points); ok {
			total += p
		}
	}
	max = round(max)
	return clamp(round(total), 0, max), max
}

// RubricCriterionPoints is what criterion i (c) of a rubric-feedback
// result counts towards its total, as RubricTotals adds it up: its level's
// LevelPoints without ranges, the stored points kept within the chosen
// level's range with them. ok is false for a criterion without a valid
// level (or, with ranges, without points within a range): it counts 0.
// Exports and reports show this per criterion, so their columns add up to
// the total the review screen shows.
func RubricCriterionPoints(c rubric.Criterion, i int, levels []int, points []float64) (float64, bool) {
	if i >= len(levels) || levels[i] < 0 || levels[i] >= len(c.LevelDescriptions) {
		return 0, false
	}
	if !usesRange(c) {
		return LevelPoints(c, levels[i]), true
	}
	lo, hi, ok := levelRange(c, levels[i])
	if ok && i < len(points) && finite(points[i]) {
		return clamp(points[i], lo, hi), true
	}
	return 0, false
}

// RubricPoints is the points to store for levels: a criterion without
// ranges gets its level's LevelPoints whatever was sent; one with ranges
// keeps the points sent (check them with ValidateRubric first).
func RubricPoints(r rubric.Rubric, levels []int, points []float64) []float64 {
	out := make([]float64, len(r.Criteria))
	for i, c := range r.Criteria {
		switch {
		case i >= len(levels):
		case !usesRange(c):
			out[i] = LevelPoints(c, levels[i])
		case i < len(points):
			out[i] = points[i]
		}
	}
	return out
}

// ValidateRubric checks a teacher's edit of a rubric-feedback result: one
// level, points and feedback per criterion, each level one of the
// criterion's, and, for a criterion with ranges, points within the chosen
// level's range. Points of criteria without ranges are not checked: they
// follow the level (RubricPoints). Errors are apperr.Invalid with a
// message for the teacher.
func ValidateRubric(r rubric.Rubric, levels []int, points []float64, feedback []string) error {
	n := len(r.Criteria)
	if len(levels) != n || len(points) != n || len(feedback) != n {
		return apperr.New(apperr.Invalid, MsgRubricCounts)
	}
	for i, c := range r.Criteria {
		name := "Criterion " + strconv.Itoa(i+1)
		if levels[i] < 0 || levels[i] >= len(c.LevelDescriptions) {
			return apperr.Invalidf("%s: choose one of its %d levels", name, len(c.LevelDescriptions))
		}
		if usesRange(c) {
			lo, hi, ok := levelRange(c, levels[i])
			if !ok {
				return apperr.Invalidf("%s: the chosen level has no point range", name)
			}
			if !finite(points[i]) || points[i] < lo || points[i] > hi {
				return apperr.Invalidf("%s: points must be from %s to %s for the chosen level", name, num(lo), num(hi))
			}
		}
		if utf8.RuneCountInString(feedback[i]) > input.MaxLongText {
			return apperr.New(apperr.Invalid, MsgFeedbackTooLong)
		}
		if err := input.CheckString("Feedback", feedback[i]); err != nil {
			return err
		}
	}
	return nil
}

// RubricHighlightKeys are the highlight keys of a rubric-feedback result:
// "criterion1", "criterion2", … one per rubric criterion, so a highlighted
// passage says which criterion it bears on.
func RubricHighlightKeys(r rubric.Rubric) []string {
	keys := make([]string, len(r.Criteria))
	for i := range r.Criteria {
		keys[i] = "criterion" + strconv.Itoa(i+1)
	}
	return keys
}

// num formats points without needless decimals.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
