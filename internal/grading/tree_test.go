package grading_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
)

// questions is a three-level tree: 1 (2 + 3 points), 1.1 (1), 1.1.1 (4 +
// 0.5) and 2 (5); 15.5 points in all.
func questions() []assignment.Question {
	return []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll as the pigment", Points: 2},
			{Description: "Explains light energy becomes chemical energy", Points: 3},
		}, Subquestions: []assignment.Question{
			{QuestionText: "Where does it happen?", Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}},
				Subquestions: []assignment.Question{
					{QuestionText: "Which cells have most?", Criteria: []assignment.Criterion{
						{Description: "Palisade mesophyll cells", Points: 4},
						{Description: "Near the upper surface of the leaf", Points: 0.5},
					}},
				}},
		}},
		{QuestionText: "Why do plants grow slowly in winter?", Criteria: []assignment.Criterion{{Description: "Less light and lower temperature", Points: 5}}},
	}
}

// answers is a graded tree for questions(): 1 meets criterion 1 (+1
// adjustment), 1.1 meets its criterion, 1.1.1 meets criterion 2, 2 meets
// nothing; node 1 has a box and a crop.
const answers = `[
 {"answerBoxesCoordinates": {"x": 0.1, "y": 0.2, "width": 0.5, "height": 0.3, "page": 0},
  "answerMedia": ["a/submissions/crops/s/0.jpg"], "extra": "kept",
  "grade": {"points": 99, "gradeAdjustment": 1, "feedback": "Good start.", "criteria": [true, false]},
  "subanswers": [
   {"answerBoxesCoordinates": null, "answerMedia": [],
    "grade": {"points": 0, "gradeAdjustment": 0, "feedback": "", "criteria": [true]},
    "subanswers": [
     {"answerBoxesCoordinates": null, "answerMedia": [],
      "grade": {"points": 0, "gradeAdjustment": 0, "feedback": "", "criteria": [false, true]}, "subanswers": []}
    ]}
  ]},
 {"answerBoxesCoordinates": null, "answerMedia": [],
  "grade": {"points": 0, "gradeAdjustment": 0, "feedback": "", "criteria": [false]}, "subanswers": []}
]`

// tree is a decoded answers tree, for assertions.
type tree []struct {
	AnswerBoxesCoordinates *struct{ X, Y float64 } `json:"answerBoxesCoordinates"`
	AnswerMedia            []string                `json:"answerMedia"`
	SignedAnswerMedia      []string                `json:"signedAnswerMedia"`
	Extra                  string                  `json:"extra"`
	Grade                  struct {
		Points          float64 `json:"points"`
		GradeAdjustment float64 `json:"gradeAdjustment"`
		Feedback        string  `json:"feedback"`
		Criteria        []bool  `json:"criteria"`
	} `json:"grade"`
	Subanswers tree `json:"subanswers"`
}

func decode(t *testing.T, raw json.RawMessage) tree {
	t.Helper()
	var out tree
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return out
}

func TestRetotalSumsEveryDepthFromTheCurrentQuestions(t *testing.T) {
	t.Parallel()
	qs := questions()
	out, total, maxPts, err := grading.Retotal(json.RawMessage(answers), qs)
	require.NoError(t, err)
	// 2 (1) + 1 adjustment + 1 (1.1) + 0.5 (1.1.1) + 0 (2)
	require.Equal(t, 4.5, total)
	require.Equal(t, 15.5, maxPts)
	got := decode(t, out)
	require.Equal(t, 2.0, got[0].Grade.Points, "the stored 99 is replaced by the criteria's points")
	require.Equal(t, 1.0, got[0].Subanswers[0].Grade.Points)
	require.Equal(t, 0.5, got[0].Subanswers[0].Subanswers[0].Grade.Points)
	require.Equal(t, 0.0, got[1].Grade.Points)
	require.Equal(t, "kept", got[0].Extra)
	require.Equal(t, []string{"a/submissions/crops/s/0.jpg"}, got[0].AnswerMedia)
	require.InDelta(t, 0.1, got[0].AnswerBoxesCoordinates.X, 1e-9)

	// The teacher makes criterion 1.1.1/2 worth 3 points: the total follows
	// without regrading.
	qs[0].Subquestions[0].Subquestions[0].Criteria[1].Points = 3
	_, total, maxPts, err = grading.Retotal(json.RawMessage(answers), qs)
	require.NoError(t, err)
	require.Equal(t, 7.0, total)
	require.Equal(t, 18.0, maxPts)

	// A criterion added to question 2 pads its list with false; one removed
	// from question 1 cuts it.
	qs[1].Criteria = append(qs[1].Criteria, assignment.Criterion{Description: "New", Points: 1})
	qs[0].Criteria = qs[0].Criteria[:1]
	out, total, _, err = grading.Retotal(json.RawMessage(answers), qs)
	require.NoError(t, err)
	got = decode(t, out)
	require.Equal(t, []bool{false, false}, got[1].Grade.Criteria)
	require.Equal(t, []bool{true}, got[0].Grade.Criteria)
	// question 1 is now worth 2: its +1 adjustment no longer counts
	require.Equal(t, 6.0, total)
	require.Zero(t, got[0].Grade.GradeAdjustment)
}

func TestRetotalShapesTheTreeLikeTheQuestions(t *testing.T) {
	t.Parallel()
	qs := questions()
	// Only the first answer stored: question 2 is added ungraded.
	var nodes []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(answers), &nodes))
	out, total, _, err := grading.Retotal(json.RawMessage("["+string(nodes[0])+"]"), qs)
	require.NoError(t, err)
	got := decode(t, out)
	require.Len(t, got, 2)
	require.Equal(t, []bool{false}, got[1].Grade.Criteria)
	require.Equal(t, []string{}, got[1].AnswerMedia)
	require.Equal(t, 4.5, total)

	// A deleted question's answer is left out.
	out, total, maxPts, err := grading.Retotal(json.RawMessage(answers), qs[:1])
	require.NoError(t, err)
	require.Len(t, decode(t, out), 1)
	require.Equal(t, 4.5, total)
	require.Equal(t, 10.5, maxPts)

	// Never graded: null stays null.
	out, total, maxPts, err = grading.Retotal(nil, qs)
	require.NoError(t, err)
	require.JSONEq(t, `null`, string(out))
	require.Zero(t, total)
	require.Equal(t, 15.5, maxPts)

	_, _, _, err = grading.Retotal(json.RawMessage(`{"not": "a tree"}`), qs)
	require.Error(t, err)
}

func TestRetotalKeepsEachQuestionWithinZeroAndItsMaximum(t *testing.T) {
	t.Parallel()
	qs := questions()
	// Question 1 (worth 5) meets both criteria and has +1000; question 2
	// (worth 5) meets its criterion: 5 + 5, not 15.5.
	big := `[{"grade": {"gradeAdjustment": 1000, "criteria": [true, true]}}, {"grade": {"criteria": [true]}}]`
	out, total, _, err := grading.Retotal(json.RawMessage(big), qs)
	require.NoError(t, err)
	require.Equal(t, 10.0, total)
	got := decode(t, out)
	require.Zero(t, got[0].Grade.GradeAdjustment, "only the part of the adjustment that counts is shown")
	require.Equal(t, 5.0, got[0].Grade.Points)

	// Question 1 scores 2 of 5 with +4: it counts +3.
	over := `[{"grade": {"gradeAdjustment": 4, "criteria": [true, false]}}, {"grade": {"criteria": [true]}}]`
	out, total, _, err = grading.Retotal(json.RawMessage(over), qs)
	require.NoError(t, err)
	require.Equal(t, 10.0, total)
	require.Equal(t, 3.0, decode(t, out)[0].Grade.GradeAdjustment)

	// −50 on question 1 takes it to 0, not below: question 2 still counts.
	negative := `[{"grade": {"gradeAdjustment": -50, "criteria": [true, true]}}, {"grade": {"criteria": [true]}}]`
	out, total, _, err = grading.Retotal(json.RawMessage(negative), qs)
	require.NoError(t, err)
	require.Equal(t, 5.0, total)
	require.Equal(t, -5.0, decode(t, out)[0].Grade.GradeAdjustment)

	// A question without criteria of its own (only parts) takes no
	// adjustment.
	parts := []assignment.Question{{QuestionText: "Parts", Subquestions: []assignment.Question{
		{QuestionText: "a", Criteria: []assignment.Criterion{{Description: "x", Points: 2}}},
	}}}
	out, total, _, err = grading.Retotal(json.RawMessage(`[{"grade": {"gradeAdjustment": 3}, "subanswers": [{"grade": {"criteria": [true]}}]}]`), parts)
	require.NoError(t, err)
	require.Equal(t, 2.0, total)
	require.Zero(t, decode(t, out)[0].Grade.GradeAdjustment)
}

func TestAnAdjustmentSurvivesATickThatCapsIt(t *testing.T) {
	t.Parallel()
	qs := questions()
	// Question 2 (worth 5) missed its criterion; the teacher gave +3.
	start := `[{"grade": {"criteria": [false, false]}}, {"grade": {"gradeAdjustment": 3, "criteria": [false]}}]`
	_, total, _, err := grading.Retotal(json.RawMessage(start), qs)
	require.NoError(t, err)
	require.Equal(t, 3.0, total)
	ticked, _, err := grading.Toggle(json.RawMessage(start), qs, []int{1}, 0)
	require.NoError(t, err)
	_, total, _, err = grading.Retotal(ticked, qs)
	require.NoError(t, err)
	require.Equal(t, 5.0, total, "5 + 3 counts as 5")
	unticked, _, err := grading.Toggle(ticked, qs, []int{1}, 0)
	require.NoError(t, err)
	_, total, _, err = grading.Retotal(unticked, qs)
	require.NoError(t, err)
	require.Equal(t, 3.0, total, "undoing the tick gives the +3 back")
}

func TestMergeAnswersSavesAnAdjustmentCappedAtTheQuestionsRange(t *testing.T) {
	t.Parallel()
	qs := questions()
	edited := `[{"grade": {"gradeAdjustment": 4, "criteria": [true, false]}, "subanswers": [{"grade": {"gradeAdjustment": -3, "criteria": [true]}, "subanswers": [{}]}]},
	 {"grade": {"gradeAdjustment": 2, "criteria": [false]}}]`
	out, err := grading.MergeAnswers(json.RawMessage(answers), json.RawMessage(edited), qs)
	require.NoError(t, err)
	got := decode(t, out)
	require.Equal(t, 3.0, got[0].Grade.GradeAdjustment, "2 of 5 points: at most +3")
	require.Equal(t, -1.0, got[0].Subanswers[0].Grade.GradeAdjustment, "1 point: at least −1")
	require.Equal(t, 2.0, got[1].Grade.GradeAdjustment, "within the range: kept")
}

func TestToggleFlipsACriterionAndReportsItsPoints(t *testing.T) {
	t.Parallel()
	qs := questions()
	// 1.1.1 criterion 1 (4 points) was false.
	out, change, err := grading.Toggle(json.RawMessage(answers), qs, []int{0, 0, 0}, 0)
	require.NoError(t, err)
	require.Equal(t, 4.0, change)
	got := decode(t, out)
	require.Equal(t, []bool{true, true}, got[0].Subanswers[0].Subanswers[0].Grade.Criteria)
	require.Equal(t, 4.5, got[0].Subanswers[0].Subanswers[0].Grade.Points)
	_, total, _, err := grading.Retotal(out, qs)
	require.NoError(t, err)
	require.Equal(t, 8.5, total)

	// Back again: −4, and the total returns.
	out, change, err = grading.Toggle(out, qs, []int{0, 0, 0}, 0)
	require.NoError(t, err)
	require.Equal(t, -4.0, change)
	_, total, _, err = grading.Retotal(out, qs)
	require.NoError(t, err)
	require.Equal(t, 4.5, total)

	// A never-graded result starts from an empty tree.
	out, change, err = grading.Toggle(nil, qs, []int{1}, 0)
	require.NoError(t, err)
	require.Equal(t, 5.0, change)
	require.Equal(t, []bool{true}, decode(t, out)[1].Grade.Criteria)
}

func TestToggleRefusesWhatDoesNotExist(t *testing.T) {
	t.Parallel()
	qs := questions()
	for _, path := range [][]int{nil, {2}, {-1}, {0, 1}, {1, 0}, {0, 0, 0, 0}} {
		_, _, err := grading.Toggle(json.RawMessage(answers), qs, path, 0)
		require.Error(t, err, "path %v", path)
		require.Equal(t, apperr.Invalid, apperr.From(err).Code)
		require.Equal(t, grading.MsgNoQuestion, apperr.From(err).Message)
	}
	for _, c := range []int{-1, 2} {
		_, _, err := grading.Toggle(json.RawMessage(answers), qs, []int{0}, c)
		require.Error(t, err)
		require.Equal(t, apperr.Invalid, apperr.From(err).Code)
		require.Contains(t, apperr.From(err).Message, "Question 1 has no criterion")
	}
}

func TestMergeAnswersTakesTheEditAndKeepsTheMedia(t *testing.T) {
	t.Parallel()
	qs := questions()
	// The client sends back what it read, signed URLs and other
	// coordinates included, with criteria and an adjustment changed.
	edited := `[
	 {"answerBoxesCoordinates": {"x": 0.9, "y": 0.9, "width": 0.1, "height": 0.1, "page": 3},
	  "answerMedia": ["other/key.jpg"], "signedAnswerMedia": ["https://signed.example/0.jpg"],
	  "grade": {"points": 1000, "gradeAdjustment": -0.5, "feedback": "Well argued.", "criteria": [true, true]},
	  "subanswers": [{"grade": {"gradeAdjustment": 0, "feedback": "", "criteria": [false]},
	    "subanswers": [{"subanswers": []}]}]},
	 {"grade": {"gradeAdjustment": 0, "feedback": "Missing.", "criteria": [false]}, "subanswers": []}
	]`
	out, err := grading.MergeAnswers(json.RawMessage(answers), json.RawMessage(edited), qs)
	require.NoError(t, err)
	got := decode(t, out)
	require.Equal(t, []string{"a/submissions/crops/s/0.jpg"}, got[0].AnswerMedia)
	require.InDelta(t, 0.1, got[0].AnswerBoxesCoordinates.X, 1e-9)
	require.Nil(t, got[0].SignedAnswerMedia)
	require.Equal(t, "kept", got[0].Extra)
	require.Equal(t, []bool{true, true}, got[0].Grade.Criteria)
	require.Equal(t, 5.0, got[0].Grade.Points)
	require.Equal(t, -0.5, got[0].Grade.GradeAdjustment)
	require.Equal(t, "Well argued.", got[0].Grade.Feedback)
	require.Equal(t, []bool{false}, got[0].Subanswers[0].Grade.Criteria)
	// 1.1.1 was sent without a grade: its stored grade stays.
	require.Equal(t, []bool{false, true}, got[0].Subanswers[0].Subanswers[0].Grade.Criteria)
	require.Equal(t, "Missing.", got[1].Grade.Feedback)
	_, total, _, err := grading.Retotal(out, qs)
	require.NoError(t, err)
	require.Equal(t, 5.0, total) // 5 − 0.5 + 0 + 0.5 + 0
}

func TestMergeAnswersRefusesAnotherShape(t *testing.T) {
	t.Parallel()
	qs := questions()
	for name, edited := range map[string]string{
		"missing question":  `[{"grade": {"criteria": [true, false]}, "subanswers": [{"subanswers": [{}]}]}]`,
		"missing part":      `[{"subanswers": []}, {}]`,
		"criteria count":    `[{"grade": {"criteria": [true]}, "subanswers": [{"subanswers": [{}]}]}, {}]`,
		"not a list":        `{"answers": []}`,
		"null":              `null`,
		"extra subquestion": `[{"subanswers": [{"subanswers": [{}]}, {}]}, {}]`,
	} {
		_, err := grading.MergeAnswers(json.RawMessage(answers), json.RawMessage(edited), qs)
		require.Error(t, err, name)
		require.Equal(t, grading.MsgAnswersShape, apperr.From(err).Message, name)
	}
	_, err := grading.MergeAnswers(json.RawMessage(answers),
		json.RawMessage(`[{"grade": {"gradeAdjustment": 1e300, "criteria": [true, false]}, "subanswers": [{"subanswers": [{}]}]}, {}]`), qs)
	require.Equal(t, grading.MsgAdjustment, apperr.From(err).Message)
}
