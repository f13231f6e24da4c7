package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/rubric"
)

type rubricHandlers struct {
	svc *rubric.Service
}

func (h *rubricHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/rubric/put", h.put)
	g.POST("/db/rubric/update", h.update)
	g.POST("/db/rubric/get", h.get)
	g.GET("/db/rubric/list", h.list)
}

func (h *rubricHandlers) put(c *gin.Context) {
	var in rubric.Input
	if !bind(c, &in) {
		return
	}
	r, err := h.svc.Create(c, actor(c), in)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"rubric": r})
}

func (h *rubricHandlers) update(c *gin.Context) {
	var in struct {
		RubricID string `json:"rubricId"`
		rubric.Input
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.RubricID)
	var r rubric.Rubric
	if err == nil {
		r, err = h.svc.Update(c, actor(c), id, in.Input)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"rubric": r})
}

func (h *rubricHandlers) get(c *gin.Context) {
	var in struct {
		RubricID string `json:"rubricId"`
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.RubricID)
	var r rubric.Rubric
	if err == nil {
		r, err = h.svc.Get(c, actor(c), id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"rubric": r})
}

func (h *rubricHandlers) list(c *gin.Context) {
	rs, err := h.svc.List(c, actor(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"rubrics": rs})
}
