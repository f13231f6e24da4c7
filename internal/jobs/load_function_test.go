package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/store"
)

// A rubric-feedback assignment whose rubric is no longer the team's reads
// the same in the job as on the teacher's page: a definition without a
// rubric, and the result says which part is missing (before, the job
// alone called it "no definition").
func TestGradingAnAssignmentWhoseRubricIsGoneSaysTheRubricIsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	asgID := g.define(t, assignment.TypeRubricFeedback)
	ids := g.submit(t, asgID, newSubmission{name: "Ada", text: "Cities should plant trees: they cool streets."})
	var rubricID uuid.UUID
	require.NoError(t, g.pool.QueryRow(ctx, `SELECT rubric_id FROM functions WHERE assignment_id = $1`, asgID).Scan(&rubricID))
	other, err := store.Q.CreateTeam(ctx, g.pool, "Other team")
	require.NoError(t, err)
	_, err = g.pool.Exec(ctx, `UPDATE rubrics SET team_id = $1 WHERE id = $2`, other.ID, rubricID)
	require.NoError(t, err)

	fn, err := g.asgs.GetFunction(ctx, g.actor, asgID, "")
	require.NoError(t, err)
	require.Nil(t, fn.Rubric, "the teacher's page shows no rubric")

	g.startWorker(t, g.deps, aiQueue, 2*time.Minute)
	g.runMany(t, asgID, ids)
	got := g.waitFinished(t, asgID, ids)
	require.Equal(t, grading.StatusFailed, got[0].Status)
	require.Equal(t, "This assignment's rubric is missing. Please choose a rubric.", got[0].Error)
	require.Zero(t, g.demo.Stats().Tasks[grading.TaskRubricFeedback], "no model call")
}
