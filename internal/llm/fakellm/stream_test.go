package fakellm

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// events posts body and returns the data lines of the event stream, the
// response headers and the status.
func (b bundle) events(t *testing.T, body string) ([]string, http.Header) {
	t.Helper()
	res, err := http.Post(b.url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var data []string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			data = append(data, line)
		} else {
			require.Empty(t, sc.Text(), "events are separated by blank lines")
		}
	}
	require.NoError(t, sc.Err())
	return data, res.Header
}

type wireChunk struct {
	Object  string
	Model   string
	Choices []struct {
		Index int
		Delta struct {
			Role    string
			Content *string
		}
		FinishReason *string `json:"finish_reason"`
	}
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	}
}

func TestStreamWireFormat(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	body := `{"model":"markwell-demo","stream":true,"stream_options":{"include_usage":true},` +
		`"messages":[{"role":"user","content":"Please tell me about the water cycle and the clouds in the sky."}]}`

	data, header := b.events(t, body)
	require.Equal(t, "text/event-stream; charset=utf-8", header.Get("Content-Type"))
	require.Equal(t, "[DONE]", data[len(data)-1], "the stream ends with [DONE]")

	var text strings.Builder
	var finish string
	var chunks []wireChunk
	for _, d := range data[:len(data)-1] {
		var c wireChunk
		require.NoError(t, json.Unmarshal([]byte(d), &c), d)
		require.Equal(t, "chat.completion.chunk", c.Object)
		require.Equal(t, "markwell-demo", c.Model)
		chunks = append(chunks, c)
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				text.WriteString(*ch.Delta.Content)
			}
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
		}
	}
	require.Equal(t, "assistant", chunks[0].Choices[0].Delta.Role)
	require.Greater(t, len(chunks), 5, "the answer comes in several pieces")
	require.Equal(t, "stop", finish)
	last := chunks[len(chunks)-1]
	require.Empty(t, last.Choices, "the usage chunk has no choices")
	require.NotNil(t, last.Usage)
	require.Positive(t, last.Usage.CompletionTokens)
	require.Nil(t, chunks[1].Usage, "only the last chunk carries the usage")

	// The streamed text is the answer a plain request gets.
	status, _, out := b.post(t, strings.Replace(body, `"stream":true,"stream_options":{"include_usage":true},`, "", 1))
	require.Equal(t, http.StatusOK, status)
	msg := out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	require.Equal(t, msg["content"], text.String())
	require.Equal(t, int64(1), b.srv.Stats().Streams)
	require.Equal(t, int64(2), b.srv.Stats().Tasks[""])

	// Without include_usage no usage chunk is sent.
	data, _ = b.events(t, strings.Replace(body, `"include_usage":true`, `"include_usage":false`, 1))
	var c wireChunk
	require.NoError(t, json.Unmarshal([]byte(data[len(data)-2]), &c))
	require.Nil(t, c.Usage)
	require.NotNil(t, c.Choices[0].FinishReason)
}

func TestStreamTruncatedFault(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	b.srv.FailNext(FaultTruncated, 1)

	data, _ := b.events(t, `{"model":"markwell-demo","stream":true,"messages":[{"role":"user","content":"Write a lesson plan on fractions."}]}`)
	require.NotEqual(t, "[DONE]", data[len(data)-1], "a truncated stream never finishes")
	require.Equal(t, int64(1), b.srv.Stats().Malformed)
	require.Zero(t, b.srv.Stats().Answered)
}

func TestStreamClientGoneIsCounted(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{TokenDelay: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(t.Context())
	body := `{"model":"markwell-demo","stream":true,"messages":[{"role":"user","content":"Write a quiz on volcanoes."}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	line, err := bufio.NewReader(res.Body).ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(line, "data: "), line)
	cancel()

	require.Eventually(t, func() bool { return b.srv.Stats().StreamsCancelled == 1 }, 2*time.Second, 10*time.Millisecond)
	require.Zero(t, b.srv.Stats().Answered, "an abandoned stream is not an answer")
}

func TestStreamLatencyClientGone(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{Latency: time.Minute})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	body := `{"model":"markwell-demo","stream":true,"messages":[{"role":"user","content":"hi"}]}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	_, err = http.DefaultClient.Do(req)
	require.Error(t, err)
	require.Eventually(t, func() bool { return b.srv.Stats().StreamsCancelled == 1 }, 2*time.Second, 10*time.Millisecond)
	require.Zero(t, b.srv.Stats().Streams, "no stream began")
}

func TestSplitKeepsText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "one", "  lead and trail  ", "a b c d e f g", "# T\n\n- x y\n- z\n\n| a | b |\n", "été à l'école, déjà vu"} {
		parts := split(s, 3)
		require.Equal(t, s, strings.Join(parts, ""), s)
		for _, p := range parts {
			require.LessOrEqual(t, len(strings.Fields(p)), 3, p)
		}
	}
	require.Len(t, split("a b c d e f g", 3), 3)
}
