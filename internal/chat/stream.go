package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/catalog"
	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
)

// ContextBudget is the context window, in estimated tokens (characters ÷ 4),
// a streamed chat is trimmed to: the oldest turns are left out first; the
// system prompt, the assistant's files and file messages are always sent.
const ContextBudget = 24_000

// documentEvery is the least time between two reports of a document being
// written; a finished section is reported at once.
const documentEvery = 150 * time.Millisecond

// MsgNoMessages refuses a stream request without a message.
const MsgNoMessages = "Send at least one message"

// documentChatPrompt is the system prompt of a document chat without an
// assistant.
const documentChatPrompt = "You are Markwell's writing assistant for teachers. Answer clearly and briefly, " +
	"and help the teacher draft and improve documents for their classes."

// documentInstruction tells the model where a document goes.
const documentInstruction = "When the teacher asks for a document (a lesson plan, a letter, a quiz, a worksheet or " +
	"anything to print or share), write the whole document in markdown between <document> and </document> tags, " +
	"with any remarks to the teacher outside the tags. When asked to change the document, write the whole new " +
	"version between the tags again."

// currentDocumentIntro introduces the teacher's current document at the end
// of the system prompt.
const currentDocumentIntro = "The document as it stands now, with any changes the teacher made by hand. " +
	"When asked to change it, start from this version and write the whole new version between the tags:"

// Prompt is what a streamed answer is asked with.
type Prompt struct {
	// System is the system prompt: the assistant's instructions and files
	// (or the tool's, the workflow's, the document chat's), and the
	// document instruction.
	System   string
	Messages []llm.Message
	// OmittedTurns counts the oldest messages left out to fit ContextBudget.
	OmittedTurns int
	// WorkflowPrompt is the user message a workflow run composed from its
	// inputs (the conversation's last message); "" otherwise.
	WorkflowPrompt string
}

// Ask says whom a streamed chat is with: nobody (a document chat), one
// assistant, one built-in tool (a chat tool, or a workflow whose chat goes
// on), or a workflow run starting.
type Ask struct {
	// AssistantID is uuid.Nil for no assistant.
	AssistantID uuid.UUID
	// ToolID names a chat tool or a workflow of the catalogue; "" for none.
	ToolID string
	// Workflow starts a workflow run; nil for none.
	Workflow *WorkflowRun
	// Document is the chat's current document as the teacher sees it (with
	// any edits by hand), "" for none: the model is shown it, so a change
	// asked for starts from it. The client holds it; messages hold only the
	// chat text of earlier answers.
	Document string
}

// WorkflowRun is a workflow started with its form's inputs.
type WorkflowRun struct {
	ID     string
	Inputs map[string]string
}

// Reply is a finished streamed answer.
type Reply struct {
	// Text is the chat text: the answer without its document section.
	Text string
	// Document is the answer's document, "" when it has none.
	Document string
	Usage    llm.Usage
}

// Prompt validates a conversation (as Save does) and builds what to ask the
// model. The system prompt is that of ask's assistant (one of the actor's
// team, another team's is not found) with its files' text, ask's tool or
// workflow (catalog.ChatPrompt), or else a document chat's. A workflow run
// checks its inputs (catalog.Workflow.Compose) and appends the message they
// compose as the last user message, so messages may then be empty;
// otherwise there must be at least one. An assistant with a tool or a
// workflow is refused, as is a tool and a different workflow. The
// conversation is trimmed to ContextBudget from its oldest turns.
func (s *Service) Prompt(ctx context.Context, a team.Actor, ask Ask, messages []Message) (Prompt, error) {
	if s.Model == nil {
		return Prompt{}, apperr.New(apperr.Upstream, "Chat is not available: no AI model is configured")
	}
	if ask.AssistantID != uuid.Nil && (ask.ToolID != "" || ask.Workflow != nil) {
		return Prompt{}, apperr.New(apperr.Invalid, catalog.MsgAssistantAndTool)
	}
	if ask.Workflow != nil && ask.ToolID != "" && ask.ToolID != ask.Workflow.ID {
		return Prompt{}, apperr.New(apperr.Invalid, catalog.MsgToolAndWorkflow)
	}
	if len(messages) == 0 && ask.Workflow == nil {
		return Prompt{}, apperr.New(apperr.Invalid, MsgNoMessages)
	}
	if _, _, err := validate(State{Messages: messages, Document: ask.Document}); err != nil {
		return Prompt{}, err
	}
	var (
		system   = documentChatPrompt
		composed string
		err      error
	)
	switch {
	case ask.Workflow != nil:
		w, ok := catalog.FindWorkflow(ask.Workflow.ID)
		if !ok {
			return Prompt{}, apperr.New(apperr.NotFound, catalog.MsgWorkflowNotFound)
		}
		if composed, err = w.Compose(ask.Workflow.Inputs); err != nil {
			return Prompt{}, err
		}
		system = w.SystemPrompt
		messages = append(slices.Clip(messages), Message{Role: roleUser, Content: composed})
		if _, _, err := validate(State{Messages: messages}); err != nil {
			return Prompt{}, err
		}
	case ask.ToolID != "":
		if system, err = catalog.ChatPrompt(ask.ToolID); err != nil {
			return Prompt{}, err
		}
	case ask.AssistantID != uuid.Nil:
		row, err := store.Q.GetAssistant(ctx, s.Pool, store.GetAssistantParams{ID: ask.AssistantID, TeamID: a.TeamID})
		if err != nil {
			return Prompt{}, store.NotFound(fmt.Errorf("load assistant %s: %w", ask.AssistantID, err))
		}
		var files []assistant.File
		if err := json.Unmarshal(row.FileData, &files); err != nil {
			return Prompt{}, fmt.Errorf("decode files of assistant %s: %w", ask.AssistantID, err)
		}
		system = assistantPrompt(row.SystemPrompt, files)
	}
	system += "\n\n" + documentInstruction
	if doc := strings.TrimSpace(ask.Document); doc != "" {
		system += "\n\n" + currentDocumentIntro + "\n<document>\n" + doc + "\n</document>"
	}
	msgs, omitted := Trim(system, messages, ContextBudget)
	p := Prompt{System: system, OmittedTurns: omitted, WorkflowPrompt: composed, Messages: make([]llm.Message, len(msgs))}
	for i, m := range msgs {
		p.Messages[i] = llm.Message{Role: llm.Role(m.Role), Text: m.Content}
	}
	return p, nil
}

// assistantPrompt is an assistant's system prompt followed by its files'
// text, each fenced and labelled with its name.
func assistantPrompt(prompt string, files []assistant.File) string {
	var b strings.Builder
	b.WriteString(prompt)
	for _, f := range files {
		fence := "```"
		for strings.Contains(f.FileText, fence) {
			fence += "`"
		}
		fmt.Fprintf(&b, "\n\nAttached file %q:\n%s\n%s\n%s", f.FileName, fence, f.FileText, fence)
	}
	return b.String()
}

// Tokens estimates the tokens of s: its characters ÷ 4, rounded up.
func Tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// Trim returns the messages that fit budget tokens along with system, and
// how many were left out. It leaves out the oldest user and assistant
// messages first; system messages (files the teacher attached in the chat)
// and the last message are always kept, even past the budget.
func Trim(system string, messages []Message, budget int) (kept []Message, omitted int) {
	used := Tokens(system)
	for i, m := range messages {
		if m.Role == roleSystem || i == len(messages)-1 {
			used += Tokens(m.Content)
		}
	}
	drop := make([]bool, len(messages))
	// Walk from the newest; once a turn does not fit, every older one goes
	// too, so the conversation kept has no gaps.
	full := false
	for i := len(messages) - 2; i >= 0; i-- {
		m := messages[i]
		if m.Role == roleSystem {
			continue
		}
		if !full && used+Tokens(m.Content) <= budget {
			used += Tokens(m.Content)
			continue
		}
		full = true
		drop[i] = true
		omitted++
	}
	kept = make([]Message, 0, len(messages)-omitted)
	for i, m := range messages {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	return kept, omitted
}

// Stream asks s.Model for the answer to p and hands it on as it arrives:
// onText gets each piece of chat text that is final (never a part of the
// document nor of a tag), onDocument the document so far whenever it
// changes (at most every 150 ms while it is written, and at once when its
// section ends). An error from either callback, or ctx ending, stops the
// stream and cancels the model call. The Reply holds what was received,
// also on error.
func (s *Service) Stream(ctx context.Context, p Prompt, onText, onDocument func(string) error) (Reply, error) {
	var (
		sp      chatdoc.Streamer
		text    strings.Builder
		lastDoc string
		lastAt  time.Time
	)
	report := func(force bool) error {
		doc, writing := sp.Document()
		if doc == lastDoc || (writing && !force && time.Since(lastAt) < documentEvery) {
			return nil
		}
		lastDoc, lastAt = doc, time.Now()
		return onDocument(doc)
	}
	emit := func(t string) error {
		if t == "" {
			return nil
		}
		text.WriteString(t)
		return onText(t)
	}
	usage, err := s.Model.ChatStream(ctx, llm.ChatRequest{System: p.System, Messages: p.Messages}, func(delta string) error {
		if err := emit(sp.Write(delta)); err != nil {
			return err
		}
		return report(false)
	})
	if err == nil {
		if err = emit(sp.Close()); err == nil {
			err = report(true)
		}
	} else {
		sp.Close()
	}
	doc, _ := sp.Document()
	return Reply{Text: text.String(), Document: doc, Usage: usage}, err
}

// ErrorMessage is what a teacher is told when a streamed answer failed
// with err.
func ErrorMessage(err error) string {
	if d, ok := llm.RetryAfter(err); ok {
		if d > 0 {
			return fmt.Sprintf("The AI model is busy: too many requests right now. Please try again in %d seconds.",
				int(math.Ceil(d.Seconds())))
		}
		return "The AI model is busy: too many requests right now. Please try again in a minute."
	}
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code == apperr.RateLimited {
		return ae.Message
	}
	switch {
	case errors.Is(err, llm.ErrBadOutput):
		return "The AI model's answer was cut off or empty. Please try again."
	case llm.IsPermanent(err):
		return "The AI model refused this conversation. Try a shorter or different message."
	}
	return "The AI model could not answer. Please try again."
}
