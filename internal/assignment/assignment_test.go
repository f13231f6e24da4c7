package assignment_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc     *assignment.Service
	rubrics *rubric.Service
}

func setup(t *testing.T) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	return &bundle{svc: &assignment.Service{Pool: pool}, rubrics: &rubric.Service{Pool: pool}}
}

// teacher creates a teacher with a team of their own.
func (b *bundle) teacher(t *testing.T) identity.Actor {
	t.Helper()
	ctx := context.Background()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, b.svc.Pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

func (b *bundle) assignment(t *testing.T, a identity.Actor, typ string) assignment.Assignment {
	t.Helper()
	asg, err := b.svc.Create(context.Background(), a, assignment.Input{Name: "A " + typ, Type: typ})
	require.NoError(t, err)
	return asg
}

func (b *bundle) rubric(t *testing.T, a identity.Actor) rubric.Rubric {
	t.Helper()
	r, err := b.rubrics.Create(context.Background(), a, rubric.Input{Name: "R", Criteria: []rubric.Criterion{{CriterionDescription: "C", LevelDescriptions: []string{"L"}}}})
	require.NoError(t, err)
	return r
}

func requireInvalid(t *testing.T, err error, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, apperr.Invalid, e.Code, err.Error())
	require.Equal(t, msg, e.Message)
}

func requireNotFound(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, apperr.NotFound, apperr.From(err).Code, err.Error())
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	cases := []struct {
		name string
		in   assignment.Input
		msg  string
	}{
		{"name empty", assignment.Input{Name: "", Type: "grade"}, "Assignment name cannot be empty"},
		{"name whitespace", assignment.Input{Name: " \t ", Type: "grade"}, "Assignment name cannot be empty"},
		{"name too long", assignment.Input{Name: strings.Repeat("n", 201), Type: "grade"}, "Assignment name can be at most 200 characters"},
		{"type missing", assignment.Input{Name: "A"}, "Unknown assignment type"},
		{"type unknown", assignment.Input{Name: "A", Type: "quiz"}, "Unknown assignment type"},
		{"name before type", assignment.Input{Name: "", Type: "quiz"}, "Assignment name cannot be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.svc.Create(context.Background(), a, tc.in)
			requireInvalid(t, err, tc.msg)
		})
	}
}

func TestCreateEachType(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	for _, typ := range assignment.Types {
		asg, err := b.svc.Create(ctx, a, assignment.Input{Name: "  Essay " + typ + " ", Type: typ, IsHandWritten: true, ProvideInstantFeedback: typ == "grade"})
		require.NoError(t, err)
		require.Equal(t, "Essay "+typ, asg.Name)
		require.Equal(t, typ, asg.Type)
		require.True(t, asg.IsHandWritten)
		require.Equal(t, typ == "grade", asg.ProvideInstantFeedback)
		require.Nil(t, asg.FolderID)
		require.Empty(t, asg.Submissions)

		raw, err := json.Marshal(asg)
		require.NoError(t, err)
		var shape map[string]any
		require.NoError(t, json.Unmarshal(raw, &shape))
		require.ElementsMatch(t, []string{"_id", "name", "type", "isHandWritten", "provideInstantFeedback", "folderId", "classSummary", "summaryStatus", "agreement", "agreementStatus", "submissions", "createdAt", "updatedAt"}, keys(shape))
		require.Nil(t, shape["folderId"])
		require.Nil(t, shape["classSummary"])
		require.Equal(t, []any{}, shape["submissions"])
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a, other := b.teacher(t), b.teacher(t)
	asg := b.assignment(t, a, "grade")

	up, err := b.svc.Update(ctx, a, asg.ID, assignment.Input{Name: "Renamed", Type: "grade", IsHandWritten: true, ProvideInstantFeedback: true})
	require.NoError(t, err)
	require.Equal(t, "Renamed", up.Name)
	require.True(t, up.IsHandWritten)
	require.True(t, up.ProvideInstantFeedback)
	require.Equal(t, asg.CreatedAt, up.CreatedAt)

	// An empty type leaves it as it is.
	up, err = b.svc.Update(ctx, a, asg.ID, assignment.Input{Name: "Again"})
	require.NoError(t, err)
	require.Equal(t, "grade", up.Type)
	require.False(t, up.IsHandWritten)

	for _, tc := range []struct {
		name string
		in   assignment.Input
		msg  string
	}{
		{"name empty", assignment.Input{Name: " ", Type: "grade"}, "Assignment name cannot be empty"},
		{"type unknown", assignment.Input{Name: "A", Type: "quiz"}, "Unknown assignment type"},
		{"type changed", assignment.Input{Name: "A", Type: "feedback"}, "The assignment type cannot be changed"},
	} {
		_, err := b.svc.Update(ctx, a, asg.ID, tc.in)
		requireInvalid(t, err, tc.msg)
	}

	_, err = b.svc.Update(ctx, other, asg.ID, assignment.Input{Name: "Mine now", Type: "grade"})
	requireNotFound(t, err)
	_, err = b.svc.Update(ctx, a, uuid.New(), assignment.Input{Name: "Nobody's", Type: "grade"})
	requireNotFound(t, err)

	got, err := b.svc.GetViewOnly(ctx, a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, "Again", got.Name, "refused updates change nothing")
	require.Equal(t, "grade", got.Type)
}

func TestGetListsSubmissionsAndResults(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a, other := b.teacher(t), b.teacher(t)
	asg := b.assignment(t, a, "feedback")

	got, results, err := b.svc.Get(ctx, a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, asg, got)
	require.NotNil(t, results)
	require.Empty(t, results)

	s1, err := store.Q.CreateSubmission(ctx, b.svc.Pool, store.CreateSubmissionParams{TeamID: a.TeamID, AssignmentID: asg.ID, Name: "one.txt", Role: store.SubmissionRoleTeacher})
	require.NoError(t, err)
	s2, err := store.Q.CreateSubmission(ctx, b.svc.Pool, store.CreateSubmissionParams{TeamID: a.TeamID, AssignmentID: asg.ID, Name: "two.txt", Role: store.SubmissionRoleTeacher})
	require.NoError(t, err)
	var frID uuid.UUID
	require.NoError(t, b.svc.Pool.QueryRow(ctx,
		`INSERT INTO function_results (team_id, assignment_id, submission_id, status, feedback) VALUES ($1, $2, $3, 'annotating', 'ok') RETURNING id`,
		a.TeamID, asg.ID, s1.ID).Scan(&frID))

	got, results, err = b.svc.Get(ctx, a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, []assignment.Ref{{ID: s1.ID}, {ID: s2.ID}}, got.Submissions)
	require.Len(t, results, 1)
	require.Equal(t, frID, results[0].ID)
	require.Equal(t, s1.ID, results[0].Submission)
	require.Equal(t, "annotating", results[0].Status)

	view, err := b.svc.GetViewOnly(ctx, a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, got, view)

	_, _, err = b.svc.Get(ctx, other, asg.ID)
	requireNotFound(t, err)
	_, err = b.svc.GetViewOnly(ctx, other, asg.ID)
	requireNotFound(t, err)
	_, _, err = b.svc.Get(ctx, a, uuid.New())
	requireNotFound(t, err)
}
