package grading

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
)

const rubricInstructions = `You assess a student's submission for a teacher against a rubric. The assignment lists the rubric's criteria, numbered "1", "2", …; each criterion's levels are numbered from 1, the best, downwards, each with a description of work at that level. For every criterion, choose the level whose description fits the submission best ("level": its number), judging each criterion on its own. When a criterion has "choosePoints" true, its levels have point ranges: also give "points" within the chosen level's range (minPoints to maxPoints), nearer the top for stronger work within the level. For each criterion write "feedback": one to three sentences for the student on why the work is at this level and what would reach the next one.

Highlight passages of the submission that show why, each under the "highlightKey" of the criterion it bears on, with a comment.

` + passageRules + `

Then write overall comments on the submission for the student (two to four sentences).`

type rubricSpecLevel struct {
	Level       int      `json:"level"`
	Description string   `json:"description"`
	Points      *float64 `json:"points,omitempty"`
	MinPoints   *float64 `json:"minPoints,omitempty"`
	MaxPoints   *float64 `json:"maxPoints,omitempty"`
}

type rubricSpecCriterion struct {
	Number       string            `json:"number"`
	Criterion    string            `json:"criterion"`
	HighlightKey string            `json:"highlightKey"`
	ChoosePoints bool              `json:"choosePoints"`
	Levels       []rubricSpecLevel `json:"levels"`
}

type rubricSpec struct {
	Rubric   string                `json:"rubric"`
	Context  string                `json:"context,omitempty"`
	Criteria []rubricSpecCriterion `json:"criteria"`
}

type rubricCriterionAnswer struct {
	Level    int      `json:"level"`
	Points   *float64 `json:"points,omitempty"`
	Feedback string   `json:"feedback"`
}

type rubricAnswer struct {
	Criteria        map[string]rubricCriterionAnswer `json:"criteria"`
	OverallComments string                           `json:"overallComments"`
	Passages        []passageAnswer                  `json:"passages"`
	Injection       InjectionReport                  `json:"injection"`
}

func planRubric(in Input) (*Call, error) {
	if in.Function.Rubric == nil {
		return nil, &setupError{reason: "This assignment's rubric is missing. Please choose a rubric."}
	}
	r := *in.Function.Rubric
	if len(r.Criteria) == 0 {
		return nil, &setupError{reason: "This assignment's rubric has no criteria."}
	}
	keys := RubricHighlightKeys(r)
	spec := rubricSpec{Rubric: clip(r.Name, maxSpecText), Context: clip(in.Function.Context, maxSpecText)}
	props := make(map[string]any, len(r.Criteria))
	for i, c := range r.Criteria {
		num := strconv.Itoa(i + 1)
		sc := rubricSpecCriterion{Number: num, Criterion: clip(c.CriterionDescription, maxSpecText), HighlightKey: keys[i], ChoosePoints: usesRange(c)}
		enum := make([]any, len(c.LevelDescriptions))
		for l, d := range c.LevelDescriptions {
			enum[l] = l + 1
			lv := rubricSpecLevel{Level: l + 1, Description: clip(d, maxSpecText)}
			if lo, hi, ok := levelRange(c, l); ok && sc.ChoosePoints {
				lv.MinPoints, lv.MaxPoints = &lo, &hi
			} else {
				pts := LevelPoints(c, l)
				lv.Points = &pts
			}
			sc.Levels = append(sc.Levels, lv)
		}
		spec.Criteria = append(spec.Criteria, sc)
		item := map[string]any{
			"level":    map[string]any{"type": "integer", "enum": enum, "description": "The number of the chosen level (1 is the best)."},
			"feedback": map[string]any{"type": "string"},
		}
		order := []string{"level", "feedback"}
		if sc.ChoosePoints {
			item["points"] = map[string]any{"type": "number", "description": "Points within the chosen level's range."}
			order = []string{"level", "points", "feedback"}
		}
		props[num] = objectOrdered(item, order)
	}
	p := &Call{
		Task:         TaskRubricFeedback,
		Instructions: rubricInstructions,
		Schema: objectOrdered(map[string]any{
			"criteria":        object(props),
			"overallComments": map[string]any{"type": "string"},
			"passages":        passagesSchema(keys),
			"injection":       InjectionSchema,
		}, []string{"criteria", "overallComments", "passages", "injection"}),
		Spec:    spec,
		Ask:     "Assess the submission against every rubric criterion, highlight the passages that show why, then give overall comments.",
		Grading: func(res Result) (string, bool) { return rubricExample(r, res) },
	}
	p.Finish = func(raw json.RawMessage) (Result, InjectionReport, error) {
		var a rubricAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, InjectionReport{}, fmt.Errorf("the answer is not the JSON object the schema asks for (%v)", err)
		}
		if err := checkRubric(a, r); err != nil {
			return Result{}, InjectionReport{}, err
		}
		n := len(r.Criteria)
		res := Result{ResultFields: assignment.ResultFields{
			CriteriaLevels: make([]int, n), CriteriaFeedback: make([]string, n), OverallComments: clip(a.OverallComments, maxFeedback),
		}}
		points := make([]float64, n)
		for i := range r.Criteria {
			ca := a.Criteria[strconv.Itoa(i+1)]
			res.CriteriaLevels[i] = ca.Level - 1
			res.CriteriaFeedback[i] = clip(ca.Feedback, maxFeedback)
			if ca.Points != nil {
				points[i] = *ca.Points
			}
		}
		res.CriteriaPoints = RubricPoints(r, res.CriteriaLevels, points)
		res.HighlightedText, res.DroppedHighlights = place(in.Text, a.Passages, keys)
		return res, a.Injection, nil
	}
	return p, nil
}

// checkRubric checks an answer against the rubric: exactly its criteria
// numbers, a level each criterion has, and points within the level's range
// where the criterion uses ranges.
func checkRubric(a rubricAnswer, r rubric.Rubric) error {
	n := len(r.Criteria)
	got := make([]string, 0, len(a.Criteria))
	for k := range a.Criteria {
		got = append(got, k)
	}
	slices.Sort(got)
	for _, k := range got {
		if num, err := strconv.Atoi(k); err != nil || num < 1 || num > n || strconv.Itoa(num) != k {
			return fmt.Errorf("criteria: criterion %q does not exist (the rubric's criteria are numbered \"1\" to \"%d\")", clip(k, maxAnswerKey), n)
		}
	}
	for i, c := range r.Criteria {
		key := strconv.Itoa(i + 1)
		ca, ok := a.Criteria[key]
		if !ok {
			return fmt.Errorf("criteria: criterion %q is missing", key)
		}
		levels := len(c.LevelDescriptions)
		if ca.Level < 1 || ca.Level > levels {
			return fmt.Errorf("criterion %q: level %d does not exist (its levels are numbered 1 to %d)", key, ca.Level, levels)
		}
		if !usesRange(c) {
			continue
		}
		lo, hi, _ := levelRange(c, ca.Level-1)
		switch {
		case ca.Points == nil:
			return fmt.Errorf("criterion %q: points are missing", key)
		case !finite(*ca.Points) || *ca.Points < lo || *ca.Points > hi:
			return fmt.Errorf("criterion %q: points %s are outside level %d's range %s to %s", key, num(*ca.Points), ca.Level, num(lo), num(hi))
		}
	}
	return nil
}

// rubricExample is a teacher-graded rubric result in the answer's form;
// false when it does not fit the rubric as it is now.
func rubricExample(r rubric.Rubric, res Result) (string, bool) {
	n := len(r.Criteria)
	if len(res.CriteriaLevels) != n {
		return "", false
	}
	a := rubricAnswer{Criteria: make(map[string]rubricCriterionAnswer, n), OverallComments: clip(res.OverallComments, maxFeedback),
		Passages: examplePassages(res.HighlightedText)}
	for i, c := range r.Criteria {
		l := res.CriteriaLevels[i]
		if l < 0 || l >= len(c.LevelDescriptions) {
			return "", false
		}
		ca := rubricCriterionAnswer{Level: l + 1}
		if i < len(res.CriteriaFeedback) {
			ca.Feedback = clip(res.CriteriaFeedback[i], maxFeedback)
		}
		if usesRange(c) && i < len(res.CriteriaPoints) {
			p := res.CriteriaPoints[i]
			ca.Points = &p
		}
		a.Criteria[strconv.Itoa(i+1)] = ca
	}
	s, err := encode(a)
	return s, err == nil
}

// RubricFeedbackType is the rubric-feedback assignment type:
// RubricFeedbackProcess, a level (and points) per rubric criterion.
type RubricFeedbackType struct{}

// Name implements process.Type.
func (RubricFeedbackType) Name() string { return assignment.TypeRubricFeedback }

// Process implements process.Type.
func (RubricFeedbackType) Process() string { return ProcessRubricFeedback }

// InProgressStatus implements process.Type.
func (RubricFeedbackType) InProgressStatus() string { return StatusRubricGrading }

// DoneStatus implements process.Type.
func (RubricFeedbackType) DoneStatus() string { return StatusGraded }

// Plan implements Planner.
func (RubricFeedbackType) Plan(in Input) (*Call, error) { return planRubric(in) }

// Edit implements Editor: one level, points and feedback per criterion
// (a criterion without ranges is worth its level, whatever was sent), and
// the highlights when they changed.
func (RubricFeedbackType) Edit(fn assignment.Function, cur, next Result) (Result, error) {
	if fn.Rubric == nil {
		return Result{}, apperr.New(apperr.Invalid, assignment.MsgChooseRubric)
	}
	if err := ValidateRubric(*fn.Rubric, next.CriteriaLevels, next.CriteriaPoints, next.CriteriaFeedback); err != nil {
		return Result{}, err
	}
	out := cur
	out.CriteriaLevels = next.CriteriaLevels
	out.CriteriaPoints = RubricPoints(*fn.Rubric, next.CriteriaLevels, next.CriteriaPoints)
	out.CriteriaFeedback = next.CriteriaFeedback
	if next.HighlightedText != cur.HighlightedText {
		if err := checkHighlights(next.HighlightedText, RubricHighlightKeys(*fn.Rubric), highlight.Plain(cur.HighlightedText)); err != nil {
			return Result{}, err
		}
		out.HighlightedText = next.HighlightedText
	}
	return out, nil
}

// Score implements Scorer: the points of the levels given; none without
// a rubric or levels.
func (RubricFeedbackType) Score(fn assignment.Function, r *Result, _ RetotalFunc) (float64, float64, bool) {
	if fn.Rubric == nil || len(r.CriteriaLevels) == 0 {
		return 0, 0, false
	}
	total, most := RubricTotals(*fn.Rubric, r.CriteriaLevels, r.CriteriaPoints)
	return total, most, true
}

// Agreement implements AgreementChecker: one level criterion per rubric
// criterion; none without a rubric.
func (RubricFeedbackType) Agreement(fn assignment.Function) ([]agreement.Criterion, func(teacher, ai Result) []agreement.Judgement) {
	if fn.Rubric == nil {
		return nil, nil
	}
	r := *fn.Rubric
	criteria := make([]agreement.Criterion, len(r.Criteria))
	for i, c := range r.Criteria {
		criteria[i] = agreement.Criterion{Label: c.CriterionDescription, Kind: agreement.KindLevels, Levels: len(c.LevelDescriptions)}
	}
	return criteria, func(teacher, ai Result) []agreement.Judgement {
		out := make([]agreement.Judgement, 0, len(criteria))
		for i := range criteria {
			out = append(out, agreement.Judgement{
				CriterionIndex: i,
				Teacher:        at(teacher.CriteriaLevels, i), AI: at(ai.CriteriaLevels, i),
				TeacherPoints: at(teacher.CriteriaPoints, i), AIPoints: at(ai.CriteriaPoints, i),
			})
		}
		return out
	}
}

// Parts implements process.Definer.
func (RubricFeedbackType) Parts() []process.Part { return []process.Part{process.PartRubric} }
