package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

// openStream posts body to /api/v1/chat/stream with ctx and returns the
// response, its body still open.
func (br *browser) openStream(t *testing.T, ctx context.Context, body any) *http.Response {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(ctx, "POST", br.b.srv.URL+"/api/v1/chat/stream", bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.CSRFHeader, br.csrfToken(t))
	res, err := br.client.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

// readEvents reads events until stop says so or the stream ends; ": ping"
// comments are skipped.
func readEvents(t *testing.T, res *http.Response, stop func(sseEvent) bool) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.data), line)
		case line == "" && cur.name != "":
			out = append(out, cur)
			if stop != nil && stop(cur) {
				return out
			}
			cur = sseEvent{}
		}
	}
	return out
}

func userAsks(text string) map[string]any {
	return map[string]any{"messages": []map[string]any{{"role": "user", "content": text}}}
}

var documentTagRE = regexp.MustCompile(`(?i)<\s*/?\s*document`)

func TestChatStreamSplitsTheDocument(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.stream@school.test")
	assistantID, _ := adaAssistantAndChat(t, b)

	body := userAsks("Write a lesson plan about volcanoes for year 7")
	body["assistantId"] = assistantID
	res := b.openStream(t, context.Background(), body)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "text/event-stream; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
	require.Equal(t, "no", res.Header.Get("X-Accel-Buffering"))

	events := readEvents(t, res, nil)
	require.NotEmpty(t, events)
	require.Equal(t, "meta", events[0].name)
	require.Equal(t, 0.0, events[0].data["omittedTurns"])
	var text strings.Builder
	var doc string
	deltas := 0
	for _, e := range events[1 : len(events)-1] {
		switch e.name {
		case "delta":
			deltas++
			text.WriteString(e.data["text"].(string))
		case "document":
			doc = e.data["document"].(string)
		default:
			t.Fatalf("unexpected event %q", e.name)
		}
	}
	require.Greater(t, deltas, 1, "the answer arrives in pieces")
	require.NotRegexp(t, documentTagRE, text.String(), "no tag reaches the chat text")
	require.Contains(t, text.String(), "Here is version 1 of the lesson plan")
	require.True(t, strings.HasPrefix(doc, "# Lesson plan: "), doc)
	require.Contains(t, doc, "## Outline")
	require.Contains(t, doc, `Follows the assistant's instructions: "You plan.`, "the assistant's system prompt reached the model")

	done := events[len(events)-1]
	require.Equal(t, "done", done.name)
	require.Equal(t, text.String(), done.data["text"])
	require.Equal(t, doc, done.data["document"])
	usage := done.data["usage"].(map[string]any)
	require.Equal(t, fakellm.DefaultModel, usage["model"])
	require.Greater(t, usage["completionTokens"].(float64), 0.0)
}

// The conversation the client sends holds only the chat text of earlier
// answers; the current document (with the teacher's own edits) comes as
// "document", and a change asked for starts from it.
func TestChatStreamRevisesTheCurrentDocument(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.revise@school.test")

	first := readEvents(t, b.openStream(t, context.Background(), userAsks("Write a quiz about rivers")), nil)
	done := first[len(first)-1]
	require.Equal(t, "done", done.name)
	doc := done.data["document"].(string)
	require.Contains(t, doc, "| Version | 1 |")

	edited := doc + "\n\nQuestion 4: Name a river near our school."
	body := map[string]any{
		"messages": []map[string]any{
			{"role": "user", "content": "Write a quiz about rivers"},
			{"role": "assistant", "content": done.data["text"]},
			{"role": "user", "content": "Make it shorter please"},
		},
		"document": edited,
	}
	second := readEvents(t, b.openStream(t, context.Background(), body), nil)
	done = second[len(second)-1]
	require.Equal(t, "done", done.name)
	require.Contains(t, done.data["document"], "| Version | 2 |", "the model saw the document so far")
	require.Contains(t, done.data["text"], "Here is version 2 of the quiz")

	// Without the document, the same words are a plain question.
	delete(body, "document")
	third := readEvents(t, b.openStream(t, context.Background(), body), nil)
	require.Equal(t, "", third[len(third)-1].data["document"])
}

func TestChatStreamTrimsOldTurns(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.streamtrim@school.test")
	long := strings.Repeat("word ", chat.MaxMessageLength/5) // 25,000 tokens: two such turns are over the budget
	msgs := []map[string]any{
		{"role": "user", "content": long}, {"role": "assistant", "content": "Noted."},
		{"role": "user", "content": long}, {"role": "assistant", "content": "Noted again."},
		{"role": "user", "content": "Thanks"}, {"role": "assistant", "content": "Welcome."},
		{"role": "user", "content": "What is a volcano?"},
	}
	events := readEvents(t, b.openStream(t, context.Background(), map[string]any{"messages": msgs}), nil)
	require.Equal(t, "meta", events[0].name)
	require.Equal(t, 1.0, events[0].data["omittedTurns"], "the first long question is left out, the later turns fit")
	require.Equal(t, "done", events[len(events)-1].name)
}

func TestChatStreamRefusesBeforeStreaming(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.streambad@school.test")
	assistantID, _ := adaAssistantAndChat(t, b)

	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.stream@school.test")
	body := userAsks("Write a letter")
	body["assistantId"] = assistantID
	res, got := eve.do(t, "POST", "/api/v1/chat/stream", body)
	require.Equal(t, 404, res.StatusCode, "another team's assistant")
	require.Equal(t, "not_found", got["error"].(map[string]any)["code"])
	require.Equal(t, 0, int(b.model.Stats().Streams), "the model was not asked")

	for name, tc := range map[string]struct {
		body any
		msg  string
	}{
		"no messages":  {map[string]any{"messages": []any{}}, chat.MsgNoMessages},
		"bad role":     {map[string]any{"messages": []map[string]any{{"role": "robot", "content": "hi"}}}, chat.MsgRole},
		"too long":     {userAsks(strings.Repeat("a", chat.MaxMessageLength+1)), chat.MsgMessageTooLong},
		"not a string": {map[string]any{"messages": []map[string]any{{"role": "user", "content": 3}}}, "Request body must be valid JSON"},
		"document too long": {map[string]any{"messages": []map[string]any{{"role": "user", "content": "Make it shorter"}},
			"document": strings.Repeat("d", chat.MaxDocumentLength+1)}, chat.MsgDocumentTooLong},
	} {
		res, got := b.do(t, "POST", "/api/v1/chat/stream", tc.body)
		require.Equal(t, 400, res.StatusCode, name)
		require.Contains(t, res.Header.Get("Content-Type"), "application/json", name)
		require.Equal(t, tc.msg, errMessage(got), name)
	}
}

func TestChatStreamClientCancelStopsTheModel(t *testing.T) {
	t.Parallel()
	b := setup(t)
	slow := fakellm.New(fakellm.Options{TokenDelay: 200 * time.Millisecond})
	ts := httptest.NewServer(slow)
	t.Cleanup(ts.Close)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)
	b.chats.Model = model // before the first request
	b.signIn(t, "Ada", "ada.streamcancel@school.test")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := b.openStream(t, ctx, userAsks("Write a newsletter about the science fair"))
	require.Equal(t, 200, res.StatusCode)
	events := readEvents(t, res, func(e sseEvent) bool { return e.name == "delta" })
	require.Equal(t, "delta", events[len(events)-1].name, "the answer started")
	cancel()

	require.Eventually(t, func() bool { return slow.Stats().StreamsCancelled == 1 }, 5*time.Second, 20*time.Millisecond,
		"the model call is cancelled when the client goes away")
	require.Zero(t, slow.Stats().Answered, "the model did not finish the answer")
}
