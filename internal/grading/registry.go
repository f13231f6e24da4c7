package grading

import (
	"encoding/json"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/process"
)

// The registry's table: the built-in assignment types, one file each
// (grade.go, feedback.go, rubricfeedback.go, promptprocess.go). Adding a
// type is a file implementing process.Type and the capabilities below that
// apply to it, and a line here.
var builtin = []process.Type{
	GradeType{},
	FeedbackType{},
	RubricFeedbackType{},
	PromptType{},
}

func init() {
	for _, t := range builtin {
		process.Register(t)
	}
}

// The capabilities a type may have beyond process.Type, checked with a
// type assertion on what process.Lookup returns. A type without one does
// not take part in what it stands for.

// Planner is a type the AI grades: it plans the model call for one
// submission ([Run] sends it and checks the answer with Call.Finish).
type Planner interface {
	Plan(in Input) (*Call, error)
}

// Editor is a type whose results a teacher may edit: Edit checks the
// fields of next the type lets a teacher change, against the assignment's
// definition fn and the stored result cur, and returns cur with them put
// in. Errors are apperr errors, shown to the teacher. (The overall
// comments and the status are the same for every type: the caller saves
// them.)
type Editor interface {
	Edit(fn assignment.Function, cur, next Result) (Result, error)
}

// RetotalFunc is [Retotal], or a remembering version of it.
type RetotalFunc func(answers json.RawMessage, questions []assignment.Question) (json.RawMessage, float64, float64, error)

// Scorer is a type whose results have a total: Score computes r's total
// and the most it could be under the definition fn, false when r has
// none (not graded yet, or stored in another shape). It may rewrite r's
// answers with their points; retotal is how grade trees are totalled.
type Scorer interface {
	Score(fn assignment.Function, r *Result, retotal RetotalFunc) (total, most float64, ok bool)
}

// AgreementChecker is a type whose AI grading can be compared with the
// teacher's ("Check agreement"): Agreement lists fn's criteria and how to
// compare a teacher's result with the AI's on them; nil criteria when fn
// has none to compare.
type AgreementChecker interface {
	Agreement(fn assignment.Function) ([]agreement.Criterion, func(teacher, ai Result) []agreement.Judgement)
}

// Type is the registered type named name, or nil.
func Type(name string) process.Type {
	t, _ := process.Lookup(name)
	return t
}

// EditorFor is the Editor of type name, if it has one.
func EditorFor(name string) (Editor, bool) {
	e, ok := Type(name).(Editor)
	return e, ok
}

// ScorerFor is the Scorer of type name, if it has one.
func ScorerFor(name string) (Scorer, bool) {
	s, ok := Type(name).(Scorer)
	return s, ok
}

// AgreementFor is the AgreementChecker of type name, if it has one.
func AgreementFor(name string) (AgreementChecker, bool) {
	a, ok := Type(name).(AgreementChecker)
	return a, ok
}

// Toggler is a type whose results have criteria a teacher flips one at a
// time (gradeFunction/toggleCriterion): Toggle flips criterion of the
// answer at path and returns the new answers and how the total changed.
type Toggler interface {
	Toggle(fn assignment.Function, answers json.RawMessage, path []int, criterion int) (json.RawMessage, float64, error)
}
