package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/original"
)

// originalHandlers show a submission's original file beside its text, to
// the teachers of its team (never through a student's view token).
type originalHandlers struct {
	svc *original.Service
}

func (h *originalHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/submission/original/get", handle(h.get))
	g.POST("/db/submission/original/page", handle(h.page))
	g.POST("/db/submission/original/download", handle(h.download))
}

func (h *originalHandlers) get(c *gin.Context, a identity.Actor, in *submissionRef) (gin.H, error) {
	o, err := h.svc.Get(c, a, in.SubmissionID.UUID())
	return gin.H{"original": o}, err
}

func (h *originalHandlers) page(c *gin.Context, a identity.Actor, in *pageImageBody) (gin.H, error) {
	u, err := h.svc.PageImage(c, a, in.SubmissionID.UUID(), in.Page)
	return gin.H{"url": u}, err
}

func (h *originalHandlers) download(c *gin.Context, a identity.Actor, in *submissionRef) (original.Download, error) {
	return h.svc.Download(c, a, in.SubmissionID.UUID())
}
