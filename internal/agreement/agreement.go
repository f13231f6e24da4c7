// Package agreement measures how closely the AI grades like the teacher:
// each benchmark result the teacher checked is regraded by the AI (with the
// other benchmarks as examples) and the two judgements of every criterion
// are compared. It holds the statistics and the report, not the regrading.
package agreement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
)

// Kind is what a criterion's judgements are.
type Kind int

const (
	// KindLevels is a rubric criterion: a level index 0..Levels-1, ordered
	// from the lowest level.
	KindLevels Kind = iota
	// KindBoolean is a grade criterion: met (1) or not met (0).
	KindBoolean
)

// Criterion is one criterion judged by teacher and AI.
type Criterion struct {
	Label  string
	Kind   Kind
	Levels int // KindLevels: the number of levels
}

// Judgement is the teacher's and the AI's judgement of one criterion
// (Criteria[CriterionIndex]) of one benchmark submission.
type Judgement struct {
	SubmissionID   string
	SubmissionName string
	CriterionIndex int
	Teacher, AI    float64 // level index, or 0/1
	TeacherPoints  float64
	AIPoints       float64
}

// Figures are the agreement figures of a set of judgements. Shares are
// between 0 and 1.
type Figures struct {
	// Exact is the share of judgements where the AI chose what the teacher did.
	Exact float64 `json:"exact"`
	// WithinOne is the share of level judgements at most one level apart
	// (nil when there are none).
	WithinOne *float64 `json:"withinOne"`
	// Kappa is the quadratic weighted kappa of the level judgements (nil
	// when there are none or it is undefined).
	Kappa *float64 `json:"kappa"`
	// Accuracy is the share of boolean judgements the AI set as the teacher
	// did (nil when there are none).
	Accuracy *float64 `json:"accuracy"`
	// MeanPointDiff is the mean of AI points minus teacher points: per
	// judgement for a criterion, per submission (all its criteria together)
	// overall. Positive means the AI is more generous.
	MeanPointDiff float64 `json:"meanPointDiff"`
}

// CriterionFigures are the figures of one criterion.
type CriterionFigures struct {
	Label string `json:"label"`
	Figures
}

// Disagreement is one judgement where the AI did not choose what the
// teacher did, rendered for reading ("level 2 of 4", "met").
type Disagreement struct {
	SubmissionID   string `json:"submissionId"`
	SubmissionName string `json:"submissionName"`
	Label          string `json:"label"`
	Teacher        string `json:"teacher"`
	AI             string `json:"ai"`
}

// Report is an assignment's AgreementReport.
type Report struct {
	Benchmarks    int                `json:"benchmarks"`
	ComputedAt    time.Time          `json:"computedAt"`
	Overall       Figures            `json:"overall"`
	Criteria      []CriterionFigures `json:"criteria"`
	Disagreements []Disagreement     `json:"disagreements"`
}

// judged is a judgement with its criterion and its values as categories.
type judged struct {
	Judgement
	c           Criterion
	teacher, ai int
}

// Compare computes the figures of each criterion, in the order of criteria,
// and overall. A criterion without judgements is left out, and judgements
// of a criterion index outside criteria are ignored. Levels are rounded to
// whole levels and clamped to the criterion's range, booleans to 0 or 1.
// Overall kappa pools every level judgement over max(Levels) categories
// (nil if there are none), overall withinOne pools the level judgements and
// overall accuracy the boolean ones (nil if none). Disagreements list every
// unequal judgement, by submission name then criterion.
func Compare(criteria []Criterion, judgements []Judgement, benchmarks int, now time.Time) Report {
	var all []judged
	perCriterion := make([][]judged, len(criteria))
	for _, j := range judgements {
		if j.CriterionIndex < 0 || j.CriterionIndex >= len(criteria) {
			continue
		}
		c := criteria[j.CriterionIndex]
		x := judged{Judgement: j, c: c, teacher: category(c, j.Teacher), ai: category(c, j.AI)}
		all = append(all, x)
		perCriterion[j.CriterionIndex] = append(perCriterion[j.CriterionIndex], x)
	}

	r := Report{
		Benchmarks: benchmarks, ComputedAt: now.UTC(),
		Criteria: []CriterionFigures{}, Disagreements: []Disagreement{},
	}
	for i, js := range perCriterion {
		if len(js) == 0 {
			continue
		}
		f := figures(js)
		f.MeanPointDiff = meanPointDiff(js)
		r.Criteria = append(r.Criteria, CriterionFigures{Label: criteria[i].Label, Figures: f})
	}
	if len(all) > 0 {
		r.Overall = figures(all)
		r.Overall.MeanPointDiff = meanSubmissionDiff(all)
	}

	unequal := slices.DeleteFunc(slices.Clone(all), func(x judged) bool { return x.teacher == x.ai })
	slices.SortStableFunc(unequal, func(a, b judged) int {
		return cmp.Or(cmp.Compare(a.SubmissionName, b.SubmissionName),
			cmp.Compare(a.SubmissionID, b.SubmissionID), cmp.Compare(a.CriterionIndex, b.CriterionIndex))
	})
	for _, x := range unequal {
		r.Disagreements = append(r.Disagreements, Disagreement{
			SubmissionID: x.SubmissionID, SubmissionName: x.SubmissionName, Label: x.c.Label,
			Teacher: render(x.c, x.teacher), AI: render(x.c, x.ai),
		})
	}
	return r
}

// figures computes every figure but MeanPointDiff over js (not empty).
func figures(js []judged) Figures {
	var f Figures
	var exact, levels, withinOne, booleans, same int
	var ta, aa []int
	k := 0
	for _, x := range js {
		if x.teacher == x.ai {
			exact++
		}
		if x.c.Kind == KindBoolean {
			booleans++
			if x.teacher == x.ai {
				same++
			}
			continue
		}
		levels++
		if abs(x.teacher-x.ai) <= 1 {
			withinOne++
		}
		ta, aa = append(ta, x.teacher), append(aa, x.ai)
		k = max(k, x.c.Levels)
	}
	f.Exact = share(exact, len(js))
	if levels > 0 {
		f.WithinOne = ptr(share(withinOne, levels))
		if kappa, ok := QWK(ta, aa, k); ok {
			f.Kappa = ptr(kappa)
		}
	}
	if booleans > 0 {
		f.Accuracy = ptr(share(same, booleans))
	}
	return f
}

// meanPointDiff is the mean of AI minus teacher points per judgement.
func meanPointDiff(js []judged) float64 {
	var sum float64
	for _, x := range js {
		sum += x.AIPoints - x.TeacherPoints
	}
	return sum / float64(len(js))
}

// meanSubmissionDiff is the mean over submissions of AI minus teacher
// points summed over the submission's judgements.
func meanSubmissionDiff(js []judged) float64 {
	var sum float64
	submissions := map[string]bool{}
	for _, x := range js {
		sum += x.AIPoints - x.TeacherPoints
		submissions[x.SubmissionID] = true
	}
	return sum / float64(len(submissions))
}

// category turns a judgement value into a whole category of c.
func category(c Criterion, v float64) int {
	hi := 1
	if c.Kind == KindLevels {
		hi = max(c.Levels-1, 0)
	}
	if math.IsNaN(v) {
		return 0
	}
	return int(min(max(math.Round(v), 0), float64(hi)))
}

// render writes a category of c for a teacher to read.
func render(c Criterion, v int) string {
	if c.Kind == KindBoolean {
		if v == 1 {
			return "met"
		}
		return "not met"
	}
	return fmt.Sprintf("level %d of %d", v+1, c.Levels)
}

func share(n, of int) float64 { return float64(n) / float64(of) }

func ptr(f float64) *float64 { return &f }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
