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
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/studentlink"
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

func (h *studentHandlers) getLink(c *gin.Context, a identity.Actor, in *assignmentRef) (studentlink.Link, error) {
	return h.svc.Get(c, a, in.AssignmentID.UUID())
}

type updateLinkBody struct {
	assignmentRef
	Enabled           *bool `json:"enabled"`
	AllowResubmission *bool `json:"allowResubmission"`
	Rotate            bool  `json:"rotate"`
}

func (h *studentHandlers) updateLink(c *gin.Context, a identity.Actor, in *updateLinkBody) (studentlink.Link, error) {
	return h.svc.Update(c, a, in.AssignmentID.UUID(), studentlink.Change{
		Enabled: in.Enabled, AllowResubmission: in.AllowResubmission, Rotate: in.Rotate,
	})
}

type linkTokenBody struct {
	LinkToken string `json:"linkToken"`
}

func (h *studentHandlers) openLink(c *gin.Context, _ identity.Actor, in *linkTokenBody) (gin.H, error) {
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

func (h *studentHandlers) upload(c *gin.Context, _ identity.Actor, in *studentUploadBody) (files.Upload, error) {
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
	// LTILaunch is the pupil's launch token from an LMS (docs/lti.md).
	LTILaunch string `json:"ltiLaunch"`
}

func (h *studentHandlers) submit(c *gin.Context, _ identity.Actor, in *studentSubmitBody) (studentlink.Submitted, error) {
	return h.svc.Submit(c, c.ClientIP(), studentlink.SubmitInput{
		LinkToken: in.LinkToken, AssignmentID: in.AssignmentID.UUID(), Files: in.Submissions,
		Role: in.SubmissionRole, Type: in.Type, Readers: in.Readers,
		StudentName: in.StudentName, StudentEmail: in.StudentEmail, LTI: in.StudentSubmissionLTIDetails,
		LTILaunch: in.LTILaunch,
	})
}

// ---- reading one submission by its view token ------------------------------

// viewerKey, set on a request's context to a identity.Actor, is who actor()
// answers for a student reading by view token: the submission's team, no
// user. Only signedInOrViewToken sets it, after checking the body names
// nothing but the token's submission and assignment; it sets viewTokenKey
// to the studentlink.Viewer beside it.
const (
	viewerKey    = "markwell.viewer"
	viewTokenKey = "markwell.viewToken"
)

// viewOnly says which ids a view-only call names, each of which must be the
// view token's, and whether it is answered for the student by answer rather
// than by the route's handler.
type viewOnly struct {
	// submission: the body's submissionId is required and must be the
	// token's submission. An assignmentId, when sent, must always be the
	// token's assignment; assignment makes it required.
	submission, assignment bool
	// answer, when set, serves the call for the student instead of the
	// route's teacher handler (a handler made by handle, which sees the
	// student as actor).
	answer gin.HandlerFunc
	// submitterOnly: a release token (a link the teacher released) does
	// not open the call, only the submitter's own view token does: the
	// released link reads, it never runs anything.
	submitterOnly bool
}

// viewOnlyRoutes are the calls a view token opens: the reads of the
// student's result page, each answered by studentViews with what that page
// shows and nothing else (never the teacher's shape), and the student's
// instant feedback.
func viewOnlyRoutes(s Services) map[string]viewOnly {
	sv := studentViews{s}
	return map[string]viewOnly{
		"/api/v1/db/submission/get-view-only":     {submission: true, answer: handle(sv.submission)},
		"/api/v1/db/functionResult/get-view-only": {submission: true, answer: handle(sv.result)},
		"/api/v1/db/function/get-view-only":       {assignment: true, answer: handle(sv.function)},
		"/api/v1/db/assignment/get-view-only":     {assignment: true, answer: handle(sv.assignment)},
		// a student's instant feedback: the service runs it only when the
		// assignment has instant feedback on, and only once
		"/api/v1/lambda/gradeOnePub": {submission: true, assignment: true, submitterOnly: true},
	}
}

// signedInOrViewToken guards the signed-in routes: a signed-in teacher
// passes (requireUser). Without a session, the view-only calls accept the
// body's viewToken, which opens exactly its submission and that submission's
// assignment: any other id is not found, an unknown token too. Everything
// else answers as requireUser does.
func signedInOrViewToken(s Services) gin.HandlerFunc {
	signedIn := requireUser()
	routes := viewOnlyRoutes(s)
	svc := s.StudentLink
	return func(c *gin.Context) {
		route, isViewOnly := routes[c.FullPath()]
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
		// A release link (/results/<token>) is all a student's page has:
		// its first reads may leave the ids out, and learn them from the
		// answers; any id sent must still be the token's.
		required := !v.Release
		if err := json.Unmarshal(body, &ids); err != nil || (route.submitterOnly && v.Release) ||
			!names(ids.SubmissionID, v.SubmissionID, route.submission && required) ||
			!names(ids.AssignmentID, v.AssignmentID, route.assignment && required) {
			fail(c, apperr.ErrNotFound)
			return
		}
		c.Set(viewerKey, identity.Actor{TeamID: v.TeamID})
		c.Set(viewTokenKey, v)
		if route.answer != nil {
			route.answer(c)
			c.Abort()
			return
		}
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

// studentViews answer the reads of a student's result page, by view token,
// with the student's shapes (allow-lists: docs/security.md, "What a view
// token reads"): their submission, the result's status and, once it is
// finished, its feedback, and then the part of the definition that explains
// it; the assignment's public part. The ids are the token's.
type studentViews struct {
	s Services
}

// viewer is the view token signedInOrViewToken checked.
func viewer(c *gin.Context) studentlink.Viewer {
	return c.MustGet(viewTokenKey).(studentlink.Viewer)
}

func (sv studentViews) submission(c *gin.Context, a identity.Actor, _ *submissionRef) (gin.H, error) {
	sub, err := sv.s.Submissions.GetForStudent(c, a, viewer(c).SubmissionID)
	return gin.H{"submission": sub}, err
}

// result is the student's result: its feedback only once released (or
// with instant feedback on), else the status and released: false.
func (sv studentViews) result(c *gin.Context, a identity.Actor, _ *resultRef) (gin.H, error) {
	v := viewer(c)
	fr, err := sv.s.Results.GetForStudent(c, a, v.SubmissionID, v.AssignmentID)
	if err != nil {
		return nil, err
	}
	released, show, err := release.Visibility(c, sv.s.Results.Pool, v.TeamID, v.AssignmentID, v.SubmissionID)
	if err != nil {
		return nil, err
	}
	fr.Released = released
	if !show {
		fr.StudentFeedback = nil
	}
	return gin.H{"functionResult": fr}, nil
}

// function is the part of the definition that explains the student's
// result, under the same rule as the result's feedback.
func (sv studentViews) function(c *gin.Context, a identity.Actor, in *getFunctionBody) (gin.H, error) {
	v := viewer(c)
	fn, err := sv.s.Results.GetFunctionForStudent(c, a, v.SubmissionID, v.AssignmentID, in.Type)
	if err != nil {
		return nil, err // not found, or not ready yet (said first: it is what the page shows)
	}
	_, show, err := release.Visibility(c, sv.s.Results.Pool, v.TeamID, v.AssignmentID, v.SubmissionID)
	if err != nil {
		return nil, err
	}
	if !show {
		return nil, apperr.New(apperr.NotFound, release.MsgNotReleased)
	}
	return gin.H{"function": fn}, nil
}

func (sv studentViews) assignment(c *gin.Context, _ identity.Actor, _ *assignmentRef) (gin.H, error) {
	asg, err := sv.s.StudentLink.ViewAssignment(c, viewer(c))
	return gin.H{"assignment": asg}, err
}
