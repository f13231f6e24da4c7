package studentlink_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/submission"
)

// rows counts what an assignment holds: submissions, function results and
// extraction jobs of its submissions.
func rows(t *testing.T, b *bundle, asg store.Assignment) (subs, results, jobs int) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, b.svc.Pool.QueryRow(ctx, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.ID).Scan(&subs))
	require.NoError(t, b.svc.Pool.QueryRow(ctx, `SELECT count(*) FROM function_results WHERE assignment_id = $1`, asg.ID).Scan(&results))
	require.NoError(t, b.svc.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'extract_text'
		AND args->>'submission_id' IN (SELECT id::text FROM submissions WHERE assignment_id = $1)`, asg.ID).Scan(&jobs))
	return subs, results, jobs
}

// submitAs submits a new file through the link as a student.
func (b *bundle) submitAs(t *testing.T, token string, asg store.Assignment, name, email string) (studentlink.Submitted, error) {
	t.Helper()
	in := submitInput(token, asg.ID, b.upload(t, token, "essay.txt", "An essay by "+name))
	in.StudentName, in.StudentEmail = name, email
	return b.svc.Submit(context.Background(), "10.3.0."+uuid.NewString()[:3], in)
}

func setResubmission(t *testing.T, b *bundle, a identity.Actor, asg store.Assignment, allow bool) {
	t.Helper()
	l, err := b.svc.Update(context.Background(), a, asg.ID, studentlink.Change{AllowResubmission: &allow})
	require.NoError(t, err)
	require.Equal(t, allow, l.AllowResubmission)
	got, err := b.svc.Get(context.Background(), a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, l, got, "get says what update set")
}

func TestAStudentSubmitsOnceUnlessResubmissionIsAllowed(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	l, err := b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	require.False(t, l.AllowResubmission, "off by default")

	first, err := b.submitAs(t, token, asg, "Sam Student", "sam@pupils.test")
	require.NoError(t, err)
	require.False(t, first.Assignment.AllowResubmission, "the thank-you page offers no second submission")
	sub1 := first.Submissions[0]
	require.Equal(t, 1, sub1.Attempt)
	require.Nil(t, sub1.PreviousSubmissionID)

	// The same student again, with the address in another case and spaced:
	// refused with a sentence, and nothing is created.
	for _, email := range []string{"sam@pupils.test", "  SAM@Pupils.TEST ", "Sam@pupils.test"} {
		_, err = b.submitAs(t, token, asg, "Sam Student", email)
		require.Error(t, err, email)
		e := apperr.From(err)
		require.Equal(t, apperr.Conflict, e.Code, err.Error())
		require.Equal(t, "You have already submitted this assignment. Ask your teacher if you need to submit again.", e.Message)
	}
	subs, results, jobs := rows(t, b, asg)
	require.Equal(t, [3]int{1, 1, 1}, [3]int{subs, results, jobs}, "one submission, one result, one extraction job")

	// Another student is not held back.
	kim, err := b.submitAs(t, token, asg, "Kim Student", "kim@pupils.test")
	require.NoError(t, err)
	require.Equal(t, 1, kim.Submissions[0].Attempt)

	// The teacher allows resubmission: Sam's next submission is attempt 2,
	// linked to attempt 1, which stays.
	setResubmission(t, b, ada, asg, true)
	opened, err := b.svc.Open(ctx, token)
	require.NoError(t, err)
	require.True(t, opened.AllowResubmission, "the student page knows another submission is taken")
	second, err := b.submitAs(t, token, asg, "Sam Student", " Sam@PUPILS.test")
	require.NoError(t, err)
	require.True(t, second.Assignment.AllowResubmission)
	sub2 := second.Submissions[0]
	require.Equal(t, 2, sub2.Attempt)
	require.Equal(t, &sub1.ID, sub2.PreviousSubmissionID)
	third, err := b.submitAs(t, token, asg, "Sam Student", "sam@pupils.test")
	require.NoError(t, err)
	require.Equal(t, 3, third.Submissions[0].Attempt)
	require.Equal(t, &sub2.ID, third.Submissions[0].PreviousSubmissionID)

	// The teacher's list shows every attempt, each linked to the one before.
	listed, err := b.svc.Submissions.List(ctx, ada, asg.ID)
	require.NoError(t, err)
	attempts := map[uuid.UUID]submission.Submission{}
	for _, s := range listed {
		attempts[s.ID] = s
	}
	require.Len(t, attempts, 4)
	require.Equal(t, 1, attempts[sub1.ID].Attempt)
	require.Nil(t, attempts[sub1.ID].PreviousSubmissionID)
	require.Equal(t, 2, attempts[sub2.ID].Attempt)
	require.Equal(t, &sub1.ID, attempts[sub2.ID].PreviousSubmissionID)
	require.Equal(t, 3, attempts[third.Submissions[0].ID].Attempt)

	// Turned off again, Sam is refused again.
	setResubmission(t, b, ada, asg, false)
	_, err = b.submitAs(t, token, asg, "Sam Student", "sam@pupils.test")
	require.Equal(t, studentlink.MsgAlreadySubmitted, apperr.From(err).Message)

	// Another team's teacher changes nothing.
	eve, _ := b.teacher(t)
	allow := true
	_, err = b.svc.Update(ctx, eve, asg.ID, studentlink.Change{AllowResubmission: &allow})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	got, err := b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	require.False(t, got.AllowResubmission)
}

// TestSimultaneousSubmissionsOfOneStudentKeepOne sends one student's first
// submission several times at once (different files, the address in
// different cases): exactly one is kept, the others are refused. With
// resubmission allowed, they are numbered 1, 2, … without a gap or a
// repeat.
func TestSimultaneousSubmissionsOfOneStudentKeepOne(t *testing.T) {
	t.Parallel()
	const n = 6
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow=%v", allow), func(t *testing.T) {
			t.Parallel()
			b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
			ada, asg := b.teacher(t)
			token := b.link(t, ada, asg)
			setResubmission(t, b, ada, asg, allow)
			inputs := make([]studentlink.SubmitInput, n)
			for i := range inputs {
				inputs[i] = submitInput(token, asg.ID, b.upload(t, token, fmt.Sprintf("essay%d.txt", i), "An essay"))
				inputs[i].StudentEmail = []string{"lee@pupils.test", "LEE@pupils.test", " Lee@Pupils.Test"}[i%3]
			}
			var wg sync.WaitGroup
			errs := make([]error, n)
			got := make([]studentlink.Submitted, n)
			start := make(chan struct{})
			for i := range inputs {
				wg.Go(func() {
					<-start
					got[i], errs[i] = b.svc.Submit(context.Background(), "10.4.0.1", inputs[i])
				})
			}
			close(start)
			wg.Wait()

			var kept []int
			for i, err := range errs {
				if err == nil {
					kept = append(kept, got[i].Submissions[0].Attempt)
					continue
				}
				require.Equal(t, apperr.Conflict, apperr.From(err).Code, err.Error())
				require.Equal(t, studentlink.MsgAlreadySubmitted, apperr.From(err).Message)
			}
			subs, results, jobs := rows(t, b, asg)
			if !allow {
				require.Equal(t, []int{1}, kept, "exactly one first submission is kept")
				require.Equal(t, [3]int{1, 1, 1}, [3]int{subs, results, jobs})
				return
			}
			require.ElementsMatch(t, []int{1, 2, 3, 4, 5, 6}, kept, "every attempt numbered once")
			require.Equal(t, [3]int{n, n, n}, [3]int{subs, results, jobs})
		})
	}
}
