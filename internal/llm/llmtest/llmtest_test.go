package llmtest_test

import (
	"errors"
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

func TestMockStream(t *testing.T) {
	t.Parallel()
	var client llm.Client = &llmtest.Mock{ChatStreamFunc: llmtest.Stream("Hello ", "there", ".")}

	var got []string
	usage, err := client.ChatStream(t.Context(), llm.ChatRequest{}, func(d string) error {
		got = append(got, d)
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, []string{"Hello ", "there", "."}, got)
	require.Equal(t, 3, usage.CompletionTokens)

	stop := errors.New("client gone")
	got = nil
	_, err = client.ChatStream(t.Context(), llm.ChatRequest{}, func(d string) error {
		got = append(got, d)
		return stop
	})
	require.ErrorIs(t, err, stop)
	require.Equal(t, []string{"Hello "}, got, "an onDelta error stops the stream")

	_, err = (&llmtest.Mock{}).ChatStream(t.Context(), llm.ChatRequest{}, func(string) error { return nil })
	require.ErrorContains(t, err, "ChatStreamFunc not set")
}
