package answerbox_test

import (
	"context"
	"encoding/json"
	"image"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
)

// questions: 0 (two criteria) with subquestion 0.0 (and 0.0.0), 1.
func questions(t *testing.T) []answerbox.Question {
	t.Helper()
	qs, err := answerbox.ParseQuestions(json.RawMessage(`[
	 {"criteria":[{},{}],"subquestions":[{"criteria":[{}],"subquestions":[{"criteria":[],"subquestions":[]}]}]},
	 {"criteria":[{}],"subquestions":[]}]`))
	require.NoError(t, err)
	return qs
}

func box(path ...int) answerbox.Box {
	return answerbox.Box{Path: path, Page: 0, X: 0.1, Y: 0.1, Width: 0.5, Height: 0.5}
}

func TestValidateRefusesWithTheTeachersMessage(t *testing.T) {
	t.Parallel()
	qs := questions(t)
	many := make([]answerbox.Box, answerbox.MaxBoxes+1)
	tests := []struct {
		name  string
		boxes []answerbox.Box
		msg   string
	}{
		{"no such question", []answerbox.Box{box(2)}, answerbox.MsgPath},
		{"no such subquestion", []answerbox.Box{box(1, 0)}, answerbox.MsgPath},
		{"empty path", []answerbox.Box{box()}, answerbox.MsgPath},
		{"negative index", []answerbox.Box{box(-1)}, answerbox.MsgPath},
		{"four levels", []answerbox.Box{box(0, 0, 0, 0)}, answerbox.MsgPath},
		{"two boxes for a question", []answerbox.Box{box(0), box(1), box(0)}, answerbox.MsgDuplicate},
		{"negative page", []answerbox.Box{{Path: []int{0}, Page: -1, Width: 0.1, Height: 0.1}}, answerbox.MsgPage},
		{"no width", []answerbox.Box{{Path: []int{0}, Width: 0, Height: 0.1}}, answerbox.MsgGeometry},
		{"past the right edge", []answerbox.Box{{Path: []int{0}, X: 0.6, Width: 0.5, Height: 0.1}}, answerbox.MsgGeometry},
		{"above the page", []answerbox.Box{{Path: []int{0}, Y: -0.1, Width: 0.5, Height: 0.1}}, answerbox.MsgGeometry},
		{"too many", many, answerbox.MsgTooManyBoxes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := answerbox.Validate(qs, tc.boxes)
			require.Error(t, err)
			e := apperr.From(err)
			require.Equal(t, apperr.Invalid, e.Code)
			require.Equal(t, tc.msg, e.Message)
		})
	}
}

func TestValidateSortsByPath(t *testing.T) {
	t.Parallel()
	out, err := answerbox.Validate(questions(t), []answerbox.Box{box(1), box(0, 0, 0), box(0),
		{Path: []int{0, 0}, Page: 2, X: 0, Y: 0, Width: 1, Height: 1}})
	require.NoError(t, err)
	var paths [][]int
	for _, b := range out {
		paths = append(paths, b.Path)
	}
	require.Equal(t, [][]int{{0}, {0, 0}, {0, 0, 0}, {1}}, paths)
}

func TestCropRectIsTheBoxsFractionOfThePage(t *testing.T) {
	t.Parallel()
	page := image.Rect(0, 0, 850, 1100)
	r := answerbox.CropRect(answerbox.Box{X: 0.1, Y: 0.2, Width: 0.5, Height: 0.25}, page)
	require.Equal(t, image.Rect(85, 220, 85+425, 220+275), r)
	r = answerbox.CropRect(answerbox.Box{X: 0.9999, Y: 0, Width: 0.0001, Height: 1}, page)
	require.Equal(t, 1, r.Dx(), "a sliver is at least one pixel")
	require.True(t, r.In(page))
}

func TestBuildAnswersMirrorsTheTreeAndKeepsGrades(t *testing.T) {
	t.Parallel()
	prev := json.RawMessage(`[{"grade":{"points":2,"gradeAdjustment":1,"feedback":"Nice","criteria":[true,false]},"note":"kept"}]`)
	raw, err := answerbox.BuildAnswers(questions(t), []answerbox.Box{box(0, 0)},
		map[string][]string{"0-0": {"crop.jpg"}}, prev)
	require.NoError(t, err)
	var got []map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Len(t, got, 2)
	require.Equal(t, "Nice", got[0]["grade"].(map[string]any)["feedback"])
	require.Equal(t, "kept", got[0]["note"])
	require.Nil(t, got[0]["answerBoxesCoordinates"])
	require.Equal(t, []any{}, got[0]["answerMedia"])
	sub := got[0]["subanswers"].([]any)[0].(map[string]any)
	require.Equal(t, []any{"crop.jpg"}, sub["answerMedia"])
	require.Equal(t, map[string]any{"x": 0.1, "y": 0.1, "width": 0.5, "height": 0.5}, sub["answerBoxesCoordinates"])
	require.Equal(t, []any{false}, sub["grade"].(map[string]any)["criteria"])
	require.Len(t, sub["subanswers"], 1)
	require.Equal(t, []any{false}, got[1]["grade"].(map[string]any)["criteria"])
}

func TestSignAnswersSignsOnlyTheAssignmentsCrops(t *testing.T) {
	t.Parallel()
	const prefix = "assignments/a/submissions/crops/"
	answers := json.RawMessage(`[{"answerMedia":["assignments/a/submissions/crops/s/0.jpg","chats/x/y.jpg"],
		"subanswers":[{"answerMedia":["assignments/a/submissions/crops/s/0-0.jpg"],"subanswers":[]}]},
		{"answerMedia":[],"subanswers":[]}]`)
	out, err := answerbox.SignAnswers(context.Background(), answers, prefix, func(_ context.Context, key string) (string, error) {
		return "https://signed/" + key, nil
	})
	require.NoError(t, err)
	var got []map[string]any
	require.NoError(t, json.Unmarshal(out, &got))
	require.Equal(t, []any{"https://signed/assignments/a/submissions/crops/s/0.jpg"}, got[0]["signedAnswerMedia"])
	sub := got[0]["subanswers"].([]any)[0].(map[string]any)
	require.Equal(t, []any{"https://signed/assignments/a/submissions/crops/s/0-0.jpg"}, sub["signedAnswerMedia"])
	require.NotContains(t, got[1], "signedAnswerMedia")

	// Typed answers (no crop anywhere) come back as they are, undecoded.
	typed := json.RawMessage(`[{"answerMedia":[], "grade":{"criteria":[true]},"subanswers":[]}]`)
	out, err = answerbox.SignAnswers(context.Background(), typed, prefix, func(context.Context, string) (string, error) {
		t.Fatal("nothing to sign")
		return "", nil
	})
	require.NoError(t, err)
	require.Equal(t, string(typed), string(out))
}
