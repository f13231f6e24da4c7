package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/submission"
)

type assignmentHandlers struct {
	svc     *assignment.Service
	subs    *submission.Service
	results *result.Service
}

func (h *assignmentHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/put", handle(h.put))
	g.POST("/db/assignment/update", handle(h.update))
	g.POST("/db/assignment/get", handleWith(respondPolled, h.get))
	g.POST("/db/assignment/get-view-only", handle(h.getViewOnly))
	g.POST("/db/assignment/history", handle(h.history))
	g.POST("/db/assignment/submission-rows", handleWith(respondRows, h.rows))
	g.POST("/db/function/put", handle(h.putFunction))
	g.POST("/db/function/update", handle(h.updateFunction))
	g.POST("/db/function/get", handle(h.getFunction))
	g.POST("/db/function/get-view-only", handle(h.getFunction))
}

// assignmentRef is the body of the calls that name one assignment.
type assignmentRef struct {
	AssignmentID id `json:"assignmentId"`
}

func (h *assignmentHandlers) put(c *gin.Context, a identity.Actor, in *assignment.Input) (gin.H, error) {
	asg, err := h.svc.Create(c, a, *in)
	return gin.H{"assignment": asg}, err
}

type updateAssignmentBody struct {
	ID id `json:"id"`
	assignment.Input
}

func (h *assignmentHandlers) update(c *gin.Context, a identity.Actor, in *updateAssignmentBody) (gin.H, error) {
	asg, err := h.svc.Update(c, a, in.ID.UUID(), in.Input)
	return gin.H{"assignment": asg}, err
}

// getAssignmentBody is assignment/get's body: since is the version the
// client holds (data.version of its last answer), asking for a delta.
// Light leaves out the results and submissions of a class larger than
// result.LightClassSize ("partial": true): the page's table reads them a
// page at a time (submission-rows).
type getAssignmentBody struct {
	assignmentRef
	Since string `json:"since"`
	Light bool   `json:"light"`
}

// get answers the assignment page, which polls it while submissions are
// being read: the assignment, its results and its submissions' summaries;
// a 304 when nothing changed since the If-None-Match version, only what
// changed since the since version otherwise (docs/api-grading.md).
func (h *assignmentHandlers) get(c *gin.Context, a identity.Actor, in *getAssignmentBody) (polled, error) {
	if in.Light {
		asg, err := h.svc.GetViewOnly(c, a, in.AssignmentID.UUID())
		if err != nil {
			return polled{}, err
		}
		if len(asg.Submissions) > result.LightClassSize {
			return polled{data: gin.H{"assignment": asg, "functionResults": []result.FunctionResult{}, "submissions": []submission.Submission{}, "partial": true}}, nil
		}
	}
	r, err := h.results.ReadClass(c, a, h.subs, in.AssignmentID.UUID(), result.Poll{
		IfNoneMatch: c.GetHeader("If-None-Match"), Since: in.Since,
	})
	if err != nil || r.NotModified {
		return polled{version: r.Version, notModified: r.NotModified}, err
	}
	out := gin.H{"assignment": r.Assignment, "functionResults": r.Results, "submissions": r.Submissions, "version": r.Version.String()}
	if r.Delta {
		out["delta"] = true
		out["deletedSubmissionIds"] = r.DeletedSubmissionIDs
		out["deletedFunctionResultIds"] = r.DeletedResultIDs
	}
	return polled{version: r.Version, data: out}, nil
}

// history lists the assignment's changes, newest first.
func (h *assignmentHandlers) history(c *gin.Context, a identity.Actor, in *assignmentRef) (gin.H, error) {
	changes, err := h.svc.History(c, a, in.AssignmentID.UUID())
	return gin.H{"history": changes}, err
}

func (h *assignmentHandlers) getViewOnly(c *gin.Context, a identity.Actor, in *assignmentRef) (gin.H, error) {
	asg, err := h.svc.GetViewOnly(c, a, in.AssignmentID.UUID())
	return gin.H{"assignment": asg}, err
}

type putFunctionBody struct {
	assignmentRef
	assignment.FunctionInput
}

func (h *assignmentHandlers) putFunction(c *gin.Context, a identity.Actor, in *putFunctionBody) (gin.H, error) {
	fn, err := h.svc.PutFunction(c, a, in.AssignmentID.UUID(), in.FunctionInput)
	return gin.H{"function": fn}, err
}

type updateFunctionBody struct {
	FunctionID   id         `json:"functionId"`
	AssignmentID optionalID `json:"assignmentId"` // the function knows its assignment
	assignment.FunctionInput
}

func (h *assignmentHandlers) updateFunction(c *gin.Context, a identity.Actor, in *updateFunctionBody) (gin.H, error) {
	fn, err := h.svc.UpdateFunction(c, a, in.FunctionID.UUID(), in.AssignmentID.UUID(), in.FunctionInput)
	return gin.H{"function": fn}, err
}

type getFunctionBody struct {
	Type string `json:"type"`
	assignmentRef
}

// getFunction serves function/get and its view-only variant alike.
func (h *assignmentHandlers) getFunction(c *gin.Context, a identity.Actor, in *getFunctionBody) (gin.H, error) {
	fn, err := h.svc.GetFunction(c, a, in.AssignmentID.UUID(), in.Type)
	return gin.H{"function": fn}, err
}

// rowsBody asks one page of the submissions table.
type rowsBody struct {
	assignmentRef
	result.RowQuery
}

// rowsAnswer is a page of the table, or nothing when the client's version
// is still current.
type rowsAnswer struct {
	page        result.Rows
	etag        string
	notModified bool
}

// rows answers submission-rows: one sorted, filtered page of the table,
// its counts by status and its version (also the ETag); 304 to an
// If-None-Match naming a version after which nothing in the class changed.
func (h *assignmentHandlers) rows(c *gin.Context, a identity.Actor, in *rowsBody) (rowsAnswer, error) {
	if err := in.Normalize(); err != nil {
		return rowsAnswer{}, err
	}
	id := in.AssignmentID.UUID()
	// Taken before the reads: whatever commits during them shows next time.
	v, err := changes.Now(c, h.results.Pool)
	if err != nil {
		return rowsAnswer{}, err
	}
	if old, err := changes.Parse(c.GetHeader("If-None-Match")); err == nil && old.Usable(time.Now()) {
		if err := h.svc.Check(c, a, id); err != nil { // another team's: 404, never a 304
			return rowsAnswer{}, err
		}
		set, err := changes.Since(c, h.results.Pool, id, old)
		if err != nil {
			return rowsAnswer{}, err
		}
		if set.None() {
			return rowsAnswer{etag: old.ETag(), notModified: true}, nil
		}
	}
	results, err := h.results.RowResults(c, a, id)
	if err != nil {
		return rowsAnswer{}, err
	}
	subs, err := h.subs.ListLoaded(c, a, id)
	if err != nil {
		return rowsAnswer{}, err
	}
	page := result.BuildRows(subs, results, in.RowQuery)
	page.Version = v.String()
	return rowsAnswer{page: page, etag: v.ETag()}, nil
}

func respondRows(c *gin.Context, out rowsAnswer) {
	c.Header("ETag", out.etag)
	if out.notModified {
		c.Status(http.StatusNotModified)
		return
	}
	ok(c, out.page)
}
