package assignment_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

// A colleague deleting a rubric (library.Service.DeleteRubric: lock, check
// its uses, delete) while a definition naming it is saved: the save waits
// for the delete and then finds the rubric gone, so no definition is left
// pointing at a deleted rubric.
func TestSavingADefinitionWaitsForARubricBeingDeleted(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	for _, tc := range []struct {
		typ   string
		input func(rubricID string) assignment.FunctionInput
	}{
		{"grade", func(id string) assignment.FunctionInput {
			return assignment.FunctionInput{Questions: []assignment.Question{{QuestionText: "Q", RubricID: &id,
				Criteria: []assignment.Criterion{{Description: "d", Points: 1}}}}}
		}},
		{"rubric-feedback", func(id string) assignment.FunctionInput { return assignment.FunctionInput{RubricID: id} }},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			rub := b.rubric(t, a)
			asg := b.assignment(t, a, tc.typ)

			tx, err := testdb.Pool(t).Begin(ctx)
			require.NoError(t, err)
			defer func() { _ = tx.Rollback(ctx) }()
			_, err = store.Q.LibraryLockRubric(ctx, tx, store.LibraryLockRubricParams{ID: rub.ID, TeamID: a.TeamID})
			require.NoError(t, err)

			done := make(chan error, 1)
			go func() {
				_, err := b.svc.PutFunction(ctx, a, asg.ID, tc.input(rub.ID.String()))
				done <- err
			}()
			select {
			case err := <-done:
				t.Fatalf("the definition was saved while its rubric was being deleted: %v", err)
			case <-time.After(300 * time.Millisecond):
			}
			n, err := store.Q.LibraryDeleteRubric(ctx, tx, store.LibraryDeleteRubricParams{ID: rub.ID, TeamID: a.TeamID})
			require.NoError(t, err)
			require.EqualValues(t, 1, n)
			require.NoError(t, tx.Commit(ctx))

			err = <-done
			require.Error(t, err)
			require.Equal(t, apperr.NotFound, apperr.From(err).Code, "error: %v", err)
			_, err = b.svc.GetFunction(ctx, a, asg.ID, "")
			require.Equal(t, apperr.NotFound, apperr.From(err).Code, "no definition was saved")
		})
	}
}
