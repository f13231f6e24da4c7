package httpapi

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
)

type assignmentHandlers struct {
	svc *assignment.Service
}

func (h *assignmentHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/put", h.put)
	g.POST("/db/assignment/update", h.update)
	g.POST("/db/assignment/get", h.get)
	g.POST("/db/assignment/get-view-only", h.getViewOnly)
	g.POST("/db/function/put", h.putFunction)
	g.POST("/db/function/update", h.updateFunction)
	g.POST("/db/function/get", h.getFunction)
	g.POST("/db/function/get-view-only", h.getFunction)
}

func (h *assignmentHandlers) put(c *gin.Context) {
	var in assignment.Input
	if !bind(c, &in) {
		return
	}
	asg, err := h.svc.Create(c, actor(c), in)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}

func (h *assignmentHandlers) update(c *gin.Context) {
	var in struct {
		ID string `json:"id"`
		assignment.Input
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.ID)
	var asg assignment.Assignment
	if err == nil {
		asg, err = h.svc.Update(c, actor(c), id, in.Input)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}

// assignmentRef is the body of the calls that name one assignment.
type assignmentRef struct {
	AssignmentID string `json:"assignmentId"`
}

func (h *assignmentHandlers) get(c *gin.Context) {
	var in assignmentRef
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	var (
		asg     assignment.Assignment
		results []assignment.FunctionResult
	)
	if err == nil {
		asg, results, err = h.svc.Get(c, actor(c), id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg, "functionResults": results})
}

func (h *assignmentHandlers) getViewOnly(c *gin.Context) {
	var in assignmentRef
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	var asg assignment.Assignment
	if err == nil {
		asg, err = h.svc.GetViewOnly(c, actor(c), id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}

func (h *assignmentHandlers) putFunction(c *gin.Context) {
	var in struct {
		AssignmentID string `json:"assignmentId"`
		assignment.FunctionInput
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	var fn assignment.Function
	if err == nil {
		fn, err = h.svc.PutFunction(c, actor(c), id, in.FunctionInput)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"function": fn})
}

func (h *assignmentHandlers) updateFunction(c *gin.Context) {
	var in struct {
		FunctionID   string `json:"functionId"`
		AssignmentID string `json:"assignmentId"`
		assignment.FunctionInput
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.FunctionID)
	asgID := uuid.Nil // optional: the function knows its assignment
	if err == nil && in.AssignmentID != "" {
		asgID, err = parseID(in.AssignmentID)
	}
	var fn assignment.Function
	if err == nil {
		fn, err = h.svc.UpdateFunction(c, actor(c), id, asgID, in.FunctionInput)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"function": fn})
}

// getFunction serves function/get and its view-only variant alike.
func (h *assignmentHandlers) getFunction(c *gin.Context) {
	var in struct {
		Type         string `json:"type"`
		AssignmentID string `json:"assignmentId"`
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	var fn assignment.Function
	if err == nil {
		fn, err = h.svc.GetFunction(c, actor(c), id, in.Type)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"function": fn})
}
