package result_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// The table's page shows each graded result as the assignment page's full
// read does: its status, points of points, flags and when it was graded,
// for a grade class (points from the answers) and a rubric one (from the
// levels), though the table reads only those columns of a class.
func TestRowsShowTheResultsTheFullReadShows(t *testing.T) {
	for _, typ := range []string{assignment.TypeGrade, assignment.TypeRubricFeedback} {
		t.Run(typ, func(t *testing.T) {
			bn := setup(t, false, fakellm.Options{})
			a := bn.teacher(t)
			asgID := bn.define(t, a, typ, false)
			ids := bn.submit(t, a, asgID, photosynthesisText, "Plants are green.", photosynthesisText+" Water evaporates.")
			bn.gradeNow(t, a, asgID, ids[:2]...)

			full, err := bn.svc.ReadClass(bn.ctx, a, bn.subs, asgID, result.Poll{})
			require.NoError(t, err)
			q := result.RowQuery{}
			require.NoError(t, q.Normalize())
			rows, err := bn.svc.ReadRows(bn.ctx, a, bn.subs, asgID, "", q)
			require.NoError(t, err)
			require.Len(t, rows.Page.Rows, 3)
			bySub := map[string]result.FunctionResult{}
			for _, fr := range decodeResults(t, full.Results) {
				bySub[fr.Submission.String()] = fr
			}
			graded := 0
			for _, row := range rows.Page.Rows {
				fr, ok := bySub[row.ID.String()]
				if !ok {
					require.Nil(t, row.Result, "no result in the full read, none in the table")
					continue
				}
				require.NotNil(t, row.Result)
				require.Equal(t, fr.Status, row.Result.Status)
				require.Equal(t, fr.TotalPoints, row.Result.TotalPoints, row.Name)
				require.Equal(t, fr.MaxPoints, row.Result.MaxPoints, row.Name)
				require.Equal(t, fr.GradedAt == nil, row.Result.GradedAt == nil)
				if fr.GradedAt != nil {
					require.True(t, fr.GradedAt.Equal(*row.Result.GradedAt), "the same instant")
				}
				require.Equal(t, fr.Outdated, row.Result.Outdated)
				require.JSONEq(t, string(orNull(fr.Flags)), string(orNull(row.Result.Flags)))
				if fr.TotalPoints != nil && fr.GradedAt != nil {
					graded++
				}
			}
			require.Equal(t, 2, graded, "two graded, with points")
		})
	}
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}

// decodeResults reads results as assignment/get sent them.
func decodeResults(tb testing.TB, raws []json.RawMessage) []result.FunctionResult {
	tb.Helper()
	out := make([]result.FunctionResult, len(raws))
	for i, raw := range raws {
		require.NoError(tb, json.Unmarshal(raw, &out[i]))
	}
	return out
}
