package httpapi_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
)

var nonceMeta = regexp.MustCompile(`<meta property="csp-nonce" nonce="([^"]*)" />`)

// Every copy of the app's page gets its own style nonce, in the page (for
// emotion) and in its CSP: styles need it, 'unsafe-inline' is gone, and no
// copy is stored or revalidated (a 304 would pair an old page with a new
// policy).
func TestEveryAppPageGetsItsOwnStyleNonce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	page := `<!doctype html><html><head><meta property="csp-nonce" nonce="` + httpapi.NoncePlaceholder + `" /><title>Markwell</title></head></html>`
	require.NoError(t, os.WriteFile(filepath.Join(b.cfg.StaticDir, "index.html"), []byte(page), 0o644))

	seen := map[string]bool{}
	for _, p := range []string{"/", "/library", "/library", "/index.html", "/assignment/123/results?tab=2"} {
		res, err := http.Get(b.srv.URL + p)
		require.NoError(t, err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		require.Equal(t, 200, res.StatusCode, p)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"), p)
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"), p)
		require.Empty(t, res.Header.Get("Last-Modified"), p)
		require.Empty(t, res.Header.Get("ETag"), p)

		m := nonceMeta.FindSubmatch(body)
		require.NotNil(t, m, "%s: %s", p, body)
		nonce := string(m[1])
		require.Regexp(t, `^[A-Za-z0-9_-]{22}$`, nonce, p)
		require.False(t, seen[nonce], "%s: a nonce is never served twice", p)
		seen[nonce] = true

		csp := res.Header.Get("Content-Security-Policy")
		require.NotContains(t, csp, "unsafe-inline", p)
		require.NotContains(t, csp, "https:;", p)
		d := map[string]string{}
		for _, part := range strings.Split(csp, ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(part), " ")
			d[name] = value
		}
		require.Equal(t, "'self' 'nonce-"+nonce+"'", d["style-src"], p)
		require.Equal(t, "'self' data: blob:", d["img-src"], "%s: the local store is Markwell itself", p)
		require.Equal(t, "'self'", d["script-src"], p)
	}
}
