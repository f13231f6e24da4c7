package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/catalog"
	"github.com/markwell/markwell/internal/identity"
)

// catalogHandlers serve the built-in tools and workflows.
type catalogHandlers struct{}

func (h catalogHandlers) register(g *gin.RouterGroup) {
	g.GET("/catalog", handle(h.get))
}

// get lists the tools and workflows without their system prompts or
// templates, which stay on the server.
func (catalogHandlers) get(_ *gin.Context, _ identity.Actor, _ *struct{}) (gin.H, error) {
	return gin.H{"tools": catalog.Tools(), "workflows": catalog.Workflows()}, nil
}
