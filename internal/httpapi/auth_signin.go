package httpapi

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
)

// signin is POST {base}/signin/{provider}: for an OAuth provider it begins
// the sign-in and answers with the provider's authorisation URL.
func (h *authHandlers) signin(c *gin.Context) {
	f := form(c)
	cb := h.safeCallback(f.str("callbackUrl"))
	p, ok := h.svc.Provider(c.Param("provider"))
	if !ok || p.Type() != auth.TypeOAuth {
		// Unknown providers, and credentials (which sign in through
		// callback/credentials), go to the sign-in page, as with NextAuth.
		h.respondURL(c, http.StatusOK, h.signInPage(url.Values{"callbackUrl": {cb}}))
		return
	}
	authURL, state, err := h.svc.BeginOAuth(c, p.ID(), h.redirectURL(p.ID()), cb)
	if err != nil {
		logger(c).Error("oauth sign-in could not start", "provider", p.ID(), "err", err)
		h.respondURL(c, http.StatusOK, h.signInPage(url.Values{"error": {string(apperr.SignInCodeOf(err))}, "callbackUrl": {cb}}))
		return
	}
	h.setCookie(c, &http.Cookie{Name: StateCookie, Value: state, Path: h.base, MaxAge: int(auth.AttemptTTL.Seconds())})
	h.respondURL(c, http.StatusOK, authURL)
}

// oauthCallback is GET {base}/callback/{provider}: the identity provider
// sends the browser back here with code and state.
func (h *authHandlers) oauthCallback(c *gin.Context) {
	provider := c.Param("provider")
	bound, _ := c.Cookie(StateCookie)
	h.clearCookie(c, StateCookie, h.base)
	refuse := func(err error, cb string) {
		code := apperr.SignInCodeOf(err)
		if code == apperr.SignInCallback {
			logger(c).Error("oauth sign-in failed", "provider", provider, "err", err)
		} else {
			logger(c).Warn("oauth sign-in refused", "provider", provider, "code", code, "err", err)
		}
		q := url.Values{"error": {string(code)}}
		if cb != "" {
			q.Set("callbackUrl", cb)
		}
		c.Redirect(http.StatusFound, h.signInPage(q))
	}
	p, ok := h.svc.Provider(provider)
	if !ok || p.Type() != auth.TypeOAuth {
		refuse(&apperr.SignInError{Code: apperr.SignInOAuthCallback, Err: errors.New("no such OAuth provider")}, "")
		return
	}
	state := c.Query("state")
	if state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(bound)) != 1 {
		refuse(&apperr.SignInError{Code: apperr.SignInOAuthCallback, Err: errors.New("the state does not match this browser's sign-in")}, "")
		return
	}
	u, cb, err := h.svc.FinishOAuth(c, auth.OAuthReturn{
		Provider: provider, State: state, Code: c.Query("code"), Error: c.Query("error"),
		RedirectURL: h.redirectURL(provider),
	})
	if cb != "" {
		cb = h.safeCallback(cb)
	}
	if err != nil {
		refuse(err, cb)
		return
	}
	if err := h.startSession(c, u); err != nil {
		refuse(err, cb)
		return
	}
	c.Redirect(http.StatusFound, cb)
}

// credentialsCallback is POST {base}/callback/{provider}: the development
// sign-in's name and email.
func (h *authHandlers) credentialsCallback(c *gin.Context) {
	f := form(c)
	cb := h.safeCallback(f.str("callbackUrl"))
	p, ok := h.svc.Provider(c.Param("provider"))
	if !ok {
		h.respondURL(c, http.StatusOK, h.signInPage(url.Values{"callbackUrl": {cb}}))
		return
	}
	if p.Type() != auth.TypeCredentials {
		// Identity providers return by GET; form_post is not supported.
		h.respondURL(c, http.StatusBadRequest, h.signInPage(url.Values{"error": {string(apperr.SignInOAuthCallback)}, "callbackUrl": {cb}}))
		return
	}
	u, err := h.svc.SignInWithCredentials(c, f.str("name"), f.str("email"))
	if err == nil {
		err = h.startSession(c, u)
	}
	if err != nil {
		code := apperr.SignInCodeOf(err)
		status := http.StatusUnauthorized
		if code == apperr.SignInCallback {
			status = http.StatusInternalServerError
			logger(c).Error("development sign-in failed", "err", err)
		} else {
			logger(c).Info("development sign-in refused", "code", code, "err", err)
		}
		h.respondURL(c, status, h.signInPage(url.Values{"error": {string(code)}, "provider": {p.ID()}, "callbackUrl": {cb}}))
		return
	}
	h.respondURL(c, http.StatusOK, cb)
}

// signout is POST {base}/signout: the session row is deleted, the cookie
// cleared and the CSRF token renewed (anonymous again).
