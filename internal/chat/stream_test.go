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

func TestTrimDropsOldestTurnsKeepsFilesAndLast(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 400) // 100 tokens
	in := msgs(
		"user", "old question "+long,
		"assistant", "old answer "+long,
		"system", "File notes.pdf: "+long,
		"user", "recent "+long,
		"assistant", "recent answer "+long,
		"user", "last "+long+long, // over the budget by itself
	)
	kept, omitted := chat.Trim("system prompt", in, 100)
	require.Equal(t, 4, omitted)
	require.Equal(t, []string{"system", "user"}, roles(kept), "the file message and the last message are always kept")

	kept, omitted = chat.Trim("system prompt", in, 600)
	require.Equal(t, 2, omitted)
	require.Equal(t, "system", kept[0].Role)
	require.True(t, strings.HasPrefix(kept[1].Content, "recent "), "the newest turns are kept, the oldest left out")
	require.Len(t, kept, 4)

	kept, omitted = chat.Trim("", in, 1_000_000)
	require.Zero(t, omitted)
	require.Equal(t, in, kept)
}

// A turn that does not fit makes every older turn go too, even a short one:
// the conversation kept has no gap.
func TestTrimLeavesNoGap(t *testing.T) {
	t.Parallel()
	in := msgs("user", "hi", "assistant", strings.Repeat("y", 4000), "user", "short", "assistant", "ok", "user", "now")
	kept, omitted := chat.Trim("", in, 100)
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
