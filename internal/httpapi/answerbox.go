package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/identity"
)

type answerBoxHandlers struct {
	svc *answerbox.Service
}

func (h *answerBoxHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/answer-boxes/get", handle(h.get))
	g.POST("/db/assignment/answer-boxes/update", handle(h.update))
	g.POST("/db/submission/page-image", handle(h.pageImage))
}

func (h *answerBoxHandlers) get(c *gin.Context, a identity.Actor, in *assignmentRef) (answerbox.Template, error) {
	return h.svc.Get(c, a, in.AssignmentID.UUID())
}

// updateAnswerBoxesBody is answer-boxes/update's body: the whole template.
type updateAnswerBoxesBody struct {
	assignmentRef
	Boxes []answerbox.Box `json:"boxes"`
}

func (h *answerBoxHandlers) update(c *gin.Context, a identity.Actor, in *updateAnswerBoxesBody) (gin.H, error) {
	boxes, err := h.svc.Update(c, a, in.AssignmentID.UUID(), in.Boxes)
	return gin.H{"boxes": boxes}, err
}

// pageImageBody names one page (0-based) of a submission.
type pageImageBody struct {
	submissionRef
	Page int `json:"page"`
}

func (h *answerBoxHandlers) pageImage(c *gin.Context, a identity.Actor, in *pageImageBody) (gin.H, error) {
	u, err := h.svc.PageImage(c, a, in.SubmissionID.UUID(), in.Page)
	return gin.H{"url": u}, err
}
