package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
)

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
