package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// The worker keeps each assignment's decoded definition between jobs; a
// teacher who edits the definition while the class is being graded has the
// next submissions graded against the edit, by the same worker, and only
// the results graded before it are marked outdated.
func TestGradeSubmission_AnEditMidBatchIsUsedByTheNextJobs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})
	asgID := g.define(t, assignment.TypeGrade)
	ids := g.submit(t, asgID, texts(photosynthesis, photosynthesis, photosynthesis)...)
	g.startWorker(t, g.deps, aiQueue, 2*time.Minute)

	g.runMany(t, asgID, ids[:2]) // the worker reads the definition, twice over
	before := g.waitFinished(t, asgID, ids[:2])
	for _, fr := range before {
		require.Equal(t, 6.0, *fr.TotalPoints, "chlorophyll, glucose and chloroplasts are met")
	}

	// The teacher replaces "Mentions glucose sugar" by a criterion the
	// text does not meet.
	qs := questions()
	qs[0].Criteria[1].Description = "Explains the Calvin cycle"
	fn, err := g.asgs.GetFunction(ctx, g.actor, asgID, "")
	require.NoError(t, err)
	_, err = g.asgs.UpdateFunction(ctx, g.actor, fn.ID, asgID, assignment.FunctionInput{Questions: qs})
	require.NoError(t, err)

	g.runMany(t, asgID, ids[2:])
	after := g.waitFinished(t, asgID, ids)
	require.Equal(t, 3.0, *after[2].TotalPoints, "graded against the edited criterion, not the cached one")
	require.False(t, after[2].Outdated, "graded against the current definition")
	require.True(t, after[0].Outdated, "graded before the edit")
	require.Equal(t, 6.0, *after[0].TotalPoints, "the first results keep their grade until graded again")
}
