package classroom_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/classroom/classroomtest"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

// class is a Biology lab report imported from the fake Classroom: Ada (s1),
// Ben (s2) and Eve (s5), one Markwell submission each, graded.
type class struct {
	a     identity.Actor
	asgID uuid.UUID
	ids   map[string]uuid.UUID // by student name
}

func fast(c *classroom.Config) { c.RetryBase = time.Millisecond }

// importClass connects a teacher and imports the lab report of Ada, Ben
// and Eve, whose results are then marked graded.
func (b *bundle) importClass(t *testing.T) class {
	t.Helper()
	b.fake.Students["c1"] = append(b.fake.Students["c1"], map[string]any{"userId": "u5",
		"profile": map[string]any{"name": map[string]any{"fullName": "Eve Ng"}, "emailAddress": "eve@students.test"}})
	b.fake.Submissions["c1/w1"] = append(b.fake.Submissions["c1/w1"], map[string]any{"id": "s5", "userId": "u5", "state": "TURNED_IN",
		"assignmentSubmission": map[string]any{"attachments": []any{map[string]any{"driveFile": map[string]any{"id": "d-eve", "title": "eve.pdf"}}}}})
	b.fake.Files["d-eve"] = &classroomtest.File{Name: "eve.pdf", MimeType: "application/pdf", Content: []byte("%PDF-1.4 Eve")}
	a := b.teacher(t)
	b.connect(t, a)
	asg := b.assignment(t, a, false)
	res, err := b.svc.Import(b.ctx, a, classroom.ImportRequest{AssignmentID: asg.ID, ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1", "s2", "s5"}})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(res.Submissions), 3)
	ids := map[string]uuid.UUID{}
	for _, s := range res.Submissions {
		ids[s.StudentName] = s.ID
	}
	_, err = b.pool.Exec(b.ctx, `UPDATE function_results SET status = 'graded' WHERE assignment_id = $1`, asg.ID)
	require.NoError(t, err)
	return class{a: a, asgID: asg.ID, ids: ids}
}

func pts(v float64) *float64 { return &v }

// totals: Ada 15 of 20, Ben 10 of 20, Eve 0 of 20 (a zero must be sent too).
func (c class) totals() map[uuid.UUID]classroom.Total {
	return map[uuid.UUID]classroom.Total{
		c.ids["Ada Lovelace"]: {Points: pts(15), Max: pts(20)},
		c.ids["Ben Okafor"]:   {Points: pts(10), Max: pts(20)},
		c.ids["Eve Ng"]:       {Points: pts(0), Max: pts(20)},
	}
}

// run starts a passback and works it through as the job does.
func (b *bundle) run(t *testing.T, c class, req classroom.PassbackRequest) classroom.Passback {
	t.Helper()
	req.AssignmentID = c.asgID
	p, err := b.svc.StartPassback(b.ctx, c.a, req, c.totals())
	require.NoError(t, err)
	require.Equal(t, classroom.PassbackQueued, p.Status)
	require.NoError(t, b.svc.RunPassback(b.ctx, c.a.TeamID, p.ID, false))
	got, err := b.svc.GetPassback(b.ctx, c.a, c.asgID)
	require.NoError(t, err)
	require.NotNil(t, got)
	require.Equal(t, classroom.PassbackDone, got.Status)
	return *got
}

func byName(p classroom.Passback) map[string]classroom.PassbackStudent {
	out := map[string]classroom.PassbackStudent{}
	for _, s := range p.Students {
		out[s.StudentName] = s
	}
	return out
}

func TestPassbackSendsScaledGradesThroughRiver(t *testing.T) {
	t.Parallel()
	// Its own database: the worker takes any job of the queue.
	b := setupOn(t, testdb.Isolated(t), fast)
	c := b.importClass(t)
	client, err := jobs.NewWorkerClient(b.pool, jobs.NewWorkers(jobs.Deps{Pool: b.pool, Classroom: b.svc, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}),
		jobs.WorkerOptions{Queues: map[string]int{queue.QueueDefault: 1}, JobTimeout: time.Minute, RescueAfter: time.Hour, FetchPollInterval: 100 * time.Millisecond},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})

	p, err := b.svc.StartPassback(b.ctx, c.a, classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeAssigned}, c.totals())
	require.NoError(t, err)
	require.Equal(t, 3, p.Total)
	_, err = b.svc.StartPassback(b.ctx, c.a, classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeAssigned}, c.totals())
	if err != nil { // unless the worker already finished the first
		requireCode(t, err, apperr.Conflict, classroom.MsgPassbackRunning)
	}
	var got *classroom.Passback
	require.Eventually(t, func() bool {
		got, err = b.svc.GetPassback(b.ctx, c.a, c.asgID)
		return err == nil && got != nil && got.Status == classroom.PassbackDone && got.ID == p.ID
	}, 30*time.Second, 50*time.Millisecond)
	require.Equal(t, 3, got.Done)
	// 15/20 on a 50-point coursework is 37.5; draft and assigned both set.
	require.Equal(t, classroomtest.Grade{Draft: pts(37.5), Assigned: pts(37.5), Mask: "draftGrade,assignedGrade"}, b.fake.GradeOf("s1"))
	require.Equal(t, classroomtest.Grade{Draft: pts(25), Assigned: pts(25), Mask: "draftGrade,assignedGrade"}, b.fake.GradeOf("s2"))
	require.Equal(t, classroomtest.Grade{Draft: pts(0), Assigned: pts(0), Mask: "draftGrade,assignedGrade"}, b.fake.GradeOf("s5"), "a zero is sent, not left out")
	for _, s := range got.Students {
		require.Equal(t, classroom.StateSent, s.State, s.StudentName)
		require.Empty(t, s.Error)
		require.NotNil(t, s.At)
	}
	require.Equal(t, 37.5, *byName(*got)["Ada Lovelace"].Grade)
	require.False(t, b.fake.Returned("s1"), "returned only when asked")
	require.Zero(t, b.fake.Calls("POST /v1/courses/c1/courseWork/w1/studentSubmissions/s1:return"))
}

func TestPassbackDraftAndReturn(t *testing.T) {
	t.Parallel()
	b := setup(t, fast)
	c := b.importClass(t)
	got := b.run(t, c, classroom.PassbackRequest{Grade: classroom.GradeDraft, ReturnToStudents: true,
		SubmissionIDs: []uuid.UUID{c.ids["Ada Lovelace"]}})
	require.Len(t, got.Students, 1, "only the selected row")
	require.Equal(t, classroom.StateReturned, got.Students[0].State)
	require.Equal(t, classroomtest.Grade{Draft: pts(37.5), Mask: "draftGrade"}, b.fake.GradeOf("s1"))
	require.True(t, b.fake.Returned("s1"))
	require.False(t, b.fake.Returned("s2"))
	require.Equal(t, classroomtest.Grade{}, b.fake.GradeOf("s2"))
}

func TestPassbackFailuresPerStudent(t *testing.T) {
	t.Parallel()

	t.Run("a student who left the course; Google busy for a moment", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		c := b.importClass(t)
		b.fake.LeaveCourse("s2")
		b.fake.FailTimes("/v1/courses/c1/courseWork/w1/studentSubmissions/s5", 2) // retried
		_, err := b.pool.Exec(b.ctx, `UPDATE function_results SET status = 'grading' WHERE submission_id = $1`, c.ids["Ada Lovelace"])
		require.NoError(t, err)
		got := byName(b.run(t, c, classroom.PassbackRequest{Grade: classroom.GradeAssigned, ReturnToStudents: true}))
		require.Equal(t, classroom.StateFailed, got["Ben Okafor"].State)
		require.Equal(t, classroom.MsgStudentLeft, got["Ben Okafor"].Error)
		require.Nil(t, got["Ben Okafor"].Grade)
		require.Equal(t, classroom.StateReturned, got["Eve Ng"].State, "the others are sent")
		require.Equal(t, classroom.StateFailed, got["Ada Lovelace"].State)
		require.Equal(t, classroom.MsgNotFinished, got["Ada Lovelace"].Error, "only finished results are sent")
		require.Equal(t, classroomtest.Grade{}, b.fake.GradeOf("s1"))
	})

	t.Run("coursework created in Classroom itself", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		c := b.importClass(t)
		b.fake.CreatedElsewhere("c1", "w1")
		got := b.run(t, c, classroom.PassbackRequest{Grade: classroom.GradeDraft})
		for _, s := range got.Students {
			require.Equal(t, classroom.StateFailed, s.State)
			require.Equal(t, classroom.MsgNotOurCoursework, s.Error)
		}
		require.Equal(t, 1, b.fake.Calls("PATCH /v1/courses/c1/courseWork/w1/studentSubmissions/"), "asked once for the coursework")
	})

	t.Run("Google says the token lacks the scope", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		c := b.importClass(t)
		b.fake.DenyGradeScope()
		for _, s := range b.run(t, c, classroom.PassbackRequest{Grade: classroom.GradeDraft}).Students {
			require.Equal(t, classroom.MsgReconnectForGrades, s.Error)
		}
	})

	t.Run("an ungraded Classroom assignment", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		c := b.importClass(t)
		delete(b.fake.Coursework["c1"][0], "maxPoints")
		for _, s := range b.run(t, c, classroom.PassbackRequest{Grade: classroom.GradeAssigned}).Students {
			require.Equal(t, classroom.StateFailed, s.State)
			require.Equal(t, classroom.MsgUngraded, s.Error)
		}
		require.Zero(t, b.fake.Calls("PATCH"))
	})

	t.Run("a student whose work came as several files", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		b.fake.Files["d-vid"].MimeType = "application/pdf" // Ben's second file is now readable
		c := b.importClass(t)
		p, err := b.svc.StartPassback(b.ctx, c.a, classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeDraft}, c.totals())
		require.NoError(t, err)
		require.NoError(t, b.svc.RunPassback(b.ctx, c.a.TeamID, p.ID, false))
		got, err := b.svc.GetPassback(b.ctx, c.a, c.asgID)
		require.NoError(t, err)
		require.Len(t, got.Students, 4)
		bens := 0
		for _, s := range got.Students {
			if s.StudentName == "Ben Okafor" {
				bens++
				require.Equal(t, classroom.MsgSeveralFiles, s.Error)
			} else {
				require.Equal(t, classroom.StateSent, s.State)
			}
		}
		require.Equal(t, 2, bens)
		require.Equal(t, classroomtest.Grade{}, b.fake.GradeOf("s2"))
	})

	t.Run("Google stays down: retried by the job, failed on its last attempt", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fast)
		c := b.importClass(t)
		b.fake.FailTimes("/v1/courses/c1/courseWork/w1/studentSubmissions/s2", 100)
		p, err := b.svc.StartPassback(b.ctx, c.a, classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeDraft}, c.totals())
		require.NoError(t, err)
		require.ErrorIs(t, b.svc.RunPassback(b.ctx, c.a.TeamID, p.ID, false), classroom.ErrRetry)
		mid, err := b.svc.GetPassback(b.ctx, c.a, c.asgID)
		require.NoError(t, err)
		require.Equal(t, classroom.PassbackRunning, mid.Status)
		require.Equal(t, classroom.StateSent, byName(*mid)["Ada Lovelace"].State, "what was sent is kept")
		require.Equal(t, classroom.StatePending, byName(*mid)["Ben Okafor"].State)
		require.NoError(t, b.svc.RunPassback(b.ctx, c.a.TeamID, p.ID, true))
		end, err := b.svc.GetPassback(b.ctx, c.a, c.asgID)
		require.NoError(t, err)
		require.Equal(t, classroom.PassbackDone, end.Status)
		require.Equal(t, classroom.MsgGoogleKeptFailing, byName(*end)["Ben Okafor"].Error)
		require.Equal(t, classroom.StateSent, byName(*end)["Eve Ng"].State)
		require.Equal(t, 1, b.fake.Calls("PATCH /v1/courses/c1/courseWork/w1/studentSubmissions/s1"), "Ada was not sent twice")
	})
}

func TestPassbackRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t, fast)
	c := b.importClass(t)
	start := func(a identity.Actor, req classroom.PassbackRequest) error {
		_, err := b.svc.StartPassback(b.ctx, a, req, c.totals())
		return err
	}
	ok := classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeDraft}

	// Another team's assignment, or another assignment's submission: not found.
	requireCode(t, start(b.teacher(t), ok), apperr.NotFound, "")
	_, err := b.svc.GetPassback(b.ctx, b.teacher(t), c.asgID)
	requireCode(t, err, apperr.NotFound, "")
	bad := ok
	bad.SubmissionIDs = []uuid.UUID{uuid.New()}
	requireCode(t, start(c.a, bad), apperr.NotFound, "")

	bad = ok
	bad.Grade = "final"
	requireCode(t, start(c.a, bad), apperr.Invalid, classroom.MsgGradeKind)
	bad = ok
	bad.Comment = true
	requireCode(t, start(c.a, bad), apperr.Invalid, classroom.MsgNoComments)

	// An assignment of uploads only.
	other := b.assignment(t, c.a, false)
	requireCode(t, start(c.a, classroom.PassbackRequest{AssignmentID: other.ID, Grade: classroom.GradeDraft}), apperr.Invalid, classroom.MsgNotFromClassroom)
	none, err := b.svc.GetPassback(b.ctx, c.a, other.ID)
	require.NoError(t, err)
	require.Nil(t, none)

	// A token from before grades were sent back: reconnect.
	_, err = b.pool.Exec(b.ctx, `UPDATE google_tokens SET scopes = array_to_string(array_remove(string_to_array(scopes, ' '), $2), ' ') WHERE user_id = $1`, c.a.UserID, classroom.ScopeGrades)
	require.NoError(t, err)
	requireCode(t, start(c.a, ok), apperr.Conflict, classroom.MsgReconnectForGrades)
	require.Equal(t, classroom.Status{Configured: true, Connected: true, CanSendGrades: false}, b.status(t, c.a), "the import still works")
	require.Zero(t, b.count(t, `SELECT count(*) FROM classroom_passbacks WHERE assignment_id = $1`, c.asgID), "nothing was started")
	require.Zero(t, b.fake.Calls("PATCH"))
}

func TestPassbackConnectWithoutGradeScope(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.fake.SetGrantScope("openid email profile " + joinScopes(classroom.Scopes))
	a := b.teacher(t)
	b.connect(t, a)
	require.Equal(t, classroom.Status{Configured: true, Connected: true, CanSendGrades: false}, b.status(t, a),
		"connected for the import, asked to reconnect for grades")
}

func joinScopes(s []string) string {
	out := ""
	for i, sc := range s {
		if i > 0 {
			out += " "
		}
		out += sc
	}
	return out
}

func TestAbandonedPassbackLetsTheAssignmentSendAgain(t *testing.T) {
	t.Parallel()
	b := setup(t, fast)
	c := b.importClass(t)
	req := classroom.PassbackRequest{AssignmentID: c.asgID, Grade: classroom.GradeDraft}
	p, err := b.svc.StartPassback(b.ctx, c.a, req, c.totals())
	require.NoError(t, err)
	require.NoError(t, classroom.AbandonPassback(b.ctx, b.pool, c.a.TeamID, p.ID))
	got, err := b.svc.GetPassback(b.ctx, c.a, c.asgID)
	require.NoError(t, err)
	require.Equal(t, classroom.PassbackDone, got.Status)
	for _, s := range got.Students {
		require.Equal(t, classroom.StateFailed, s.State)
		require.Equal(t, classroom.MsgPassbackAbandoned, s.Error)
	}
	_, err = b.svc.StartPassback(b.ctx, c.a, req, c.totals())
	require.NoError(t, err, "a new run may start")
}
