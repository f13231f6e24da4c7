package llm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/chatdoc"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// collect streams req and returns the deltas it received.
func collect(ctx context.Context, c llm.Client, req llm.ChatRequest) ([]string, llm.Usage, error) {
	var deltas []string
	usage, err := c.ChatStream(ctx, req, func(d string) error {
		deltas = append(deltas, d)
		return nil
	})
	return deltas, usage, err
}

func chatAbout(text string) llm.ChatRequest {
	return llm.ChatRequest{System: "You help teachers.", Messages: []llm.Message{llm.UserText(text)}}
}

func TestChatStreamDeltasMakeTheAnswer(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	req := chatAbout("How do clouds form? My class asked me this morning and I was not sure.")

	deltas, usage, err := collect(t.Context(), b.client, req)
	require.NoError(t, err)
	whole, err := b.client.Chat(t.Context(), req)
	require.NoError(t, err)
	require.Greater(t, len(deltas), 3, "the answer arrives in pieces")
	require.Equal(t, whole, strings.Join(deltas, ""), "the pieces join into the whole answer")
	require.Contains(t, whole, "demo model")

	require.Equal(t, fakellm.DefaultModel, usage.Model)
	require.Equal(t, 1, usage.Calls)
	require.Positive(t, usage.PromptTokens, "the usage chunk is read")
	require.Equal(t, (len([]rune(whole))+3)/4, usage.CompletionTokens)
	require.Equal(t, int64(1), b.srv.Stats().Streams)
}

func TestChatStreamDocument(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})

	deltas, _, err := collect(t.Context(), b.client, chatAbout("Write a lesson plan about fractions for year five."))
	require.NoError(t, err)
	text, doc, ok := chatdoc.Split(strings.Join(deltas, ""))
	require.True(t, ok, "the answer has a <document> section")
	require.True(t, strings.HasPrefix(doc, "# Lesson plan:"), doc)
	require.Contains(t, doc, "\n- ")
	require.Contains(t, doc, "| --- | --- |")
	require.NotContains(t, text, "Lesson plan:", "the document is split out of the chat text")
	require.Contains(t, text, "ask me for changes")

	// Fed piece by piece, the streaming splitter finds the same document.
	var s chatdoc.Streamer
	var shown strings.Builder
	for _, d := range deltas {
		shown.WriteString(s.Write(d))
	}
	shown.WriteString(s.Close())
	streamed, _ := s.Document()
	require.Equal(t, doc, streamed)
	require.Equal(t, text, shown.String())
}

func TestChatStreamCancelStopsTheModel(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{TokenDelay: 50 * time.Millisecond}, llm.Config{})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	var once sync.Once
	var cancelled time.Time
	var deltas int
	_, err := b.client.ChatStream(ctx, chatAbout("Write a quiz on volcanoes for year six."), func(string) error {
		deltas++
		once.Do(func() {
			time.AfterFunc(100*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		})
		return nil
	})
	returned := time.Now()
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, llm.IsPermanent(err))
	require.Less(t, returned.Sub(cancelled), time.Second, "the stream stops promptly")
	require.Less(t, deltas, 20, "the answer was not read to its end")
	require.Eventually(t, func() bool { return b.srv.Stats().StreamsCancelled == 1 }, 2*time.Second, 10*time.Millisecond,
		"the demo model saw the client go")
	require.Zero(t, b.srv.Stats().Answered)
}

func TestChatStreamOnDeltaErrorStops(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{TokenDelay: 10 * time.Millisecond}, llm.Config{})
	stop := errors.New("browser went away")

	var got []string
	_, err := b.client.ChatStream(t.Context(), chatAbout("Draft a letter to parents about the school trip."), func(d string) error {
		got = append(got, d)
		if len(got) == 2 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	require.Len(t, got, 2, "no delta after the error")
	require.Eventually(t, func() bool { return b.srv.Stats().StreamsCancelled == 1 }, 2*time.Second, 10*time.Millisecond,
		"the model call is cancelled")
}

func TestChatStreamErrors(t *testing.T) {
	t.Parallel()

	t.Run("rate limit", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{RetryAfter: 2 * time.Second}, llm.Config{})
		b.srv.FailNext(fakellm.FaultRateLimit, 1)
		deltas, _, err := collect(t.Context(), b.client, chatAbout("Hello."))
		var rl *llm.RateLimitError
		require.ErrorAs(t, err, &rl)
		d, ok := llm.RetryAfter(err)
		require.True(t, ok)
		require.Equal(t, 2*time.Second, d)
		require.Empty(t, deltas)
	})
	t.Run("unknown model is permanent", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{}, llm.Config{Model: "gpt-nonexistent"})
		_, _, err := collect(t.Context(), b.client, chatAbout("Hello."))
		require.True(t, llm.IsPermanent(err), err)
	})
	t.Run("server error is transient", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{}, llm.Config{})
		b.srv.FailNext(fakellm.FaultServerError, 1)
		_, _, err := collect(t.Context(), b.client, chatAbout("Hello."))
		require.Error(t, err)
		require.False(t, llm.IsPermanent(err))
		_, limited := llm.RetryAfter(err)
		require.False(t, limited)
	})
	t.Run("stream cut short", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{}, llm.Config{})
		b.srv.FailNext(fakellm.FaultTruncated, 1)
		deltas, _, err := collect(t.Context(), b.client, chatAbout("Write a quiz on rivers."))
		require.ErrorIs(t, err, llm.ErrStreamEnded)
		require.NotEmpty(t, deltas, "what arrived was handed on")
		require.False(t, llm.IsPermanent(err))
	})
	t.Run("token limit", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{}, llm.Config{})
		req := chatAbout("Write a lesson plan about the moon.")
		req.MaxTokens = 10
		deltas, _, err := collect(t.Context(), b.client, req)
		require.ErrorIs(t, err, llm.ErrBadOutput)
		require.ErrorContains(t, err, "token limit")
		require.Equal(t, 40, len([]rune(strings.Join(deltas, ""))), "the answer stops at the cap")
	})
	t.Run("no messages", func(t *testing.T) {
		t.Parallel()
		b := setup(t, fakellm.Options{}, llm.Config{})
		_, _, err := collect(t.Context(), b.client, llm.ChatRequest{})
		require.True(t, llm.IsPermanent(err))
		require.Zero(t, b.srv.Stats().Requests)
	})
}

func TestLimitedChatStreamSettlesUsage(t *testing.T) {
	t.Parallel()
	b := setup(t, fakellm.Options{}, llm.Config{})
	l := &limiter{ReserveFunc: waits()}
	client := llm.WithLimit(b.client, l, llm.LimitOptions{})

	req := chatAbout("Write a quiz on the planets.")
	deltas, usage, err := collect(t.Context(), client, req)
	require.NoError(t, err)
	require.NotEmpty(t, deltas)
	require.Equal(t, []int{llm.EstimateTokens(req.System, req.Messages, 0)}, l.reserved)
	require.Equal(t, map[int64]int{7: usage.PromptTokens + usage.CompletionTokens}, l.settled, "the real usage replaces the estimate")

	// A limit that is full for longer than MaxWait is a rate limit, and the
	// model is not called.
	full := llm.WithLimit(b.client, &limiter{ReserveFunc: waits(time.Hour)}, llm.LimitOptions{})
	_, _, err = collect(t.Context(), full, req)
	_, limited := llm.RetryAfter(err)
	require.True(t, limited, err)
	require.Equal(t, int64(1), b.srv.Stats().Streams)
}
