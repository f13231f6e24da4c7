package assignment

import (
	"encoding/json"
	"github.com/markwell/markwell/internal/process"
	"time"
)

// What a student reads by view token of a result and of the assignment's
// definition: the student's result page, and nothing else. Each shape here
// is an allow-list, built field by field from the teacher's: a field added
// to FunctionResult or Function does not reach a student unless it is added
// here too. None carries a question's context, a prompt, a highlighter's
// description (the teacher's instructions to the AI), a rubric id,
// benchmarks, flags, dropped highlights, errors or costs.

// StudentResult is a function result as its student reads it
// (db/functionResult/get-view-only): the status, and once the result is
// finished (graded, annotated or reviewed) the feedback the result page
// shows. Before then there is nothing else to show, and nothing else is
// sent.
//
// Released says the teacher has released the result to the student
// (package release). A student reading by the view token of their own
// submission sees the feedback only when it is released or the assignment
// gives instant feedback; otherwise the status only, and the page says the
// teacher has not released the feedback yet.
type StudentResult struct {
	Status   string `json:"status"`
	Released bool   `json:"released"`
	*StudentFeedback
}

// StudentFeedback is the part of a finished result the student's page
// shows, for every type: the feedback text (grade, feedback, prompt), the
// highlighted text (feedback, rubric-feedback), the rubric levels, points
// and comments (rubric-feedback), the answers and totals (grade,
// rubric-feedback). UpdatedAt tells the page that a result it shows was
// edited since. It lists its fields instead of embedding ResultFields: it
// is an allow-list (a field added to results stays the teacher's until it
// is added here), and its answers have the student's shape.
type StudentFeedback struct {
	Feedback         string          `json:"feedback"`
	HighlightedText  string          `json:"highlightedText"`
	CriteriaLevels   []int           `json:"criteriaLevels"`
	CriteriaPoints   []float64       `json:"criteriaPoints"`
	CriteriaFeedback []string        `json:"criteriaFeedback"`
	OverallComments  string          `json:"overallComments"`
	Answers          []StudentAnswer `json:"answers"`
	TotalPoints      *float64        `json:"totalPoints"`
	MaxPoints        *float64        `json:"maxPoints"`
	UpdatedAt        time.Time       `json:"updatedAt"`
}

// StudentAnswer is one answer of a grade result as its student sees it:
// the grade, the pictures of a handwritten answer (signed URLs, when it
// has any) and its subanswers. Not the answer boxes or the stored keys.
type StudentAnswer struct {
	Grade             StudentGrade    `json:"grade"`
	SignedAnswerMedia []string        `json:"signedAnswerMedia,omitempty"`
	Subanswers        []StudentAnswer `json:"subanswers"`
}

// StudentGrade is an answer's grade: points, the teacher's adjustment, the
// feedback, and which of the question's criteria were met.
type StudentGrade struct {
	Points          float64 `json:"points"`
	GradeAdjustment float64 `json:"gradeAdjustment"`
	Feedback        string  `json:"feedback"`
	Criteria        []bool  `json:"criteria"`
}

// Finished reports whether a result status holds finished feedback: the
// AI's (graded, annotated) or the teacher's (reviewed), grading's
// StatusGraded, StatusAnnotated and StatusReviewed.
func Finished(status string) bool {
	return status == "graded" || status == "annotated" || status == "reviewed"
}

// ForStudentView is r as its student reads it: only the status until r is
// finished. r's answers are read as they are to be shown (totals computed,
// media signed).
func (r FunctionResult) ForStudentView() StudentResult {
	out := StudentResult{Status: r.Status}
	if !Finished(r.Status) {
		return out
	}
	out.StudentFeedback = &StudentFeedback{
		Feedback: r.Feedback, HighlightedText: r.HighlightedText, OverallComments: r.OverallComments,
		CriteriaLevels: orEmpty(r.CriteriaLevels), CriteriaPoints: orEmpty(r.CriteriaPoints),
		CriteriaFeedback: orEmpty(r.CriteriaFeedback), Answers: studentAnswers(r.Answers),
		TotalPoints: r.TotalPoints, MaxPoints: r.MaxPoints, UpdatedAt: r.UpdatedAt,
	}
	return out
}

// storedAnswer is what StudentAnswer copies from a stored answer.
type storedAnswer struct {
	Grade             StudentGrade   `json:"grade"`
	SignedAnswerMedia []string       `json:"signedAnswerMedia"`
	Subanswers        []storedAnswer `json:"subanswers"`
}

// studentAnswers copies a stored answers tree into the student's shape;
// nil when there is none (or it is of another shape).
func studentAnswers(raw json.RawMessage) []StudentAnswer {
	var stored []storedAnswer
	if len(raw) == 0 || json.Unmarshal(raw, &stored) != nil || stored == nil {
		return nil
	}
	var copyTree func([]storedAnswer) []StudentAnswer
	copyTree = func(nodes []storedAnswer) []StudentAnswer {
		out := make([]StudentAnswer, len(nodes))
		for i, n := range nodes {
			g := n.Grade
			if g.Criteria == nil {
				g.Criteria = []bool{}
			}
			out[i] = StudentAnswer{Grade: g, SignedAnswerMedia: n.SignedAnswerMedia, Subanswers: copyTree(n.Subanswers)}
		}
		return out
	}
	return copyTree(stored)
}

// StudentFunction is an assignment's definition as a student with a
// finished result reads it (db/function/get-view-only): what their result
// page needs to show that result. For grade, the questions' text and
// criteria (to show which were met); for feedback, the highlighters' names
// and colours; for rubric-feedback, the rubric's name, criteria and point
// ranges, with the description of the level the student was given only;
// for prompt, nothing but the type.
type StudentFunction struct {
	Type       string               `json:"type"`
	Highlights []StudentHighlighter `json:"highlights,omitempty"`
	Questions  []StudentQuestion    `json:"questions,omitempty"`
	Rubric     *StudentRubric       `json:"rubric,omitempty"`
}

// StudentHighlighter is a highlighter as the result page labels it.
type StudentHighlighter struct {
	Key   string `json:"key"`
	Color string `json:"color"`
	Title string `json:"title"`
}

// StudentQuestion is a grade question as the result page shows it.
type StudentQuestion struct {
	QuestionText string             `json:"questionText"`
	Criteria     []StudentCriterion `json:"criteria"`
	Subquestions []StudentQuestion  `json:"subquestions"`
}

// StudentCriterion is a grade criterion: what it awards points for, and
// how many.
type StudentCriterion struct {
	Description string  `json:"description"`
	Points      float64 `json:"points"`
}

// StudentRubric is the rubric of a rubric-feedback assignment as the result
// page shows it.
type StudentRubric struct {
	Name     string                   `json:"name"`
	Criteria []StudentRubricCriterion `json:"criteria"`
}

// StudentRubricCriterion is a rubric criterion. LevelDescriptions keeps
// one entry per level (the page counts them for points), each empty but
// the level the student was given.
type StudentRubricCriterion struct {
	CriterionDescription string              `json:"criterionDescription"`
	LevelDescriptions    []string            `json:"levelDescriptions"`
	UseRange             bool                `json:"useRange"`
	LevelRanges          []StudentLevelRange `json:"levelRanges,omitempty"`
}

// StudentLevelRange is the points a rubric level allows.
type StudentLevelRange struct {
	LevelDescriptionsIndex int      `json:"levelDescriptionsIndex"`
	Min                    *float64 `json:"min,omitempty"`
	Max                    *float64 `json:"max,omitempty"`
}

// ForStudentView is f as a student whose result gave the rubric levels
// levels (rubric-feedback) reads it.
func (f Function) ForStudentView(levels []int) StudentFunction {
	out := StudentFunction{Type: f.Type}
	if process.Uses(f.Type, process.PartHighlights) || process.Uses(f.Type, process.PartRubric) {
		for _, h := range f.Highlights {
			out.Highlights = append(out.Highlights, StudentHighlighter{Key: h.Key, Color: h.Color, Title: h.Title})
		}
	}
	if process.Uses(f.Type, process.PartQuestions) {
		out.Questions = studentQuestions(f.Questions)
	}
	if process.Uses(f.Type, process.PartRubric) && f.Rubric != nil {
		r := &StudentRubric{Name: f.Rubric.Name, Criteria: make([]StudentRubricCriterion, len(f.Rubric.Criteria))}
		for i, c := range f.Rubric.Criteria {
			// The level the page shows: the result's, within the levels
			// there are (as the page reads it).
			given := 0
			if i < len(levels) {
				given = min(max(levels[i], 0), len(c.LevelDescriptions)-1)
			}
			descriptions := make([]string, len(c.LevelDescriptions))
			if given >= 0 && given < len(descriptions) {
				descriptions[given] = c.LevelDescriptions[given]
			}
			sc := StudentRubricCriterion{CriterionDescription: c.CriterionDescription, LevelDescriptions: descriptions, UseRange: c.UseRange}
			for _, lr := range c.LevelRanges {
				sc.LevelRanges = append(sc.LevelRanges, StudentLevelRange{LevelDescriptionsIndex: lr.LevelDescriptionsIndex, Min: lr.Min, Max: lr.Max})
			}
			r.Criteria[i] = sc
		}
		out.Rubric = r
	}
	return out
}

// studentQuestions copies grade questions without their context or rubric.
func studentQuestions(qs []Question) []StudentQuestion {
	out := make([]StudentQuestion, len(qs))
	for i, q := range qs {
		criteria := make([]StudentCriterion, len(q.Criteria))
		for j, c := range q.Criteria {
			criteria[j] = StudentCriterion{Description: c.Description, Points: c.Points}
		}
		out[i] = StudentQuestion{QuestionText: q.QuestionText, Criteria: criteria, Subquestions: studentQuestions(q.Subquestions)}
	}
	return out
}
