package httpapi

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
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
	logs   *logLimiter
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
		logs:    newLogLimiter(10, time.Minute, 120),
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

// ---- sessions and the helpers handlers use ---------------------------------

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

// ---- CSRF -------------------------------------------------------------------

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
			body := gin.H{"error": gin.H{"code": apperr.Forbidden, "message": "Invalid CSRF token"}}
			if strings.HasPrefix(c.Request.URL.Path, h.base+"/") {
				// NextAuth's client reads url from every auth answer.
				body["url"] = h.signInPage(url.Values{"csrf": {"true"}})
			}
			logger(c).Info("request refused: invalid CSRF token", "path", c.Request.URL.Path,
				"had_token", submitted != "", "had_cookie", cookie != "", "signed_in", st.ok)
			c.AbortWithStatusJSON(http.StatusForbidden, body)
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
	st := loadSession(c)
	if st.err != nil {
		fail(c, st.err)
		return
	}
	cookie, _ := c.Cookie(CSRFCookie)
	token, fresh := h.svc.CSRFToken(cookie, st.live())
	if fresh != "" {
		h.setCSRFCookie(c, fresh)
	}
	c.JSON(http.StatusOK, gin.H{"csrfToken": token})
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

// ---- request bodies ----------------------------------------------------------

// authForm is an auth POST's fields, from a form or a JSON object.
type authForm struct {
	fields   map[string]json.RawMessage
	fromForm bool
}

// str returns a field as text: a JSON string unquoted, other JSON as written.
func (f *authForm) str(key string) string {
	raw, ok := f.fields[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// parseForm reads a form-encoded or JSON body into an authForm. A body that
// does not parse leaves the form empty (so the CSRF check refuses it first)
// and is answered by formOK.
func (h *authHandlers) parseForm(c *gin.Context) {
	f := &authForm{fields: map[string]json.RawMessage{}}
	mt, _, _ := mime.ParseMediaType(c.Request.Header.Get("Content-Type"))
	var err error
	if mt == "application/json" {
		var raw []byte
		if raw, err = io.ReadAll(c.Request.Body); err == nil && len(strings.TrimSpace(string(raw))) > 0 {
			err = json.Unmarshal(raw, &f.fields)
		}
	} else {
		f.fromForm = true
		if err = c.Request.ParseForm(); err == nil {
			for k, v := range c.Request.PostForm {
				if len(v) > 0 {
					f.fields[k], _ = json.Marshal(v[0])
				}
			}
		}
	}
	if err != nil {
		f.fields = map[string]json.RawMessage{}
		c.Set(formErrKey, err)
	}
	c.Set(formKey, f)
	c.Next()
}

// formOK answers a body parseForm could not read.
func formOK(c *gin.Context) {
	v, bad := c.Get(formErrKey)
	if !bad {
		c.Next()
		return
	}
	err := v.(error)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		fail(c, apperr.New(apperr.TooLarge, "Request body is too large"))
		return
	}
	fail(c, apperr.Wrap(apperr.Invalid, "Request body must be a form or a JSON object", err))
}

func form(c *gin.Context) *authForm {
	if f, ok := c.Get(formKey); ok {
		return f.(*authForm)
	}
	return &authForm{fields: map[string]json.RawMessage{}}
}

// ---- URLs ----------------------------------------------------------------------

// safeCallback returns raw when it stays on this site (a relative path, or
// an absolute URL of PUBLIC_URL's origin), made absolute; anything else
// becomes PUBLIC_URL + "/", as NextAuth's redirect callback does, so sign-in
// is never an open redirect.
func (h *authHandlers) safeCallback(raw string) string {
	home := h.public + "/"
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.ContainsAny(raw, "\\") || strings.IndexFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return home
	}
	if strings.HasPrefix(raw, "/") {
		u, err := url.Parse(raw)
		if strings.HasPrefix(raw, "//") || err != nil || u.Scheme != "" || u.Host != "" {
			return home
		}
		return h.public + raw
	}
	u, err := url.Parse(raw)
	pub, perr := url.Parse(h.public)
	if err != nil || perr != nil || u.User != nil || !strings.EqualFold(u.Scheme, pub.Scheme) || !strings.EqualFold(u.Host, pub.Host) {
		return home
	}
	return u.String()
}

// signInPage is the frontend's sign-in page with query q.
func (h *authHandlers) signInPage(q url.Values) string {
	if len(q) == 0 {
		return h.public + "/signin"
	}
	return h.public + "/signin?" + q.Encode()
}

func (h *authHandlers) redirectURL(provider string) string {
	return h.public + h.base + "/callback/" + url.PathEscape(provider)
}

// respondURL answers with {url} when the client asked for JSON (json=true,
// or X-Auth-Return-Redirect: 1), else with a 302 to u.
func (h *authHandlers) respondURL(c *gin.Context, status int, u string) {
	if form(c).str("json") == "true" || c.GetHeader("X-Auth-Return-Redirect") == "1" {
		c.JSON(status, gin.H{"url": u})
		return
	}
	c.Redirect(http.StatusFound, u)
}

// ---- cookies -----------------------------------------------------------------

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

// ---- GET routes ----------------------------------------------------------------

// sessionBody is NextAuth's session object: {user, expires}, plus data when
// the client stored some.
func sessionBody(s auth.Session) gin.H {
	var image, teamID any
	if s.User.Image != "" {
		image = s.User.Image
	}
	if s.User.TeamID != uuid.Nil {
		teamID = s.User.TeamID.String()
	}
	out := gin.H{
		"user": gin.H{
			"id": s.User.ID.String(), "name": s.User.Name, "email": s.User.Email,
			"image": image, "teamId": teamID,
		},
		"expires": s.Expires.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
	}
	if d := strings.TrimSpace(string(s.Data)); d != "" && d != "{}" && d != "null" {
		out["data"] = s.Data
	}
	return out
}

func (h *authHandlers) getSession(c *gin.Context) {
	st := loadSession(c)
	if st.err != nil {
		// NextAuth's client logs a failed fetch and treats it as signed out.
		fail(c, st.err)
		return
	}
	if !st.ok {
		if st.stale {
			h.clearCookie(c, SessionCookie, "/")
		}
		c.JSON(http.StatusOK, gin.H{})
		return
	}
	c.JSON(http.StatusOK, sessionBody(st.sess))
}

func (h *authHandlers) providers(c *gin.Context) {
	out := gin.H{}
	for _, p := range h.svc.Providers() {
		id := url.PathEscape(p.ID())
		out[p.ID()] = gin.H{
			"id": p.ID(), "name": p.Name(), "type": p.Type(),
			"signinUrl":   h.public + h.base + "/signin/" + id,
			"callbackUrl": h.public + h.base + "/callback/" + id,
		}
	}
	c.JSON(http.StatusOK, out)
}

var errorName = regexp.MustCompile(`^[A-Za-z]{1,64}$`)

// pageQuery keeps the sign-in page's parameters, with a safe callbackUrl and
// a well-formed error name.
func (h *authHandlers) pageQuery(c *gin.Context, errName string) url.Values {
	q := url.Values{}
	if cb := c.Query("callbackUrl"); cb != "" {
		q.Set("callbackUrl", h.safeCallback(cb))
	}
	if errName != "" && errorName.MatchString(errName) {
		q.Set("error", errName)
	}
	return q
}

// signinPage sends GET {base}/signin to the frontend's sign-in page.
func (h *authHandlers) signinPage(c *gin.Context) {
	c.Redirect(http.StatusFound, h.signInPage(h.pageQuery(c, c.Query("error"))))
}

// errorPage sends GET {base}/error to the sign-in page, which shows the error.
func (h *authHandlers) errorPage(c *gin.Context) {
	e := c.Query("error")
	if e == "" {
		e = "Default"
	}
	c.Redirect(http.StatusFound, h.signInPage(h.pageQuery(c, e)))
}

// ---- sign-in -------------------------------------------------------------------

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
		h.respondURL(c, http.StatusOK, h.signInPage(url.Values{"error": {string(auth.CodeOf(err))}, "callbackUrl": {cb}}))
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
		code := auth.CodeOf(err)
		if code == auth.CodeCallback {
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
		refuse(&auth.Error{Code: auth.CodeOAuthCallback, Err: errors.New("no such OAuth provider")}, "")
		return
	}
	state := c.Query("state")
	if state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(bound)) != 1 {
		refuse(&auth.Error{Code: auth.CodeOAuthCallback, Err: errors.New("the state does not match this browser's sign-in")}, "")
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
		h.respondURL(c, http.StatusBadRequest, h.signInPage(url.Values{"error": {string(auth.CodeOAuthCallback)}, "callbackUrl": {cb}}))
		return
	}
	u, err := h.svc.SignInWithCredentials(c, f.str("name"), f.str("email"))
	if err == nil {
		err = h.startSession(c, u)
	}
	if err != nil {
		code := auth.CodeOf(err)
		status := http.StatusUnauthorized
		if code == auth.CodeCallback {
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
func (h *authHandlers) signout(c *gin.Context) {
	cb := h.safeCallback(form(c).str("callbackUrl"))
	if token, err := c.Cookie(SessionCookie); err == nil && token != "" {
		if err := h.svc.DeleteSession(c, token); err != nil {
			fail(c, err)
			return
		}
	}
	h.clearCookie(c, SessionCookie, "/")
	h.renewCSRF(c, nil)
	if u, ok := currentUser(c); ok {
		logger(c).Info("signed out", "user_id", u.ID)
	}
	h.respondURL(c, http.StatusOK, cb)
}

// updateSession is POST {base}/session: {csrfToken, data} stores data with
// the session and returns the session; signed out, it returns {}.
func (h *authHandlers) updateSession(c *gin.Context) {
	st := loadSession(c)
	if st.err != nil {
		fail(c, st.err)
		return
	}
	if !st.ok {
		if st.stale {
			h.clearCookie(c, SessionCookie, "/")
		}
		c.JSON(http.StatusOK, gin.H{})
		return
	}
	f := form(c)
	data, present := f.fields["data"]
	if !present {
		c.JSON(http.StatusOK, sessionBody(st.sess))
		return
	}
	if f.fromForm {
		// A form sends text: JSON when it parses, a string otherwise.
		if s := f.str("data"); json.Valid([]byte(s)) {
			data = json.RawMessage(s)
		}
	}
	if len(data) > dataLimit {
		fail(c, apperr.New(apperr.TooLarge, "Session data is too large"))
		return
	}
	token, _ := c.Cookie(SessionCookie)
	sess, err := h.svc.UpdateSessionData(c, token, data)
	if errors.Is(err, auth.ErrNoSession) {
		c.JSON(http.StatusOK, gin.H{})
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, sessionBody(sess))
}
