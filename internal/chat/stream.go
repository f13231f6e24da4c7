package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/catalog"
	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/store"
)

// ContextBudget is the most a streamed chat sends the model, in estimated
// tokens (Tokens): everything counts against it, the system prompt (the
// assistant's or tool's or workflow's instructions, the assistant's files,
// the document instruction and the current document) and every message,
// files read in the chat (system messages) included. The system prompt and
// the last message must fit, or the request is refused; earlier messages
// fill what is left, newest first, files read in the chat before the turns.
const ContextBudget = 32_000

// documentEvery is the least time between two reports of a document being
// written; a finished section is reported at once.
const documentEvery = 150 * time.Millisecond

// MsgNoMessages refuses a stream request without a message.
const MsgNoMessages = "Send at least one message"

// TooLongMessage refuses a stream whose system prompt and last message
// alone come to tokens, over budget.
func TooLongMessage(tokens, budget int) string {
	return fmt.Sprintf("This is too much for the AI to read at once: the instructions, the assistant's files, "+
		"the document and your last message come to about %s tokens, and at most %s can be sent. "+
		"Shorten the document or your message, or use an assistant with shorter files.", count(tokens), count(budget))
}

// count writes n with thousands separators.
func count(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

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
	// OmittedTurns counts the earlier messages left out to fit
	// ContextBudget.
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
// whole prompt is held to ContextBudget (see Trim): over it with the system
// prompt and the last message alone, it is refused (400).
func (s *Service) Prompt(ctx context.Context, a identity.Actor, ask Ask, messages []Message) (Prompt, error) {
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
	msgs, omitted, err := Trim(system, messages, ContextBudget)
	if err != nil {
		return Prompt{}, err
	}
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

// Tokens estimates the tokens of s: its UTF-8 bytes ÷ 4, rounded up. That
// is characters ÷ 4 for English, and stays on the safe side for scripts a
// tokenizer spends more tokens on (a CJK character is 3 bytes).
func Tokens(s string) int { return (len(s) + 3) / 4 }

// Trim returns the messages that fit budget tokens along with system, and
// how many were left out. The system prompt and the last message are always
// sent: when they alone come to more than budget, Trim refuses (400,
// TooLongMessage). The earlier messages share what is left: the files read
// in the chat (system messages) first, newest first, then the user and
// assistant turns, newest first; once one does not fit, every older one of
// its kind is left out too, so the conversation kept has no gaps.
func Trim(system string, messages []Message, budget int) (kept []Message, omitted int, err error) {
	used := Tokens(system)
	if n := len(messages); n > 0 {
		used += Tokens(messages[n-1].Content)
	}
	if used > budget {
		return nil, 0, apperr.New(apperr.Invalid, TooLongMessage(used, budget))
	}
	drop := make([]bool, len(messages))
	for _, files := range []bool{true, false} {
		full := false
		for i := len(messages) - 2; i >= 0; i-- {
			m := messages[i]
			if (m.Role == roleSystem) != files {
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
	}
	kept = make([]Message, 0, len(messages)-omitted)
	for i, m := range messages {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	return kept, omitted, nil
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
