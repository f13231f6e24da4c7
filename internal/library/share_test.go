package library_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/store"
)

func TestShareRefusesTeamMatesAndBadEmails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	cy := b.mate(t, ada, "Cy")
	asg := b.assignment(t, ada, "Essay", store.AssignmentTypeGrade)
	rub := b.rubric(t, ada, "Argument")

	_, err := b.svc.ShareRubric(b.ctx, ada, rub.ID, " "+strings.ToUpper(cy.Email)+" ")
	requireCode(t, err, apperr.Invalid, cy.Email+" is in your team already.")
	_, err = b.svc.ShareAssignment(b.ctx, ada, asg.ID, ada.Email)
	requireCode(t, err, apperr.Invalid, ada.Email+" is in your team already.")
	_, err = b.svc.ShareAssignment(b.ctx, ada, asg.ID, "not an email")
	requireCode(t, err, apperr.Invalid, "Please enter a valid email address.")
	_, err = b.svc.ShareAssignment(b.ctx, ada, asg.ID, "")
	requireCode(t, err, apperr.Invalid, "Please enter a valid email address.")

	// Another team's items are not found.
	_, err = b.svc.ShareAssignment(b.ctx, bob, asg.ID, ada.Email)
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.ShareRubric(b.ctx, bob, rub.ID, ada.Email)
	requireCode(t, err, apperr.NotFound, "")

	for _, who := range []identity.Actor{bob, cy, ada} {
		n, err := b.svc.Notifications(b.ctx, who)
		require.NoError(t, err)
		require.Empty(t, n)
	}
}

// pendingShares counts the shares waiting for email.
func (b *bundle) pendingShares(t *testing.T, email string) int {
	t.Helper()
	var n int
	require.NoError(t, b.svc.Pool.QueryRow(b.ctx, "SELECT count(*) FROM notifications WHERE user_id IS NULL AND lower(recipient_email) = lower($1)", email).Scan(&n))
	return n
}

// Sharing never tells whether an address belongs to a teacher: a teacher's
// address, an unknown one and one nobody verified get the same answer, and
// the share waits for whoever signs in with it, verified.
func TestShareAnswersAlikeWhetherOrNotATeacherUsesTheEmail(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	unverified := b.teacher(t, "Una")
	_, err := b.svc.Pool.Exec(b.ctx, "UPDATE users SET email_verified = false WHERE id = $1", unverified.UserID)
	require.NoError(t, err)
	asg := b.assignment(t, ada, "Essay", store.AssignmentTypeGrade)
	rub := b.rubric(t, ada, "Argument")
	nobody := "nobody-" + uuid.NewString()[:8] + "@school.test"

	for _, email := range []string{bob.Email, nobody, unverified.Email} {
		with, err := b.svc.ShareAssignment(b.ctx, ada, asg.ID, " "+strings.ToUpper(email)+" ")
		require.NoError(t, err, email)
		require.Equal(t, email, with)
		with, err = b.svc.ShareRubric(b.ctx, ada, rub.ID, email)
		require.NoError(t, err, email)
		require.Equal(t, email, with)
		// Sharing again while the share is open sends nothing new.
		_, err = b.svc.ShareRubric(b.ctx, ada, rub.ID, email)
		require.NoError(t, err, email)
	}

	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Zero(t, b.pendingShares(t, bob.Email))
	require.Equal(t, 2, b.pendingShares(t, nobody))
	require.Equal(t, 2, b.pendingShares(t, unverified.Email), "an unverified address waits like an unknown one")
	list, err = b.svc.Notifications(b.ctx, unverified)
	require.NoError(t, err)
	require.Empty(t, list)
}

func TestShareAssignmentThenCopy(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	src := b.assignment(t, ada, "Essay", store.AssignmentTypeFeedback)
	srcFn := b.function(t, src, uuid.NullUUID{}, `[]`)
	b.submission(t, src)

	with, err := b.svc.ShareAssignment(b.ctx, ada, src.ID, strings.ToUpper(bob.Email))
	require.NoError(t, err)
	require.Equal(t, bob.Email, with)
	// Sharing again while the first is open sends nothing new.
	_, err = b.svc.ShareAssignment(b.ctx, ada, src.ID, bob.Email)
	require.NoError(t, err)

	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 1)
	n := list[0]
	require.Equal(t, "shared-assignment", n.Kind)
	require.Equal(t, "open", n.Status)
	require.Equal(t, library.Person{Name: "Ada", Email: ada.Email}, n.Sender)
	require.Equal(t, library.Item{ID: src.ID, Name: "Essay", Type: "feedback"}, n.Item)

	// Another user cannot use Bob's notification; the wrong kind is refused.
	_, err = b.svc.CopySharedAssignment(b.ctx, ada, n.ID)
	requireCode(t, err, apperr.NotFound, "")
	_, err = b.svc.CopySharedRubric(b.ctx, bob, n.ID)
	requireCode(t, err, apperr.Invalid, "This notification is not a shared rubric.")
	requireCode(t, b.svc.Dismiss(b.ctx, ada, n.ID), apperr.NotFound, "")

	cp, err := b.svc.CopySharedAssignment(b.ctx, bob, n.ID)
	require.NoError(t, err)
	require.NotEqual(t, src.ID, cp.ID)
	require.Equal(t, "Essay", cp.Name)
	require.Equal(t, "feedback", cp.Type)
	require.True(t, cp.IsHandWritten)
	require.Nil(t, cp.FolderID)
	require.Empty(t, cp.Submissions)

	l := b.lib(t, bob)
	require.Len(t, l.Assignments, 1)
	require.Equal(t, cp.ID, l.Assignments[0].ID)
	cpFn := b.fn(t, bob, cp.ID)
	require.NotEqual(t, srcFn.ID, cpFn.ID)
	require.Equal(t, bob.TeamID, cpFn.TeamID)
	require.JSONEq(t, string(srcFn.Highlights), string(cpFn.Highlights))
	require.Equal(t, "context", cpFn.Context)

	// The copy is independent: deleting the source keeps it.
	require.NoError(t, b.svc.DeleteAssignment(b.ctx, ada, src.ID))
	require.Len(t, b.lib(t, bob).Assignments, 1)
	require.Equal(t, "context", b.fn(t, bob, cp.ID).Context)

	list, err = b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Empty(t, list, "the source is gone, and so is its notification")
}

func TestNotificationClosesOnceCopied(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	src := b.assignment(t, ada, "Essay", store.AssignmentTypePrompt)
	b.function(t, src, uuid.NullUUID{}, `[]`)
	rub := b.rubric(t, ada, "Argument")
	_, err := b.svc.ShareAssignment(b.ctx, ada, src.ID, bob.Email)
	require.NoError(t, err)
	_, err = b.svc.ShareRubric(b.ctx, ada, rub.ID, bob.Email)
	require.NoError(t, err)
	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "shared-rubric", list[0].Kind, "newest first")
	require.Equal(t, library.Item{ID: rub.ID, Name: "Argument"}, list[0].Item)
	asgN := list[1]

	_, err = b.svc.CopySharedAssignment(b.ctx, bob, asgN.ID)
	require.NoError(t, err)
	_, err = b.svc.CopySharedAssignment(b.ctx, bob, asgN.ID)
	requireCode(t, err, apperr.Invalid, "This item has already been copied.")
	require.Len(t, b.lib(t, bob).Assignments, 1, "the refused second copy made nothing")

	list, err = b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Equal(t, []string{"open", "closed"}, []string{list[0].Status, list[1].Status}, "open first")
	require.Equal(t, asgN.ID, list[1].ID)

	// Dismissing closes without copying.
	require.NoError(t, b.svc.Dismiss(b.ctx, bob, list[0].ID))
	_, err = b.svc.CopySharedRubric(b.ctx, bob, list[0].ID)
	requireCode(t, err, apperr.Invalid, "This item has already been copied.")
	require.Empty(t, b.lib(t, bob).Rubrics)
	requireCode(t, b.svc.Dismiss(b.ctx, bob, uuid.New()), apperr.NotFound, "")

	// A closed share can be shared again.
	_, err = b.svc.ShareRubric(b.ctx, ada, rub.ID, bob.Email)
	require.NoError(t, err)
	list, err = b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 3)
	require.Equal(t, "open", list[0].Status)
}

func TestCopySharedRubric(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	rub := b.rubric(t, ada, "Argument")
	_, err := b.svc.ShareRubric(b.ctx, ada, rub.ID, bob.Email)
	require.NoError(t, err)
	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 1)

	_, err = b.svc.CopySharedAssignment(b.ctx, bob, list[0].ID)
	requireCode(t, err, apperr.Invalid, "This notification is not a shared assignment.")

	cp, err := b.svc.CopySharedRubric(b.ctx, bob, list[0].ID)
	require.NoError(t, err)
	require.NotEqual(t, rub.ID, cp.ID)
	require.Equal(t, "Argument", cp.Name)
	require.JSONEq(t, string(rub.Criteria), jsonOf(t, cp.Criteria))
	l := b.lib(t, bob)
	require.Len(t, l.Rubrics, 1)
	require.Equal(t, cp.ID, l.Rubrics[0].ID)

	// Independent: changing the source leaves the copy alone.
	_, err = b.svc.Pool.Exec(b.ctx, `UPDATE rubrics SET criteria = '[]', name = 'changed' WHERE id = $1`, rub.ID)
	require.NoError(t, err)
	l = b.lib(t, bob)
	require.Equal(t, "Argument", l.Rubrics[0].Name)
	require.JSONEq(t, string(rub.Criteria), jsonOf(t, l.Rubrics[0].Criteria))
}

func TestCopyRubricFeedbackBringsItsRubric(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	rub := b.rubric(t, ada, "Argument")
	src := b.assignment(t, ada, "Essay", store.AssignmentTypeRubricFeedback)
	b.function(t, src, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	_, err := b.svc.ShareAssignment(b.ctx, ada, src.ID, bob.Email)
	require.NoError(t, err)
	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)

	cp, err := b.svc.CopySharedAssignment(b.ctx, bob, list[0].ID)
	require.NoError(t, err)
	l := b.lib(t, bob)
	require.Len(t, l.Rubrics, 1)
	copied := l.Rubrics[0]
	require.NotEqual(t, rub.ID, copied.ID)
	require.Equal(t, "Argument", copied.Name)
	fn := b.fn(t, bob, cp.ID)
	require.Equal(t, uuid.NullUUID{UUID: copied.ID, Valid: true}, fn.RubricID)

	// Deleting Ada's rubric (once her assignment is gone) leaves Bob's
	// assignment with its own.
	require.NoError(t, b.svc.DeleteAssignment(b.ctx, ada, src.ID))
	require.NoError(t, b.svc.DeleteRubric(b.ctx, ada, rub.ID))
	require.Equal(t, uuid.NullUUID{UUID: copied.ID, Valid: true}, b.fn(t, bob, cp.ID).RubricID)
}

func TestCopyGradeRewritesQuestionRubrics(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	r1 := b.rubric(t, ada, "One")
	r2 := b.rubric(t, ada, "Two")
	foreign := b.rubric(t, bob, "Bob's own")
	gone := uuid.New()
	src := b.assignment(t, ada, "Test", store.AssignmentTypeGrade)
	q := func(text, rubricID, sub string) string {
		id := "null"
		if rubricID != "" {
			id = `"` + rubricID + `"`
		}
		return `{"questionText":"` + text + `","context":"c","rubricId":` + id + `,"criteria":[{"description":"d","points":1.5}],"subquestions":[` + sub + `]}`
	}
	questions := "[" + q("Q1", r1.ID.String(), q("Q1a", r2.ID.String(), q("Q1ai", r1.ID.String(), ""))) + "," +
		q("Q2", gone.String(), "") + "," + q("Q3", foreign.ID.String(), "") + "," + q("Q4", "", "") + "]"
	b.function(t, src, uuid.NullUUID{}, questions)
	_, err := b.svc.ShareAssignment(b.ctx, ada, src.ID, bob.Email)
	require.NoError(t, err)
	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)

	cp, err := b.svc.CopySharedAssignment(b.ctx, bob, list[0].ID)
	require.NoError(t, err)
	l := b.lib(t, bob)
	byName := map[string]uuid.UUID{}
	for _, r := range l.Rubrics {
		byName[r.Name] = r.ID
	}
	require.Len(t, l.Rubrics, 3, "One and Two copied once each, beside Bob's own")
	require.NotEqual(t, r1.ID, byName["One"])
	require.NotEqual(t, r2.ID, byName["Two"])

	var got []struct {
		QuestionText string          `json:"questionText"`
		RubricID     *string         `json:"rubricId"`
		Criteria     json.RawMessage `json:"criteria"`
		Subquestions []struct {
			RubricID     *string `json:"rubricId"`
			Subquestions []struct {
				RubricID *string `json:"rubricId"`
			} `json:"subquestions"`
		} `json:"subquestions"`
	}
	require.NoError(t, json.Unmarshal(b.fn(t, bob, cp.ID).Questions, &got))
	require.Len(t, got, 4)
	require.Equal(t, byName["One"].String(), *got[0].RubricID)
	require.Equal(t, byName["Two"].String(), *got[0].Subquestions[0].RubricID)
	require.Equal(t, byName["One"].String(), *got[0].Subquestions[0].Subquestions[0].RubricID)
	require.Nil(t, got[1].RubricID, "a rubric that no longer exists is cleared")
	require.Nil(t, got[2].RubricID, "a rubric of another team than the source's is cleared")
	require.Nil(t, got[3].RubricID)
	require.JSONEq(t, `[{"description":"d","points":1.5}]`, string(got[0].Criteria))
}

// A share sent before its recipient joined the sender's team copies into a
// library that holds the original already: the copies are "Copy of …", and
// the assignment grades against the team's own rubric instead of a twin.
func TestCopySharedIntoTheSameTeamNamesItACopy(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.teacher(t, "Ada"), b.teacher(t, "Bob")
	rub := b.rubric(t, ada, "Argument")
	src := b.assignment(t, ada, "Essay", store.AssignmentTypeRubricFeedback)
	b.function(t, src, uuid.NullUUID{UUID: rub.ID, Valid: true}, `[]`)
	_, err := b.svc.ShareAssignment(b.ctx, ada, src.ID, bob.Email)
	require.NoError(t, err)
	_, err = b.svc.ShareRubric(b.ctx, ada, rub.ID, bob.Email)
	require.NoError(t, err)

	// Bob joins Ada's team.
	_, err = b.svc.Pool.Exec(b.ctx, `UPDATE users SET team_id = $1 WHERE id = $2`, ada.TeamID, bob.UserID)
	require.NoError(t, err)
	bob.TeamID = ada.TeamID
	list, err := b.svc.Notifications(b.ctx, bob)
	require.NoError(t, err)
	require.Len(t, list, 2)
	byKind := map[string]uuid.UUID{}
	for _, n := range list {
		byKind[string(n.Kind)] = n.ID
	}

	cp, err := b.svc.CopySharedAssignment(b.ctx, bob, byKind[string(store.NotificationKindSharedAssignment)])
	require.NoError(t, err)
	require.Equal(t, "Copy of Essay", cp.Name)
	require.Equal(t, uuid.NullUUID{UUID: rub.ID, Valid: true}, b.fn(t, bob, cp.ID).RubricID)
	rcp, err := b.svc.CopySharedRubric(b.ctx, bob, byKind[string(store.NotificationKindSharedRubric)])
	require.NoError(t, err)
	require.Equal(t, "Copy of Argument", rcp.Name)

	l := b.lib(t, ada)
	names := []string{}
	for _, r := range l.Rubrics {
		names = append(names, r.Name)
	}
	require.ElementsMatch(t, []string{"Argument", "Copy of Argument"}, names)
}
