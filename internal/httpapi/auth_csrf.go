package httpapi

import (
	"html"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
)

// csrfProtect refuses state-changing requests whose CSRF token (the
// X-CSRF-Token header, or the csrfToken field of a form or of an auth JSON
// body) does not match the csrf cookie, or whose cookie was not minted for
// the request's session (or, without a session, anonymously).
func (h *authHandlers) csrfProtect() gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			c.Next()
			return
		}
		submitted := c.GetHeader(CSRFHeader)
		if submitted == "" {
			if f, ok := c.Get(formKey); ok {
				submitted = f.(*authForm).str("csrfToken")
			} else if isForm(c.Request) {
				submitted = c.PostForm("csrfToken")
			}
		}
		st := loadSession(c)
		if st.err != nil {
			// Without the session the token's binding cannot be checked.
			fail(c, st.err)
			return
		}
		cookie, _ := c.Cookie(CSRFCookie)
		if h.svc == nil || !h.svc.VerifyCSRF(cookie, submitted, st.live()) {
			var extra gin.H
			if strings.HasPrefix(c.Request.URL.Path, h.base+"/") {
				// NextAuth's client reads url from every auth answer.
				extra = gin.H{"url": h.signInPage(url.Values{"csrf": {"true"}})}
			}
			logger(c).Info("request refused: invalid CSRF token", "path", c.Request.URL.Path,
				"had_token", submitted != "", "had_cookie", cookie != "", "signed_in", st.ok)
			failWith(c, apperr.New(apperr.Forbidden, "Invalid CSRF token"), extra)
			return
		}
		c.Next()
	}
}

func isForm(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data"
}

// csrf is GET {base}/csrf: the token of the csrf cookie when that cookie was
// minted for the request's session (or, signed out, anonymously); otherwise
// a new token, with its cookie.
func (h *authHandlers) csrf(c *gin.Context) {
	token, err := h.formCSRFToken(c)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"csrfToken": token})
}

// formCSRFToken is the request's CSRF token for a form Markwell renders
// itself, its cookie set when the browser has none for this session yet.
func (h *authHandlers) formCSRFToken(c *gin.Context) (string, error) {
	st := loadSession(c)
	if st.err != nil {
		return "", st.err
	}
	cookie, _ := c.Cookie(CSRFCookie)
	token, fresh := h.svc.CSRFToken(cookie, st.live())
	if fresh != "" {
		h.setCSRFCookie(c, fresh)
	}
	return token, nil
}

// PageCSRFMeta names the <meta> that carries a signed-in page's CSRF token
// (pageHead); the frontend's API client starts with it.
const PageCSRFMeta = "csrf-token"

// pageHead is what the HTML of a page served to a signed-in browser carries
// in its <head>: the session's CSRF token (its cookie set when the browser
// has none for this session yet), as <meta name="csrf-token">. The page's
// first reads then go out as soon as its script runs, without waiting for
// the session and /api/auth/csrf in turn (frontend/src/app/first-reads.ts).
// Signed out (or with a session that has ended), nothing: the page asks
// /api/auth/csrf as before. The page is never stored (Cache-Control:
// no-store) and only this origin can read it.
func (h *authHandlers) pageHead(c *gin.Context) string {
	if st := loadSession(c); st.err != nil || !st.ok {
		return ""
	}
	token, err := h.formCSRFToken(c)
	if err != nil {
		return ""
	}
	return `<meta name="` + PageCSRFMeta + `" content="` + html.EscapeString(token) + `">`
}

func (h *authHandlers) setCSRFCookie(c *gin.Context, value string) {
	h.setCookie(c, &http.Cookie{Name: CSRFCookie, Value: value, Path: "/"})
}

// renewCSRF replaces the csrf cookie with a new token bound to sess (nil
// when the response ends the session), so no token outlives its session.
// Clients fetch the new token from {base}/csrf.
func (h *authHandlers) renewCSRF(c *gin.Context, sess *auth.Session) {
	_, cookie := h.svc.NewCSRFToken(sess)
	h.setCSRFCookie(c, cookie)
}
