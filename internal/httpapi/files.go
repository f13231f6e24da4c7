package httpapi

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/files"
)

type fileHandlers struct {
	svc *files.Service
}

// upload signs a PUT for a new file. The spec reads signedUrl both at the top
// level and inside data, so both carry it.
func (h *fileHandlers) upload(scope files.Scope) gin.HandlerFunc {
	return func(c *gin.Context) {
		var in struct {
			FileName string `json:"fileName"`
			FileType string `json:"fileType"`
		}
		if !bind(c, &in) {
			return
		}
		var team uuid.UUID // students upload by link, without a team
		if scope != files.Student {
			team = actor(c).TeamID
		}
		up, err := h.svc.PresignUpload(c, scope, team, in.FileName, in.FileType)
		if err != nil {
			fail(c, err)
			return
		}
		c.JSON(200, gin.H{"data": up, "signedUrl": up.SignedURL})
	}
}

func (h *fileHandlers) signedURL(c *gin.Context) {
	var in struct {
		Link string `json:"link"`
	}
	if !bind(c, &in) {
		return
	}
	u, err := h.svc.SignedURL(c, actor(c).TeamID, in.Link)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"signedUrl": u})
}
