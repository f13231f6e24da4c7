package httpapi

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/result"
)

// ClassroomFlowCookie holds the sealed Google Classroom consent in flight,
// from connect to callback.
const ClassroomFlowCookie = "markwell.classroom-flow"

// ClassroomOutcomeParam is the query parameter the callback adds to the
// page the teacher returns to: one of the classroom.Outcome constants.
const ClassroomOutcomeParam = "googleClassroom"

// classroomHandlers serve Google Classroom import: the connect flow (two
// browser navigations) and the picker's calls.
type classroomHandlers struct {
	svc *classroom.Service
	// results gives each result's total, which a passback sends.
	results *result.Service
}

func (h *classroomHandlers) register(g *gin.RouterGroup) {
	r := g.Group("/google/classroom")
	r.POST("/status", handle(h.status))
	r.GET("/connect", noStore, h.connect)
	r.GET("/callback", noStore, h.callback)
	r.POST("/courses", handle(h.courses))
	r.POST("/coursework", handle(h.coursework))
	r.POST("/submissions", handle(h.submissions))
	r.POST("/passback", handle(h.passback))
	r.POST("/passback/get", handle(h.getPassback))
	g.POST("/db/assignment/update-submissions-from-google", handle(h.importSubmissions))
}

type noBody struct{}

func (h *classroomHandlers) status(c *gin.Context, a identity.Actor, _ *noBody) (classroom.Status, error) {
	return h.svc.Status(c, a.UserID)
}

// teacher is the signed-in teacher and their session, which a consent flow
// is bound to.
func teacher(c *gin.Context, a identity.Actor) classroom.Teacher {
	token, _ := c.Cookie(SessionCookie)
	return classroom.Teacher{ID: a.UserID, Email: a.Email, SessionToken: token}
}

// connect is GET …/connect?returnTo=/path: it sends the teacher to Google's
// consent screen, or straight back with ?googleClassroom=not-configured.
func (h *classroomHandlers) connect(c *gin.Context) {
	returnTo := c.Query("returnTo")
	authURL, flow, err := h.svc.Begin(teacher(c, actor(c)), returnTo)
	if err != nil {
		logger(c).Warn("google classroom connect could not start", "err", err)
		c.Redirect(http.StatusFound, withOutcome(classroom.SafeReturnTo(returnTo), classroom.OutcomeOf(err)))
		return
	}
	setClassroomCookie(c, &http.Cookie{Name: ClassroomFlowCookie, Value: flow, Path: classroom.CallbackPath, MaxAge: int(classroom.FlowTTL.Seconds())})
	c.Redirect(http.StatusFound, authURL)
}

// callback is GET …/callback: Google sends the teacher back here with code
// and state; they go on to the page they started from, with the outcome.
func (h *classroomHandlers) callback(c *gin.Context) {
	flow, _ := c.Cookie(ClassroomFlowCookie)
	setClassroomCookie(c, &http.Cookie{Name: ClassroomFlowCookie, Value: "", Path: classroom.CallbackPath, MaxAge: -1})
	back, err := h.svc.Finish(c, teacher(c, actor(c)), flow, classroom.Callback{
		State: c.Query("state"), Code: c.Query("code"), Error: c.Query("error"),
	})
	outcome := classroom.OutcomeOf(err)
	if err != nil {
		logger(c).Warn("google classroom connect refused", "outcome", outcome, "err", err)
	}
	c.Redirect(http.StatusFound, withOutcome(back, outcome))
}

// setClassroomCookie sets ck with the attributes of every cookie of the
// sign-in surface (HttpOnly, SameSite=Lax, Secure over https).
func setClassroomCookie(c *gin.Context, ck *http.Cookie) {
	if v, ok := c.Get(authKey); ok {
		v.(*authHandlers).setCookie(c, ck)
		return
	}
	ck.HttpOnly, ck.SameSite = true, http.SameSiteLaxMode
	http.SetCookie(c.Writer, ck)
}

// withOutcome adds ?googleClassroom=outcome to a path on this site.
func withOutcome(path, outcome string) string {
	u, err := url.Parse(path)
	if err != nil {
		u = &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Set(ClassroomOutcomeParam, outcome)
	u.RawQuery = q.Encode()
	return u.String()
}

func (h *classroomHandlers) courses(c *gin.Context, a identity.Actor, _ *noBody) (gin.H, error) {
	out, err := h.svc.Courses(c, a)
	return gin.H{"courses": out}, err
}

type courseworkBody struct {
	ClassID string `json:"classId"`
}

func (h *classroomHandlers) coursework(c *gin.Context, a identity.Actor, in *courseworkBody) (gin.H, error) {
	out, err := h.svc.Coursework(c, a, in.ClassID)
	return gin.H{"coursework": out}, err
}

type classroomSubmissionsBody struct {
	ClassID      string `json:"classId"`
	CourseworkID string `json:"courseworkId"`
}

func (h *classroomHandlers) submissions(c *gin.Context, a identity.Actor, in *classroomSubmissionsBody) (gin.H, error) {
	out, err := h.svc.Submissions(c, a, in.ClassID, in.CourseworkID)
	return gin.H{"submissions": out}, err
}

type importGoogleBody struct {
	AssignmentID               id       `json:"assignmentId"`
	Type                       string   `json:"type"`
	ClassID                    string   `json:"classId"`
	CourseworkID               string   `json:"courseworkId"`
	SelectedStudentSubmissions []string `json:"selectedStudentSubmissions"`
}

func (h *classroomHandlers) importSubmissions(c *gin.Context, a identity.Actor, in *importGoogleBody) (classroom.ImportResult, error) {
	return h.svc.Import(c, a, classroom.ImportRequest{
		AssignmentID: in.AssignmentID.UUID(), Type: in.Type, ClassID: in.ClassID, CourseworkID: in.CourseworkID,
		Selected: in.SelectedStudentSubmissions,
	})
}

type passbackBody struct {
	AssignmentID     id     `json:"assignmentId"`
	SubmissionIDs    []id   `json:"submissionIds"`
	Grade            string `json:"grade"`
	Comment          bool   `json:"comment"`
	ReturnToStudents bool   `json:"returnToStudents"`
}

// passback starts sending the assignment's grades to Google Classroom.
func (h *classroomHandlers) passback(c *gin.Context, a identity.Actor, in *passbackBody) (gin.H, error) {
	// The totals as the results table shows them (the assignment's
	// current definition); another team's assignment is not found here.
	_, results, err := h.results.GetAssignment(c, a, in.AssignmentID.UUID())
	if err != nil {
		return nil, err
	}
	totals := make(map[uuid.UUID]classroom.Total, len(results))
	for _, r := range results {
		totals[r.Submission] = classroom.Total{Points: r.TotalPoints, Max: r.MaxPoints}
	}
	p, err := h.svc.StartPassback(c, a, classroom.PassbackRequest{
		AssignmentID: in.AssignmentID.UUID(), SubmissionIDs: uuids(in.SubmissionIDs), Grade: in.Grade,
		Comment: in.Comment, ReturnToStudents: in.ReturnToStudents,
	}, totals)
	return gin.H{"passback": p}, err
}

type assignmentOnlyBody struct {
	AssignmentID id `json:"assignmentId"`
}

// getPassback answers the assignment's latest run, or null.
func (h *classroomHandlers) getPassback(c *gin.Context, a identity.Actor, in *assignmentOnlyBody) (gin.H, error) {
	p, err := h.svc.GetPassback(c, a, in.AssignmentID.UUID())
	return gin.H{"passback": p}, err
}
