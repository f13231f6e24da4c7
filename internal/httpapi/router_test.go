package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/attachment"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/changes/changestest"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/original"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/report"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/team"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	srv    *httptest.Server
	router *gin.Engine
	cfg    config.Config
	// blobs is the router's local store.
	blobs blob.Blob
	// model is the demo model behind AI assist, taught as `make dev` runs it.
	model *fakellm.Server
	// chats is the router's chat service; a test may swap its Model before
	// its first request.
	chats *chat.Service
	// clock is the results' change listener (changes.Clock), listening.
	clock *changes.Clock
	// originals is the router's originals service; a test may swap its
	// Office (the converter) before its first request.
	originals *original.Service
	// lti is the router's LTI tool (http platform URLs allowed); a test
	// works its lti_score jobs by calling SendScores.
	lti *lti.Service
	// The bundle is also its first browser: b.do and b.signIn use it.
	*browser
}

// setup serves the real router over a real database and local store, with
// a built frontend stand-in, one operator (ops@school.test) and the
// development sign-in on. Options adjust the configuration.
func setup(t *testing.T, opts ...func(*config.Config)) *bundle {
	t.Helper()
	static := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(static, "index.html"), []byte("<!doctype html><title>Markwell</title>"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(static, "assets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(static, "assets", "app.js"), []byte("console.log(1)"), 0o644))

	b := &bundle{}
	var router http.Handler
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { router.ServeHTTP(w, r) }))
	t.Cleanup(b.srv.Close)

	blobs, blobHandler, err := blob.New(context.Background(), blob.Config{
		Dir: t.TempDir(), PublicURL: b.srv.URL, Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	b.blobs = blobs
	cfg := config.Config{
		StaticDir: static, OperatorEmails: []string{"ops@school.test"},
		PublicURL: b.srv.URL, SecretKey: strings.Repeat("s", 32), AuthBasePath: "/api/auth",
		SessionMaxAge: 30 * 24 * time.Hour, SessionUpdateAge: 24 * time.Hour, DevSignIn: true,
	}
	for _, o := range opts {
		o(&cfg)
	}
	b.cfg = cfg
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	authSvc, err := auth.FromConfig(testdb.Pool(t), cfg, log)
	require.NoError(t, err)
	jobsUI := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "jobs dashboard") })
	assignments := &assignment.Service{Pool: testdb.Pool(t), AnswerMedia: answerbox.Signer{Blob: blobs, TTL: time.Minute}}
	budget := cfg.AIBudget(&ratelimit.Limiter{Pool: testdb.Pool(t)})
	model := budget.Meter(b.demoModel(t))
	b.chats = &chat.Service{Pool: testdb.Pool(t), Blob: blobs, Model: model}
	links := studentLinkService(t, cfg, blobs)
	clock := changeClock(t)
	b.clock = clock
	b.lti = lti.New(testdb.Pool(t), cfg.SecretKey, b.srv.URL, true, authSvc, links, insertClient(t))
	b.originals = &original.Service{Pool: testdb.Pool(t), Blob: blobs, TTL: time.Minute}
	links.LTI = b.lti
	b.router = httpapi.NewRouter(httpapi.Deps{
		Config: cfg, Pool: testdb.Pool(t), Log: log,
		Registry:    prometheus.NewRegistry(),
		Files:       &files.Service{Blob: blobs, TTL: time.Minute, Pool: testdb.Pool(t)},
		BlobHandler: blobHandler,
		JobsUI:      jobsUI,
		Auth:        authSvc,
		Limiter:     &ratelimit.Limiter{Pool: testdb.Pool(t)},
		ModelCheck:  modelChecker(t),
		Services: httpapi.Services{
			Team:        &team.Service{Pool: testdb.Pool(t), PublicURL: b.srv.URL},
			Library:     &library.Service{Pool: testdb.Pool(t), Jobs: insertClient(t)},
			Rubrics:     &rubric.Service{Pool: testdb.Pool(t)},
			Assignments: assignments,
			Results:     &result.Service{Pool: testdb.Pool(t), Assignments: assignments, Model: model, Jobs: insertClient(t), Budget: budget, Changes: clock},
			AnswerBoxes: &answerbox.Service{Pool: testdb.Pool(t), Jobs: insertClient(t), Blob: blobs, TTL: time.Minute},
			Originals:   b.originals,
			Assist:      &assist.Service{LLM: model},
			AIBudget:    budget,
			StudentLink: links,
			Submissions: submissionService(t, blobs),
			Classroom:   classroomService(t, cfg, blobs),
			Attachments: &attachment.Service{Files: &files.Service{Blob: blobs, TTL: time.Minute, Pool: testdb.Pool(t)}, Blob: blobs},
			Assistants:  &assistant.Service{Pool: testdb.Pool(t), Blob: blobs},
			Chats:       b.chats,
			Reports:     &report.Service{Pool: testdb.Pool(t), Blob: blobs, TTL: time.Minute, Jobs: insertClient(t)},
			Releases:    releaseService(t, cfg),
			LTI:         b.lti,
		},
	})
	router = b.router
	b.browser = b.newBrowser(t)
	return b
}

// demoModel serves the demo model over HTTP and returns the real openai-go
// client pointed at it.
func (b *bundle) demoModel(t *testing.T) llm.Client {
	t.Helper()
	b.model = fakellm.New(fakellm.Options{})
	fakellm.TeachAll(b.model)
	ts := httptest.NewServer(b.model)
	t.Cleanup(ts.Close)
	client, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)
	return client
}

// browser is one person's browser: its own cookies, and a CSRF token fetched
// from /api/auth/csrf on its first write (and again after the server renews
// it), as the frontend's API client does.
type browser struct {
	b      *bundle
	client *http.Client
	csrf   string
}

func (b *bundle) newBrowser(t *testing.T) *browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &browser{b: b, client: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// csrfToken returns the browser's CSRF token, fetching it once.
func (br *browser) csrfToken(t *testing.T) string {
	t.Helper()
	if br.csrf == "" {
		res, body := br.send(t, "GET", "/api/auth/csrf", nil, "")
		require.Equal(t, 200, res.StatusCode)
		br.csrf = body["csrfToken"].(string)
	}
	return br.csrf
}

// do sends a JSON request; writes carry the X-CSRF-Token header.
func (br *browser) do(t *testing.T, method, path string, body any, header ...string) (*http.Response, map[string]any) {
	t.Helper()
	var raw []byte
	if body != nil {
		j, err := json.Marshal(body)
		require.NoError(t, err)
		raw = j
	}
	if method != "GET" && method != "HEAD" {
		header = append([]string{httpapi.CSRFHeader, br.csrfToken(t)}, header...)
	}
	return br.send(t, method, path, raw, "application/json", header...)
}

// send sends body as it is, with no CSRF token unless a header says so.
func (br *browser) send(t *testing.T, method, path string, body []byte, contentType string, header ...string) (*http.Response, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = br.b.srv.URL + path
	}
	req, err := http.NewRequest(method, u, r)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	if cookie(res, httpapi.CSRFCookie) != nil {
		// A new csrf cookie (sign-in, sign-out) makes the cached token stale;
		// like the frontend, fetch the new one before the next write.
		br.csrf = ""
	}
	got, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	_ = json.Unmarshal(got, &out)
	return res, out
}

// postForm posts a form the way next-auth/react does: form-encoded, with
// the CSRF token, json=true and X-Auth-Return-Redirect.
func (br *browser) postForm(t *testing.T, path string, fields url.Values) (*http.Response, map[string]any) {
	t.Helper()
	f := url.Values{"csrfToken": {br.csrfToken(t)}, "json": {"true"}}
	for k, v := range fields {
		f[k] = v
	}
	return br.send(t, "POST", path, []byte(f.Encode()), "application/x-www-form-urlencoded", "X-Auth-Return-Redirect", "1")
}

// signIn signs in with the development sign-in exactly as next-auth/react's
// signIn("credentials", {name, email, callbackUrl, redirect: false}) does,
// and returns the session's user.
func (br *browser) signIn(t *testing.T, name, email string) map[string]any {
	t.Helper()
	res, providers := br.send(t, "GET", "/api/auth/providers", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "credentials", providers["credentials"].(map[string]any)["type"])
	res, body := br.postForm(t, "/api/auth/callback/credentials", url.Values{
		"name": {name}, "email": {email}, "redirect": {"false"}, "callbackUrl": {"/library"},
	})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, br.b.srv.URL+"/library", body["url"])
	res, session := br.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, session, "user")
	return session["user"].(map[string]any)
}

func TestUploadThenSignedDownload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada-upload@school.test")
	res, body := b.do(t, "POST", "/api/v1/s3-upload", map[string]string{"fileName": "chats/Lab report #2.pdf", "fileType": "application/pdf"})
	require.Equal(t, 200, res.StatusCode)
	data := body["data"].(map[string]any)
	signed := body["signedUrl"].(string)
	require.Equal(t, signed, data["signedUrl"])
	fileURL := strings.SplitN(signed, "?", 2)[0]
	require.Equal(t, fileURL, data["fileUrl"])
	require.Regexp(t, `/files/chats/[0-9a-f-]{36}/[0-9a-f]{16}-Labreport2\.pdf$`, fileURL)

	put, err := http.NewRequest("PUT", signed, strings.NewReader("%PDF-1.4 hello"))
	require.NoError(t, err)
	put.Header.Set("Content-Type", "application/pdf")
	putRes, err := http.DefaultClient.Do(put)
	require.NoError(t, err)
	putRes.Body.Close()
	require.Equal(t, 200, putRes.StatusCode)

	res, body = b.do(t, "POST", "/api/v1/getSignedURL", map[string]string{"link": fileURL})
	require.Equal(t, 200, res.StatusCode)
	get, err := http.Get(body["data"].(map[string]any)["signedUrl"].(string))
	require.NoError(t, err)
	got, _ := io.ReadAll(get.Body)
	get.Body.Close()
	require.Equal(t, "%PDF-1.4 hello", string(got))

	// The bare file URL is not readable without a signature.
	bare, err := http.Get(fileURL)
	require.NoError(t, err)
	bare.Body.Close()
	require.Equal(t, 403, bare.StatusCode)
}

func TestUploadRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada-refusals@school.test")
	for _, tc := range []struct {
		name, path string
		body       any
		want       string
	}{
		{"no file name", "/api/v1/s3-upload", map[string]string{"fileType": "text/plain"}, "fileName and fileType are required"},
		{"no file type", "/api/v1/s3-upload", map[string]string{"fileName": "a.txt"}, "fileName and fileType are required"},
		{"unknown folder", "/api/v1/s3-upload", map[string]string{"fileName": "etc/passwd", "fileType": "text/plain"}, `Folder "etc/" is not an upload folder`},
		{"traversal", "/api/v1/s3-upload", map[string]string{"fileName": "../../x.txt", "fileType": "text/plain"}, "is not an upload folder"},
		{"bad type", "/api/v1/s3-upload", map[string]string{"fileName": "a.txt", "fileType": "not a type"}, "is not a valid media type"},
		{"not json", "/api/v1/s3-upload", "just a string", "Request body must be valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := b.do(t, "POST", tc.path, tc.body)
			require.Equal(t, 400, res.StatusCode)
			require.Contains(t, body["error"].(map[string]any)["message"], tc.want)
		})
	}
}

// someAssignment makes an assignment in a team of its own, straight in the
// database, for routes that only need one to exist.
func someAssignment(t *testing.T) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	tm, err := store.Q.CreateTeam(ctx, testdb.Pool(t), "Elsewhere")
	require.NoError(t, err)
	a, err := store.Q.CreateAssignment(ctx, testdb.Pool(t), store.CreateAssignmentParams{TeamID: tm.ID, Name: "Essay", Type: store.AssignmentTypeFeedback})
	require.NoError(t, err)
	return a.ID
}

func TestSignedURLRefusesForeignLinks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada-links@school.test")
	for _, link := range []string{
		"http://169.254.169.254/latest/meta-data/",
		"file:///etc/passwd",
		b.srv.URL + "/files/../secret",
		b.srv.URL + "/api/v1/getSignedURL",
		"",
	} {
		res, _ := b.do(t, "POST", "/api/v1/getSignedURL", map[string]string{"link": link})
		require.Equal(t, 400, res.StatusCode, link)
	}
}

func TestHealthReadyAndMetrics(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, _ := b.do(t, "GET", "/healthz", nil)
	require.Equal(t, 200, res.StatusCode)
	res, body := b.do(t, "GET", "/readyz", nil)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "current", body["migrations"])

	// On the app port, the metrics are for operators only.
	m, err := http.Get(b.srv.URL + "/metrics")
	require.NoError(t, err)
	m.Body.Close()
	require.Equal(t, 404, m.StatusCode, "anonymous /metrics on the app port")
	b.signIn(t, "Teacher", "teacher-metrics@school.test")
	res, _ = b.do(t, "GET", "/metrics", nil)
	require.Equal(t, 404, res.StatusCode, "a teacher's /metrics on the app port")
	ops := b.newBrowser(t)
	ops.signIn(t, "Operator", "ops@school.test")
	res, err = ops.client.Get(b.srv.URL + "/metrics")
	require.NoError(t, err)
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(text), `markwell_http_request_duration_seconds_count{method="GET",route="/readyz",status="200"} 1`)
}

func TestRequestIDIsEchoedOrMade(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, _ := b.do(t, "GET", "/healthz", nil, "X-Request-ID", "abc12345-test")
	require.Equal(t, "abc12345-test", res.Header.Get("X-Request-ID"))
	res, _ = b.do(t, "GET", "/healthz", nil, "X-Request-ID", "<script>")
	require.Regexp(t, `^[0-9a-f]{16}$`, res.Header.Get("X-Request-ID"))
}

func TestJobsDashboardOnlyForOperators(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, _ := b.do(t, "GET", "/admin/jobs", nil)
	require.Equal(t, 404, res.StatusCode)
	b.signIn(t, "Teacher", "teacher-jobs@school.test")
	res, _ = b.do(t, "GET", "/admin/jobs/jobs", nil)
	require.Equal(t, 404, res.StatusCode)
	ops := b.newBrowser(t)
	ops.signIn(t, "Operator", "OPS@school.test")
	res, _ = ops.do(t, "GET", "/admin/jobs/jobs", nil)
	require.Equal(t, 200, res.StatusCode)
}

func TestSPAFallbackAndAPINotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := http.Get(b.srv.URL + "/assignment/123")
	require.NoError(t, err)
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(page), "<title>Markwell</title>")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self'")

	res, err = http.Get(b.srv.URL + "/assets/app.js")
	require.NoError(t, err)
	res.Body.Close()
	require.Contains(t, res.Header.Get("Cache-Control"), "immutable")

	r, body := b.do(t, "POST", "/api/v1/no-such-route", map[string]string{})
	require.Equal(t, 404, r.StatusCode)
	require.Equal(t, "not_found", body["error"].(map[string]any)["code"])
}

// The build's manifest sits in dist/.vite/ beside the app: it is not served,
// nor is any other dot-path. A chunk an earlier build named is a 404, not the
// page, so the app's dynamic import fails and the app reloads itself.
func TestSPAHidesDotPathsAndMissingChunks(t *testing.T) {
	t.Parallel()
	b := setup(t)
	require.NoError(t, os.MkdirAll(filepath.Join(b.cfg.StaticDir, ".vite"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(b.cfg.StaticDir, ".vite", "manifest.json"), []byte(`{"index.html":{}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(b.cfg.StaticDir, ".env"), []byte("SECRET=1"), 0o644))
	get := func(p string) (int, string) {
		res, err := http.Get(b.srv.URL + p)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(body)
	}
	for _, p := range []string{"/.vite/manifest.json", "/.env", "/assets/.hidden.js", "/.vite/"} {
		code, body := get(p)
		require.Equal(t, 404, code, p)
		require.NotContains(t, body, "index.html", p)
		require.NotContains(t, body, "<title>Markwell</title>", p)
	}
	code, body := get("/assets/index-0ld.js")
	require.Equal(t, 404, code, "a chunk of an earlier build")
	require.NotContains(t, body, "<title>Markwell</title>")

	code, body = get("/assets/app.js")
	require.Equal(t, 200, code)
	require.Equal(t, "console.log(1)", body)
	code, body = get("/library/some.page")
	require.Equal(t, 200, code, "a page path with a dot in a name is still the app")
	require.Contains(t, body, "<title>Markwell</title>")
}

func TestAppConfigSaysWhenTheDemoModelAnswers(t *testing.T) {
	t.Parallel()
	for _, demo := range []bool{true, false} {
		b := setup(t, func(c *config.Config) { c.DemoModel = demo })
		res, body := b.do(t, "GET", "/api/v1/app-config", nil)
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, map[string]any{"demoModel": demo, "emailEnabled": false}, body["data"])
	}
	// emailEnabled: SMTP is configured (released results can be emailed).
	b := setup(t, func(c *config.Config) {
		c.SMTPURL, c.SMTPFrom = "smtps://mail.school.test", "Markwell <no-reply@school.test>"
	})
	res, body := b.do(t, "GET", "/api/v1/app-config", nil)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, map[string]any{"demoModel": false, "emailEnabled": true}, body["data"])
}

// changeClock is a change listener on the test database, listening: polls
// of unchanged classes are answered from memory, as in the API.
func changeClock(t *testing.T) *changes.Clock {
	t.Helper()
	clock, _ := changestest.Listening(t)
	return clock
}
