package library_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc *library.Service
	ctx context.Context
}

func setup(t *testing.T) *bundle {
	t.Helper()
	client, err := queue.NewInsertClient(testdb.Pool(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return &bundle{svc: &library.Service{Pool: testdb.Pool(t), Jobs: client}, ctx: context.Background()}
}

// teacher creates a signed-up teacher who owns a team of their own.
func (b *bundle) teacher(t *testing.T, name string) identity.Actor {
	t.Helper()
	email := strings.ToLower(name) + "-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.svc.Pool, team.TeamName(name, email))
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: name, EmailVerified: true, TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: name, Email: email}
}

// mate creates a teacher in a's team.
func (b *bundle) mate(t *testing.T, a identity.Actor, name string) identity.Actor {
	t.Helper()
	email := strings.ToLower(name) + "-" + uuid.NewString()[:8] + "@school.test"
	u, err := store.Q.CreateUser(b.ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: name, EmailVerified: true, TeamID: uuid.NullUUID{UUID: a.TeamID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: a.TeamID, Name: name, Email: email}
}

func (b *bundle) assignment(t *testing.T, a identity.Actor, name string, typ store.AssignmentType) store.Assignment {
	t.Helper()
	asg, err := store.Q.CreateAssignment(b.ctx, b.svc.Pool, store.CreateAssignmentParams{
		TeamID: a.TeamID, Name: name, Type: typ, IsHandWritten: true, CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
	})
	require.NoError(t, err)
	return asg
}

func (b *bundle) rubric(t *testing.T, a identity.Actor, name string) store.Rubric {
	t.Helper()
	r, err := store.Q.CreateRubric(b.ctx, b.svc.Pool, store.CreateRubricParams{
		TeamID: a.TeamID, Name: name,
		Criteria: json.RawMessage(`[{"criterionDescription":"Argument","levelDescriptions":["weak","strong"],"useRange":false}]`),
	})
	require.NoError(t, err)
	return r
}

func (b *bundle) function(t *testing.T, asg store.Assignment, rubricID uuid.NullUUID, questions string) store.Function {
	t.Helper()
	fn, err := store.Q.CreateFunction(b.ctx, b.svc.Pool, store.CreateFunctionParams{
		TeamID: asg.TeamID, AssignmentID: asg.ID, Type: asg.Type,
		Highlights: json.RawMessage(`[{"key":"grammar","color":"purple-500","title":"Grammar","description":"d"}]`),
		Context:    "context", Questions: json.RawMessage(questions), RubricID: rubricID, Prompt: "prompt",
	})
	require.NoError(t, err)
	return fn
}

func (b *bundle) submission(t *testing.T, asg store.Assignment) store.Submission {
	t.Helper()
	s, err := store.Q.CreateSubmission(b.ctx, b.svc.Pool, store.CreateSubmissionParams{TeamID: asg.TeamID, AssignmentID: asg.ID, Name: "work.pdf", Role: store.SubmissionRoleTeacher})
	require.NoError(t, err)
	return s
}

func (b *bundle) fn(t *testing.T, a identity.Actor, assignmentID uuid.UUID) store.Function {
	t.Helper()
	fn, err := store.Q.GetAssignmentFunction(b.ctx, b.svc.Pool, store.GetAssignmentFunctionParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	require.NoError(t, err)
	return fn
}

func (b *bundle) lib(t *testing.T, a identity.Actor) library.Library {
	t.Helper()
	l, err := b.svc.Library(b.ctx, a)
	require.NoError(t, err)
	return l
}

func (b *bundle) folderOf(t *testing.T, a identity.Actor, assignmentID uuid.UUID) *uuid.UUID {
	t.Helper()
	for _, x := range b.lib(t, a).Assignments {
		if x.ID == assignmentID {
			return x.FolderID
		}
	}
	t.Fatalf("assignment %s not in the library", assignmentID)
	return nil
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return string(raw)
}

func requireCode(t *testing.T, err error, code apperr.Code, message string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, "error: %v", err)
	if message != "" {
		require.Equal(t, message, e.Message)
	}
}

func TestLibraryListsTheTeamsItems(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	essay := b.assignment(t, ada, "Essay", store.AssignmentTypeGrade)
	poem := b.assignment(t, ada, "Poem", store.AssignmentTypeFeedback)
	sub := b.submission(t, essay)
	rub := b.rubric(t, ada, "Argument")
	b.assignment(t, bob, "Bob's", store.AssignmentTypePrompt)
	f, err := b.svc.CreateFolder(b.ctx, ada, "Term 1")
	require.NoError(t, err)
	_, err = b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "Term 1", Assignments: []uuid.UUID{poem.ID}}})
	require.NoError(t, err)

	l := b.lib(t, ada)
	require.Len(t, l.Assignments, 2)
	require.Equal(t, poem.ID, l.Assignments[0].ID, "newest first")
	require.Equal(t, &f.ID, l.Assignments[0].FolderID)
	require.Equal(t, "feedback", l.Assignments[0].Type)
	require.Empty(t, l.Assignments[0].Submissions)
	require.Equal(t, essay.ID, l.Assignments[1].ID)
	require.Nil(t, l.Assignments[1].FolderID)
	require.True(t, l.Assignments[1].IsHandWritten)
	require.Equal(t, []assignment.Ref{{ID: sub.ID}}, l.Assignments[1].Submissions)
	require.Len(t, l.Rubrics, 1)
	require.Equal(t, rub.ID, l.Rubrics[0].ID)
	require.JSONEq(t, string(rub.Criteria), jsonOf(t, l.Rubrics[0].Criteria))
	require.Equal(t, []library.Folder{{ID: f.ID, Name: "Term 1", Assignments: []uuid.UUID{poem.ID}}}, l.Folders)

	// The JSON shape the frontend reads.
	raw, err := json.Marshal(l.Assignments[1])
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	for _, k := range []string{"_id", "name", "type", "isHandWritten", "provideInstantFeedback", "folderId", "classSummary", "submissions", "createdAt", "updatedAt"} {
		require.Contains(t, m, k)
	}
	require.Nil(t, m["folderId"])
	require.Nil(t, m["classSummary"])

	empty := b.lib(t, b.teacher(t, "Cy"))
	require.NotNil(t, empty.Assignments)
	require.NotNil(t, empty.Rubrics)
	require.NotNil(t, empty.Folders)
}

func TestCreateFolder(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")

	f, err := b.svc.CreateFolder(b.ctx, ada, "  Year 9  ")
	require.NoError(t, err)
	require.Equal(t, "Year 9", f.Name)
	require.NotNil(t, f.Assignments)
	g, err := b.svc.CreateFolder(b.ctx, ada, "Year 10")
	require.NoError(t, err)
	require.Equal(t, []library.Folder{{ID: f.ID, Name: "Year 9", Assignments: []uuid.UUID{}}, {ID: g.ID, Name: "Year 10", Assignments: []uuid.UUID{}}}, b.lib(t, ada).Folders)

	_, err = b.svc.CreateFolder(b.ctx, ada, " \t ")
	requireCode(t, err, apperr.Invalid, "Folder name cannot be empty")
	_, err = b.svc.CreateFolder(b.ctx, ada, strings.Repeat("é", 201))
	requireCode(t, err, apperr.Invalid, "Folder name can be at most 200 characters")
	// The HTTP layer refuses control characters with a 400; a caller inside
	// the process gets them removed rather than stored.
	h, err := b.svc.CreateFolder(b.ctx, ada, "a\x00b\u202e")
	require.NoError(t, err)
	require.Equal(t, "ab", h.Name)
	_, err = b.svc.CreateFolder(b.ctx, ada, strings.Repeat("é", 200))
	require.NoError(t, err)
}

func TestUpdateFoldersRenamesMovesAndDeletes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	a1 := b.assignment(t, ada, "One", store.AssignmentTypeGrade)
	a2 := b.assignment(t, ada, "Two", store.AssignmentTypeGrade)
	a3 := b.assignment(t, ada, "Three", store.AssignmentTypeGrade)
	f, err := b.svc.CreateFolder(b.ctx, ada, "Old name")
	require.NoError(t, err)

	// Rename, move a1 and a2 in, create a second folder with a3.
	got, err := b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{
		{ID: f.ID, Name: " New name ", Assignments: []uuid.UUID{a1.ID, a2.ID}},
		{Name: "Fresh", Assignments: []uuid.UUID{a3.ID}},
	})
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, library.Folder{ID: f.ID, Name: "New name", Assignments: []uuid.UUID{a1.ID, a2.ID}}, got[0])
	require.Equal(t, "Fresh", got[1].Name)
	require.Equal(t, []uuid.UUID{a3.ID}, got[1].Assignments)
	fresh := got[1].ID
	require.Equal(t, got, b.lib(t, ada).Folders)

	// Move a2 into the other folder: one call takes it out of the first. a1
	// is listed nowhere, so it goes back to the top level. Order is kept.
	got, err = b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{
		{ID: fresh, Name: "Fresh", Assignments: []uuid.UUID{a3.ID, a2.ID}},
		{ID: f.ID, Name: "New name"},
	})
	require.NoError(t, err)
	require.Equal(t, fresh, got[0].ID)
	require.ElementsMatch(t, []uuid.UUID{a2.ID, a3.ID}, got[0].Assignments)
	require.Empty(t, got[1].Assignments)
	require.Nil(t, b.folderOf(t, ada, a1.ID))

	// Delete the folder holding a2 and a3: they return to the top level.
	got, err = b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "New name"}})
	require.NoError(t, err)
	require.Equal(t, []library.Folder{{ID: f.ID, Name: "New name", Assignments: []uuid.UUID{}}}, got)
	l := b.lib(t, ada)
	require.Len(t, l.Assignments, 3)
	for _, x := range l.Assignments {
		require.Nil(t, x.FolderID)
	}

	// An empty list deletes every folder.
	got, err = b.svc.UpdateFolders(b.ctx, ada, nil)
	require.NoError(t, err)
	require.Empty(t, got)
	require.Len(t, b.lib(t, ada).Assignments, 3)
}

func TestUpdateFoldersRefusesBadListsAndChangesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	a1 := b.assignment(t, ada, "One", store.AssignmentTypeGrade)
	a2 := b.assignment(t, ada, "Two", store.AssignmentTypeGrade)
	foreign := b.assignment(t, bob, "Bob's", store.AssignmentTypeGrade)
	bobFolder, err := b.svc.CreateFolder(b.ctx, bob, "Bob's folder")
	require.NoError(t, err)
	f, err := b.svc.CreateFolder(b.ctx, ada, "Keep")
	require.NoError(t, err)
	before, err := b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "Keep", Assignments: []uuid.UUID{a1.ID}}})
	require.NoError(t, err)

	cases := []struct {
		name    string
		in      []library.FolderInput
		code    apperr.Code
		message string
	}{
		{"assignment in two folders", []library.FolderInput{{ID: f.ID, Name: "Keep", Assignments: []uuid.UUID{a1.ID}}, {Name: "Other", Assignments: []uuid.UUID{a1.ID}}}, apperr.Invalid, "An assignment can sit in at most one folder"},
		{"empty name", []library.FolderInput{{ID: f.ID, Name: "  "}}, apperr.Invalid, "Folder name cannot be empty"},
		{"folder twice", []library.FolderInput{{ID: f.ID, Name: "A"}, {ID: f.ID, Name: "B"}}, apperr.Invalid, ""},
		{"foreign folder", []library.FolderInput{{ID: bobFolder.ID, Name: "Mine now", Assignments: []uuid.UUID{a2.ID}}}, apperr.NotFound, ""},
		{"unknown folder", []library.FolderInput{{ID: uuid.New(), Name: "Ghost"}}, apperr.NotFound, ""},
		{"foreign assignment", []library.FolderInput{{Name: "New", Assignments: []uuid.UUID{a2.ID, foreign.ID}}}, apperr.NotFound, ""},
		{"unknown assignment", []library.FolderInput{{ID: f.ID, Name: "Keep", Assignments: []uuid.UUID{uuid.New()}}}, apperr.NotFound, ""},
	}
	for _, tc := range cases {
		_, err := b.svc.UpdateFolders(b.ctx, ada, tc.in)
		requireCode(t, err, tc.code, tc.message)
		require.Equal(t, before, b.lib(t, ada).Folders, tc.name)
		require.Nil(t, b.folderOf(t, ada, a2.ID), tc.name)
	}
	// Bob's folder and assignment are untouched.
	require.Equal(t, []library.Folder{{ID: bobFolder.ID, Name: "Bob's folder", Assignments: []uuid.UUID{}}}, b.lib(t, bob).Folders)
	require.Nil(t, b.folderOf(t, bob, foreign.ID))

	// The same id twice in one folder is harmless.
	got, err := b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "Keep", Assignments: []uuid.UUID{a1.ID, a1.ID}}})
	require.NoError(t, err)
	require.Equal(t, before, got)
}

func TestDeleteAssignmentAndRubric(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	rub := b.rubric(t, ada, "Argument")
	asg := b.assignment(t, ada, "Essay", store.AssignmentTypeRubricFeedback)
	b.function(t, asg, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	b.submission(t, asg)
	other := b.assignment(t, ada, "Other", store.AssignmentTypeRubricFeedback)
	b.function(t, other, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	f, err := b.svc.CreateFolder(b.ctx, ada, "F")
	require.NoError(t, err)
	_, err = b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "F", Assignments: []uuid.UUID{asg.ID}}})
	require.NoError(t, err)

	// Another team's ids are not found and nothing changes.
	requireCode(t, b.svc.DeleteAssignment(b.ctx, bob, asg.ID), apperr.NotFound, "")
	requireCode(t, b.svc.DeleteRubric(b.ctx, bob, rub.ID), apperr.NotFound, "")
	requireCode(t, b.svc.DeleteAssignment(b.ctx, ada, uuid.New()), apperr.NotFound, "")
	require.Len(t, b.lib(t, ada).Assignments, 2)
	folder := "assignments/" + asg.ID.String() + "/"
	deletions := func() int {
		var n int
		require.NoError(t, b.svc.Pool.QueryRow(b.ctx, `SELECT count(*) FROM river_job WHERE kind = 'delete_blobs' AND args->>'prefix' = $1`, folder).Scan(&n))
		return n
	}
	require.Zero(t, deletions(), "refused deletes queue nothing")

	require.NoError(t, b.svc.DeleteAssignment(b.ctx, ada, asg.ID))
	require.Equal(t, 1, deletions(), "the assignment's files are queued for deletion")
	l := b.lib(t, ada)
	require.Len(t, l.Assignments, 1)
	require.Empty(t, l.Folders[0].Assignments)
	_, err = store.Q.GetAssignmentFunction(b.ctx, b.svc.Pool, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: ada.TeamID})
	require.ErrorIs(t, err, pgx.ErrNoRows)
	requireCode(t, b.svc.DeleteAssignment(b.ctx, ada, asg.ID), apperr.NotFound, "")

	// "Other" still grades against the rubric: it stays until Other goes.
	requireCode(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID), apperr.Conflict, "This rubric is used by “Other”. Choose another rubric for it or delete it first.")
	require.Equal(t, uuid.NullUUID{UUID: rub.ID, Valid: true}, b.fn(t, ada, other.ID).RubricID)
	require.NoError(t, b.svc.DeleteAssignment(b.ctx, ada, other.ID))
	require.NoError(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID))
	require.Empty(t, b.lib(t, ada).Rubrics)
	requireCode(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID), apperr.NotFound, "")
}

func TestDuplicateIsAnIndependentCopy(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	rub := b.rubric(t, ada, "Argument")
	src := b.assignment(t, ada, "Essay", store.AssignmentTypeGrade)
	questions := `[{"questionText":"Why?","context":"","rubricId":"` + rub.ID.String() + `","criteria":[{"description":"says why","points":2.5}],"subquestions":[]}]`
	srcFn := b.function(t, src, uuid.NullUUID{}, questions)
	b.submission(t, src)
	f, err := b.svc.CreateFolder(b.ctx, ada, "F")
	require.NoError(t, err)
	_, err = b.svc.UpdateFolders(b.ctx, ada, []library.FolderInput{{ID: f.ID, Name: "F", Assignments: []uuid.UUID{src.ID}}})
	require.NoError(t, err)

	_, err = b.svc.Duplicate(b.ctx, bob, src.ID)
	requireCode(t, err, apperr.NotFound, "")

	cp, err := b.svc.Duplicate(b.ctx, ada, src.ID)
	require.NoError(t, err)
	require.NotEqual(t, src.ID, cp.ID)
	require.Equal(t, "Copy of Essay", cp.Name)
	require.Equal(t, "grade", cp.Type)
	require.True(t, cp.IsHandWritten)
	require.Equal(t, &f.ID, cp.FolderID, "next to the original")
	require.Empty(t, cp.Submissions)
	require.NotNil(t, cp.Submissions)

	cpFn := b.fn(t, ada, cp.ID)
	require.NotEqual(t, srcFn.ID, cpFn.ID)
	require.JSONEq(t, string(srcFn.Questions), string(cpFn.Questions), "same team: the same rubric ids")
	require.JSONEq(t, string(srcFn.Highlights), string(cpFn.Highlights))
	require.Equal(t, srcFn.Context, cpFn.Context)
	require.Equal(t, srcFn.Prompt, cpFn.Prompt)

	// Editing the copy leaves the original alone.
	_, err = b.svc.Pool.Exec(b.ctx, `UPDATE functions SET questions = '[]', prompt = 'changed' WHERE id = $1`, cpFn.ID)
	require.NoError(t, err)
	again := b.fn(t, ada, src.ID)
	require.JSONEq(t, questions, string(again.Questions))
	require.Equal(t, "prompt", again.Prompt)

	for _, x := range b.lib(t, ada).Assignments {
		if x.ID == cp.ID {
			require.Empty(t, x.Submissions)
		}
	}

	// An assignment without a definition yet duplicates without one.
	bare := b.assignment(t, ada, "Bare", store.AssignmentTypePrompt)
	cp2, err := b.svc.Duplicate(b.ctx, ada, bare.ID)
	require.NoError(t, err)
	require.Nil(t, cp2.FolderID)
	_, err = store.Q.GetAssignmentFunction(b.ctx, b.svc.Pool, store.GetAssignmentFunctionParams{AssignmentID: cp2.ID, TeamID: ada.TeamID})
	require.ErrorIs(t, err, pgx.ErrNoRows)
}

func TestDuplicateNameStaysWithinTheLimit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.teacher(t, "Ada")
	src := b.assignment(t, ada, strings.Repeat("n", assignment.MaxNameLength), store.AssignmentTypePrompt)
	cp, err := b.svc.Duplicate(b.ctx, ada, src.ID)
	require.NoError(t, err)
	require.Len(t, []rune(cp.Name), assignment.MaxNameLength)
	require.True(t, strings.HasPrefix(cp.Name, "Copy of nnn"))
}
