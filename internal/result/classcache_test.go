package result_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/submission"
)

// A class kept in memory answers every poll as the database does: after a
// tick, a comment, a pupil added, one deleted, a result deleted and the
// definition edited, a poll from each version the teacher's pages held
// gets the same 304, delta or whole class, row for row, as a read of the
// database; and another team's teacher still finds nothing.
func TestKeptClassAnswersAsTheDatabaseDoes(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	subs := b.submit(t, ada, asgID, photosynthesisText, "Plants are green and grow.", "Leaves make food from light.")
	graded := b.gradeNow(t, ada, asgID, subs...)
	db := &result.Service{Pool: b.pool, Assignments: b.asgs, NoClassCache: true}

	var versions []string
	check := func(what string) {
		t.Helper()
		polls := []result.Poll{{}}
		for _, v := range versions {
			polls = append(polls, result.Poll{IfNoneMatch: `"` + v + `"`, Since: v})
		}
		served := result.ClassesServed(b.svc)
		for i, p := range polls {
			kept, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, p)
			require.NoError(t, err)
			read, err := db.ReadClass(b.ctx, ada, b.subs, asgID, p)
			require.NoError(t, err)
			require.Equal(t, read.NotModified, kept.NotModified, "%s: 304 from version %d", what, i)
			require.Equal(t, read.Delta, kept.Delta, "%s: delta from version %d", what, i)
			require.Equal(t, answerOf(t, read), answerOf(t, kept), "%s: the answer to version %d", what, i)
			if i == 0 {
				versions = append(versions, kept.Version.String())
			}
		}
		require.Equal(t, served+int64(len(polls)), result.ClassesServed(b.svc), "%s: every read answered from memory", what)
	}
	check("graded")
	check("nothing changed")

	// a tick and a comment
	tree := answers(t, graded[0].Answers)
	_, err := b.svc.ToggleCriterion(b.ctx, ada, result.Toggle{ResultID: graded[0].ID, Path: []int{0}, CriterionIndex: len(tree[0].Grade.Criteria) - 1})
	require.NoError(t, err)
	check("a tick")
	fields := b.get(t, ada, asgID, subs[1]).ResultFields
	fields.OverallComments = "Lovely <b>diagrams</b>."
	_, err = b.svc.Update(b.ctx, ada, result.Edit{ResultID: graded[1].ID, ResultFields: fields})
	require.NoError(t, err)
	check("a comment")

	// a pupil added, then graded; another deleted; a result deleted
	late := b.submit(t, ada, asgID, "Photosynthesis needs light and chlorophyll.")
	check("a pupil added")
	b.gradeNow(t, ada, asgID, late...)
	check("the pupil graded")
	_, err = b.subs.Delete(b.ctx, ada, submission.DeleteInput{AssignmentID: asgID, SubmissionIDs: []uuid.UUID{subs[2]}})
	require.NoError(t, err)
	check("a pupil deleted")
	_, err = b.pool.Exec(b.ctx, `DELETE FROM function_results WHERE id = $1`, graded[0].ID)
	require.NoError(t, err)
	check("a result deleted")

	// the definition's points change: every version gets the whole class
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[0].Criteria[0].Points += 5
		return qs
	})
	check("the definition edited")
	_, err = b.pool.Exec(b.ctx, `UPDATE functions SET questions = questions WHERE assignment_id = $1`, asgID)
	require.NoError(t, err)
	check("the definition written alone")
	_, err = b.pool.Exec(b.ctx, `UPDATE assignments SET name = 'Renamed' WHERE id = $1`, asgID)
	require.NoError(t, err)
	check("the assignment renamed")

	// another team's teacher, with or without a version
	eve := b.teacher(t)
	for _, p := range []result.Poll{{}, {IfNoneMatch: `"` + versions[len(versions)-1] + `"`, Since: versions[len(versions)-1]}} {
		_, err = b.svc.ReadClass(b.ctx, eve, b.subs, asgID, p)
		requireCode(t, err, apperr.NotFound, "")
	}
}

// answerOf is a class read as the client gets it, without its version
// (each read stands at its own).
func answerOf(t *testing.T, r result.ClassRead) map[string]any {
	t.Helper()
	if r.NotModified {
		return nil
	}
	raw, err := r.EncodeJSON()
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	delete(m, "version")
	return m
}

// An edit of the library rubric a rubric-feedback assignment embeds (which
// stamps no row of the assignment) reaches a kept class as it reaches the
// database's answer: the whole class, with the rubric as it is now.
func TestKeptClassFollowsItsLibraryRubric(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeRubricFeedback, false)
	b.gradeNow(t, ada, asgID, b.submit(t, ada, asgID, "An essay about the sea, with a clear thesis.")...)
	db := &result.Service{Pool: b.pool, Assignments: b.asgs, NoClassCache: true}
	first, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	v := first.Version.String()
	poll := result.Poll{IfNoneMatch: `"` + v + `"`, Since: v}
	again, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, poll)
	require.NoError(t, err)
	require.True(t, again.NotModified)

	fn, err := b.asgs.GetFunction(b.ctx, ada, asgID, "")
	require.NoError(t, err)
	in := essayRubric()
	in.Name = "Essay rubric, revised"
	_, err = b.rubrics.Update(b.ctx, ada, *fn.RubricID, in)
	require.NoError(t, err)
	kept, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, poll)
	require.NoError(t, err)
	read, err := db.ReadClass(b.ctx, ada, b.subs, asgID, poll)
	require.NoError(t, err)
	require.False(t, kept.NotModified || kept.Delta, "the whole class after a rubric edit")
	require.Equal(t, answerOf(t, read), answerOf(t, kept))
}

// Teachers polling a kept class while it is written lose nothing: each
// page, holding its version and merging each delta as the UI does, ends
// with every result as the database has it.
func TestKeptClassPolledWhileWrittenLosesNothing(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	graded := b.gradeNow(t, ada, asgID, b.submit(t, ada, asgID, photosynthesisText, "Plants are green.", "Leaves make food.", "Roots take water.")...)
	db := &result.Service{Pool: b.pool, Assignments: b.asgs, NoClassCache: true}

	done := make(chan struct{})
	var wg sync.WaitGroup
	pages := make([]map[string]string, 6)
	for i := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			page, version := map[string]string{}, ""
			poll := func() {
				p := result.Poll{}
				if version != "" {
					p = result.Poll{IfNoneMatch: `"` + version + `"`, Since: version}
				}
				r, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, p)
				if !assert(t, err) || r.NotModified {
					return
				}
				if !r.Delta {
					clear(page)
				}
				for _, id := range r.DeletedResultIDs {
					delete(page, id.String())
				}
				for _, raw := range r.Results {
					page[resultID(t, raw).String()] = string(raw)
				}
				version = r.Version.String()
			}
			for {
				select {
				case <-done:
					poll()
					pages[i] = page
					return
				default:
					poll()
				}
			}
		}()
	}
	for n := range 40 {
		_, err := b.pool.Exec(b.ctx, `UPDATE function_results SET overall_comments = $2 WHERE id = $1`,
			graded[n%len(graded)].ID, fmt.Sprintf("Comment %d", n))
		require.NoError(t, err)
	}
	_, err := b.pool.Exec(b.ctx, `DELETE FROM function_results WHERE id = $1`, graded[3].ID)
	require.NoError(t, err)
	close(done)
	wg.Wait()

	whole, err := db.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	want := map[string]string{}
	for _, raw := range whole.Results {
		want[resultID(t, raw).String()] = string(raw)
	}
	require.Len(t, want, 3)
	for i, page := range pages {
		require.Equal(t, want, page, "page %d", i)
	}
}

// assert reports err from a goroutine other than the test's.
func assert(t *testing.T, err error) bool {
	if err != nil {
		t.Error(err)
		return false
	}
	return true
}

// A teacher's read of one result from a kept class is the database's: the
// same result, and a 304 exactly when neither the result, its submission,
// the assignment nor its definition changed since her version.
func TestKeptClassAnswersAResultAsTheDatabaseDoes(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	subs := b.submit(t, ada, asgID, photosynthesisText, "Plants are green.")
	graded := b.gradeNow(t, ada, asgID, subs...)
	_, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{}) // the page keeps the class
	require.NoError(t, err)

	read := func(version string) result.ResultRead {
		t.Helper()
		r, ok, err := b.svc.ReadResult(b.ctx, ada, subs[0], asgID, version)
		require.NoError(t, err)
		require.True(t, ok, "answered from the kept class")
		if !r.NotModified {
			want, err := json.Marshal(b.get(t, ada, asgID, subs[0]))
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(r.Result), "the database's result")
			body, err := r.AppendJSON(nil)
			require.NoError(t, err)
			whole, err := json.Marshal(map[string]any{"functionResult": r.Result, "version": r.Version.String()})
			require.NoError(t, err)
			require.Equal(t, string(whole), string(body), "the answer encoding/json would make")
		}
		return r
	}
	first := read("")
	require.False(t, first.NotModified)
	v := first.Version.ETag()
	require.True(t, read(v).NotModified, "nothing changed")

	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET overall_comments = 'x' WHERE id = $1`, graded[1].ID)
	require.NoError(t, err)
	require.True(t, read(v).NotModified, "another pupil's result changed")

	for _, write := range []string{
		`UPDATE function_results SET overall_comments = 'Good.' WHERE submission_id = $1`,
		`UPDATE submissions SET student_name = 'Ada' WHERE id = $1`,
		`UPDATE assignments SET name = 'Renamed' WHERE id = (SELECT assignment_id FROM submissions WHERE id = $1)`,
		`UPDATE functions SET questions = questions WHERE assignment_id = (SELECT assignment_id FROM submissions WHERE id = $1)`,
	} {
		_, err = b.pool.Exec(b.ctx, write, subs[0])
		require.NoError(t, err)
		r := read(v)
		require.False(t, r.NotModified, write)
		v = r.Version.ETag()
		require.True(t, read(v).NotModified, "after %s, nothing more", write)
	}

	// another team's teacher is not answered from ada's class
	_, ok, err := b.svc.ReadResult(b.ctx, b.teacher(t), subs[0], asgID, "")
	require.NoError(t, err)
	require.False(t, ok)
}

// A teacher's tick or comment computed from a kept class never overwrites
// what was written since the class was read (by another API process, say):
// it is written from the kept row only while that row and its definition
// are unchanged, the locking way otherwise.
// gradedForEdits is a graded result of a one-pupil grade class, and a
// second service on the same database that keeps no class (another API
// process, or simply the database's answer).
func gradedForEdits(t *testing.T) (b *bundle, ada identity.Actor, asgID, sub uuid.UUID, fr result.FunctionResult, other *result.Service) {
	t.Helper()
	b = setup(t, false, fakellm.Options{})
	ada = b.teacher(t)
	asgID = b.define(t, ada, assignment.TypeGrade, false)
	sub = b.submit(t, ada, asgID, photosynthesisText)[0]
	fr = b.gradeNow(t, ada, asgID, sub)[0]
	return b, ada, asgID, sub, fr, &result.Service{Pool: b.pool, Assignments: b.asgs, NoClassCache: true}
}

func TestKeptEditsNeverOverwriteANewerWrite(t *testing.T) {
	b, ada, asgID, sub, fr, other := gradedForEdits(t) // other: another API process
	keep := func() {
		_, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
		require.NoError(t, err)
	}
	tick := func(svc *result.Service, q, c int) float64 {
		t.Helper()
		change, err := svc.ToggleCriterion(b.ctx, ada, result.Toggle{ResultID: fr.ID, Path: []int{q}, CriterionIndex: c})
		require.NoError(t, err)
		return change
	}
	now := func() float64 {
		t.Helper()
		got, _ := total(t, b.get(t, ada, asgID, sub))
		return got
	}
	require.Equal(t, 6.0, now())

	keep()
	kept := result.KeptEdits(b.svc)
	require.Equal(t, 2.0, tick(b.svc, 1, 0))
	require.Equal(t, kept+1, result.KeptEdits(b.svc), "written from the kept class")
	require.Equal(t, 8.0, now())

	// another process ticks; this one, not caught up, ticks another criterion
	require.Equal(t, 1.0, tick(other, 1, 1))
	require.Equal(t, -2.0, tick(b.svc, 0, 0))
	require.Equal(t, 7.0, now(), "both ticks stand")
	require.Equal(t, kept+1, result.KeptEdits(b.svc), "the stale row was not written from")

	// a comment on a row another process has ticked since
	keep()
	require.Equal(t, -1.0, tick(other, 1, 1))
	_, err := b.svc.Update(b.ctx, ada, result.Edit{ResultID: fr.ID, SubmissionID: sub, ResultFields: assignment.ResultFields{OverallComments: "Well done"}})
	require.NoError(t, err)
	got := b.get(t, ada, asgID, sub)
	require.Equal(t, "Well done", got.OverallComments)
	require.Equal(t, 6.0, now(), "the other process's tick stands")
	require.Equal(t, kept+1, result.KeptEdits(b.svc))

	keep()
	_, err = b.svc.Update(b.ctx, ada, result.Edit{ResultID: fr.ID, SubmissionID: sub, ResultFields: assignment.ResultFields{OverallComments: "Again"}})
	require.NoError(t, err)
	require.Equal(t, kept+2, result.KeptEdits(b.svc), "a current row is written from the kept class")
	require.Equal(t, "Again", b.get(t, ada, asgID, sub).OverallComments)
	require.Equal(t, 6.0, now())

	// the definition's points change; a tick counts the new points
	b.edit(t, ada, asgID, func(qs []assignment.Question) []assignment.Question {
		qs[1].Criteria[0].Points = 7
		return qs
	})
	require.Equal(t, -7.0, tick(b.svc, 1, 0), "the points the assignment stores now")
	require.Equal(t, kept+2, result.KeptEdits(b.svc))

	// another team's teacher edits nothing, kept or not
	_, err = b.svc.ToggleCriterion(b.ctx, b.teacher(t), result.Toggle{ResultID: fr.ID, Path: []int{1}, CriterionIndex: 0})
	requireCode(t, err, apperr.NotFound, "")
}

// Edits in a row on a kept class, with no read between them, are each
// written from what the one before wrote (a teacher ticking down a
// result), and the class then answers what the database holds.
func TestKeptEditsFollowEachOther(t *testing.T) {
	b, ada, asgID, sub, fr, other := gradedForEdits(t) // other reads the database
	_, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	kept := result.KeptEdits(b.svc)

	tick := func(q, c int) {
		t.Helper()
		_, err := b.svc.ToggleCriterion(b.ctx, ada, result.Toggle{ResultID: fr.ID, Path: []int{q}, CriterionIndex: c})
		require.NoError(t, err)
	}
	tick(1, 0)
	tick(0, 0)
	tick(1, 1)
	_, err = b.svc.Update(b.ctx, ada, result.Edit{ResultID: fr.ID, SubmissionID: sub, ResultFields: assignment.ResultFields{OverallComments: "Well done"}})
	require.NoError(t, err)
	tick(1, 0)
	require.Equal(t, kept+5, result.KeptEdits(b.svc), "each written from the one before")

	want, err := other.Get(b.ctx, ada, sub, asgID)
	require.NoError(t, err)
	got, _ := total(t, want)
	require.Equal(t, 6.0+0-2+1, got, "every tick counted once")
	require.Equal(t, "Well done", want.OverallComments)
	fromDB, err := other.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	fromMemory, err := b.svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	require.Len(t, fromMemory.Results, 1)
	require.JSONEq(t, string(fromDB.Results[0]), string(fromMemory.Results[0]), "the kept class holds what was written")
}

// A class larger than an eighth of the memory classes may take is not kept:
// it is read from the database, whole and right.
func TestAClassTooLargeIsNotKept(t *testing.T) {
	b := setup(t, false, fakellm.Options{})
	ada := b.teacher(t)
	asgID := b.define(t, ada, assignment.TypeGrade, false)
	b.gradeNow(t, ada, asgID, b.submit(t, ada, asgID, photosynthesisText, "Plants are green.")...)
	svc := &result.Service{Pool: b.pool, Assignments: b.asgs}
	result.SetClassCacheBytes(svc, 8*1024) // an eighth: 1 KB, less than two results
	r, err := svc.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	require.Len(t, r.Results, 2)
	require.Zero(t, result.ClassesServed(svc), "read from the database")
	kept := &result.Service{Pool: b.pool, Assignments: b.asgs}
	_, err = kept.ReadClass(b.ctx, ada, b.subs, asgID, result.Poll{})
	require.NoError(t, err)
	require.Equal(t, int64(1), result.ClassesServed(kept), "a class within the bound is kept")
}
