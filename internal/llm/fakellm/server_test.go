package fakellm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type bundle struct {
	srv *Server
	url string
}

func setup(t *testing.T, opts Options) bundle {
	t.Helper()
	srv := New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return bundle{srv: srv, url: ts.URL}
}

// post sends body to the chat completions endpoint and returns the status,
// headers and decoded body.
func (b bundle) post(t *testing.T, body string) (int, http.Header, map[string]any) {
	t.Helper()
	res, err := http.Post(b.url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return res.StatusCode, res.Header, out
}

const hello = `{"model":"markwell-demo","messages":[{"role":"user","content":"Hello there."}]}`

func TestChatCompletionShape(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})

	status, header, out := b.post(t, hello)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "application/json", header.Get("Content-Type"))
	require.Equal(t, "chat.completion", out["object"])
	require.Equal(t, "markwell-demo", out["model"])
	require.NotEmpty(t, out["id"])
	require.NotZero(t, out["created"])
	choice := out["choices"].([]any)[0].(map[string]any)
	require.Equal(t, "stop", choice["finish_reason"])
	msg := choice["message"].(map[string]any)
	require.Equal(t, "assistant", msg["role"])
	require.Contains(t, msg["content"], "demo model")
	require.Contains(t, out["usage"], "total_tokens")
}

func TestJSONObjectFormat(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})

	status, _, out := b.post(t, `{"model":"markwell-demo","response_format":{"type":"json_object"},"messages":[{"role":"user","content":"One. Two."}]}`)
	require.Equal(t, http.StatusOK, status)
	content := out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(content), &v))
	require.Equal(t, true, v["demo_model"])
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{})
	tests := map[string]struct {
		body   string
		status int
		param  any
	}{
		"not json":        {`{"model":`, 400, nil},
		"stream options":  {`{"model":"markwell-demo","stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, 400, "stream_options"},
		"no model":        {`{"messages":[{"role":"user","content":"hi"}]}`, 400, "model"},
		"unknown model":   {`{"model":"gpt-x","messages":[{"role":"user","content":"hi"}]}`, 404, "model"},
		"no messages":     {`{"model":"markwell-demo","messages":[]}`, 400, "messages"},
		"bad role":        {`{"model":"markwell-demo","messages":[{"role":"robot","content":"hi"}]}`, 400, "messages[0]"},
		"schema unnamed":  {`{"model":"markwell-demo","response_format":{"type":"json_schema","json_schema":{"schema":{}}},"messages":[{"role":"user","content":"hi"}]}`, 400, "response_format.json_schema.name"},
		"hot temperature": {`{"model":"markwell-demo","temperature":2.5,"messages":[{"role":"user","content":"hi"}]}`, 400, "temperature"},
	}
	for name, tt := range tests {
		status, _, out := b.post(t, tt.body)
		require.Equal(t, tt.status, status, name)
		e := out["error"].(map[string]any)
		require.Equal(t, "invalid_request_error", e["type"], name)
		require.Equal(t, tt.param, e["param"], name)
		require.NotEmpty(t, e["message"], name)
		require.NotEmpty(t, e["code"], name)
	}
	require.Equal(t, int64(len(tests)), b.srv.Stats().BadRequests)
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{Models: []string{"a", "b"}})
	get := func(path string) (int, map[string]any) {
		res, err := http.Get(b.url + path)
		require.NoError(t, err)
		defer res.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return res.StatusCode, out
	}

	status, out := get("/v1/models")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "list", out["object"])
	require.Len(t, out["data"], 2)
	require.Equal(t, "a", out["data"].([]any)[0].(map[string]any)["id"])

	status, out = get("/v1/models/b")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "model", out["object"])

	status, _ = get("/v1/models/c")
	require.Equal(t, http.StatusNotFound, status)
	status, _ = get("/v1/nowhere")
	require.Equal(t, http.StatusNotFound, status)
	status, _ = get("/v1/chat/completions")
	require.Equal(t, http.StatusMethodNotAllowed, status)
}

func TestFaultRatesAreReproducible(t *testing.T) {
	t.Parallel()
	outcomes := func(seed int64) []int {
		b := setup(t, Options{Seed: seed, Rate429: 0.25, Rate500: 0.25, RateMalformed: 0.25, RetryAfter: -1})
		var got []int
		for range 40 {
			status, header, _ := b.post(t, hello)
			require.Empty(t, header.Get("Retry-After"))
			got = append(got, status)
		}
		st := b.srv.Stats()
		require.Equal(t, int64(40), st.Requests)
		require.Equal(t, int64(40), st.Answered+st.RateLimited+st.ServerErrors+st.Malformed)
		require.NotZero(t, st.Answered)
		require.NotZero(t, st.RateLimited)
		require.NotZero(t, st.ServerErrors)
		require.NotZero(t, st.Malformed)
		return got
	}
	require.Equal(t, outcomes(7), outcomes(7))
	require.NotEqual(t, outcomes(7), outcomes(8))
}

func TestFailNextComesFirst(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{RetryAfter: 2500 * time.Millisecond})
	b.srv.FailNext(FaultRateLimit, 2)
	b.srv.FailNext(FaultServerError, 1)

	status, header, _ := b.post(t, hello)
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Equal(t, "3", header.Get("Retry-After"))
	require.Equal(t, "2500", header.Get("Retry-After-Ms"))
	status, _, _ = b.post(t, hello)
	require.Equal(t, http.StatusTooManyRequests, status)
	status, _, _ = b.post(t, hello)
	require.Equal(t, http.StatusInternalServerError, status)
	status, _, _ = b.post(t, hello)
	require.Equal(t, http.StatusOK, status)
}

func TestHangForThenAnswer(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{HangFor: time.Millisecond})
	b.srv.FailNext(FaultTimeout, 1)

	status, _, _ := b.post(t, hello)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, int64(1), b.srv.Stats().Timeouts)
}

func TestFaultString(t *testing.T) {
	t.Parallel()
	require.Equal(t, "rate_limit", FaultRateLimit.String())
	require.Equal(t, "fault(99)", Fault(99).String())
}
