package llmtest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

func TestMock(t *testing.T) {
	t.Parallel()
	var client llm.Client = &llmtest.Mock{CompleteJSONFunc: llmtest.Answer(map[string]any{"score": 7})}

	var out struct{ Score int }
	require.NoError(t, client.CompleteJSON(t.Context(), llm.Request{Task: "grade"}, &out))
	require.Equal(t, 7, out.Score)

	_, err := client.Chat(t.Context(), llm.ChatRequest{})
	require.ErrorContains(t, err, "ChatFunc not set")
}
