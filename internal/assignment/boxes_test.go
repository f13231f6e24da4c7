package assignment_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
)

func TestAnswerBoxesFollowTheirQuestionsWhenTheyMove(t *testing.T) {
	t.Parallel()
	q := func(id string, subs ...assignment.Question) assignment.Question {
		return assignment.Question{ID: id, QuestionText: id, Subquestions: subs}
	}
	old := []assignment.Question{q("q1"), q("q2", q("q2a"), q("q2b")), q("q3")}
	// The teacher moves question 3 to the top, removes 2a and question 1.
	next := []assignment.Question{q("q3"), q("q2", q("q2b"))}
	boxes := json.RawMessage(`[
		{"path":[0],"page":0,"x":0.1,"y":0.1,"width":0.5,"height":0.1},
		{"path":[1,0],"page":0,"x":0.1,"y":0.3,"width":0.5,"height":0.1},
		{"path":[1,1],"page":1,"x":0.1,"y":0.5,"width":0.5,"height":0.1},
		{"path":[2],"page":1,"x":0.2,"y":0.7,"width":0.6,"height":0.2}]`)

	out, changed, err := assignment.RemapBoxPaths(boxes, old, next)
	require.NoError(t, err)
	require.True(t, changed)
	require.JSONEq(t, `[
		{"path":[1,0],"page":1,"x":0.1,"y":0.5,"width":0.5,"height":0.1},
		{"path":[0],"page":1,"x":0.2,"y":0.7,"width":0.6,"height":0.2}]`, string(out),
		"2b's box is now 2a's place, question 3's box is question 1's; the removed questions' boxes are gone")

	same, changed, err := assignment.RemapBoxPaths(boxes, old, old)
	require.NoError(t, err)
	require.False(t, changed, "nothing moved")
	require.Equal(t, string(boxes), string(same))

	none, changed, err := assignment.RemapBoxPaths(json.RawMessage(`[]`), old, next)
	require.NoError(t, err)
	require.False(t, changed)
	require.JSONEq(t, `[]`, string(none))
}
