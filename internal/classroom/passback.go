package classroom

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"golang.org/x/oauth2"
	classroomapi "google.golang.org/api/classroom/v1"
	"google.golang.org/api/googleapi"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// Grades back into Google Classroom: a teacher sends the totals of an
// assignment's finished results to the Classroom coursework its submissions
// were imported from, as draft or assigned grades
// (courses.courseWork.studentSubmissions.patch with updateMask), and returns
// the work to the students when asked (studentSubmissions.return). The run
// is a pass_back_grades job; each student's call stands alone and its
// outcome is stored as a sentence.
//
// Classroom's API has no call that adds a private comment to a student
// submission (comments exist only in Classroom's own interface), so
// Markwell sends none: the link to a student's feedback reaches them by the
// release email or the links CSV.

// Grade kinds.
const (
	GradeDraft    = "draft"
	GradeAssigned = "assigned"
)

// Passback run statuses and student states.
const (
	PassbackQueued  = "queued"
	PassbackRunning = "running"
	PassbackDone    = "done"

	StatePending  = "pending"
	StateSent     = "sent"
	StateReturned = "returned"
	StateFailed   = "failed"
)

// Messages of passback.
const (
	MsgGradeKind          = `Choose "draft" or "assigned" grades.`
	MsgNoComments         = "Google Classroom's API cannot add private comments, so Markwell cannot send one. Send the feedback links with Markwell's release email or the links CSV instead."
	MsgNotFromClassroom   = "Only an assignment whose submissions were imported from Google Classroom can send grades back to Classroom."
	MsgConnectForGrades   = "Connect Google Classroom to send grades."
	MsgReconnectForGrades = "Reconnect Google Classroom to allow sending grades."
	MsgPassbackRunning    = "Grades are already being sent to Google Classroom for this assignment. Wait until that finishes."
	MsgNoneToSend         = "There are no submissions to send."
	MsgTooManyIDs         = "You can send at most 1,000 submissions at once."

	// Per student, before any call.
	MsgNotImported       = "This submission was not imported from Google Classroom."
	MsgImportedBefore    = "Markwell does not know which Classroom class this file came from (it was imported before grades could be sent back). Enter this grade in Classroom yourself."
	MsgNotFinished       = "Not graded yet: only finished results are sent."
	MsgNoPoints          = "This result has no points to send."
	MsgSeveralFiles      = "This student's Classroom work was imported as several files, each graded on its own; Classroom takes one grade per student, so enter it in Classroom yourself."
	MsgUngraded          = "This Classroom assignment has no point value (it is ungraded), so Classroom takes no grade for it."
	MsgCourseworkGone    = "Google Classroom could not find this assignment any more: it may have been deleted."
	MsgStudentLeft       = "Google Classroom could not find this student's work: the student may have left the class, or the work was deleted."
	MsgNotOurCoursework  = "Google Classroom lets only the app that created an assignment set its grades. This assignment was created in Classroom itself, so enter the grades there."
	MsgGoogleKeptFailing = "Google Classroom did not answer after several tries. Send the grades again later."
)

// MaxPassbackIDs caps the submission ids of one request.
const MaxPassbackIDs = 1000

// finished are the result statuses whose totals are sent.
var finished = []string{"graded", "annotated", "reviewed"}

// Total is what Markwell has for one submission's result: its points out
// of max (nil when unknown), computed by the caller with the assignment's
// current definition.
type Total struct {
	Points, Max *float64
}

// PassbackRequest is the body of google/classroom/passback.
type PassbackRequest struct {
	AssignmentID uuid.UUID
	// SubmissionIDs are Markwell submissions; none means every submission
	// imported from Classroom.
	SubmissionIDs    []uuid.UUID
	Grade            string
	Comment          bool
	ReturnToStudents bool
}

// PassbackStudent is one student's row of a run.
type PassbackStudent struct {
	SubmissionID uuid.UUID `json:"submissionId"`
	StudentName  string    `json:"studentName"`
	State        string    `json:"state"`
	// Grade is what was sent, on the coursework's scale.
	Grade *float64 `json:"grade,omitempty"`
	// Error is Google's answer, or why nothing was sent, as a sentence.
	Error string     `json:"error,omitempty"`
	At    *time.Time `json:"at,omitempty"`
}

// Passback is a run as the API shows it.
type Passback struct {
	ID               uuid.UUID         `json:"_id"`
	Status           string            `json:"status"`
	Grade            string            `json:"grade"`
	ReturnToStudents bool              `json:"returnToStudents"`
	Done             int               `json:"done"`
	Total            int               `json:"total"`
	CreatedAt        time.Time         `json:"createdAt"`
	Students         []PassbackStudent `json:"students"`
}

// StartPassback checks the request, takes each chosen submission's total
// (totals, by submission) and queues a pass_back_grades run. A submission
// that cannot be sent (not imported, not finished, no points) is part of
// the run as failed with the reason, so the teacher sees every one.
func (s *Service) StartPassback(ctx context.Context, a identity.Actor, req PassbackRequest, totals map[uuid.UUID]Total) (Passback, error) {
	if s == nil {
		return Passback{}, apperr.New(apperr.Invalid, MsgNotConfigured)
	}
	asg, err := store.Q.GetAssignment(ctx, s.cfg.Pool, store.GetAssignmentParams{ID: req.AssignmentID, TeamID: a.TeamID})
	if err != nil {
		return Passback{}, store.NotFound(fmt.Errorf("load assignment %s: %w", req.AssignmentID, err))
	}
	cands, err := store.Q.ListPassbackCandidates(ctx, s.cfg.Pool, store.ListPassbackCandidatesParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	if err != nil {
		return Passback{}, fmt.Errorf("list submissions of assignment %s: %w", asg.ID, err)
	}
	chosen, err := choose(cands, req.SubmissionIDs)
	if err != nil {
		return Passback{}, err
	}
	switch {
	case req.Grade != GradeDraft && req.Grade != GradeAssigned:
		return Passback{}, apperr.New(apperr.Invalid, MsgGradeKind)
	case req.Comment:
		return Passback{}, apperr.New(apperr.Invalid, MsgNoComments)
	case !slices.ContainsFunc(cands, func(c store.ListPassbackCandidatesRow) bool { return c.Source == "google" }):
		return Passback{}, apperr.New(apperr.Invalid, MsgNotFromClassroom)
	case len(chosen) == 0:
		return Passback{}, apperr.New(apperr.Invalid, MsgNoneToSend)
	}
	if why := s.unavailable(); why != "" {
		return Passback{}, apperr.New(apperr.Invalid, why)
	}
	if err := s.canSendGrades(ctx, a.UserID); err != nil {
		return Passback{}, err
	}
	if s.cfg.Jobs == nil {
		return Passback{}, errors.New("classroom: sending grades needs a job client")
	}

	rows := plan(chosen, totals)
	pending := 0
	for _, r := range rows {
		if r.State == StatePending {
			pending++
		}
	}
	var run store.ClassroomPassback
	err = store.InTx(ctx, s.cfg.Pool, func(tx pgx.Tx) error {
		var err error
		run, err = store.Q.CreatePassback(ctx, tx, store.CreatePassbackParams{
			TeamID: a.TeamID, AssignmentID: asg.ID, UserID: a.UserID, GradeKind: req.Grade, ReturnToStudents: req.ReturnToStudents,
		})
		if err != nil {
			return err
		}
		now := s.now()
		for i, r := range rows {
			r.PassbackID, r.Position = run.ID, int32(i)
			if r.State != StatePending {
				r.At = &now
			}
			if err := store.Q.InsertPassbackStudent(ctx, tx, r); err != nil {
				return err
			}
		}
		if pending == 0 {
			run.Status = PassbackDone
			return store.Q.SetPassbackStatus(ctx, tx, store.SetPassbackStatusParams{ID: run.ID, TeamID: a.TeamID, Status: PassbackDone})
		}
		_, err = s.cfg.Jobs.InsertTx(ctx, tx, queue.PassBackGradesArgs{PassbackID: run.ID, TeamID: a.TeamID}, nil)
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "classroom_passbacks_active_idx" {
		return Passback{}, apperr.New(apperr.Conflict, MsgPassbackRunning)
	}
	if err != nil {
		return Passback{}, fmt.Errorf("start passback of assignment %s: %w", asg.ID, err)
	}
	s.log.InfoContext(ctx, "google classroom passback queued", "assignment_id", asg.ID, "passback_id", run.ID,
		"students", len(rows), "pending", pending, "grade", req.Grade, "return", req.ReturnToStudents)
	return s.passback(ctx, a.TeamID, run)
}

// choose returns the candidates named by ids (each once, in the table's
// order), or every one imported from Classroom when ids is empty. An id
// that is not a submission of the assignment is not found.
func choose(cands []store.ListPassbackCandidatesRow, ids []uuid.UUID) ([]store.ListPassbackCandidatesRow, error) {
	if len(ids) == 0 {
		var out []store.ListPassbackCandidatesRow
		for _, c := range cands {
			if c.Source == "google" {
				out = append(out, c)
			}
		}
		return out, nil
	}
	if len(ids) > MaxPassbackIDs {
		return nil, apperr.New(apperr.Invalid, MsgTooManyIDs)
	}
	want := map[uuid.UUID]bool{}
	for _, id := range ids {
		want[id] = true
	}
	var out []store.ListPassbackCandidatesRow
	for _, c := range cands {
		if want[c.ID] {
			out = append(out, c)
			delete(want, c.ID)
		}
	}
	if len(want) > 0 {
		return nil, apperr.ErrNotFound
	}
	return out, nil
}

// plan turns the chosen submissions into a run's rows: pending with the
// points to send, or failed with why nothing can be sent.
func plan(chosen []store.ListPassbackCandidatesRow, totals map[uuid.UUID]Total) []store.InsertPassbackStudentParams {
	// Classroom takes one grade per student submission; several Markwell
	// submissions (one per attached file) of one cannot be told apart.
	perWork := map[string]int{}
	for _, c := range chosen {
		if c.StudentSubmissionID != "" {
			perWork[c.CourseID+"/"+c.CourseworkID+"/"+c.StudentSubmissionID]++
		}
	}
	out := make([]store.InsertPassbackStudentParams, 0, len(chosen))
	for _, c := range chosen {
		r := store.InsertPassbackStudentParams{
			SubmissionID: c.ID, StudentName: c.StudentName, CourseID: c.CourseID, CourseworkID: c.CourseworkID,
			StudentSubmissionID: c.StudentSubmissionID, State: StatePending,
		}
		t := totals[c.ID]
		var why string
		switch {
		case c.Source != "google":
			why = MsgNotImported
		case c.CourseID == "":
			why = MsgImportedBefore
		case perWork[c.CourseID+"/"+c.CourseworkID+"/"+c.StudentSubmissionID] > 1:
			why = MsgSeveralFiles
		case !slices.Contains(finished, c.ResultStatus):
			why = MsgNotFinished
		case t.Points == nil || math.IsNaN(*t.Points) || math.IsInf(*t.Points, 0):
			why = MsgNoPoints
		}
		if t.Points != nil {
			r.Points = pgtype.Float8{Float64: *t.Points, Valid: true}
		}
		if t.Max != nil {
			r.MaxPoints = pgtype.Float8{Float64: *t.Max, Valid: true}
		}
		if why != "" {
			r.State, r.Error = StateFailed, &why
		}
		out = append(out, r)
	}
	return out
}

// canSendGrades checks that user's stored token may set grades.
func (s *Service) canSendGrades(ctx context.Context, user uuid.UUID) error {
	row, err := store.Q.GetGoogleToken(ctx, s.cfg.Pool, user)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return apperr.New(apperr.Conflict, MsgConnectForGrades)
	case err != nil:
		return fmt.Errorf("load google token of user %s: %w", user, err)
	case len(missingScopes(row.Scopes)) > 0 || !hasScope(row.Scopes, ScopeGrades):
		return apperr.New(apperr.Conflict, MsgReconnectForGrades)
	}
	return nil
}

// GetPassback returns the assignment's latest run, or nil when it has none.
func (s *Service) GetPassback(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (*Passback, error) {
	if s == nil {
		return nil, apperr.New(apperr.Invalid, MsgNotConfigured)
	}
	if _, err := store.Q.GetAssignment(ctx, s.cfg.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID}); err != nil {
		return nil, store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
	}
	run, err := store.Q.LatestPassback(ctx, s.cfg.Pool, store.LatestPassbackParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load passback of assignment %s: %w", assignmentID, err)
	}
	p, err := s.passback(ctx, a.TeamID, run)
	return &p, err
}

// passback presents run with its students.
func (s *Service) passback(ctx context.Context, team uuid.UUID, run store.ClassroomPassback) (Passback, error) {
	rows, err := store.Q.ListPassbackStudents(ctx, s.cfg.Pool, store.ListPassbackStudentsParams{PassbackID: run.ID, TeamID: team})
	if err != nil {
		return Passback{}, fmt.Errorf("load students of passback %s: %w", run.ID, err)
	}
	p := Passback{
		ID: run.ID, Status: run.Status, Grade: run.GradeKind, ReturnToStudents: run.ReturnToStudents,
		Total: len(rows), CreatedAt: run.CreatedAt, Students: make([]PassbackStudent, len(rows)),
	}
	for i, r := range rows {
		st := PassbackStudent{SubmissionID: r.SubmissionID, StudentName: r.StudentName, State: r.State, At: r.At}
		if r.Grade.Valid {
			g := r.Grade.Float64
			st.Grade = &g
		}
		if r.Error != nil {
			st.Error = *r.Error
		}
		if r.State != StatePending {
			p.Done++
		}
		p.Students[i] = st
	}
	return p, nil
}

// ErrRetry is a run stopped by Google answering 429 or 5xx after the
// retries of one call: the job is tried again later and goes on with the
// students still pending.
var ErrRetry = errors.New("google classroom kept failing")

// RunPassback works through a run's pending students (the job
// pass_back_grades). Each student's outcome is stored as it comes. It
// returns an error wrapping ErrRetry when Google stays unavailable; with
// last set (the job's final attempt) the students still pending are
// failed instead, so none is left without an outcome.
func (s *Service) RunPassback(ctx context.Context, team, id uuid.UUID, last bool) error {
	run, err := store.Q.GetPassback(ctx, s.cfg.Pool, store.GetPassbackParams{ID: id, TeamID: team})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the assignment was deleted meanwhile
	}
	if err != nil {
		return fmt.Errorf("load passback %s: %w", id, err)
	}
	if run.Status == PassbackDone {
		return nil
	}
	if err := store.Q.SetPassbackStatus(ctx, s.cfg.Pool, store.SetPassbackStatusParams{ID: id, TeamID: team, Status: PassbackRunning}); err != nil {
		return fmt.Errorf("start passback %s: %w", id, err)
	}
	rows, err := store.Q.ListPassbackStudents(ctx, s.cfg.Pool, store.ListPassbackStudentsParams{PassbackID: id, TeamID: team})
	if err != nil {
		return fmt.Errorf("load students of passback %s: %w", id, err)
	}
	var pending []store.ClassroomPassbackStudent
	for _, r := range rows {
		if r.State == StatePending {
			pending = append(pending, r)
		}
	}
	finishAll := func(msg string) error {
		for _, r := range pending {
			if err := s.finishStudent(ctx, team, r, StateFailed, nil, msg); err != nil {
				return err
			}
		}
		return s.finishRun(ctx, team, id)
	}

	var c *Client
	if len(pending) > 0 {
		if why := s.unavailable(); why != "" {
			return finishAll(why)
		}
		if err := s.canSendGrades(ctx, run.UserID); err != nil {
			return finishAll(apperr.From(err).Message)
		}
		c, err = s.Client(ctx, run.UserID)
		if err != nil {
			var e *apperr.Error
			if errors.As(err, &e) {
				return finishAll(e.Message)
			}
			return err
		}
	}
	works := map[string]courseworkInfo{}
	for i, r := range pending {
		key := r.CourseID + "/" + r.CourseworkID
		w, ok := works[key]
		if !ok {
			w = c.courseworkInfo(ctx, r.CourseID, r.CourseworkID)
			if w.retry && !last {
				return fmt.Errorf("read coursework %s: %w", key, ErrRetry)
			}
			works[key] = w
		}
		if w.fail != "" {
			if err := s.finishStudent(ctx, team, r, StateFailed, nil, w.fail); err != nil {
				return err
			}
			continue
		}
		grade := scale(r.Points.Float64, r.MaxPoints, w.maxPoints)
		out := c.sendGrade(ctx, r, run.GradeKind, grade, run.ReturnToStudents)
		switch {
		case out.retry && !last:
			return fmt.Errorf("send grade of submission %s: %w", r.SubmissionID, ErrRetry)
		case out.tokenRefused:
			pending = pending[i:]
			return finishAll(MsgReconnect)
		case out.wholeWork != "":
			// The same answer for every student of this coursework: not
			// asked again for each.
			w.fail = out.wholeWork
			works[key] = w
		}
		var g *float64
		if out.sent {
			g = &grade
		}
		if err := s.finishStudent(ctx, team, r, out.state, g, out.msg); err != nil {
			return err
		}
	}
	return s.finishRun(ctx, team, id)
}

// MsgPassbackAbandoned is every row left pending when a run cannot go on.
const MsgPassbackAbandoned = "Markwell could not finish sending grades. Send them again."

// AbandonPassback ends a run that cannot go on (its job failed for good):
// each student still pending fails with MsgPassbackAbandoned and the run is
// done, so the assignment can send grades again. It needs only the
// database, for a worker without a Classroom service.
func AbandonPassback(ctx context.Context, pool store.DBTX, team, id uuid.UUID) error {
	ctx = context.WithoutCancel(ctx)
	rows, err := store.Q.ListPassbackStudents(ctx, pool, store.ListPassbackStudentsParams{PassbackID: id, TeamID: team})
	if err != nil {
		return fmt.Errorf("load students of passback %s: %w", id, err)
	}
	msg := MsgPassbackAbandoned
	for _, r := range rows {
		if r.State != StatePending {
			continue
		}
		if err := store.Q.FinishPassbackStudent(ctx, pool, store.FinishPassbackStudentParams{
			PassbackID: id, SubmissionID: r.SubmissionID, TeamID: team, State: StateFailed, Error: &msg,
		}); err != nil {
			return fmt.Errorf("abandon passback %s: %w", id, err)
		}
	}
	return store.Q.SetPassbackStatus(ctx, pool, store.SetPassbackStatusParams{ID: id, TeamID: team, Status: PassbackDone})
}

func (s *Service) finishStudent(ctx context.Context, team uuid.UUID, r store.ClassroomPassbackStudent, state string, grade *float64, msg string) error {
	p := store.FinishPassbackStudentParams{PassbackID: r.PassbackID, SubmissionID: r.SubmissionID, TeamID: team, State: state}
	if grade != nil {
		p.Grade = pgtype.Float8{Float64: *grade, Valid: true}
	}
	if msg != "" {
		p.Error = &msg
	}
	if err := store.Q.FinishPassbackStudent(context.WithoutCancel(ctx), s.cfg.Pool, p); err != nil {
		return fmt.Errorf("store passback of submission %s: %w", r.SubmissionID, err)
	}
	return nil
}

func (s *Service) finishRun(ctx context.Context, team, id uuid.UUID) error {
	if err := store.Q.SetPassbackStatus(context.WithoutCancel(ctx), s.cfg.Pool, store.SetPassbackStatusParams{ID: id, TeamID: team, Status: PassbackDone}); err != nil {
		return fmt.Errorf("finish passback %s: %w", id, err)
	}
	s.log.InfoContext(ctx, "google classroom passback done", "passback_id", id)
	return nil
}

// scale puts points out of max (when known) on the coursework's scale of
// maxPoints, rounded to hundredths: 15 of 20 on a 100-point coursework is 75.
// Without Markwell's maximum the points are sent as they are.
func scale(points float64, max pgtype.Float8, maxPoints float64) float64 {
	g := points
	if max.Valid && max.Float64 > 0 && maxPoints > 0 {
		g = points / max.Float64 * maxPoints
	}
	return math.Round(g*100) / 100
}

// courseworkInfo is what a run needs of a coursework: its point value, or
// why no student of it can be graded.
type courseworkInfo struct {
	maxPoints float64
	fail      string
	retry     bool
}

func (c *Client) courseworkInfo(ctx context.Context, course, work string) courseworkInfo {
	var cw *classroomapi.CourseWork
	err := c.retrying(ctx, func() error {
		var err error
		cw, err = c.classroom.Courses.CourseWork.Get(course, work).Fields("id,maxPoints").Context(ctx).Do()
		return err
	})
	if err != nil {
		out := c.outcome(ctx, err)
		if googleCode(err) == http.StatusNotFound {
			out.msg = MsgCourseworkGone
		}
		return courseworkInfo{fail: out.msg, retry: out.retry}
	}
	if cw.MaxPoints <= 0 {
		return courseworkInfo{fail: MsgUngraded}
	}
	return courseworkInfo{maxPoints: cw.MaxPoints}
}

// sent is the outcome of one student's calls.
type sent struct {
	state string
	msg   string
	sent  bool // the grade reached Classroom
	// retry: Google stayed unavailable; tokenRefused: the token no longer
	// works; wholeWork: the answer holds for every student of the coursework.
	retry, tokenRefused bool
	wholeWork           string
}

// sendGrade sets one student's grade (draft only, or draft and assigned:
// what Classroom's own "Return" with a grade leaves) and returns the work
// when asked. Returning does not copy a draft grade to the assigned one.
func (c *Client) sendGrade(ctx context.Context, r store.ClassroomPassbackStudent, kind string, grade float64, ret bool) sent {
	body := &classroomapi.StudentSubmission{DraftGrade: grade, ForceSendFields: []string{"DraftGrade"}}
	mask := "draftGrade"
	if kind == GradeAssigned {
		body.AssignedGrade = grade
		body.ForceSendFields = append(body.ForceSendFields, "AssignedGrade")
		mask = "draftGrade,assignedGrade"
	}
	subs := c.classroom.Courses.CourseWork.StudentSubmissions
	err := c.retrying(ctx, func() error {
		_, err := subs.Patch(r.CourseID, r.CourseworkID, r.StudentSubmissionID, body).UpdateMask(mask).Fields("id").Context(ctx).Do()
		return err
	})
	if err != nil {
		out := c.outcome(ctx, err)
		if googleCode(err) == http.StatusNotFound {
			out.msg = MsgStudentLeft
		}
		out.state = StateFailed
		return out
	}
	if !ret {
		return sent{state: StateSent, sent: true}
	}
	err = c.retrying(ctx, func() error {
		_, err := subs.Return(r.CourseID, r.CourseworkID, r.StudentSubmissionID, &classroomapi.ReturnStudentSubmissionRequest{}).Context(ctx).Do()
		return err
	})
	if err != nil {
		out := c.outcome(ctx, err)
		if googleCode(err) == http.StatusNotFound {
			out.msg = MsgStudentLeft
		}
		out.state, out.sent, out.wholeWork = StateFailed, true, ""
		out.msg = "The grade was sent, but Classroom did not return the work: " + out.msg
		return out
	}
	return sent{state: StateReturned, sent: true}
}

// retrying calls fn, and again after RetryBase and twice that when Google
// answers 429 or 5xx.
func (c *Client) retrying(ctx context.Context, fn func() error) error {
	wait := c.s.cfg.RetryBase
	for try := 1; ; try++ {
		err := fn()
		if err == nil || !transient(err) || try == 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

func transient(err error) bool {
	code := googleCode(err)
	if code == http.StatusTooManyRequests || code >= 500 {
		return true
	}
	var re *oauth2.RetrieveError
	return code == 0 && !errors.As(err, &re) // no answer at all: the network
}

// outcome turns Google's error of one student's call into a sentence.
func (c *Client) outcome(ctx context.Context, err error) sent {
	var re *oauth2.RetrieveError
	code := googleCode(err)
	switch {
	case errors.As(err, &re) || code == http.StatusUnauthorized:
		_ = c.fail(ctx, err, "send grades") // forgets the token
		return sent{tokenRefused: true, msg: MsgReconnect}
	case transient(err):
		return sent{retry: true, msg: MsgGoogleKeptFailing}
	case code == http.StatusForbidden && insufficientScopes(err):
		return sent{msg: MsgReconnectForGrades, wholeWork: MsgReconnectForGrades}
	case code == http.StatusForbidden && projectPermissionDenied(err):
		return sent{msg: MsgNotOurCoursework, wholeWork: MsgNotOurCoursework}
	case code == http.StatusForbidden:
		return sent{msg: MsgForbidden}
	case code == http.StatusNotFound:
		return sent{msg: MsgStudentLeft}
	}
	return sent{msg: googleSentence(err)}
}

// projectPermissionDenied reports Classroom's refusal to let a project
// change coursework another project (or Classroom itself) created.
func projectPermissionDenied(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && (strings.Contains(ge.Message, "ProjectPermissionDenied") || strings.Contains(ge.Body, "ProjectPermissionDenied"))
}

// googleSentence is Google's own message of a refusal (in English,
// without its "@Reason" prefix), as a sentence.
func googleSentence(err error) string {
	var ge *googleapi.Error
	msg := ""
	if errors.As(err, &ge) {
		msg = strings.TrimSpace(ge.Message)
		if strings.HasPrefix(msg, "@") {
			if _, rest, ok := strings.Cut(msg, " "); ok {
				msg = rest
			}
		}
	}
	if msg == "" {
		return "Google Classroom refused this grade."
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return "Google Classroom refused this grade: " + msg
}
