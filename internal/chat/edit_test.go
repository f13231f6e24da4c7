package chat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

// A teacher's hand edit is a version of its own, kept against the teacher's
// message that asked for the revision ("Your edit" in the document pane); the
// revision is asked with the edited text and starts from it; the saved chat
// keeps every version, the edit included.
func TestAHandEditIsAVersionOfItsOwnAndTheRevisionStartsFromIt(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	ctx := context.Background()
	a := teacher(t, svc, uuid.Nil)
	const (
		first  = "# Field trip letter\n\nDear parents, we visit the museum on Friday."
		edited = "# Field trip letter\n\nDear parents, we visit the **science** museum on Friday 12 May. Bring a packed lunch."
	)

	// The model's first version, then the teacher's edit, saved before the revision is asked.
	id, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, "", chat.State{
		Messages: msgs("user", "Write a field trip letter", "assistant", "Here is a draft."),
		Document: edited, PastDocuments: []chatdoc.PastDocument{{MessageIndex: 1, Document: first}},
	})
	require.NoError(t, err)

	// The revision is asked with the edited document: the model is shown it, not the first version.
	asked := msgs("user", "Write a field trip letter", "assistant", "Here is a draft.", "user", "Make it friendlier")
	var seen llm.ChatRequest
	svc.Model = &llmtest.Mock{ChatStreamFunc: func(ctx context.Context, req llm.ChatRequest, onDelta func(string) error) (llm.Usage, error) {
		seen = req
		return llmtest.Stream("Friendlier now.\n<document>\n# Field trip letter\n\nHello families! We visit the **science** museum on Friday 12 May.\n</document>")(ctx, req, onDelta)
	}}
	p, err := svc.Prompt(ctx, a, chat.Ask{Document: edited}, asked)
	require.NoError(t, err)
	require.Contains(t, p.System, "with any changes the teacher made by hand")
	require.Contains(t, p.System, "<document>\n"+edited+"\n</document>")
	require.NotContains(t, p.System, "we visit the museum on Friday", "the first version is not what is revised")
	reply, err := svc.Stream(ctx, p, func(string) error { return nil }, func(string) error { return nil })
	require.NoError(t, err)
	require.Contains(t, seen.System, edited)
	require.True(t, strings.HasPrefix(reply.Document, "# Field trip letter\n\nHello families!"))

	// The client keeps the edit against the teacher's message (index 2) and the answer's version
	// against the answer (index 3); all three are saved and read back in order.
	answered := append(asked, chat.Message{Role: "assistant", Content: reply.Text})
	_, err = svc.Save(ctx, a, id, uuid.Nil, "", chat.State{
		Messages: answered, Document: reply.Document,
		PastDocuments: []chatdoc.PastDocument{
			{MessageIndex: 3, Document: reply.Document},
			{MessageIndex: 1, Document: first},
			{MessageIndex: 2, Document: edited},
		},
	})
	require.NoError(t, err)
	list, err := svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, []chatdoc.PastDocument{
		{MessageIndex: 1, Document: first},
		{MessageIndex: 2, Document: edited},
		{MessageIndex: 3, Document: reply.Document},
	}, list[0].PastDocuments)
	require.Equal(t, "user", list[0].Messages[2].Role, "the edit's version belongs to the teacher's message")
	require.Equal(t, reply.Document, list[0].Document)
}
