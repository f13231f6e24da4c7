package httpapi_test

import (
	"io"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/modelcheck"
)

// modelChecker is the operator page's provider check against a demo model
// of its own, priced, with a vision model set.
func modelChecker(t *testing.T) *modelcheck.Checker {
	t.Helper()
	srv := fakellm.New(fakellm.Options{})
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	prices, err := llm.ParsePrices("markwell-demo=0.40/0.10/1.60")
	require.NoError(t, err)
	return &modelcheck.Checker{Prices: prices, Config: llm.Config{
		BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel, VisionModel: fakellm.DefaultModel}}
}

// The provider check is an operator's: a teacher and an anonymous caller
// get 404 (the page's existence is not revealed), a write without the CSRF
// token is refused, and an operator gets the settings and the report.
//
// Not parallel: it and TestModelCheckRunsAreLimited share the check's one
// counter, so they run one after the other.
func TestModelCheckIsForOperators(t *testing.T) {
	b := setup(t)
	page := func(br *browser) (int, string) {
		res, err := br.client.Get(b.srv.URL + httpapi.ModelCheckPage)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(body)
	}
	res, _ := b.do(t, "POST", "/api/v1/operator/model-check", map[string]any{})
	require.Equal(t, 404, res.StatusCode, "anonymous")
	status, _ := page(b.browser)
	require.Equal(t, 404, status, "anonymous, the page")
	b.signIn(t, "Teacher", "teacher-modelcheck@school.test")
	for _, method := range []string{"GET", "POST"} {
		res, _ = b.do(t, method, "/api/v1/operator/model-check", map[string]any{})
		require.Equal(t, 404, res.StatusCode, "a teacher's %s", method)
	}
	status, _ = page(b.browser)
	require.Equal(t, 404, status, "a teacher, the page")

	ops := b.newBrowser(t)
	ops.signIn(t, "Operator", "ops@school.test")
	status, html := page(ops)
	require.Equal(t, 200, status, "the app, for an operator")
	require.Contains(t, html, "<title>Markwell</title>")
	res, err := ops.client.Get(b.srv.URL + "/admin/other")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 404, res.StatusCode, "the rest of /admin/ is not the app's, even for an operator")
	res, body := ops.do(t, "GET", "/api/v1/operator/model-check", nil)
	require.Equal(t, 200, res.StatusCode, body)
	settings := body["data"].(map[string]any)["settings"].(map[string]any)
	require.Equal(t, "markwell-demo", settings["model"])
	require.Equal(t, "auto", settings["mode"])
	require.Equal(t, true, settings["priced"])

	res, _ = ops.send(t, "POST", "/api/v1/operator/model-check", []byte(`{}`), "application/json")
	require.Equal(t, 403, res.StatusCode, "no CSRF token")

	res, body = ops.do(t, "POST", "/api/v1/operator/model-check", map[string]any{"mode": "xml"})
	require.Equal(t, 400, res.StatusCode, body)

	res, body = ops.do(t, "POST", "/api/v1/operator/model-check", map[string]any{"mode": "json_object"})
	require.Equal(t, 200, res.StatusCode, body)
	rep := body["data"].(map[string]any)["report"].(map[string]any)
	require.Equal(t, true, rep["passed"], rep)
	require.Equal(t, "json_object", rep["mode"])
	results := rep["results"].([]any)
	var tasks []string
	for _, r := range results {
		r := r.(map[string]any)
		tasks = append(tasks, r["task"].(string))
		require.Equal(t, true, r["valid"], r)
		require.Positive(t, r["classCost"], r)
	}
	require.Equal(t, []string{"grade", "feedback", "rubric-feedback", "prompt", "handwriting"}, tasks)
}

// The check spends the school's tokens: past ModelCheckLimit's runs in its
// window, every operator is told to wait, with Retry-After.
func TestModelCheckRunsAreLimited(t *testing.T) {
	b := setup(t)
	ops := b.newBrowser(t)
	ops.signIn(t, "Operator", "ops@school.test")
	for i := 1; ; i++ {
		// A window may end during the loop (an hour's turn): then it takes
		// up to twice the limit.
		require.LessOrEqual(t, i, 2*httpapi.ModelCheckLimit.Limit+1, "no 429 in sight")
		res, body := ops.do(t, "POST", "/api/v1/operator/model-check", map[string]any{"mode": "json_schema"})
		if res.StatusCode == 200 {
			continue
		}
		require.Equal(t, 429, res.StatusCode, body)
		require.Equal(t, httpapi.MsgModelCheckLimited, body["error"].(map[string]any)["message"])
		require.NotEmpty(t, res.Header.Get("Retry-After"))
		break
	}
}
