package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assignment"
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
	g.POST("/db/assignment/submission-rows", handleWith(respondPolled, h.rows))
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
	body, err := r.AppendJSON([]byte(`{"data":`))
	if err != nil {
		return polled{}, err
	}
	return polled{version: r.Version, body: append(body, '}')}, nil
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

// rows answers submission-rows: one sorted, filtered page of the table,
// its counts by status and its version (also the ETag); 304 to an
// If-None-Match naming a version after which nothing in the class changed.
func (h *assignmentHandlers) rows(c *gin.Context, a identity.Actor, in *rowsBody) (polled, error) {
	if err := in.Normalize(); err != nil {
		return polled{}, err
	}
	r, err := h.results.ReadRows(c, a, h.subs, in.AssignmentID.UUID(), c.GetHeader("If-None-Match"), in.RowQuery)
	return polled{version: r.Version, notModified: r.NotModified, data: r.Page}, err
}
