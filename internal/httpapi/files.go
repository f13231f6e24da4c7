package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
)

type fileHandlers struct {
	svc *files.Service
}

// uploadBody is the spec's {fileName, fileType}, plus Markwell's optional
// fileSize (the file's size in bytes), which is signed into the upload URL so
// the store refuses a body of another length; the S3 store requires it.
type uploadBody struct {
	FileName string `json:"fileName"`
	FileType string `json:"fileType"`
	FileSize *int64 `json:"fileSize"`
}

// upload signs a PUT for a new file.
func (h *fileHandlers) upload(scope files.Scope) gin.HandlerFunc {
	return handleWith(okUpload, func(c *gin.Context, a identity.Actor, in *uploadBody) (files.Upload, error) {
		return h.svc.PresignUpload(c, scope, a.TeamID, files.UploadRequest{
			FileName: in.FileName, FileType: in.FileType, FileSize: in.FileSize, UserID: a.UserID,
		})
	})
}

// okUpload answers an upload. The spec reads signedUrl both at the top level
// and inside data, so both carry it.
func okUpload(c *gin.Context, up files.Upload) {
	c.JSON(http.StatusOK, gin.H{"data": up, "signedUrl": up.SignedURL})
}

type signedURLBody struct {
	Link string `json:"link"`
}

func (h *fileHandlers) signedURL(c *gin.Context, a identity.Actor, in *signedURLBody) (gin.H, error) {
	u, err := h.svc.SignedURL(c, a.TeamID, in.Link)
	return gin.H{"signedUrl": u}, err
}
