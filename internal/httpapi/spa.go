package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/config"
)

// NoncePlaceholder is what frontend/index.html carries where each served
// copy gets its own CSP nonce:
// <meta property="csp-nonce" nonce="__CSP_NONCE__" />. The frontend gives
// it to emotion (MUI's styling engine), whose <style> tags then carry it.
const NoncePlaceholder = "__CSP_NONCE__"

// cspPolicy is the SPA's Content-Security-Policy, but for the nonce that
// each HTML response gets.
type cspPolicy struct {
	// before and after surround the style nonce.
	before, after string
}

// header is the policy with nonce.
func (p cspPolicy) header(nonce string) string {
	return p.before + nonce + p.after
}

// contentSecurityPolicy keeps the SPA to its own origin: no inline scripts,
// no third-party code, no inline styles but those that carry the response's
// nonce (emotion's). Images come from Markwell, data: and blob: URLs (made
// in the page) and the file store (fileOrigin, the S3 bucket's origin; ""
// for the local store, which is Markwell itself). The browser talks only to
// Markwell and the file store; forms post only to Markwell, whose sign-in
// redirects to the configured identity providers.
func contentSecurityPolicy(cfg config.Config, fileOrigin string) cspPolicy {
	files := []string{"'self'"}
	if fileOrigin != "" {
		files = append(files, fileOrigin)
	}
	form := []string{"'self'"}
	if cfg.GoogleClientID != "" {
		form = append(form, origin(cfg.GoogleIssuer))
	}
	if cfg.OIDCIssuer != "" {
		form = append(form, origin(cfg.OIDCIssuer))
	}
	return cspPolicy{
		before: "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-",
		after: "'; img-src " + strings.Join(files, " ") + " data: blob:; font-src 'self' data:; " +
			"connect-src " + strings.Join(files, " ") + "; " +
			"frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action " + strings.Join(form, " "),
	}
}

// fileStoreOrigin is the origin the browser reaches stored files at: ""
// for the local store (Markwell itself), else the S3 bucket's origin as the
// store addresses it (from a signed URL), or as the configuration names it
// when no store is at hand.
func fileStoreOrigin(d Deps) string {
	cfg := d.Config
	if cfg.S3Bucket == "" {
		return ""
	}
	if d.Files != nil && d.Files.Blob != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if u, err := d.Files.Blob.PresignGet(ctx, "csp/origin", time.Minute); err == nil {
			if o := origin(u); o != "'none'" {
				return o
			}
		}
	}
	if cfg.S3Endpoint != "" {
		return origin(cfg.S3Endpoint)
	}
	return "https://" + cfg.S3Bucket + ".s3." + cfg.S3Region + ".amazonaws.com"
}

// origin is the scheme and host of an absolute URL.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "'none'"
	}
	return u.Scheme + "://" + u.Host
}

// newNonce is a fresh CSP nonce: 128 random bits, base64url.
func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// spa serves the built frontend: real files as they are, any other page path
// (and /index.html) as index.html, with a fresh nonce in the page and in its
// CSP and modulepreload tags for the route's chunks, so the client router
// handles it. Unknown API paths get a JSON 404; a
// missing file under /assets/ and any path with a segment starting with '.'
// a plain 404.
//
// head, when not nil, adds to the page's <head> what it says for this
// request (pageHead: a signed-in page's CSRF token).
func spa(dir string, csp cspPolicy, head func(*gin.Context) string) gin.HandlerFunc {
	pl := newPreloads(dir)
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/admin/") && p != ModelCheckPage && p != LTIPage || strings.HasPrefix(p, "/files/") {
			notFound(c)
			return
		}
		if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			notFound(c)
			return
		}
		clean := path.Clean("/" + p)
		// The build's own files (.vite/manifest.json) and any other dot-path are not the app's.
		if hasDotSegment(p) {
			c.Status(http.StatusNotFound)
			return
		}
		file := filepath.Join(dir, filepath.FromSlash(clean))
		if st, err := os.Stat(file); err == nil && !st.IsDir() && clean != "/index.html" {
			if strings.HasPrefix(clean, "/assets/") {
				c.Header("Cache-Control", "public, max-age=31536000, immutable")
			}
			c.File(file)
			return
		}
		// A chunk a page from an earlier build asks for is gone: a 404 (not the page) makes its
		// import fail at once, and the app reloads itself once (frontend/src/lib/lazy-page.ts).
		if strings.HasPrefix(clean, "/assets/") {
			c.Header("Cache-Control", "no-store")
			c.Status(http.StatusNotFound)
			return
		}
		page, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil {
			c.String(http.StatusServiceUnavailable, "The frontend is not built. Run `make dev` (or `npm --prefix frontend run build`).")
			return
		}
		// Each copy holds its own nonce: never stored, never revalidated (a
		// 304 would pair an old page with a new policy).
		nonce := newNonce()
		c.Header("Cache-Control", "no-store")
		c.Header("Content-Security-Policy", csp.header(nonce))
		page = bytes.ReplaceAll(page, []byte(NoncePlaceholder), []byte(nonce))
		// The page's own chunks, fetched alongside the entry rather than after it (preload.go).
		tags := pl.tags(clean)
		if head != nil {
			tags += head(c)
		}
		if tags != "" {
			page = bytes.Replace(page, []byte("</head>"), []byte(tags+"</head>"), 1)
		}
		c.Data(http.StatusOK, "text/html; charset=utf-8", page)
	}
}

// hasDotSegment reports whether the URL path has a segment starting with
// '.' ("/.vite/manifest.json", "/assets/.x", "/a/../b").
func hasDotSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
