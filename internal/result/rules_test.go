package result_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
)

// gradingJobs counts the grade_submission jobs queued for a submission.
func (b *bundle) gradingJobs(t *testing.T, id uuid.UUID) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT count(*) FROM river_job
		WHERE kind = 'grade_submission' AND queue = 'ai' AND args ->> 'submission_id' = $1`, id.String()).Scan(&n))
	return n
}

func (b *bundle) status(t *testing.T, id uuid.UUID) string {
	t.Helper()
	var s string
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT status FROM function_results WHERE submission_id = $1`, id).Scan(&s))
	return s
}

func TestRunManyPutsEveryResultInProgressAndQueuesOneJobEach(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeFeedback, false)
	ids := b.submit(t, a, asgID, "One.", "Two.", "Three.")

	started, err := b.svc.RunMany(b.ctx, a, asgID, []uuid.UUID{ids[0], ids[1], ids[0]})
	require.NoError(t, err)
	require.Len(t, started, 2, "an id sent twice is graded once")
	for _, id := range ids[:2] {
		require.Equal(t, grading.StatusAnnotating, b.status(t, id))
		require.Equal(t, 1, b.gradingJobs(t, id))
	}
	require.Empty(t, b.status(t, ids[2]), "not selected")
	require.Zero(t, b.gradingJobs(t, ids[2]))
}

func TestRunManyRefusesBadRequestsAndChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeGrade, false)
	ids := b.submit(t, a, asgID, photosynthesisText)
	otherAsg := b.define(t, a, assignment.TypeGrade, false)
	elsewhere := b.submit(t, a, otherAsg, "Another class.")
	undefined, err := b.asgs.Create(b.ctx, a, assignment.Input{Name: "Not defined yet", Type: assignment.TypeGrade})
	require.NoError(t, err)
	undefinedIDs := b.submit(t, a, undefined.ID, "Early work.")

	_, err = b.svc.RunMany(b.ctx, a, asgID, nil)
	requireCode(t, err, apperr.Invalid, result.MsgNoneToGrade)
	tooMany := make([]uuid.UUID, result.MaxPerRun+1)
	for i := range tooMany {
		tooMany[i] = uuid.New()
	}
	_, err = b.svc.RunMany(b.ctx, a, asgID, tooMany)
	requireCode(t, err, apperr.Invalid, result.MsgTooManyToGrade)

	_, err = b.svc.RunMany(b.ctx, a, asgID, []uuid.UUID{ids[0], elsewhere[0]})
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.RunMany(b.ctx, a, asgID, []uuid.UUID{ids[0], uuid.New()})
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.RunMany(b.ctx, b.teacher(t), asgID, ids)
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.RunMany(b.ctx, a, undefined.ID, undefinedIDs)
	requireCode(t, err, apperr.Invalid, result.MsgNoFunction)

	for _, id := range []uuid.UUID{ids[0], elsewhere[0], undefinedIDs[0]} {
		require.Empty(t, b.status(t, id), "nothing started")
		require.Zero(t, b.gradingJobs(t, id), "nothing queued")
	}
}

func TestGradeOneChecksTheProcessAndWhoAsks(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	plain := b.define(t, a, assignment.TypeRubricFeedback, false)
	plainIDs := b.submit(t, a, plain, "My essay.")
	instant := b.define(t, a, assignment.TypeRubricFeedback, true)
	instantIDs := b.submit(t, a, instant, "My essay.", "Another essay.")

	_, err := b.svc.GradeOne(b.ctx, a, plainIDs[0], plain, grading.ProcessGrade)
	requireCode(t, err, apperr.Invalid, result.MsgWrongProcess)
	_, err = b.svc.GradeOne(b.ctx, a, plainIDs[0], plain, "")
	requireCode(t, err, apperr.Invalid, result.MsgWrongProcess)

	_, err = b.svc.GradeOne(b.ctx, student(a), plainIDs[0], plain, grading.ProcessRubricFeedback)
	requireCode(t, err, apperr.Forbidden, result.MsgNoInstant)
	require.Empty(t, b.status(t, plainIDs[0]))
	require.Zero(t, b.gradingJobs(t, plainIDs[0]))

	// The teacher may always ask.
	status, err := b.svc.GradeOne(b.ctx, a, plainIDs[0], plain, grading.ProcessRubricFeedback)
	require.NoError(t, err)
	require.Equal(t, grading.StatusRubricGrading, status)
	require.Equal(t, 1, b.gradingJobs(t, plainIDs[0]))

	// A student asks for instant feedback once; asking again runs nothing.
	status, err = b.svc.GradeOne(b.ctx, student(a), instantIDs[0], instant, grading.ProcessRubricFeedback)
	require.NoError(t, err)
	require.Equal(t, grading.StatusRubricGrading, status)
	status, err = b.svc.GradeOne(b.ctx, student(a), instantIDs[0], instant, grading.ProcessRubricFeedback)
	require.NoError(t, err)
	require.Equal(t, grading.StatusRubricGrading, status)
	require.Equal(t, 1, b.gradingJobs(t, instantIDs[0]), "no second job")
	require.Empty(t, b.status(t, instantIDs[1]))

	// Another team's student, or a submission of another assignment, is not found.
	_, err = b.svc.GradeOne(b.ctx, student(b.teacher(t)), instantIDs[1], instant, grading.ProcessRubricFeedback)
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.GradeOne(b.ctx, student(a), plainIDs[0], instant, grading.ProcessRubricFeedback)
	requireCode(t, err, apperr.NotFound, "")
}

// A student's instant feedback is graded by the worker and read on the
// view-result page; a finished result is not graded again on a reload.
func TestGradeOneForAStudentIsGradedOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypePrompt, true)
	ids := b.submit(t, a, asgID, "Rivers shape valleys. They carry sediment to the sea.")
	b.gradeNow(t, a, asgID, ids...) // as the worker would after the student's request
	calls := b.demo.Stats().Requests

	status, err := b.svc.GradeOne(b.ctx, student(a), ids[0], asgID, grading.ProcessPrompt)
	require.NoError(t, err)
	require.Equal(t, grading.StatusGraded, status)
	require.Equal(t, 1, b.gradingJobs(t, ids[0]), "only grade-all's job")
	fr, err := b.svc.GetViewOnly(b.ctx, student(a), ids[0], asgID)
	require.NoError(t, err)
	require.Contains(t, fr.Feedback, "Say how well the argument flows.")
	require.Equal(t, calls, b.demo.Stats().Requests)
}

// A student's page may ask twice at once (a double click, a reload): one
// job is queued all the same.
func TestGradeOneForAStudentAskingTwiceAtOnceQueuesOneJob(t *testing.T) {
	t.Parallel()
	b := setup(t, false, fakellm.Options{})
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypeFeedback, true)
	ids := b.submit(t, a, asgID, "Dear Sam, hello.")
	const n = 6
	errs := make(chan error, n)
	for range n {
		go func() {
			status, err := b.svc.GradeOne(b.ctx, student(a), ids[0], asgID, grading.ProcessFeedback)
			if err == nil && status != grading.StatusAnnotating {
				err = fmt.Errorf("status %q", status)
			}
			errs <- err
		}()
	}
	for range n {
		require.NoError(t, <-errs)
	}
	require.Equal(t, 1, b.gradingJobs(t, ids[0]))
}
