package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
)

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
	if st, ok := h.signedIn(c); ok {
		c.JSON(http.StatusOK, sessionBody(st.sess))
	}
}

// signedIn returns the request's session, or answers for NextAuth when
// there is none: a failed read is an error (NextAuth's client logs it and
// treats it as signed out), no session is {} (a stale cookie is cleared).
func (h *authHandlers) signedIn(c *gin.Context) (*sessionState, bool) {
	st := loadSession(c)
	if st.err != nil {
		fail(c, st.err)
		return nil, false
	}
	if !st.ok {
		if st.stale {
			h.clearCookie(c, SessionCookie, "/")
		}
		c.JSON(http.StatusOK, gin.H{})
		return nil, false
	}
	return st, true
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
	st, ok := h.signedIn(c)
	if !ok {
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
