package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/attachment"
	"github.com/markwell/markwell/internal/identity"
)

type attachmentHandlers struct {
	svc *attachment.Service
}

func (h *attachmentHandlers) register(g *gin.RouterGroup) {
	g.POST("/upload-and-read-pdf", handle(h.readPDF))
	g.POST("/upload-and-read-files", handle(h.readFiles))
}

// readPDFBody names the chat's PDFs: blob keys, or file URLs of this store.
type readPDFBody struct {
	FileLinks []string `json:"fileLinks"`
}

// readFilesBody names the chat's files and, optionally, their names.
type readFilesBody struct {
	FileLinks []string `json:"fileLinks"`
	FileNames []string `json:"fileNames"`
}

// readPDF reads PDFs only: any other file gets the marker "[{name} is not a
// PDF]" and the error flag.
func (h *attachmentHandlers) readPDF(c *gin.Context, a identity.Actor, in *readPDFBody) (attachment.Result, error) {
	return h.svc.Read(c, a.TeamID, attachment.Request{Links: in.FileLinks, PDFOnly: true})
}

// readFiles reads any file the extractors read.
func (h *attachmentHandlers) readFiles(c *gin.Context, a identity.Actor, in *readFilesBody) (attachment.Result, error) {
	return h.svc.Read(c, a.TeamID, attachment.Request{Links: in.FileLinks, Names: in.FileNames})
}
