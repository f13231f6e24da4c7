// Package chat keeps teachers' chats: the messages, the current document and
// its past versions, and the assistant or built-in tool the chat is with
// (neither for a plain document chat). A chat is its teacher's own: another
// teacher's chat, in the same team or not, is answered as not found. The
// package also exports a chat's document as a Word file (export.go).
package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/bounded"
	"github.com/markwell/markwell/internal/catalog"
	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/store"
)

// Limits on what a chat holds. The request body cap (4 MB) bounds the total.
const (
	MaxMessages         = 1_000
	MaxMessageLength    = 100_000
	MaxDocumentLength   = 500_000
	MaxPastDocuments    = 1_000
	MaxListed           = 200
	TitleLength         = 60
	untitled            = "Untitled chat"
	roleUser            = "user"
	roleAssistant       = "assistant"
	roleSystem          = "system"
	ellipsis            = "…"
	maxTitleSourceBytes = 4 * TitleLength
)

// The messages of refused calls.
const (
	MsgRole             = "Message role must be user, assistant or system"
	MsgTooManyMessages  = "A chat can hold at most 1,000 messages"
	MsgMessageTooLong   = "A message can be at most 100,000 characters"
	MsgDocumentTooLong  = "The document can be at most 500,000 characters"
	MsgTooManyPastDocs  = "A chat can hold at most 1,000 past documents"
	MsgPastDocumentLink = "Each past document must belong to a message of this chat"
)

// Message is one message of a chat.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Stopped marks an answer the teacher stopped (its Content is what had
	// arrived, "" when nothing had), so a reopened chat still shows it as
	// stopped and can ask again. Optional, and kept on assistant messages
	// only; chat/stream ignores it.
	Stopped bool `json:"stopped,omitempty"`
}

// State is what the client saves: the chat's client state.
type State struct {
	Messages      []Message              `json:"messages"`
	Document      string                 `json:"document"`
	PastDocuments []chatdoc.PastDocument `json:"pastDocuments"`
}

// Chat is a saved chat as the client reads it.
type Chat struct {
	ID uuid.UUID `json:"_id"`
	// Title is the chat's first user message, clipped to TitleLength
	// characters.
	Title         string                 `json:"title"`
	Messages      []Message              `json:"messages"`
	Document      string                 `json:"document"`
	PastDocuments []chatdoc.PastDocument `json:"pastDocuments"`
	// AssistantID is nil for a document chat without an assistant, or once
	// the assistant was deleted.
	AssistantID *uuid.UUID `json:"assistantId"`
	// ToolID is the built-in tool or workflow the chat is with (package
	// catalog), "" when none.
	ToolID    string    `json:"toolId"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Service keeps chats and exports their documents.
type Service struct {
	Pool *pgxpool.Pool
	// Blob reads the team's stored images a document names (export.go).
	Blob blob.Blob
	// Model answers streamed chats (stream.go).
	Model llm.Client
	// Exports bounds the Word exports (export.go); nil is the process's
	// gate (NewExportGate).
	Exports *bounded.Gate
}

// Save creates the actor's chat (id uuid.Nil) or replaces the actor's chat
// id, and returns its id. assistant, when not uuid.Nil, must be an assistant
// of the actor's team; on an update uuid.Nil keeps the chat's assistant.
// tool, when not "", must name a chat tool or a workflow of the catalogue
// (see catalog.ChatPrompt: 'Tool not found' is 404); on an update "" keeps
// the chat's tool. A chat is with an assistant or a tool, not both.
func (s *Service) Save(ctx context.Context, a identity.Actor, id, assistant uuid.UUID, tool string, st State) (uuid.UUID, error) {
	if assistant != uuid.Nil && tool != "" {
		return uuid.Nil, apperr.New(apperr.Invalid, catalog.MsgAssistantAndTool)
	}
	messages, past, err := validate(st)
	if err != nil {
		return uuid.Nil, err
	}
	if tool != "" {
		if _, err := catalog.ChatPrompt(tool); err != nil {
			return uuid.Nil, err
		}
	}
	var asst uuid.NullUUID
	if assistant != uuid.Nil {
		if _, err := store.Q.GetAssistant(ctx, s.Pool, store.GetAssistantParams{ID: assistant, TeamID: a.TeamID}); err != nil {
			return uuid.Nil, store.NotFound(fmt.Errorf("load assistant %s: %w", assistant, err))
		}
		asst = uuid.NullUUID{UUID: assistant, Valid: true}
	}
	if id == uuid.Nil {
		row, err := store.Q.CreateChat(ctx, s.Pool, store.CreateChatParams{
			TeamID: a.TeamID, UserID: a.UserID, AssistantID: asst, ToolID: tool,
			Messages: messages, Document: st.Document, PastDocuments: past,
		})
		if err != nil {
			return uuid.Nil, fmt.Errorf("create chat: %w", err)
		}
		return row.ID, nil
	}
	row, err := store.Q.UpdateChat(ctx, s.Pool, store.UpdateChatParams{
		ID: id, UserID: a.UserID, TeamID: a.TeamID, AssistantID: asst, ToolID: tool,
		Messages: messages, Document: st.Document, PastDocuments: past,
	})
	if err != nil {
		return uuid.Nil, store.NotFound(fmt.Errorf("update chat %s: %w", id, err))
	}
	return row.ID, nil
}

// List returns the actor's chats in their team, most recently saved first
// (at most MaxListed).
func (s *Service) List(ctx context.Context, a identity.Actor) ([]Chat, error) {
	rows, err := store.Q.ListChats(ctx, s.Pool, store.ListChatsParams{UserID: a.UserID, TeamID: a.TeamID, MaxChats: MaxListed})
	if err != nil {
		return nil, fmt.Errorf("list chats of %s: %w", a.UserID, err)
	}
	out := make([]Chat, len(rows))
	for i, row := range rows {
		if out[i], err = fromRow(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Delete removes one of the actor's chats.
func (s *Service) Delete(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	n, err := store.Q.DeleteChat(ctx, s.Pool, store.DeleteChatParams{ID: id, UserID: a.UserID, TeamID: a.TeamID})
	if err != nil {
		return fmt.Errorf("delete chat %s: %w", id, err)
	}
	return store.Affected(n)
}

// validate checks a chat's shape and sizes and returns its messages and
// past documents as they are stored; past documents are normalized with
// chatdoc.Record (one per message index, in order).
func validate(st State) (messages, past json.RawMessage, err error) {
	invalid := func(msg string) (json.RawMessage, json.RawMessage, error) {
		return nil, nil, apperr.New(apperr.Invalid, msg)
	}
	if len(st.Messages) > MaxMessages {
		return invalid(MsgTooManyMessages)
	}
	for _, m := range st.Messages {
		if m.Role != roleUser && m.Role != roleAssistant && m.Role != roleSystem {
			return invalid(MsgRole)
		}
		if utf8.RuneCountInString(m.Content) > MaxMessageLength {
			return invalid(MsgMessageTooLong)
		}
	}
	if utf8.RuneCountInString(st.Document) > MaxDocumentLength {
		return invalid(MsgDocumentTooLong)
	}
	if len(st.PastDocuments) > MaxPastDocuments {
		return invalid(MsgTooManyPastDocs)
	}
	var docs []chatdoc.PastDocument
	for _, p := range st.PastDocuments {
		if p.MessageIndex < 0 || p.MessageIndex >= len(st.Messages) {
			return invalid(MsgPastDocumentLink)
		}
		if utf8.RuneCountInString(p.Document) > MaxDocumentLength {
			return invalid(MsgDocumentTooLong)
		}
		docs = chatdoc.Record(docs, p.MessageIndex, p.Document)
	}
	msgs := slices.Clone(st.Messages)
	if msgs == nil {
		msgs = []Message{}
	}
	for i := range msgs {
		msgs[i].Stopped = msgs[i].Stopped && msgs[i].Role == roleAssistant // only an answer is stopped
	}
	if docs == nil {
		docs = []chatdoc.PastDocument{}
	}
	if messages, err = json.Marshal(msgs); err != nil {
		return nil, nil, fmt.Errorf("encode messages: %w", err)
	}
	if past, err = json.Marshal(docs); err != nil {
		return nil, nil, fmt.Errorf("encode past documents: %w", err)
	}
	return messages, past, nil
}

// fromRow turns a stored chat into its API shape.
func fromRow(row store.Chat) (Chat, error) {
	c := Chat{ID: row.ID, Document: row.Document, ToolID: row.ToolID, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}
	if row.AssistantID.Valid {
		c.AssistantID = &row.AssistantID.UUID
	}
	if err := json.Unmarshal(row.Messages, &c.Messages); err != nil {
		return Chat{}, fmt.Errorf("decode messages of chat %s: %w", row.ID, err)
	}
	if err := json.Unmarshal(row.PastDocuments, &c.PastDocuments); err != nil {
		return Chat{}, fmt.Errorf("decode past documents of chat %s: %w", row.ID, err)
	}
	if c.Messages == nil {
		c.Messages = []Message{}
	}
	if c.PastDocuments == nil {
		c.PastDocuments = []chatdoc.PastDocument{}
	}
	c.Title = Title(c.Messages)
	return c, nil
}

// Title names a chat by its first user message with its white space
// collapsed, clipped to TitleLength characters ("…" marks a cut); a chat
// without one is "Untitled chat".
func Title(messages []Message) string {
	for _, m := range messages {
		if m.Role != roleUser {
			continue
		}
		src := m.Content
		if len(src) > maxTitleSourceBytes {
			src = strings.ToValidUTF8(src[:maxTitleSourceBytes], "")
		}
		t := strings.Join(strings.Fields(src), " ")
		if t == "" {
			continue
		}
		if r := []rune(t); len(r) > TitleLength {
			t = strings.TrimSpace(string(r[:TitleLength-1])) + ellipsis
		}
		return t
	}
	return untitled
}
