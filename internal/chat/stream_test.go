package chat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

func TestTrimKeepsTheSystemPromptAndLastAndFillsTheRestNewestFirst(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 400) // 100 tokens
	in := msgs(
		"user", "old question "+long,
		"assistant", "old answer "+long,
		"system", "File notes.pdf: "+long,
		"user", "recent "+long,
		"assistant", "recent answer "+long,
		"user", "last "+long,
	)
	kept, omitted, err := chat.Trim("system prompt", in, 250)
	require.NoError(t, err)
	require.Equal(t, 4, omitted)
	require.Equal(t, []string{"system", "user"}, roles(kept), "the file read in the chat comes before the turns")

	kept, omitted, err = chat.Trim("system prompt", in, 500)
	require.NoError(t, err)
	require.Equal(t, 2, omitted)
	require.Equal(t, "system", kept[0].Role)
	require.True(t, strings.HasPrefix(kept[1].Content, "recent "), "the newest turns are kept, the oldest left out")
	require.Len(t, kept, 4)

	kept, omitted, err = chat.Trim("", in, 1_000_000)
	require.NoError(t, err)
	require.Zero(t, omitted)
	require.Equal(t, in, kept)
}

// Everything counts against the one cap: files read in the chat (system
// messages) are left out, oldest first, when they do not fit; the system
// prompt and the last message over the cap on their own are refused.
func TestTrimHoldsEveryPartToTheCap(t *testing.T) {
	t.Parallel()
	file := strings.Repeat("f", 4000) // 1,000 tokens
	var in []chat.Message
	for range 41 {
		in = append(in, chat.Message{Role: "system", Content: file})
	}
	in = append(in, chat.Message{Role: "user", Content: "Summarise the files"})
	kept, omitted, err := chat.Trim("system prompt", in, 2_500)
	require.NoError(t, err)
	require.Equal(t, 39, omitted, "two files fit beside the prompt and the question")
	require.Len(t, kept, 3)
	total := chat.Tokens("system prompt")
	for _, m := range kept {
		total += chat.Tokens(m.Content)
	}
	require.LessOrEqual(t, total, 2_500)

	_, _, err = chat.Trim(strings.Repeat("s", 12_000), in, 2_500)
	require.Equal(t, apperr.Invalid, apperr.From(err).Code, "a system prompt (assistant files, document) over the cap")
	require.Equal(t, chat.TooLongMessage(3_005, 2_500), apperr.From(err).Message)
	require.Contains(t, apperr.From(err).Message, "about 3,005 tokens, and at most 2,500 can be sent")

	_, _, err = chat.Trim("", msgs("user", "hi", "user", strings.Repeat("q", 10_004)), 2_500)
	require.Contains(t, apperr.From(err).Message, "about 2,501 tokens", "a last message over the cap")

	// Tokens are counted in bytes: a character a tokenizer spends more on
	// counts more.
	require.Equal(t, 1, chat.Tokens("abcd"))
	require.Equal(t, 3, chat.Tokens("火山岩石"))
}

// A turn that does not fit makes every older turn go too, even a short one:
// the conversation kept has no gap.
func TestTrimLeavesNoGap(t *testing.T) {
	t.Parallel()
	in := msgs("user", "hi", "assistant", strings.Repeat("y", 4000), "user", "short", "assistant", "ok", "user", "now")
	kept, omitted, err := chat.Trim("", in, 100)
	require.NoError(t, err)
	require.Equal(t, 2, omitted)
	require.Equal(t, []string{"short", "ok", "now"}, contents(kept))
}

func roles(ms []chat.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Role
	}
	return out
}

func contents(ms []chat.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Content
	}
	return out
}

func TestPromptWithAssistantAndFiles(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	svc.Model = &llmtest.Mock{}
	ada := teacher(t, svc, uuid.Nil)
	ctx := context.Background()
	asst, err := (&assistant.Service{Pool: svc.Pool}).Create(ctx, ada, assistant.Input{Title: "Planner", Description: "d",
		SystemPrompt: "You plan science lessons.",
		FileData:     []assistant.File{{FileName: "syllabus.pdf", FileText: "Unit 1: volcanoes\n```code```", FileType: "application/pdf"}}})
	require.NoError(t, err)

	p, err := svc.Prompt(ctx, ada, chat.Ask{AssistantID: asst.ID}, msgs("user", "Plan a lesson"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.System, "You plan science lessons."))
	require.Contains(t, p.System, "Attached file \"syllabus.pdf\":\n````\nUnit 1: volcanoes\n```code```\n````",
		"the file's text is fenced by a fence longer than any inside it")
	require.Contains(t, p.System, "<document>")
	require.Equal(t, []llm.Message{{Role: llm.RoleUser, Text: "Plan a lesson"}}, p.Messages)

	plain, err := svc.Prompt(ctx, ada, chat.Ask{}, msgs("user", "Hello"))
	require.NoError(t, err)
	require.NotContains(t, plain.System, "science")
	require.Contains(t, plain.System, "<document>")

	eve := teacher(t, svc, uuid.Nil)
	_, err = svc.Prompt(ctx, eve, chat.Ask{AssistantID: asst.ID}, msgs("user", "Plan a lesson"))
	require.Equal(t, apperr.NotFound, apperr.From(err).Code, "another team's assistant")

	for in, want := range map[string]string{
		"robot": chat.MsgRole,
		"long":  chat.MsgMessageTooLong,
		"none":  chat.MsgNoMessages,
	} {
		m := msgs("user", "hi")
		switch in {
		case "robot":
			m[0].Role = "robot"
		case "long":
			m[0].Content = strings.Repeat("a", chat.MaxMessageLength+1)
		case "none":
			m = nil
		}
		_, err := svc.Prompt(ctx, ada, chat.Ask{}, m)
		require.Equal(t, apperr.Invalid, apperr.From(err).Code, in)
		require.Equal(t, want, apperr.From(err).Message, in)
	}
}

// The assistant's files and the document count against the cap like
// everything else: a prompt that cannot fit is refused before the model is
// asked, and files read in the chat are left out when they do not fit.
func TestPromptHoldsFilesAndTheDocumentToTheCap(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	svc.Model = &llmtest.Mock{}
	ada := teacher(t, svc, uuid.Nil)
	ctx := context.Background()
	big := strings.Repeat("Volcanoes erupt. ", assistant.MaxFileTextLength/17)
	asst, err := (&assistant.Service{Pool: svc.Pool}).Create(ctx, ada, assistant.Input{Title: "Planner", Description: "d",
		SystemPrompt: "You plan science lessons.",
		FileData:     []assistant.File{{FileName: "a.pdf", FileText: big}, {FileName: "b.pdf", FileText: big}}})
	require.NoError(t, err)
	_, err = svc.Prompt(ctx, ada, chat.Ask{AssistantID: asst.ID}, msgs("user", "Plan a lesson"))
	require.Equal(t, apperr.Invalid, apperr.From(err).Code, "the assistant's files alone are over the cap")
	require.Contains(t, apperr.From(err).Message, "too much for the AI to read at once")

	_, err = svc.Prompt(ctx, ada, chat.Ask{Document: strings.Repeat("d", chat.MaxDocumentLength)}, msgs("user", "Shorten it"))
	require.Equal(t, apperr.Invalid, apperr.From(err).Code, "the document is over the cap")

	// 41 files of 100,000 characters read in the chat: the newest that fits
	// goes, the rest are left out, and the whole prompt is under the cap.
	var conv []chat.Message
	for range 41 {
		conv = append(conv, chat.Message{Role: "system", Content: strings.Repeat("x", chat.MaxMessageLength)})
	}
	conv = append(conv, chat.Message{Role: "user", Content: "What do the files say?"})
	p, err := svc.Prompt(ctx, ada, chat.Ask{}, conv)
	require.NoError(t, err)
	require.Equal(t, 40, p.OmittedTurns)
	total := chat.Tokens(p.System)
	for _, m := range p.Messages {
		total += chat.Tokens(m.Text)
	}
	require.LessOrEqual(t, total, chat.ContextBudget)
	require.Len(t, p.Messages, 2)
}

func TestStreamSplitsTextAndDocument(t *testing.T) {
	t.Parallel()
	svc := &chat.Service{Model: &llmtest.Mock{ChatStreamFunc: llmtest.Stream(
		"Here is ", "your plan.\n<docu", "ment>\n# Plan\n", "- step one\n</document", ">\nAsk for changes.")}}
	var text strings.Builder
	var docs []string
	reply, err := svc.Stream(context.Background(), chat.Prompt{System: "s"},
		func(s string) error { text.WriteString(s); return nil },
		func(d string) error { docs = append(docs, d); return nil })
	require.NoError(t, err)
	require.Equal(t, "Here is your plan.\n\nAsk for changes.", text.String())
	require.Equal(t, text.String(), reply.Text)
	require.Equal(t, "# Plan\n- step one", reply.Document)
	require.NotEmpty(t, docs)
	require.Equal(t, "# Plan\n- step one", docs[len(docs)-1], "the finished document is reported")
	require.Equal(t, "llmtest", reply.Usage.Model)
}

func TestStreamStopsWhenTheClientFails(t *testing.T) {
	t.Parallel()
	gone := errors.New("client gone")
	var calls int
	svc := &chat.Service{Model: &llmtest.Mock{ChatStreamFunc: llmtest.Stream("a", "b", "c")}}
	_, err := svc.Stream(context.Background(), chat.Prompt{},
		func(string) error { calls++; return gone },
		func(string) error { return nil })
	require.ErrorIs(t, err, gone)
	require.Equal(t, 1, calls, "no piece is sent after a failed one")
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	rl := &llm.RateLimitError{RetryAfter: 1500 * time.Millisecond}
	require.Equal(t, "The AI model is busy: too many requests right now. Please try again in 2 seconds.",
		chat.ErrorMessage(fmt.Errorf("llm chat stream: %w", rl)))
	require.Contains(t, chat.ErrorMessage(fmt.Errorf("x: %w", llm.ErrBadOutput)), "cut off or empty")
	require.Contains(t, chat.ErrorMessage(fmt.Errorf("x: %w", llm.ErrPermanent)), "refused")
	require.Equal(t, "The AI model could not answer. Please try again.", chat.ErrorMessage(errors.New("boom")))
}
