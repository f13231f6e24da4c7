package httpapi

import (
	"mime"
	"net/http"
	"net/url"
	"strings"

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
// assignment (RFC 6266: an ASCII fallback and the UTF-8 name).
func sendExport(c *gin.Context, f export.File) {
	c.Header("Content-Disposition", contentDisposition(f.Name))
	c.Header("Cache-Control", "no-store")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, f.ContentType, f.Body)
}

// contentDisposition is an attachment header for name: filename= with the
// name's ASCII letters (others as _), filename*= with the name itself.
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	if ascii == name {
		return mime.FormatMediaType("attachment", map[string]string{"filename": name})
	}
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + url.PathEscape(name)
}
