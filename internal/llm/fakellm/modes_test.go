package fakellm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm"
)

// pointsSchema is a strict schema for the "score" task.
var pointsSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []any{"points", "seen"},
	"properties": map[string]any{
		"points": map[string]any{"type": "integer"},
		"seen":   map[string]any{"type": "string"},
	},
}

// body builds a chat completion request: system prompt, one user text and
// a response_format (nil for none).
func body(t *testing.T, system, user string, format map[string]any) string {
	t.Helper()
	req := map[string]any{
		"model":    DefaultModel,
		"messages": []any{map[string]any{"role": "system", "content": system}, map[string]any{"role": "user", "content": user}},
	}
	if format != nil {
		req["response_format"] = format
	}
	b, err := json.Marshal(req)
	require.NoError(t, err)
	return string(b)
}

func schemaFormat(name string, schema map[string]any, strict bool) map[string]any {
	return map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": name, "schema": schema, "strict": strict}}
}

var jsonObject = map[string]any{"type": "json_object"}

func content(t *testing.T, out map[string]any) string {
	t.Helper()
	return out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
}

func errorOf(out map[string]any) map[string]any { return out["error"].(map[string]any) }

func TestStrictSchemaEnforced(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	loose := map[string]any{
		"type": "object", "required": []any{"points"},
		"properties": map[string]any{"points": map[string]any{"type": "integer"}},
	}

	status, _, out := b.post(t, body(t, "Score it.", "An answer.", schemaFormat("score", loose, true)))
	require.Equal(t, 400, status)
	e := errorOf(out)
	require.Equal(t, "invalid_request_error", e["type"])
	require.Equal(t, "response_format", e["param"])
	require.Contains(t, e["message"], "Invalid schema for response_format 'score': ")
	require.Contains(t, e["message"], "additionalProperties")
	require.True(t, strings.HasSuffix(e["message"].(string), "."))
	require.Equal(t, int64(1), b.srv.Stats().BadRequests)

	status, _, _ = b.post(t, body(t, "Score it.", "An answer.", schemaFormat("score", loose, false)))
	require.Equal(t, 200, status, "without strict any schema is answered")
	status, _, _ = b.post(t, body(t, "Score it.", "An answer.", schemaFormat("score", pointsSchema, true)))
	require.Equal(t, 200, status, "a strict schema that fits is answered")
}

func TestRefuseSwitches(t *testing.T) {
	t.Parallel()
	ins := llm.SchemaInstructions("score", pointsSchema)
	schemaReq := body(t, "Score it.", "An answer.", schemaFormat("score", pointsSchema, true))
	objectReq := body(t, "Score it.\n\n"+ins, "An answer.", jsonObject)
	promptReq := body(t, "Score it.\n\n"+ins, "An answer.", nil)

	b := setup(t, Options{RefuseJSONSchema: true})
	status, _, out := b.post(t, schemaReq)
	require.Equal(t, 400, status)
	require.Equal(t, "response_format", errorOf(out)["param"])
	require.Contains(t, errorOf(out)["message"], "'json_schema' is not supported")
	status, _, _ = b.post(t, objectReq)
	require.Equal(t, 200, status)

	b = setup(t, Options{RefuseJSONSchema: true, RefuseJSONObject: true})
	status, _, out = b.post(t, objectReq)
	require.Equal(t, 400, status)
	require.Contains(t, errorOf(out)["message"], "'json_object' is not supported")
	status, _, _ = b.post(t, promptReq)
	require.Equal(t, 200, status, "no response_format is always accepted")
	st := b.srv.Stats()
	require.Equal(t, map[string]int64{"json_object": 1, "": 1}, st.Formats)
	require.Equal(t, int64(1), st.BadRequests)
	require.Equal(t, int64(1), st.Tasks["score"], "a refused request answers no task")
}

func TestTaskAnsweredAlikeInEveryMode(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	var systems []string
	b.srv.Handle("score", func(req ChatRequest) (any, error) {
		systems = append(systems, req.Messages[0].Text)
		return map[string]any{"points": len(req.UserText()), "seen": req.Task}, nil
	})
	system := "Score it.\nFence marker: q7"
	ins := llm.SchemaInstructions("score", pointsSchema)

	_, _, out := b.post(t, body(t, system, "An answer.", schemaFormat("score", pointsSchema, true)))
	want := content(t, out)
	require.JSONEq(t, `{"points":10,"seen":"score"}`, want)
	_, _, out = b.post(t, body(t, system+"\n\n"+ins, "An answer.", jsonObject))
	require.Equal(t, want, content(t, out), "json_object with the instructions")
	_, _, out = b.post(t, body(t, system+"\n\n"+ins, "An answer.", nil))
	require.Equal(t, want, content(t, out), "no response_format, not chatty: plain JSON")

	require.Equal(t, []string{system, system, system}, systems, "the task sees the system prompt without the instructions")
	require.Equal(t, int64(3), b.srv.Stats().Tasks["score"])

	_, _, out = b.post(t, body(t, system, "One. Two.", jsonObject))
	require.Contains(t, content(t, out), `"demo_model":true`, "JSON mode without instructions: as before")
	_, _, out = b.post(t, body(t, system, "Hello there.", nil))
	require.Contains(t, content(t, out), "demo model", "chat without instructions: as before")
}

func TestChattyWrapsPromptAnswers(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{Chatty: true})
	TeachAll(b.srv)
	ins := llm.SchemaInstructions("score", pointsSchema)

	_, _, out := b.post(t, body(t, "Score it.\n\n"+ins, "An answer.", nil))
	text := content(t, out)
	require.Contains(t, text, "```json\n")
	require.False(t, strings.HasPrefix(text, "{"), "a sentence comes first")
	require.False(t, strings.HasSuffix(text, "```"), "a sentence comes last")
	doc, err := llm.ExtractJSON(text)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(doc), &v))
	require.NoError(t, llm.Validate(pointsSchema, v))

	_, _, out = b.post(t, body(t, "Score it.\n\n"+ins, "An answer.", jsonObject))
	require.True(t, json.Valid([]byte(content(t, out))), "JSON mode stays plain JSON")
	require.Equal(t, int64(2), b.srv.Stats().Tasks["score"])

	b.srv.FailNext(FaultMalformed, 1)
	_, _, out = b.post(t, body(t, "Score it.\n\n"+ins, "An answer.", nil))
	_, err = llm.ExtractJSON(content(t, out))
	require.ErrorIs(t, err, llm.ErrBadOutput, "a malformed fault breaks the JSON inside the fence")
}
