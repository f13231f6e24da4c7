package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/identity"
)

// heartbeatEvery is how often a stream sends a comment line, so proxies
// keep an idle connection open while the model thinks.
const heartbeatEvery = 15 * time.Second

// streamChatBody is what POST /chat/stream reads.
type streamChatBody struct {
	Messages []chat.Message `json:"messages"`
	// AssistantID is absent for a document chat without an assistant.
	AssistantID optionalID `json:"assistantId"`
	// ToolID names a built-in chat tool, or a workflow whose chat goes on.
	ToolID string `json:"toolId"`
	// Workflow starts a workflow run: its composed message is appended.
	Workflow *workflowRunBody `json:"workflow"`
	// Document is the chat's current document, shown to the model.
	Document string `json:"document"`
}

// workflowRunBody is a workflow's id and its form's values by field name.
type workflowRunBody struct {
	ID     string            `json:"id"`
	Inputs map[string]string `json:"inputs"`
}

// chatStream is a checked stream request, ready to be answered.
type chatStream struct {
	svc    *chat.Service
	prompt chat.Prompt
}

// prepareStream validates the body and builds the prompt: a refusal here
// (400, 404, 429) is a JSON answer, as on any route.
func (h *chatHandlers) prepareStream(c *gin.Context, a identity.Actor, in *streamChatBody) (chatStream, error) {
	ask := chat.Ask{AssistantID: in.AssistantID.UUID(), ToolID: in.ToolID, Document: in.Document}
	if in.Workflow != nil {
		ask.Workflow = &chat.WorkflowRun{ID: in.Workflow.ID, Inputs: in.Workflow.Inputs}
	}
	p, err := h.svc.Prompt(c, a, ask, in.Messages)
	return chatStream{svc: h.svc, prompt: p}, err
}

// sendStream answers with server-sent events: meta {omittedTurns, prompt?}
// (prompt: the message a workflow run composed), delta
// {text} for each piece of chat text, document {document} when the
// document changes, then done {text, document, usage} or error {message};
// ": ping" every heartbeatEvery. The request's context is the model call's:
// a client that goes away cancels it.
func sendStream(c *gin.Context, s chatStream) {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Status(http.StatusOK)
	w := &sseWriter{w: c.Writer}
	ctx := c.Request.Context()

	stop := make(chan struct{})
	var beats sync.WaitGroup
	beats.Go(func() { w.heartbeat(stop) })
	defer func() {
		w.close()
		close(stop)
		beats.Wait() // no write once the handler returns
	}()

	meta := gin.H{"omittedTurns": s.prompt.OmittedTurns}
	if s.prompt.WorkflowPrompt != "" {
		meta["prompt"] = s.prompt.WorkflowPrompt
	}
	if err := w.event("meta", meta); err != nil {
		return
	}
	reply, err := s.svc.Stream(ctx, s.prompt,
		func(text string) error { return w.event("delta", gin.H{"text": text}) },
		func(doc string) error { return w.event("document", gin.H{"document": doc}) })
	switch {
	case err == nil:
		_ = w.event("done", gin.H{"text": reply.Text, "document": reply.Document, "usage": gin.H{
			"model": reply.Usage.Model, "promptTokens": reply.Usage.PromptTokens, "completionTokens": reply.Usage.CompletionTokens,
		}})
	case ctx.Err() != nil || errors.Is(err, errStreamWrite):
		logger(c).Info("chat stream abandoned by the client", "err", err)
	default:
		logger(c).Warn("chat stream failed", "err", err)
		_ = w.event("error", gin.H{"message": chat.ErrorMessage(err)})
	}
}

// errStreamWrite wraps a failed write to the client.
var errStreamWrite = errors.New("write to the client")

// sseWriter writes server-sent events from several goroutines, flushing
// after each.
type sseWriter struct {
	mu     sync.Mutex
	w      gin.ResponseWriter
	closed bool
}

// close makes every later write a no-op.
func (s *sseWriter) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// event writes one event with data encoded as JSON.
func (s *sseWriter) event(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", name, err)
	}
	return s.write(fmt.Sprintf("event: %s\ndata: %s\n\n", name, b))
}

// write writes raw and flushes it.
func (s *sseWriter) write(raw string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if _, err := s.w.WriteString(raw); err != nil {
		return fmt.Errorf("%w: %w", errStreamWrite, err)
	}
	s.w.Flush()
	return nil
}

// heartbeat writes ": ping" every heartbeatEvery until stop closes.
func (s *sseWriter) heartbeat(stop <-chan struct{}) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if s.write(": ping\n\n") != nil {
				return
			}
		}
	}
}
