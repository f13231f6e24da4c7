package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/export"
	"github.com/markwell/markwell/internal/identity"
)

// exportHandlers serve an assignment's results as a CSV or XLSX download.
type exportHandlers struct {
	svc *export.Service
}

func (h *exportHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/export", handleWith(sendExport, h.export))
}

type exportBody struct {
	teamScope
	AssignmentID    id     `json:"assignmentId"`
	Format          string `json:"format"`
	SubmissionIDs   []id   `json:"submissionIds"`
	IncludeFeedback bool   `json:"includeFeedback"`
}

func (h *exportHandlers) export(c *gin.Context, a identity.Actor, in *exportBody) (export.File, error) {
	return h.svc.Export(c, a, export.Request{
		AssignmentID: in.AssignmentID.UUID(), Format: in.Format,
		SubmissionIDs: uuids(in.SubmissionIDs), IncludeFeedback: in.IncludeFeedback,
	})
}

// sendExport answers with the file as a download, named after the
// assignment.
func sendExport(c *gin.Context, f export.File) {
	sendAttachment(c, f.Name, f.ContentType, f.Body)
}
