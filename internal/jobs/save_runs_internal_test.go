package jobs

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/testdb"
)

// A batch that the database refuses (one run's text it cannot store) is
// written run by run: the other runs of the batch are saved, and only the
// bad one's job gets the error (and is retried); a run whose result is no
// longer in progress is reported unwritten.
func TestRunWriter_ABadRunFailsOnlyItsOwnJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := testdb.Isolated(t)
	var team, asg uuid.UUID
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO teams (name) VALUES ('T') RETURNING id`).Scan(&team))
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO assignments (team_id, name, type) VALUES ($1, 'A', 'grade') RETURNING id`, team).Scan(&asg))
	ids := make([]uuid.UUID, 4)
	for i := range ids {
		require.NoError(t, pool.QueryRow(ctx, `INSERT INTO submissions (team_id, assignment_id, name) VALUES ($1, $2, 'S') RETURNING id`,
			team, asg).Scan(&ids[i]))
		status := "grading"
		if i == 3 {
			status = "reviewed"
		}
		_, err := pool.Exec(ctx, `INSERT INTO function_results (team_id, assignment_id, submission_id, status) VALUES ($1, $2, $3, $4)`,
			team, asg, ids[i], status)
		require.NoError(t, err)
	}
	run := func(id uuid.UUID, feedback string) *pendingRun {
		return &pendingRun{p: savedRun{
			Status: "graded", Feedback: feedback, CriteriaLevels: json.RawMessage(`{}`), CriteriaPoints: json.RawMessage(`{}`),
			CriteriaFeedback: json.RawMessage(`{}`), Flags: json.RawMessage(`[]`), ModelCalls: 1, SubmissionID: id, InProgress: "grading",
		}}
	}
	batch := []*pendingRun{run(ids[0], "Good."), run(ids[1], "Bad \x00 byte."), run(ids[2], "Fine."), run(ids[3], "Late.")}
	write(ctx, pool, batch)

	require.NoError(t, batch[0].err)
	require.Error(t, batch[1].err)
	require.NoError(t, batch[2].err)
	require.NoError(t, batch[3].err)
	require.Equal(t, []int64{1, 0, 1, 0}, []int64{batch[0].n, batch[1].n, batch[2].n, batch[3].n})
	for i, want := range []struct {
		status   string
		feedback string
		writes   int
	}{{"graded", "Good.", 1}, {"grading", "", 0}, {"graded", "Fine.", 1}, {"reviewed", "", 0}} {
		var status, feedback string
		var writes int
		require.NoError(t, pool.QueryRow(ctx, `SELECT status, feedback, result_writes FROM function_results WHERE submission_id = $1`,
			ids[i]).Scan(&status, &feedback, &writes))
		require.Equal(t, want.status, status)
		require.Equal(t, want.feedback, feedback)
		require.Equal(t, want.writes, writes)
	}
}
