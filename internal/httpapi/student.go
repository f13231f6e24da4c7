package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/team"
)

// studentHandlers serve the student submission link: the teacher's calls
// that show, switch and rotate it, and the students' calls, made without
// signing in, that open it, upload and submit.
type studentHandlers struct {
	svc *studentlink.Service
}

// registerTeacher registers the teacher's link calls; g requires a session.
func (h *studentHandlers) registerTeacher(g *gin.RouterGroup) {
	g.POST("/db/assignment/student-link/get", handle(h.getLink))
	g.POST("/db/assignment/student-link/update", handle(h.updateLink))
}

// registerStudent registers the calls a student makes by link, with no
// session (the CSRF token is still required: the SPA sends an anonymous one).
func (h *studentHandlers) registerStudent(g *gin.RouterGroup) {
	g.POST("/student/link", handle(h.openLink))
	g.POST("/s3-pub-upload", handleWith(okUpload, h.upload))
	g.POST("/db/assignment/update-submissions-from-student", handle(h.submit))
}

func (h *studentHandlers) getLink(c *gin.Context, a team.Actor, in *assignmentRef) (studentlink.Link, error) {
	return h.svc.Get(c, a, in.AssignmentID.UUID())
}

type updateLinkBody struct {
	assignmentRef
	Enabled *bool `json:"enabled"`
	Rotate  bool  `json:"rotate"`
}

func (h *studentHandlers) updateLink(c *gin.Context, a team.Actor, in *updateLinkBody) (studentlink.Link, error) {
	return h.svc.Update(c, a, in.AssignmentID.UUID(), studentlink.Change{Enabled: in.Enabled, Rotate: in.Rotate})
}

type linkTokenBody struct {
	LinkToken string `json:"linkToken"`
}

func (h *studentHandlers) openLink(c *gin.Context, _ team.Actor, in *linkTokenBody) (gin.H, error) {
	asg, err := h.svc.Open(c, in.LinkToken)
	return gin.H{"assignment": asg}, err
}

// studentUploadBody is s3-pub-upload's body: uploadBody's fields (fileSize
// is required here) and the link the student uploads through. A folder in
// fileName is ignored: the file goes to the link's assignment.
type studentUploadBody struct {
	uploadBody
	LinkToken string `json:"linkToken"`
}

func (h *studentHandlers) upload(c *gin.Context, _ team.Actor, in *studentUploadBody) (files.Upload, error) {
	return h.svc.Upload(c, c.ClientIP(), in.LinkToken, files.UploadRequest{
		FileName: in.FileName, FileType: in.FileType, FileSize: in.FileSize,
	})
}

// studentSubmitBody is update-submissions-from-student's body: the
// teacher call's fields plus the link and the student.
type studentSubmitBody struct {
	updateSubmissionsBody
	LinkToken                   string          `json:"linkToken"`
	StudentName                 string          `json:"studentName"`
	StudentEmail                string          `json:"studentEmail"`
	StudentSubmissionLTIDetails json.RawMessage `json:"studentSubmissionLTIDetails"`
}

func (h *studentHandlers) submit(c *gin.Context, _ team.Actor, in *studentSubmitBody) (studentlink.Submitted, error) {
	return h.svc.Submit(c, c.ClientIP(), studentlink.SubmitInput{
		LinkToken: in.LinkToken, AssignmentID: in.AssignmentID.UUID(), Files: in.Submissions,
		Role: in.SubmissionRole, Type: in.Type, Readers: in.Readers,
		StudentName: in.StudentName, StudentEmail: in.StudentEmail, LTI: in.StudentSubmissionLTIDetails,
	})
}

// ---- reading one submission by its view token ------------------------------

// viewerKey, set on a request's context to a team.Actor, is who actor()
// answers for a student reading by view token: the submission's team, no
// user. Only signedInOrViewToken sets it, after checking the body names
// nothing but the token's submission and assignment.
const viewerKey = "markwell.viewer"

// viewOnly says which ids a view-only call names, each of which must be the
// view token's, and whether it is answered here rather than by its handler.
type viewOnly struct {
	// submission: the body's submissionId is required and must be the
	// token's submission. An assignmentId, when sent, must always be the
	// token's assignment; assignment makes it required.
	submission, assignment bool
	// answer, when set, serves the call for the student instead of the
	// route's teacher handler.
	answer func(c *gin.Context, svc *studentlink.Service, v studentlink.Viewer)
}

// viewOnlyRoutes are the read calls a view token opens: the student's
// result page reads its submission, the assignment (the part a student
// sees, not the teacher's class summary or submission list), its function
// and the submission's result.
var viewOnlyRoutes = map[string]viewOnly{
	"/api/v1/db/submission/get-view-only":     {submission: true},
	"/api/v1/db/functionResult/get-view-only": {submission: true},
	"/api/v1/db/function/get-view-only":       {assignment: true},
	"/api/v1/db/assignment/get-view-only":     {assignment: true, answer: viewAssignment},
	// a student's instant feedback: the service runs it only when the
	// assignment has instant feedback on, and only once
	"/api/v1/lambda/gradeOnePub": {submission: true, assignment: true},
}

// signedInOrViewToken guards the signed-in routes: a signed-in teacher
// passes (requireUser). Without a session, the view-only calls accept the
// body's viewToken, which opens exactly its submission and that submission's
// assignment: any other id is not found, an unknown token too. Everything
// else answers as requireUser does.
func signedInOrViewToken(svc *studentlink.Service) gin.HandlerFunc {
	signedIn := requireUser()
	return func(c *gin.Context) {
		route, isViewOnly := viewOnlyRoutes[c.FullPath()]
		if st := loadSession(c); st.ok || st.err != nil || !isViewOnly || svc == nil {
			signedIn(c)
			return
		}
		body, err := io.ReadAll(c.Request.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				fail(c, apperr.New(apperr.TooLarge, "Request body is too large"))
				return
			}
			fail(c, apperr.Wrap(apperr.Invalid, "Request body could not be read", err))
			return
		}
		c.Request.Body = io.NopCloser(bytes.NewReader(body))
		var token struct {
			ViewToken string `json:"viewToken"`
		}
		if json.Unmarshal(body, &token) != nil || token.ViewToken == "" {
			signedIn(c)
			return
		}
		v, err := svc.Viewer(c, token.ViewToken)
		if err != nil {
			fail(c, err)
			return
		}
		var ids struct {
			SubmissionID optionalID `json:"submissionId"`
			AssignmentID optionalID `json:"assignmentId"`
		}
		if err := json.Unmarshal(body, &ids); err != nil ||
			!names(ids.SubmissionID, v.SubmissionID, route.submission) ||
			!names(ids.AssignmentID, v.AssignmentID, route.assignment) {
			fail(c, apperr.ErrNotFound)
			return
		}
		if route.answer != nil {
			route.answer(c, svc, v)
			c.Abort()
			return
		}
		c.Set(viewerKey, team.Actor{TeamID: v.TeamID})
		c.Next()
	}
}

// names reports whether a body's id is want, or absent when not required.
func names(got optionalID, want uuid.UUID, required bool) bool {
	if got.state == idAbsent {
		return !required
	}
	return got.v == want
}

// viewAssignment answers assignment/get-view-only for a student: the part
// of the assignment a student sees.
func viewAssignment(c *gin.Context, svc *studentlink.Service, v studentlink.Viewer) {
	asg, err := svc.ViewAssignment(c, v)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}
