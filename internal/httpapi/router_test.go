package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/storage"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	srv *httptest.Server
}

// setup serves the real router over a real database and local store, with
// a built frontend stand-in and one operator, ops@school.test.
func setup(t *testing.T) *bundle {
	t.Helper()
	static := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(static, "index.html"), []byte("<!doctype html><title>Markwell</title>"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(static, "assets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(static, "assets", "app.js"), []byte("console.log(1)"), 0o644))

	b := &bundle{}
	var router http.Handler
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { router.ServeHTTP(w, r) }))
	t.Cleanup(b.srv.Close)

	blob, blobHandler, err := storage.New(context.Background(), storage.Config{
		Dir: t.TempDir(), PublicURL: b.srv.URL, Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	cfg := config.Config{StaticDir: static, OperatorEmails: []string{"ops@school.test"}}
	jobsUI := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "jobs dashboard") })
	router = httpapi.NewRouter(httpapi.Deps{
		Config: cfg, Pool: testdb.Pool(t), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Registry:    prometheus.NewRegistry(),
		Files:       &files.Service{Blob: blob, TTL: time.Minute},
		BlobHandler: blobHandler,
		JobsUI:      jobsUI,
		CurrentEmail: func(c *gin.Context) (string, bool) {
			e := c.GetHeader("X-Test-Email") // stands in for the session until sign-in exists
			return e, e != ""
		},
	})
	return b
}

func (b *bundle) do(t *testing.T, method, path string, body any, header ...string) (*http.Response, map[string]any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, b.srv.URL+path, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return res, out
}

func TestUploadThenSignedDownload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, body := b.do(t, "POST", "/api/v1/s3-upload", map[string]string{"fileName": "chats/Lab report #2.pdf", "fileType": "application/pdf"})
	require.Equal(t, 200, res.StatusCode)
	data := body["data"].(map[string]any)
	signed := body["signedUrl"].(string)
	require.Equal(t, signed, data["signedUrl"])
	fileURL := strings.SplitN(signed, "?", 2)[0]
	require.Equal(t, fileURL, data["fileUrl"])
	require.Regexp(t, `/files/chats/[0-9a-f]{16}-Labreport2\.pdf$`, fileURL)

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
		{"student outside submissions", "/api/v1/s3-pub-upload", map[string]string{"fileName": "chats/a.txt", "fileType": "text/plain"}, "Student uploads must go to assignments/{id}/submissions/"},
		{"not json", "/api/v1/s3-upload", "just a string", "Request body must be valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := b.do(t, "POST", tc.path, tc.body)
			require.Equal(t, 400, res.StatusCode)
			require.Contains(t, body["error"].(map[string]any)["message"], tc.want)
		})
	}
}

func TestStudentUploadGoesToSubmissions(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, body := b.do(t, "POST", "/api/v1/s3-pub-upload", map[string]string{
		"fileName": "assignments/0b6b7a52-8a3e-4a7d-9a52-3c0f1e2d4b5a/submissions/essay.docx",
		"fileType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	})
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, body["data"].(map[string]any)["key"], "assignments/0b6b7a52-8a3e-4a7d-9a52-3c0f1e2d4b5a/submissions/")
}

func TestSignedURLRefusesForeignLinks(t *testing.T) {
	t.Parallel()
	b := setup(t)
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

	res, _ = b.do(t, "GET", "/metrics", nil)
	require.Equal(t, 200, res.StatusCode)
	m, err := http.Get(b.srv.URL + "/metrics")
	require.NoError(t, err)
	text, _ := io.ReadAll(m.Body)
	m.Body.Close()
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
	res, _ = b.do(t, "GET", "/admin/jobs/jobs", nil, "X-Test-Email", "teacher@school.test")
	require.Equal(t, 404, res.StatusCode)
	res, _ = b.do(t, "GET", "/admin/jobs/jobs", nil, "X-Test-Email", "OPS@school.test")
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
