package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/identity"
)

type assistantHandlers struct {
	svc *assistant.Service
}

func (h *assistantHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assistant/put", handle(h.put))
	g.POST("/db/assistant/update", handle(h.update))
	g.POST("/db/assistant/delete", handle(h.delete))
	g.POST("/db/assistant/list", handle(h.list))
	g.POST("/db/team/addSavedAssistant", handle(h.save))
	g.POST("/db/team/removeSavedAssistant", handle(h.unsave))
}

// assistantRef is the body of the calls that name one assistant.
type assistantRef struct {
	teamScope
	AssistantID id `json:"assistantId"`
}

func (h *assistantHandlers) put(c *gin.Context, a identity.Actor, in *assistant.Input) (gin.H, error) {
	r, err := h.svc.Create(c, a, *in)
	return gin.H{"assistant": r}, err
}

type updateAssistantBody struct {
	assistantRef
	assistant.Input
}

func (h *assistantHandlers) update(c *gin.Context, a identity.Actor, in *updateAssistantBody) (gin.H, error) {
	r, err := h.svc.Update(c, a, in.AssistantID.UUID(), in.Input)
	return gin.H{"assistant": r}, err
}

func (h *assistantHandlers) delete(c *gin.Context, a identity.Actor, in *assistantRef) (gin.H, error) {
	return success(h.svc.Delete(c, a, in.AssistantID.UUID()))
}

func (h *assistantHandlers) list(c *gin.Context, a identity.Actor, _ *struct{}) (gin.H, error) {
	rs, err := h.svc.List(c, a)
	return gin.H{"assistants": rs}, err
}

func (h *assistantHandlers) save(c *gin.Context, a identity.Actor, in *assistantRef) (gin.H, error) {
	return success(h.svc.Save(c, a, in.AssistantID.UUID()))
}

func (h *assistantHandlers) unsave(c *gin.Context, a identity.Actor, in *assistantRef) (gin.H, error) {
	return success(h.svc.Unsave(c, a, in.AssistantID.UUID()))
}
