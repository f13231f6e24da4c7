package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
)

// Runs that finish together are written together (one statement, one
// commit), and each is still written exactly once: every result of the
// class is graded with its own answer, a duplicated job's second run is
// discarded but its call counted, and the class shares fewer commits than
// it has results.
func TestGradeSubmission_RunsFinishingTogetherAreEachWrittenOnce(t *testing.T) {
	t.Parallel()
	g := setupGrading(t, fakellm.Options{Latency: 200 * time.Millisecond}, llm.Config{})
	asgID := g.define(t, assignment.TypeGrade)
	subs := refs(15, photosynthesis)
	subs = append(subs, texts("Plants are green.")...)
	ids := g.submit(t, asgID, subs...)
	g.runMany(t, asgID, ids)
	for _, id := range ids[:2] {
		_, err := g.insert.Insert(context.Background(), queue.GradeSubmissionArgs{SubmissionID: id}, nil)
		require.NoError(t, err)
	}
	jobRows := g.handedTo(t, "grade_submission")
	require.Len(t, jobRows, len(ids)+2)
	jobIDs := make([]int64, len(jobRows))
	for i, j := range jobRows {
		jobIDs[i] = j.ID
	}

	_, events := g.startWorker(t, g.deps, map[string]int{queue.QueueAI: len(jobRows)}, 2*time.Minute)
	for _, ev := range waitAll(t, events, jobIDs) {
		require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	}
	for i, id := range ids {
		s := g.stored(t, id)
		require.Equal(t, grading.StatusGraded, s.Status)
		require.Equal(t, 1, s.Writes, "written once")
		if i < 2 {
			require.Equal(t, 2, s.Calls, "the duplicated job's call is counted")
		} else {
			require.Equal(t, 1, s.Calls)
		}
	}
	frs := g.waitFinished(t, asgID, ids)
	for _, fr := range frs[:15] {
		require.Equal(t, 6.0, *fr.TotalPoints, "each result has its own run's answer")
	}
	require.Less(t, *frs[15].TotalPoints, 6.0, "a weaker answer keeps its own lower score")

	var commits int
	require.NoError(t, g.pool.QueryRow(context.Background(), `SELECT count(DISTINCT changed_xid::text)
		FROM function_results WHERE assignment_id = $1`, asgID).Scan(&commits))
	require.Less(t, commits, len(ids), "runs that finished together shared a commit")
}
