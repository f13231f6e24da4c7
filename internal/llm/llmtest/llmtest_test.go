package llmtest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

func TestMock(t *testing.T) {
	t.Parallel()
	var client llm.Client = &llmtest.Mock{
		CompleteJSONFunc: llmtest.Answer(map[string]any{"score": 7}),
		Usage:            llm.Usage{Model: "gpt-test", PromptTokens: 120, CompletionTokens: 30},
	}

	var out struct{ Score int }
	usage, err := client.CompleteJSON(t.Context(), llm.Request{Task: "grade"}, &out)
	require.NoError(t, err)
	require.Equal(t, 7, out.Score)
	require.Equal(t, llm.Usage{Model: "gpt-test", Calls: 1, PromptTokens: 120, CompletionTokens: 30}, usage)

	_, err = client.Chat(t.Context(), llm.ChatRequest{})
	require.ErrorContains(t, err, "ChatFunc not set")
	_, err = (&llmtest.Mock{}).CompleteJSON(t.Context(), llm.Request{Task: "grade"}, &out)
	require.ErrorContains(t, err, "CompleteJSONFunc not set")
}
