package httpapi

import (
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/config"
)

// contentSecurityPolicy keeps the SPA to its own origin: no inline scripts,
// no third-party code. Styles are inline because MUI injects them. The
// browser talks only to Markwell (and to the S3 bucket its files live in,
// when there is one); forms post only to Markwell, whose sign-in redirects
// to the configured identity providers.
func contentSecurityPolicy(cfg config.Config) string {
	connect := []string{"'self'"}
	if cfg.S3Bucket != "" {
		if cfg.S3Endpoint != "" {
			connect = append(connect, origin(cfg.S3Endpoint))
		} else {
			connect = append(connect, "https://*.amazonaws.com")
		}
	}
	form := []string{"'self'"}
	if cfg.GoogleClientID != "" {
		form = append(form, origin(cfg.GoogleIssuer))
	}
	if cfg.OIDCIssuer != "" {
		form = append(form, origin(cfg.OIDCIssuer))
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: https:; font-src 'self' data:; connect-src " + strings.Join(connect, " ") + "; " +
		"frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action " + strings.Join(form, " ")
}

// origin is the scheme and host of an absolute URL.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "'none'"
	}
	return u.Scheme + "://" + u.Host
}

// spa serves the built frontend: real files as they are, any other page path
// as index.html so the client router handles it. Unknown API paths get a
// JSON 404.
func spa(dir, csp string) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/admin/") || strings.HasPrefix(p, "/files/") {
			c.JSON(http.StatusNotFound, gin.H{"error": gin.H{"code": "not_found", "message": "Not found"}})
			return
		}
		if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
			c.JSON(http.StatusNotFound, gin.H{"error": gin.H{"code": "not_found", "message": "Not found"}})
			return
		}
		clean := path.Clean("/" + p)
		file := filepath.Join(dir, filepath.FromSlash(clean))
		if st, err := os.Stat(file); err == nil && !st.IsDir() {
			if strings.HasPrefix(clean, "/assets/") {
				c.Header("Cache-Control", "public, max-age=31536000, immutable")
			}
			c.File(file)
			return
		}
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			c.String(http.StatusServiceUnavailable, "The frontend is not built. Run `make dev` (or `npm --prefix frontend run build`).")
			return
		}
		c.Header("Cache-Control", "no-cache")
		c.Header("Content-Security-Policy", csp)
		c.File(index)
	}
}
