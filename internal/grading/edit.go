package grading

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/input"
)

// The messages of a rejected edit.
const (
	MsgAnswersShape    = "The answers do not match this assignment's questions"
	MsgNoQuestion      = "This question does not exist in the assignment"
	MsgAdjustment      = "A grade adjustment must be a number from -1000000 to 1000000"
	MsgFeedbackTooLong = "Feedback can be at most 20000 characters"
	// MsgTooManyHighlights refuses an edited highlightedText with more
	// than MaxEditHighlights highlights.
	MsgTooManyHighlights = "A result can have at most 1000 highlights"
)

// MaxEditHighlights caps the highlights of a teacher's edited
// highlightedText: the AI places at most maxPassages (200) in a result, and
// every highlight is a footnote of the printed report (package report).
const MaxEditHighlights = 1000

// checkHighlights checks a teacher's edited highlightedText (see
// highlight.Validate) and its number of highlights.
func checkHighlights(tagged string, keys []string, plainWant string) error {
	if err := highlight.Validate(tagged, keys, plainWant); err != nil {
		return err
	}
	if _, items := highlight.Parse(tagged); len(items) > MaxEditHighlights {
		return apperr.New(apperr.Invalid, MsgTooManyHighlights)
	}
	return nil
}

// maxAdjustment bounds a grade adjustment's size; each answer's score is
// kept within 0 and its question's maximum anyway.
const maxAdjustment = 1_000_000

// Toggle flips criterion c (0-based) of the node at path (indexes into the
// question tree, [0, 1] = question 1, part b) and returns the new tree,
// re-totalled, and the change: + the criterion's points when it became
// true, − when it became false, as the assignment stores them. Null answers
// start from an ungraded tree. A path or criterion that does not exist is
// an apperr.Invalid error. Grade adjustments are stored as they were: one
// that a tick makes go past the question's maximum counts only up to it
// (see [Retotal]) and counts again in full when the tick is undone.
func Toggle(answers json.RawMessage, questions []assignment.Question, path []int, c int) (json.RawMessage, float64, error) {
	q, ok := questionAt(questions, path)
	if !ok {
		return nil, 0, apperr.New(apperr.Invalid, MsgNoQuestion)
	}
	if c < 0 || c >= len(q.Criteria) {
		return nil, 0, apperr.Invalidf("Question %s has no criterion %d", displayKey(path), c+1)
	}
	tree, err := parseTree(answers)
	if err != nil {
		return nil, 0, err
	}
	tree = shape(tree, questions)
	n := nodeAt(tree, path)
	n.grade.Criteria[c] = !n.grade.Criteria[c]
	change := q.Criteria[c].Points
	if !n.grade.Criteria[c] {
		change = -change
	}
	total(tree, questions)
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, 0, fmt.Errorf("encode answers: %w", err)
	}
	return out, change, nil
}

// questionAt is the question at path.
func questionAt(qs []assignment.Question, path []int) (assignment.Question, bool) {
	if len(path) == 0 || len(path) > assignment.MaxQuestionDepth {
		return assignment.Question{}, false
	}
	var q assignment.Question
	for _, i := range path {
		if i < 0 || i >= len(qs) {
			return assignment.Question{}, false
		}
		q = qs[i]
		qs = q.Subquestions
	}
	return q, true
}

// nodeAt is the node at path of a shaped tree; the path must exist.
func nodeAt(tree []*node, path []int) *node {
	n := tree[path[0]]
	for _, i := range path[1:] {
		n = n.subs[i]
	}
	return n
}

// editedNode is what a teacher sends for one answer: only the grade's
// criteria, adjustment and feedback are read.
type editedNode struct {
	Grade *struct {
		GradeAdjustment float64 `json:"gradeAdjustment"`
		Feedback        string  `json:"feedback"`
		Criteria        []bool  `json:"criteria"`
	} `json:"grade"`
	Subanswers []editedNode `json:"subanswers"`
}

// MergeAnswers applies a teacher's edited tree to the stored one: criteria
// booleans, gradeAdjustment and feedback come from the edit;
// answerBoxesCoordinates, answerMedia and every other field from the stored
// tree (signed URLs are never stored); then the tree is re-totalled. The
// edit must have the questions' shape: one node per question at every
// level and one boolean per criterion, else apperr.Invalid
// MsgAnswersShape. A node sent without a grade keeps its stored grade. An
// adjustment that would take an answer below 0 or past its question's
// maximum is saved capped at that bound (the answer's score then is 0 or
// the maximum): the API clamps rather than refuses, so that saving a
// question's feedback never fails over its adjustment.
func MergeAnswers(stored, edited json.RawMessage, questions []assignment.Question) (json.RawMessage, error) {
	var edit []editedNode
	if isNull(edited) || json.Unmarshal(edited, &edit) != nil || !sameShape(edit, questions) {
		return nil, apperr.New(apperr.Invalid, MsgAnswersShape)
	}
	tree, err := parseTree(stored)
	if err != nil {
		return nil, err
	}
	tree = shape(tree, questions)
	if err := merge(tree, edit); err != nil {
		return nil, err
	}
	total(tree, questions)
	capAdjustments(tree, questions)
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("encode answers: %w", err)
	}
	return out, nil
}

func sameShape(edit []editedNode, qs []assignment.Question) bool {
	if len(edit) != len(qs) {
		return false
	}
	for i, e := range edit {
		if e.Grade != nil && len(e.Grade.Criteria) != len(qs[i].Criteria) {
			return false
		}
		if !sameShape(e.Subanswers, qs[i].Subquestions) {
			return false
		}
	}
	return true
}

func merge(tree []*node, edit []editedNode) error {
	for i, e := range edit {
		n := tree[i]
		delete(n.fields, answerbox.FieldSigned)
		if g := e.Grade; g != nil {
			if !finite(g.GradeAdjustment) || g.GradeAdjustment < -maxAdjustment || g.GradeAdjustment > maxAdjustment {
				return apperr.New(apperr.Invalid, MsgAdjustment)
			}
			if utf8.RuneCountInString(g.Feedback) > input.MaxLongText {
				return apperr.New(apperr.Invalid, MsgFeedbackTooLong)
			}
			if err := input.CheckString("Feedback", g.Feedback); err != nil {
				return err
			}
			n.grade.Criteria = append([]bool(nil), g.Criteria...)
			n.grade.GradeAdjustment = g.GradeAdjustment
			n.grade.Feedback = g.Feedback
		}
		if err := merge(n.subs, e.Subanswers); err != nil {
			return err
		}
	}
	return nil
}
