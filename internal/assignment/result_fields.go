package assignment

import (
	"encoding/json"
	"fmt"

	"github.com/markwell/markwell/internal/store"
)

// ResultFields are what a run of an assignment's function writes and what a
// teacher may edit: the one definition shared by the grading result
// (grading.Result), a teacher's edit (result.Edit and the update body), the
// result read (FunctionResult) and the write of a finished run. Which of
// them a type uses is its own (internal/grading).
type ResultFields struct {
	// Feedback is the prompt process's feedback and the overall feedback of
	// grade and feedback.
	Feedback string `json:"feedback"`
	// HighlightedText is the text with highlight tags (feedback,
	// rubric-feedback).
	HighlightedText string `json:"highlightedText"`
	// CriteriaLevels (level indexes, best first), CriteriaPoints and
	// CriteriaFeedback have one entry per rubric criterion.
	CriteriaLevels   []int     `json:"criteriaLevels"`
	CriteriaPoints   []float64 `json:"criteriaPoints"`
	CriteriaFeedback []string  `json:"criteriaFeedback"`
	OverallComments  string    `json:"overallComments"`
	// Answers is the grade answers tree (questions, criteria picks,
	// adjustments, feedback), points computed on read.
	Answers json.RawMessage `json:"answers"`
}

// ResultFieldsFromRow reads a stored result's fields; a list stored in
// another shape reads as empty.
func ResultFieldsFromRow(r store.FunctionResult) ResultFields {
	return DecodeResultFields(r.Feedback, r.HighlightedText, r.OverallComments, r.CriteriaLevels, r.CriteriaPoints, r.CriteriaFeedback, r.Answers)
}

// DecodeResultFields builds the fields from their stored columns (rows of
// queries that select them without the whole result).
func DecodeResultFields(feedback, highlighted, overall string, levels, points, criteriaFeedback, answers json.RawMessage) ResultFields {
	f := ResultFields{Feedback: feedback, HighlightedText: highlighted, OverallComments: overall, Answers: answers}
	decodeList(levels, &f.CriteriaLevels)
	decodeList(points, &f.CriteriaPoints)
	decodeList(criteriaFeedback, &f.CriteriaFeedback)
	return f
}

// decodeList decodes a stored list; the empty list, what every result but
// a rubric-feedback one stores, without json.Unmarshal (a class's read
// decodes three per result).
func decodeList[T any](raw json.RawMessage, out *[]T) {
	if string(raw) == "[]" {
		*out = []T{}
		return
	}
	_ = json.Unmarshal(raw, out)
}

// EncodedCriteria are the rubric lists as their jsonb columns store them
// (an empty list, never null).
func (f ResultFields) EncodedCriteria() (levels, points, feedback json.RawMessage, err error) {
	if levels, err = json.Marshal(orEmpty(f.CriteriaLevels)); err != nil {
		return nil, nil, nil, fmt.Errorf("encode criteria levels: %w", err)
	}
	if points, err = json.Marshal(orEmpty(f.CriteriaPoints)); err != nil {
		return nil, nil, nil, fmt.Errorf("encode criteria points: %w", err)
	}
	if feedback, err = json.Marshal(orEmpty(f.CriteriaFeedback)); err != nil {
		return nil, nil, nil, fmt.Errorf("encode criteria feedback: %w", err)
	}
	return levels, points, feedback, nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
