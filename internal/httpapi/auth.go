// The NextAuth-compatible sign-in surface: its routes and what they share.
// auth_nextauth.go and auth_signin.go hold the routes, auth_session.go the
// session cookie and middleware, auth_csrf.go the CSRF check, auth_form.go
// the request bodies and URLs, auth_log.go the client log.

package httpapi

import (
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/ratelimit"
)

// The cookies of the sign-in surface.
const (
	// SessionCookie holds the opaque session token.
	SessionCookie = "markwell.session-token"
	// CSRFCookie holds "token|mac" for double-submit CSRF checks; the mac
	// binds the token to the session it was minted for (or to none).
	CSRFCookie = "markwell.csrf-token"
	// StateCookie binds an OAuth sign-in attempt to the browser that began it.
	StateCookie = "markwell.oauth-state"
	// CSRFHeader carries the CSRF token on JSON writes.
	CSRFHeader = "X-CSRF-Token"
)

const (
	authBodyLimit = 64 << 10
	logBodyLimit  = 16 << 10
	dataLimit     = 16 << 10
	authKey       = "auth.handlers"
	sessionKey    = "auth.session"
	formKey       = "auth.form"
	formErrKey    = "auth.form-error"
)

// authHandlers serve the NextAuth-compatible /api/auth surface and hold what
// the session and CSRF middleware need.
type authHandlers struct {
	svc    *auth.Service
	cfg    config.Config
	base   string
	public string
	secure bool
	// logs limits the client logs each address may send (auth_log.go).
	logs *ratelimit.Local
	// limiter counts sign-in attempts; nil turns the limit off.
	limiter *ratelimit.Limiter
}

func newAuthHandlers(d Deps) *authHandlers {
	base := d.Config.AuthBasePath
	if base == "" {
		base = "/api/auth"
	}
	public := strings.TrimRight(d.Config.PublicURL, "/")
	if public == "" {
		public = "http://localhost:8080"
	}
	return &authHandlers{
		svc: d.Auth, cfg: d.Config, base: base, public: public,
		secure:  strings.HasPrefix(public, "https://"),
		logs:    ratelimit.NewLocal(10, time.Minute, 120),
		limiter: d.Limiter,
	}
}

func (h *authHandlers) register(r *gin.Engine) {
	g := r.Group(h.base, limitBody(authBodyLimit), noStore)
	g.GET("/session", h.getSession)
	g.GET("/csrf", h.csrf)
	g.GET("/providers", h.providers)
	g.GET("/signin", h.signinPage)
	g.GET("/signin/:provider", h.signinPage)
	g.GET("/error", h.errorPage)
	attempt := h.limitSignIns()
	g.GET("/callback/:provider", attempt, h.oauthCallback)
	// Client logs come from navigator.sendBeacon, which cannot carry a CSRF
	// token; they change nothing, and are rate limited and capped instead.
	g.POST("/_log", h.clientLog)

	w := g.Group("", h.parseForm, h.csrfProtect(), formOK)
	w.POST("/signin/:provider", attempt, h.signin)
	w.POST("/callback/:provider", attempt, h.credentialsCallback)
	w.POST("/signout", h.signout)
	w.POST("/session", h.updateSession)
}

// limitSignIns caps sign-in attempts per client address, as Gin sees it
// through TRUSTED_PROXIES.
func (h *authHandlers) limitSignIns() gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h.limiter.Allow(c, h.cfg.SignInLimit, "signin:"+c.ClientIP(), ratelimit.MsgSignIn); err != nil {
			fail(c, err)
			return
		}
		c.Next()
	}
}

func noStore(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.Next()
}
