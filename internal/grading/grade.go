package grading

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
)

// Limits on what the model writes.
const (
	maxFeedback  = 5000
	maxSpecText  = 4000
	maxAnswerKey = 20
)

const gradeInstructions = `You grade a student's submission for a teacher, question by question, against the teacher's criteria.

The assignment lists every answer to grade under "answers": each has a key ("1" is question 1, "1.2" part 2 of question 1), its question, and its criteria numbered "1", "2", …. For every answer key, decide for every criterion whether the submission meets it: true only when the submission clearly shows what the criterion describes for that question; false when it is missing, wrong or only hinted at. Judge each criterion on its own. A question may come with a rubric (its levels listed best first): it is the teacher's standard for that question; use it when deciding the question's criteria. The submission may answer the questions in any order and without labels: find the part that answers each question. When images come with the request, they show the student's handwritten answers; an answer's "images" lists the numbers of its images, in the order they are attached.

For each answer write short, specific feedback addressed to the student (one to three sentences: what is done well, what is missing). Then write overall feedback on the whole submission (two to four sentences). Never state points or marks: the teacher's application computes them from your criteria decisions.`

// gradeNode is one answer of the question tree, with its path and key.
type gradeNode struct {
	key  string
	path []int
	q    assignment.Question
}

// flatten lists the tree's answers in order: a question, then its parts.
func flatten(qs []assignment.Question, parent []int) []gradeNode {
	var out []gradeNode
	for i, q := range qs {
		path := append(append([]int(nil), parent...), i)
		out = append(out, gradeNode{key: displayKey(path), path: path, q: q})
		out = append(out, flatten(q.Subquestions, path)...)
	}
	return out
}

type specCriterion struct {
	Number      string  `json:"number"`
	Description string  `json:"description"`
	Points      float64 `json:"points"`
}

type specRubric struct {
	Name     string                `json:"name"`
	Criteria []specRubricCriterion `json:"criteria"`
}

type specRubricCriterion struct {
	Criterion string   `json:"criterion"`
	Levels    []string `json:"levelsBestFirst"`
}

type gradeSpecNode struct {
	Key      string          `json:"key"`
	Question string          `json:"question"`
	Context  string          `json:"context,omitempty"`
	Criteria []specCriterion `json:"criteria"`
	Rubric   *specRubric     `json:"rubric,omitempty"`
	Images   []int           `json:"images,omitempty"`
}

type gradeSpec struct {
	Context string          `json:"context,omitempty"`
	Answers []gradeSpecNode `json:"answers"`
}

// gradeAnswer is the model's answer to grade_answers.
type gradeAnswer struct {
	Answers   map[string]nodeAnswer `json:"answers"`
	Feedback  string                `json:"feedback"`
	Injection InjectionReport       `json:"injection"`
}

type nodeAnswer struct {
	Criteria map[string]bool `json:"criteria"`
	Feedback string          `json:"feedback"`
}

func planGrade(in Input) (*Call, error) {
	qs := in.Function.Questions
	nodes := flatten(qs, nil)
	if len(nodes) == 0 {
		return nil, &setupError{reason: "This assignment has no questions to grade yet."}
	}
	if !slices.ContainsFunc(nodes, func(n gradeNode) bool { return len(n.q.Criteria) > 0 }) {
		return nil, &setupError{reason: "This assignment's questions have no criteria to grade against yet."}
	}
	stored, err := parseTree(in.Answers)
	if err != nil {
		return nil, err
	}
	spec := gradeSpec{Context: clip(in.Function.Context, maxSpecText)}
	props := make(map[string]any, len(nodes))
	order := make([]string, 0, len(nodes))
	var images []string
	for _, n := range nodes {
		sn := gradeSpecNode{Key: n.key, Question: clip(n.q.QuestionText, maxSpecText), Context: clip(n.q.Context, maxSpecText),
			Criteria: make([]specCriterion, len(n.q.Criteria)), Rubric: questionRubric(in.QuestionRubrics, n.q.RubricID)}
		crit := make(map[string]any, len(n.q.Criteria))
		for j, c := range n.q.Criteria {
			num := strconv.Itoa(j + 1)
			sn.Criteria[j] = specCriterion{Number: num, Description: clip(c.Description, maxSpecText), Points: c.Points}
			crit[num] = map[string]any{"type": "boolean"}
		}
		for _, img := range in.AnswerImages[answerbox.PathKey(n.path)] {
			images = append(images, img)
			sn.Images = append(sn.Images, len(images))
		}
		spec.Answers = append(spec.Answers, sn)
		props[n.key] = objectOrdered(map[string]any{
			"criteria": object(crit),
			"feedback": map[string]any{"type": "string", "description": "Feedback on this answer, addressed to the student."},
		}, []string{"criteria", "feedback"})
		order = append(order, n.key)
	}
	ask := "Grade the submission: for every answer key, one true/false decision per criterion and feedback; then overall feedback."
	if len(images) > 0 {
		ask += fmt.Sprintf(" %d image(s) of handwritten answers come with this message, numbered in order as the assignment's \"images\" lists.", len(images))
	}
	p := &Call{
		Task:         TaskGrade,
		Instructions: gradeInstructions,
		Schema: objectOrdered(map[string]any{
			"answers":   objectOrdered(props, order),
			"feedback":  map[string]any{"type": "string", "description": "Overall feedback on the submission."},
			"injection": InjectionSchema,
		}, []string{"answers", "feedback", "injection"}),
		Spec:    spec,
		Ask:     ask,
		Images:  images,
		Grading: func(r Result) (string, bool) { return gradeExample(r, qs, nodes) },
	}
	p.Finish = func(raw json.RawMessage) (Result, InjectionReport, error) {
		var a gradeAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, InjectionReport{}, fmt.Errorf("the answer is not the JSON object the schema asks for (%v)", err)
		}
		if err := checkGrade(a, nodes); err != nil {
			return Result{}, InjectionReport{}, err
		}
		tree := shape(stored, qs)
		for _, n := range nodes {
			na := a.Answers[n.key]
			g := grade{Criteria: make([]bool, len(n.q.Criteria)), Feedback: clip(na.Feedback, maxFeedback)}
			for j := range g.Criteria {
				g.Criteria[j] = na.Criteria[strconv.Itoa(j+1)]
			}
			nodeAt(tree, n.path).grade = g
		}
		total(tree, qs)
		answers, err := json.Marshal(tree)
		if err != nil {
			return Result{}, InjectionReport{}, fmt.Errorf("encode answers: %w", err)
		}
		return Result{ResultFields: assignment.ResultFields{Feedback: clip(a.Feedback, maxFeedback), Answers: answers}}, a.Injection, nil
	}
	return p, nil
}

// questionRubric is the rubric attached to a question, for the prompt; nil
// when there is none or it is gone.
func questionRubric(rubrics map[uuid.UUID]rubric.Rubric, id *string) *specRubric {
	if id == nil {
		return nil
	}
	rid, err := uuid.Parse(strings.TrimSpace(*id))
	if err != nil {
		return nil
	}
	r, ok := rubrics[rid]
	if !ok {
		return nil
	}
	out := &specRubric{Name: r.Name}
	for _, c := range r.Criteria {
		levels := make([]string, len(c.LevelDescriptions))
		for i, l := range c.LevelDescriptions {
			levels[i] = clip(l, maxSpecText)
		}
		out.Criteria = append(out.Criteria, specRubricCriterion{Criterion: clip(c.CriterionDescription, maxSpecText), Levels: levels})
	}
	return out
}

// checkGrade checks an answer's keys against the assignment: exactly the
// answer keys, and for each exactly its criteria numbers.
func checkGrade(a gradeAnswer, nodes []gradeNode) error {
	byKey := make(map[string]gradeNode, len(nodes))
	keys := make([]string, len(nodes))
	for i, n := range nodes {
		byKey[n.key] = n
		keys[i] = strconv.Quote(n.key)
	}
	got := make([]string, 0, len(a.Answers))
	for k := range a.Answers {
		got = append(got, k)
	}
	slices.Sort(got)
	for _, k := range got {
		if _, ok := byKey[k]; !ok {
			return fmt.Errorf("answers: %q is not an answer key of this assignment (the keys are %s)", clip(k, maxAnswerKey), listed(keys))
		}
	}
	for _, n := range nodes {
		na, ok := a.Answers[n.key]
		if !ok {
			return fmt.Errorf("answers: answer %q is missing", n.key)
		}
		for k := range na.Criteria {
			num, err := strconv.Atoi(k)
			if err != nil || num < 1 || num > len(n.q.Criteria) || strconv.Itoa(num) != k {
				if len(n.q.Criteria) == 0 {
					return fmt.Errorf("answer %q: criterion %q does not exist (this answer has no criteria: send an empty object)", n.key, clip(k, maxAnswerKey))
				}
				return fmt.Errorf("answer %q: criterion %q does not exist (its criteria are numbered \"1\" to \"%d\")", n.key, clip(k, maxAnswerKey), len(n.q.Criteria))
			}
		}
		for j := range n.q.Criteria {
			if _, ok := na.Criteria[strconv.Itoa(j+1)]; !ok {
				return fmt.Errorf("answer %q: criterion \"%d\" is missing", n.key, j+1)
			}
		}
	}
	return nil
}

// listed joins at most 20 items for a message.
func listed(items []string) string {
	if len(items) > 20 {
		return strings.Join(items[:20], ", ") + ", …"
	}
	return strings.Join(items, ", ")
}

// gradeExample is a teacher-graded result in the answer's own form.
func gradeExample(r Result, qs []assignment.Question, nodes []gradeNode) (string, bool) {
	tree, err := parseTree(r.Answers)
	if err != nil || tree == nil {
		return "", false
	}
	tree = shape(tree, qs)
	a := gradeAnswer{Answers: make(map[string]nodeAnswer, len(nodes)), Feedback: clip(r.Feedback, maxFeedback)}
	for _, n := range nodes {
		g := nodeAt(tree, n.path).grade
		crit := make(map[string]bool, len(g.Criteria))
		for j, met := range g.Criteria {
			crit[strconv.Itoa(j+1)] = met
		}
		a.Answers[n.key] = nodeAnswer{Criteria: crit, Feedback: clip(g.Feedback, maxFeedback)}
	}
	s, err := encode(a)
	return s, err == nil
}

// GradeType is the grade assignment type: GradeProcessV2, criteria
// booleans per answer, points computed by [Retotal].
type GradeType struct{}

// Name implements process.Type.
func (GradeType) Name() string { return assignment.TypeGrade }

// Process implements process.Type.
func (GradeType) Process() string { return ProcessGrade }

// InProgressStatus implements process.Type.
func (GradeType) InProgressStatus() string { return StatusGrading }

// DoneStatus implements process.Type.
func (GradeType) DoneStatus() string { return StatusGraded }

// Plan implements Planner.
func (GradeType) Plan(in Input) (*Call, error) { return planGrade(in) }

// AnswerBoxes implements process.AnswerBoxer: handwritten grade
// assignments have answer boxes.
func (GradeType) AnswerBoxes(handwritten bool) bool { return handwritten }

// ImportsCSV implements process.CSVImporter.
func (GradeType) ImportsCSV() bool { return true }

// Edit implements Editor: the overall feedback and the answers tree (its
// criteria, feedback and adjustments, merged into the stored tree).
func (GradeType) Edit(fn assignment.Function, cur, next Result) (Result, error) {
	out := cur
	out.Feedback = next.Feedback
	if isNull(next.Answers) {
		return out, nil
	}
	if err := checkEditAdjustments(next.Answers); err != nil {
		return Result{}, err
	}
	merged, err := MergeAnswers(cur.Answers, next.Answers, fn.Questions)
	if err != nil {
		return Result{}, err
	}
	out.Answers = merged
	return out, nil
}

// Toggle implements Toggler.
func (GradeType) Toggle(fn assignment.Function, answers json.RawMessage, path []int, criterion int) (json.RawMessage, float64, error) {
	return Toggle(answers, fn.Questions, path, criterion)
}

// Score implements Scorer: the points of the criteria met under the
// current criteria, plus adjustments; a result never graded has none.
func (GradeType) Score(fn assignment.Function, r *Result, retotal RetotalFunc) (float64, float64, bool) {
	if isNull(r.Answers) {
		return 0, 0, false
	}
	answers, total, most, err := retotal(r.Answers, fn.Questions)
	if err != nil {
		return 0, 0, false // answers of another shape: shown as stored, without totals
	}
	r.Answers = answers
	return total, most, true
}

// Agreement implements AgreementChecker: one boolean criterion per
// question criterion, depth first.
func (GradeType) Agreement(fn assignment.Function) ([]agreement.Criterion, func(teacher, ai Result) []agreement.Judgement) {
	var criteria []agreement.Criterion
	var points []float64
	var walk func(qs []assignment.Question, prefix string)
	walk = func(qs []assignment.Question, prefix string) {
		for i, q := range qs {
			label := prefix + strconv.Itoa(i+1)
			for j, c := range q.Criteria {
				criteria = append(criteria, agreement.Criterion{
					Label: fmt.Sprintf("Q%s criterion %d: %s", label, j+1, c.Description), Kind: agreement.KindBoolean,
				})
				points = append(points, c.Points)
			}
			walk(q.Subquestions, label+".")
		}
	}
	walk(fn.Questions, "")
	if len(criteria) == 0 {
		return nil, nil
	}
	return criteria, func(teacher, ai Result) []agreement.Judgement {
		t, m := flatCriteria(teacher.Answers, fn.Questions), flatCriteria(ai.Answers, fn.Questions)
		out := make([]agreement.Judgement, 0, len(criteria))
		for i := range criteria {
			tv, av := boolAt(t, i), boolAt(m, i)
			out = append(out, agreement.Judgement{
				CriterionIndex: i, Teacher: tv, AI: av, TeacherPoints: tv * points[i], AIPoints: av * points[i],
			})
		}
		return out
	}
}

// flatCriteria lists an answers tree's criteria booleans depth first,
// aligned with the questions' criteria (missing ones are false), in the
// order Agreement lists them.
func flatCriteria(raw json.RawMessage, qs []assignment.Question) []bool {
	var nodes []struct {
		Grade struct {
			Criteria []bool `json:"criteria"`
		} `json:"grade"`
		Subanswers json.RawMessage `json:"subanswers"`
	}
	_ = json.Unmarshal(raw, &nodes) // another shape reads as nothing met
	var out []bool
	for i, q := range qs {
		var got []bool
		var subs json.RawMessage
		if i < len(nodes) {
			got, subs = nodes[i].Grade.Criteria, nodes[i].Subanswers
		}
		for j := range q.Criteria {
			out = append(out, j < len(got) && got[j])
		}
		out = append(out, flatCriteria(subs, q.Subquestions)...)
	}
	return out
}

func at[T int | float64](s []T, i int) float64 {
	if i < len(s) {
		return float64(s[i])
	}
	return 0
}

func boolAt(s []bool, i int) float64 {
	if i < len(s) && s[i] {
		return 1
	}
	return 0
}

// Limits on a teacher's edit of a grade result's answers.
const (
	// MaxEditAdjustment bounds a grade adjustment a teacher saves, either way.
	MaxEditAdjustment = 10000
	// MsgEditAdjustment refuses one out of bounds.
	MsgEditAdjustment = "A grade adjustment must be a number from -10000 to 10000"
)

// checkEditAdjustments refuses grade adjustments out of bounds anywhere in
// an edited answers tree.
func checkEditAdjustments(answers json.RawMessage) error {
	var nodes []struct {
		Grade *struct {
			GradeAdjustment float64 `json:"gradeAdjustment"`
		} `json:"grade"`
		Subanswers json.RawMessage `json:"subanswers"`
	}
	if err := json.Unmarshal(answers, &nodes); err != nil {
		return apperr.New(apperr.Invalid, "The answers do not match this assignment's questions")
	}
	for _, n := range nodes {
		if n.Grade != nil && (n.Grade.GradeAdjustment < -MaxEditAdjustment || n.Grade.GradeAdjustment > MaxEditAdjustment) {
			return apperr.New(apperr.Invalid, MsgEditAdjustment)
		}
		if !isNull(n.Subanswers) {
			if err := checkEditAdjustments(n.Subanswers); err != nil {
				return err
			}
		}
	}
	return nil
}

// Parts implements process.Definer.
func (GradeType) Parts() []process.Part { return []process.Part{process.PartQuestions} }
