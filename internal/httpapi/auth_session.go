package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
)

type sessionState struct {
	sess auth.Session
	ok   bool
	err  error
	// stale: the request carried a session cookie that is no longer valid.
	stale bool
}

// live returns the request's session, or nil when it has none (CSRF tokens
// are bound to it).
func (st *sessionState) live() *auth.Session {
	if !st.ok {
		return nil
	}
	return &st.sess
}

// sessions makes the signed-in user available to every handler through
// currentUser. Under /api and /admin the session is loaded up front (and its
// cookie refreshed when the session slid forward); elsewhere on first use.
func (h *authHandlers) sessions() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Set(authKey, h)
		p := c.Request.URL.Path
		if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/admin/") || strings.HasPrefix(p, h.base+"/") {
			loadSession(c)
		}
		c.Next()
	}
}

// loadSession returns the request's session, loading it once.
func loadSession(c *gin.Context) *sessionState {
	if v, ok := c.Get(sessionKey); ok {
		return v.(*sessionState)
	}
	st := &sessionState{}
	c.Set(sessionKey, st)
	v, ok := c.Get(authKey)
	if !ok {
		return st
	}
	h := v.(*authHandlers)
	token, err := c.Cookie(SessionCookie)
	if h.svc == nil || err != nil || token == "" {
		return st
	}
	sess, err := h.svc.Session(c, token)
	switch {
	case errors.Is(err, auth.ErrNoSession):
		// Cleared by the session routes only (as NextAuth does): a request
		// still in flight while the user signs in again must not clear the
		// new cookie.
		st.stale = true
	case err != nil:
		st.err = err
	default:
		st.sess, st.ok = sess, true
		if sess.Extended {
			h.setSessionCookie(c, token)
		}
	}
	return st
}

// currentUser returns the signed-in user, if any.
func currentUser(c *gin.Context) (auth.User, bool) {
	st := loadSession(c)
	return st.sess.User, st.ok
}

// requireUser answers 401 to requests without a signed-in user.
func requireUser() gin.HandlerFunc {
	return func(c *gin.Context) {
		st := loadSession(c)
		if !st.ok {
			if st.err != nil {
				fail(c, st.err)
				return
			}
			fail(c, apperr.New(apperr.Unauthorized, "Please sign in to continue."))
			return
		}
		c.Next()
	}
}

// operatorEmail is Deps.CurrentEmail from the session. Only an email a
// provider verified counts, so nobody becomes an operator by signing in
// with an operator's address that their provider does not vouch for (an
// OpenID Connect issuer answering email_verified false or nothing, or the
// development sign-in in production). Outside production the development
// sign-in counts as verified (auth.FromConfig).
func operatorEmail() func(c *gin.Context) (string, bool) {
	return func(c *gin.Context) (string, bool) {
		u, ok := currentUser(c)
		if !ok || !u.EmailVerified {
			return "", false
		}
		return u.Email, true
	}
}

func (h *authHandlers) setCookie(c *gin.Context, ck *http.Cookie) {
	ck.HttpOnly, ck.Secure, ck.SameSite = true, h.secure, http.SameSiteLaxMode
	http.SetCookie(c.Writer, ck)
}

func (h *authHandlers) clearCookie(c *gin.Context, name, path string) {
	h.setCookie(c, &http.Cookie{Name: name, Value: "", Path: path, MaxAge: -1})
}

func (h *authHandlers) setSessionCookie(c *gin.Context, token string) {
	h.setCookie(c, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", MaxAge: int(h.svc.MaxAge().Seconds())})
}

// startSession signs u in on this browser, ending the session it had, and
// renews the CSRF token for the new session.
func (h *authHandlers) startSession(c *gin.Context, u auth.User) error {
	if old, err := c.Cookie(SessionCookie); err == nil && old != "" {
		if err := h.svc.DeleteSession(c, old); err != nil {
			logger(c).Warn("could not end the previous session", "err", err)
		}
	}
	token, sess, err := h.svc.CreateSession(c, u)
	if err != nil {
		return err
	}
	h.setSessionCookie(c, token)
	h.renewCSRF(c, &sess)
	logger(c).Info("signed in", "user_id", u.ID, "team_id", u.TeamID)
	return nil
}
