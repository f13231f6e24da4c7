package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/docx"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/ratelimit"
)

// docxType is the media type of a Word document.
const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

type chatHandlers struct {
	svc *chat.Service
	// budget caps streamed answers per teacher and team (nil: no cap).
	budget *ratelimit.AIBudget
}

func (h *chatHandlers) register(g *gin.RouterGroup) {
	g.PUT("/db/chat/put", handle(h.put))
	g.PUT("/db/chat/get", handle(h.list))
	g.POST("/db/chat/delete", handle(h.delete))
	g.POST("/chat/download-docx", handleWith(sendDocx, h.download))
	g.POST("/chat/stream", spendAI(h.budget), handleWith(sendStream, h.prepareStream))
}

// chatStateBody is the client's chat state slice as chat/put sends it.
type chatStateBody struct {
	chat.State
	// ChatID is absent for a chat not saved yet.
	ChatID      optionalID `json:"chatId"`
	AssistantID optionalID `json:"assistantId"`
	ToolID      string     `json:"toolId"`
}

type putChatBody struct {
	ChatState chatStateBody `json:"chatState"`
	// AssistantID names the assistant of the chat; it may also come inside
	// chatState. Absent: a document chat, or on an update the chat's own.
	AssistantID optionalID `json:"assistantId"`
	// ToolID names the built-in tool or workflow of the chat (package
	// catalog); it may also come inside chatState. Absent: none, or on an
	// update the chat's own.
	ToolID string `json:"toolId"`
}

func (h *chatHandlers) put(c *gin.Context, a identity.Actor, in *putChatBody) (gin.H, error) {
	asst := in.AssistantID.UUID()
	if asst == uuid.Nil {
		asst = in.ChatState.AssistantID.UUID()
	}
	tool := in.ToolID
	if tool == "" {
		tool = in.ChatState.ToolID
	}
	id, err := h.svc.Save(c, a, in.ChatState.ChatID.UUID(), asst, tool, in.ChatState.State)
	return gin.H{"chatDoc": gin.H{"_id": id}}, err
}

func (h *chatHandlers) list(c *gin.Context, a identity.Actor, _ *struct{}) (gin.H, error) {
	cs, err := h.svc.List(c, a)
	return gin.H{"chatDocs": cs}, err
}

type chatRef struct {
	ChatID id `json:"chatId"`
}

func (h *chatHandlers) delete(c *gin.Context, a identity.Actor, in *chatRef) (gin.H, error) {
	return success(h.svc.Delete(c, a, in.ChatID.UUID()))
}

type downloadDocxBody struct {
	Markdown string `json:"markdown"`
}

func (h *chatHandlers) download(c *gin.Context, a identity.Actor, in *downloadDocxBody) ([]byte, error) {
	return h.svc.Export(c, a, in.Markdown)
}

// sendDocx answers with the .docx itself, as a download named
// downloaded.docx.
func sendDocx(c *gin.Context, doc []byte) {
	c.Header("Content-Disposition", `attachment; filename="`+docx.FileName+`"`)
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, docxType, doc)
}
