package fakellm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/chatdoc"
)

func user(text string) Message      { return Message{Role: "user", Text: text} }
func assistant(text string) Message { return Message{Role: "assistant", Text: text} }

func TestChatReplyPlain(t *testing.T) {
	t.Parallel()
	reply := chatReply(ChatRequest{Messages: []Message{user("How are the pupils doing today? Tell me.")}})
	require.Contains(t, reply, "demo model")
	require.Contains(t, reply, "8 words in 2 sentences")
	require.Contains(t, reply, `begins "How are the pupils doing today?"`)
	_, _, ok := chatdoc.Split(reply)
	require.False(t, ok, "a plain question gets no document")
}

func TestChatReplyDocument(t *testing.T) {
	t.Parallel()
	req := ChatRequest{Messages: []Message{
		{Role: "system", Text: "You plan lessons for a primary school."},
		user("Please write a lesson plan about <b>fractions</b> for year five."),
	}}
	reply := chatReply(req)
	require.Equal(t, reply, chatReply(req), "the answer is deterministic")

	text, doc, ok := chatdoc.Split(reply)
	require.True(t, ok, reply)
	require.Contains(t, text, "demo model")
	require.True(t, strings.HasSuffix(strings.TrimSpace(text), "ask me for changes."), "a sentence follows the document: %q", text)
	require.True(t, strings.HasPrefix(doc, "# Lesson plan: Please write a lesson plan about fractions for year five."), doc)
	require.NotContains(t, doc, "<b>", "request text is quoted without tags")
	require.Contains(t, doc, "\n- Learning goal:", "a bulleted list")
	require.Contains(t, doc, `- Follows the assistant's instructions: "You plan lessons for a primary school."`)
	require.Contains(t, doc, "| Part | Detail |\n| --- | --- |\n| Kind | Lesson plan |", "a table")
	require.Contains(t, doc, "| Version | 1 |")

	for ask, kind := range map[string]string{
		"Draft a quiz on volcanoes":                "# Quiz:",
		"Write a letter to parents about the trip": "# Letter:",
		"Can you make a document for the fair?":    "# Document:",
	} {
		_, doc, ok := chatdoc.Split(chatReply(ChatRequest{Messages: []Message{user(ask)}}))
		require.True(t, ok, ask)
		require.True(t, strings.HasPrefix(doc, kind), "%s: %s", ask, doc)
	}
}

func TestChatReplyRevision(t *testing.T) {
	t.Parallel()
	first := chatReply(ChatRequest{Messages: []Message{user("Write a quiz on volcanoes.")}})
	req := ChatRequest{Messages: []Message{
		user("Write a quiz on volcanoes."),
		assistant(first),
		user("Make it shorter please."),
	}}
	_, doc, ok := chatdoc.Split(chatReply(req))
	require.True(t, ok)
	require.True(t, strings.HasPrefix(doc, "# Quiz: Write a quiz on volcanoes."), "the revision keeps the original request: %s", doc)
	require.Contains(t, doc, `- Version 2, changed as you asked: "Make it shorter please."`)
	require.Contains(t, doc, "| Version | 2 |")

	// The document so far may come with the system prompt instead (the
	// conversation then holds only chat text): the next version follows it.
	_, firstDoc, _ := chatdoc.Split(first)
	req = ChatRequest{Messages: []Message{
		{Role: "system", Text: "You write quizzes.\n\nThe document as it stands now:\n<document>\n" +
			strings.Replace(firstDoc, "| Version | 1 |", "| Version | 4 |", 1) + "\n</document>"},
		user("Write a quiz on volcanoes."),
		assistant("Here is your quiz."),
		user("Make it shorter please."),
	}}
	_, doc, ok = chatdoc.Split(chatReply(req))
	require.True(t, ok)
	require.Contains(t, doc, "| Version | 5 |")

	// A change without an earlier document is a plain question.
	_, _, ok = chatdoc.Split(chatReply(ChatRequest{Messages: []Message{user("Make it shorter please.")}}))
	require.False(t, ok)
}
