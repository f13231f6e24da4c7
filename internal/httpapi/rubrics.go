package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/rubric"
)

type rubricHandlers struct {
	svc *rubric.Service
}

func (h *rubricHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/rubric/put", handle(h.put))
	g.POST("/db/rubric/update", handle(h.update))
	g.POST("/db/rubric/get", handle(h.get))
	g.GET("/db/rubric/list", handle(h.list))
}

// rubricRef is the body of the calls that name one rubric.
type rubricRef struct {
	RubricID id `json:"rubricId"`
}

func (h *rubricHandlers) put(c *gin.Context, a identity.Actor, in *rubric.Input) (gin.H, error) {
	r, err := h.svc.Create(c, a, *in)
	return gin.H{"rubric": r}, err
}

type updateRubricBody struct {
	rubricRef
	rubric.Input
}

func (h *rubricHandlers) update(c *gin.Context, a identity.Actor, in *updateRubricBody) (gin.H, error) {
	r, err := h.svc.Update(c, a, in.RubricID.UUID(), in.Input)
	return gin.H{"rubric": r}, err
}

func (h *rubricHandlers) get(c *gin.Context, a identity.Actor, in *rubricRef) (gin.H, error) {
	r, err := h.svc.Get(c, a, in.RubricID.UUID())
	return gin.H{"rubric": r}, err
}

func (h *rubricHandlers) list(c *gin.Context, a identity.Actor, _ *struct{}) (gin.H, error) {
	rs, err := h.svc.List(c, a)
	return gin.H{"rubrics": rs}, err
}
