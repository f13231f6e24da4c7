package httpapi

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/lti"
)

// LTIPage is the operators' page of LTI registrations (the app's, served to
// operators only, as ModelCheckPage).
const LTIPage = "/admin/lti"

// LTIStateCookie binds an LTI login to the browser that the platform sent
// through it; the launch must come back to the same browser.
const LTIStateCookie = "markwell.lti-state"

// LTILinkCookie holds a teacher launch waiting to be linked to the Markwell
// account of its email (lti.Launched.LinkToken) on the browser that
// launched, for the link page.
const LTILinkCookie = "markwell.lti-link"

// LTILinkPage is where such a launch goes on (GET, so that the browser's
// own SameSite=Lax session comes with it).
const LTILinkPage = "/api/lti/link"

// ltiBodyLimit caps the platform's form posts (an id_token is a few KB).
const ltiBodyLimit = 64 << 10

// ltiHandlers serve Markwell as an LTI 1.3 tool (docs/lti.md): the
// platform-facing login, launch and JWKS, the operators' registrations, the
// teacher's deep-linking pick and an assignment's LTI status, and the
// pupil's launch details for the student page.
type ltiHandlers struct {
	svc *lti.Service
	ah  *authHandlers
}

// registerLTI adds the LTI routes. The platform-facing ones live outside
// /api/v1 and its CSRF check: the launch is a cross-site form post from the
// platform, which a CSRF token cannot protect; it is trusted because it
// carries an id_token signed by the registered platform whose nonce is the
// one this browser's login stored, and a state equal to the cookie set on
// this browser at login (see docs/lti.md, "Why the launch needs no CSRF
// token").
func registerLTI(r *gin.Engine, v1 *gin.RouterGroup, d Deps, ah *authHandlers) {
	svc := d.Services.LTI
	if svc == nil || d.Auth == nil {
		return
	}
	h := &ltiHandlers{svc: svc, ah: ah}
	p := r.Group("/api/lti", limitBody(ltiBodyLimit), noStore)
	p.GET("/jwks", h.jwks)
	p.GET("/config", h.canvasConfig)
	p.GET("/login", h.login)
	p.POST("/login", h.login)
	p.POST("/launch", h.launch)
	p.GET("/link", h.accountLink)
	p.POST("/link", ah.csrfProtect(), h.confirmAccountLink)

	op := v1.Group("/operator/lti", operatorOnly(d))
	op.GET("", handle(h.operatorView))
	op.POST("/platforms", handle(h.savePlatform))
	op.POST("/platforms/delete", handle(h.deletePlatform))
	op.POST("/rotate-key", handle(h.rotateKey))

	v1.POST("/lti/learner", handle(h.learner))
	t := v1.Group("/lti", requireUser())
	t.POST("/deep-link/get", handle(h.deepLink))
	t.POST("/deep-link/post", limitBody(ltiBodyLimit), h.postDeepLink)
	t.POST("/assignment/status", handle(h.status))
}

func (h *ltiHandlers) jwks(c *gin.Context) {
	set, err := h.svc.JWKS(c)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Cache-Control", "public, max-age=300")
	c.JSON(http.StatusOK, set)
}

func (h *ltiHandlers) canvasConfig(c *gin.Context) {
	c.Data(http.StatusOK, "application/json; charset=utf-8", h.svc.Config().Canvas)
}

// loginParams are the login request's parameters Markwell reads.
var loginParams = []string{"iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id"}

// login is the platform's third-party initiated login (GET or POST).
func (h *ltiHandlers) login(c *gin.Context) {
	param := func(k string) string {
		if v := c.PostForm(k); v != "" {
			return v
		}
		return c.Query(k)
	}
	if framed(c.Request) {
		q := url.Values{}
		for _, k := range loginParams {
			if v := param(k); v != "" {
				q.Set(k, v)
			}
		}
		newTabPage(c, "/api/lti/login?"+q.Encode())
		return
	}
	redirect, state, err := h.svc.Login(c, lti.LoginRequest{
		Issuer: param("iss"), LoginHint: param("login_hint"), TargetLinkURI: param("target_link_uri"),
		MessageHint: param("lti_message_hint"), ClientID: param("client_id"), DeploymentID: param("lti_deployment_id"),
	})
	if err != nil {
		h.errorPage(c, err)
		return
	}
	h.setState(c, state, int(lti.LoginTTL.Seconds()))
	c.Redirect(http.StatusFound, redirect)
}

// framed reports that the browser loads r inside a frame (the LMS embeds
// the tool in an iframe): Sec-Fetch-Dest, which current browsers send on
// every navigation.
func framed(r *http.Request) bool {
	d := r.Header.Get("Sec-Fetch-Dest")
	return d == "iframe" || d == "frame"
}

var ltiNewTabPage = template.Must(template.New("lti-new-tab").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Open Markwell in a new tab</title>
<style nonce="{{.Nonce}}">body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.3rem}
a.button{display:inline-block;padding:.6rem 1.1rem;border-radius:6px;background:#1d4ed8;color:#fff;text-decoration:none;font-weight:600}</style>
</head><body><main><h1>Markwell opens in its own tab</h1>
<p>For your security Markwell does not run inside another site's page.</p>
<p><a class="button" href="{{.Login}}" target="_blank" rel="noopener">Open Markwell in a new tab</a></p></main></body></html>`))

// newTabPage answers a launch the LMS loads in a frame: Markwell's pages
// refuse to be framed (X-Frame-Options DENY, frame-ancestors 'none'), so
// the frame would stay blank. Instead it shows one button that opens the
// same login (login: its path and query) in a new tab, where the launch
// runs as usual. This page alone may be framed, by any site: it stores
// nothing, sets no cookie and holds nothing but that link, which starts
// the person's own launch, so there is nothing to trick anyone into.
func newTabPage(c *gin.Context, login string) {
	nonce := newNonce()
	h := c.Writer.Header()
	h.Del("X-Frame-Options")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'nonce-"+nonce+"'; frame-ancestors *; base-uri 'none'; form-action 'none'; object-src 'none'")
	h.Set("Content-Type", "text/html; charset=utf-8")
	c.Status(http.StatusOK)
	_ = ltiNewTabPage.Execute(c.Writer, map[string]string{"Login": login, "Nonce": nonce})
}

// setState sets (or with maxAge < 0 clears) the state cookie. Over https
// it is SameSite=None: the launch that must carry it is a cross-site POST.
func (h *ltiHandlers) setState(c *gin.Context, state string, maxAge int) {
	ck := &http.Cookie{Name: LTIStateCookie, Value: state, Path: "/api/lti", MaxAge: maxAge, HttpOnly: true, Secure: h.ah.secure, SameSite: http.SameSiteLaxMode}
	if h.ah.secure {
		ck.SameSite = http.SameSiteNoneMode
	}
	http.SetCookie(c.Writer, ck)
}

// launch is the redirect URI: the platform's form post of the id_token.
func (h *ltiHandlers) launch(c *gin.Context) {
	cookie, _ := c.Cookie(LTIStateCookie)
	out, err := h.svc.Launch(c, cookie, c.PostForm("state"), c.PostForm("id_token"))
	h.setState(c, "", -1)
	h.opened(c, out, err)
}

// accountLink shows a teacher launch waiting for the Markwell account of
// its email: when this browser is signed in as that account, a page that
// asks her to link the two (confirmAccountLink does it); else a page that
// offers to sign in and come back here. It changes nothing.
func (h *ltiHandlers) accountLink(c *gin.Context) {
	token, _ := c.Cookie(LTILinkCookie)
	out, err := h.svc.AccountLink(c, token, signedInUser(c), false)
	if err != nil || out.Confirm == nil {
		h.opened(c, out, err)
		return
	}
	csrfToken, err := h.ah.formCSRFToken(c)
	if err != nil {
		h.errorPage(c, err)
		return
	}
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Status(http.StatusOK)
	_ = ltiConfirmLinkPage.Execute(c.Writer, map[string]string{
		"Email": out.Confirm.Email, "Platform": out.Confirm.Platform, "Course": out.Confirm.Course,
		"Action": LTILinkPage, "CSRF": csrfToken,
	})
}

// confirmAccountLink is the teacher's answer on the link page (a form post
// with the CSRF token): "link" links her LMS account and goes on with the
// launch; "cancel" forgets the waiting launch and links nothing.
func (h *ltiHandlers) confirmAccountLink(c *gin.Context) {
	token, _ := c.Cookie(LTILinkCookie)
	if c.PostForm("decision") == "cancel" {
		if err := h.svc.CancelAccountLink(c, token); err != nil {
			h.errorPage(c, err)
			return
		}
		h.ah.clearCookie(c, LTILinkCookie, "/api/lti")
		c.Header("Content-Type", "text/html; charset=utf-8")
		c.Status(http.StatusOK)
		_ = ltiNotLinkedPage.Execute(c.Writer, nil)
		return
	}
	out, err := h.svc.AccountLink(c, token, signedInUser(c), true)
	if err == nil {
		h.ah.clearCookie(c, LTILinkCookie, "/api/lti")
	}
	h.opened(c, out, err)
}

// signedInUser is the request's signed-in user, nil for none.
func signedInUser(c *gin.Context) *auth.User {
	if u, ok := currentUser(c); ok {
		return &u
	}
	return nil
}

var ltiConfirmLinkPage = template.Must(template.New("lti-confirm-link").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link your course account to Markwell</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}
button{font:inherit;font-weight:600;padding:.6rem 1.1rem;border-radius:6px;border:1px solid #17616b;cursor:pointer;margin:0 .5rem .5rem 0}
button.primary{background:#17616b;color:#fff}button.secondary{background:#fff;color:#17616b}</style>
</head><body><main><h1>Link your course account to Markwell?</h1>
<p>{{if .Platform}}<strong>{{.Platform}}</strong>{{else}}Your learning platform{{end}}{{if .Course}} (course <strong>{{.Course}}</strong>){{end}} opened Markwell for <strong>{{.Email}}</strong>, the Markwell account this browser is signed in to.</p>
<p>If you link them, launches from your course open Markwell as this account directly, in any browser. Link only if you just opened Markwell from your course yourself.</p>
<form method="post" action="{{.Action}}"><input type="hidden" name="csrfToken" value="{{.CSRF}}">
<button class="primary" type="submit" name="decision" value="link">Link and continue</button>
<button class="secondary" type="submit" name="decision" value="cancel">Cancel</button></form></main></body></html>`))

var ltiNotLinkedPage = template.Must(template.New("lti-not-linked").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nothing was linked</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}</style>
</head><body><main><h1>Nothing was linked</h1><p>Your course account is not linked to Markwell. You can close this tab.
If you did not open Markwell from your course just now, tell your Markwell administrator.</p></main></body></html>`))

// opened answers a launch: its error page, or the teacher signed in (or
// sent on to link their account) and the browser sent where it goes.
func (h *ltiHandlers) opened(c *gin.Context, out lti.Launched, err error) {
	if err != nil {
		h.errorPage(c, err)
		return
	}
	if out.LinkToken != "" {
		h.ah.setCookie(c, &http.Cookie{Name: LTILinkCookie, Value: out.LinkToken, Path: "/api/lti", MaxAge: int(lti.LinkTTL.Seconds())})
		c.Redirect(http.StatusSeeOther, LTILinkPage)
		return
	}
	if out.Teacher != nil {
		if err := h.ah.startSession(c, *out.Teacher); err != nil {
			h.errorPage(c, err)
			return
		}
	}
	c.Redirect(http.StatusSeeOther, out.Redirect)
}

var ltiErrorPage = template.Must(template.New("lti-error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Markwell could not open this launch</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}</style>
</head><body><main><h1>Markwell could not open this launch</h1><p>{{.Message}}</p>
{{if .SignIn}}<p><a href="{{.SignIn}}">Sign in to Markwell</a> (you come back here afterwards).</p>
{{else}}<p>If this keeps happening, give your Markwell administrator the time of this attempt.</p>{{end}}</main></body></html>`))

// errorPageData is what the error page shows: the sentence, and a sign-in
// link that comes back to the launch, when signing in is the way on.
type errorPageData struct {
	Message string
	SignIn  string
}

// errorPage answers a refused login or launch with a page a person reads
// (the platform opened it in their browser), never JSON or a stack.
func (h *ltiHandlers) errorPage(c *gin.Context, err error) {
	page, status := errorPageData{Message: "Something went wrong on Markwell's side. Please try again in a moment."}, http.StatusInternalServerError
	var le *lti.LaunchError
	if errors.As(err, &le) {
		page.Message, status = le.Message, http.StatusBadRequest
		if le.SignIn {
			page.SignIn, status = h.ah.signInPage(url.Values{"callbackUrl": {LTILinkPage}}), http.StatusUnauthorized
		}
		logger(c).Warn("lti launch refused", "reason", le.Reason)
	} else {
		logger(c).Error("lti launch failed", "err", err)
	}
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Status(status)
	_ = ltiErrorPage.Execute(c.Writer, page)
	c.Abort()
}

// ---- operators ---------------------------------------------------------------

func (h *ltiHandlers) operatorView(c *gin.Context, _ identity.Actor, _ *struct{}) (gin.H, error) {
	ps, err := h.svc.Platforms(c)
	if err != nil {
		return nil, err
	}
	set, err := h.svc.JWKS(c)
	if err != nil {
		return nil, err
	}
	kids := make([]string, len(set.Keys))
	for i, k := range set.Keys {
		kids[i] = k.KeyID
	}
	return gin.H{"tool": h.svc.Config(), "platforms": ps, "keyIds": kids}, nil
}

// platformBody is a registration: lti.Platform's own fields, with the id
// read as the API reads ids (absent: a new platform; malformed: 404).
type platformBody struct {
	lti.Platform
	ID optionalID `json:"id"`
}

func (h *ltiHandlers) savePlatform(c *gin.Context, _ identity.Actor, in *platformBody) (gin.H, error) {
	in.Platform.ID = in.ID.UUID()
	p, err := h.svc.SavePlatform(c, in.Platform)
	return gin.H{"platform": p}, err
}

type platformRef struct {
	ID id `json:"id"`
}

func (h *ltiHandlers) deletePlatform(c *gin.Context, _ identity.Actor, in *platformRef) (gin.H, error) {
	return success(h.svc.DeletePlatform(c, in.ID.UUID()))
}

func (h *ltiHandlers) rotateKey(c *gin.Context, _ identity.Actor, _ *struct{}) (gin.H, error) {
	kid, err := h.svc.RotateKey(c)
	return gin.H{"keyId": kid}, err
}

// ---- pupils and teachers -----------------------------------------------------

type learnerBody struct {
	AssignmentID id     `json:"assignmentId"`
	Token        string `json:"token"`
}

// learner is the pupil's name and email from their launch, for the student
// page (the submission takes them from the launch again, not from here).
func (h *ltiHandlers) learner(c *gin.Context, _ identity.Actor, in *learnerBody) (gin.H, error) {
	if strings.TrimSpace(in.Token) == "" {
		return nil, apperr.ErrNotFound
	}
	l, err := h.svc.Learner(c, in.AssignmentID.UUID(), in.Token)
	return gin.H{"learner": l}, err
}

type deepLinkBody struct {
	ID id `json:"id"`
}

func (h *ltiHandlers) deepLink(c *gin.Context, a identity.Actor, in *deepLinkBody) (gin.H, error) {
	r, err := h.svc.DeepLink(c, a, in.ID.UUID())
	return gin.H{"request": r}, err
}

// respondDeepLinkBody is the pick: the deep-linking request and the
// assignment chosen.
type respondDeepLinkBody struct {
	ID           id `json:"id"`
	AssignmentID id `json:"assignmentId"`
}

// postDeepLink is the picker's form post (same origin, with its CSRF token
// as a field): it answers with Markwell's own small page that form-posts
// the signed deep-linking response to the platform. The form's action is
// the deep_link_return_url of the verified launch, stored with the request,
// never a URL from this request; the page's CSP lets forms post only to
// that URL's origin and runs only its own nonce'd one-line auto-submit.
func (h *ltiHandlers) postDeepLink(c *gin.Context) {
	var in respondDeepLinkBody
	if t, ok := c.Get(bodyTypeKey); ok { // a test asks what the route reads
		*t.(*reflect.Type) = reflect.TypeOf(in)
		return
	}
	var reqID, asg uuid.UUID
	if isForm(c.Request) {
		var err1, err2 error
		reqID, err1 = uuid.Parse(c.PostForm("id"))
		asg, err2 = uuid.Parse(c.PostForm("assignmentId"))
		if err1 != nil || err2 != nil {
			h.deepLinkError(c, apperr.ErrNotFound)
			return
		}
	} else {
		// Not the picker's form (an API client): the API's JSON body and
		// errors.
		if !bind(c, &in) {
			return
		}
		reqID, asg = in.ID.UUID(), in.AssignmentID.UUID()
	}
	r, err := h.svc.RespondDeepLink(c, actor(c), reqID, asg)
	if err != nil {
		h.deepLinkError(c, err)
		return
	}
	target := origin(r.ReturnURL)
	if !safeOrigin(target) {
		h.deepLinkError(c, errors.New("lti: unusable deep_link_return_url"))
		return
	}
	nonce := newNonce()
	c.Header("Cache-Control", "no-store")
	c.Header("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+
		"'; form-action "+target+"; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Status(http.StatusOK)
	_ = ltiReturnPage.Execute(c.Writer, map[string]string{"Action": r.ReturnURL, "JWT": r.JWT, "Nonce": nonce})
}

// safeOrigin reports whether o (from origin) can stand in a CSP source
// list as it is: an http(s) scheme and a host of letters, digits, dots,
// hyphens, a port or an IPv6 literal.
func safeOrigin(o string) bool {
	rest, ok := strings.CutPrefix(o, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(o, "http://"); !ok {
			return false
		}
	}
	if rest == "" {
		return false
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return true
}

var ltiReturnPage = template.Must(template.New("lti-return").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Returning to your course</title>
<style nonce="{{.Nonce}}">body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}</style>
</head><body><main><h1>Returning to your course</h1>
<form id="lti-return" method="post" action="{{.Action}}"><input type="hidden" name="JWT" value="{{.JWT}}">
<p>If your course does not open by itself, press Continue.</p><button type="submit">Continue</button></form></main>
<script nonce="{{.Nonce}}">document.getElementById("lti-return").submit()</script></body></html>`))

// deepLinkError answers a failed pick with a page a person reads (the
// picker's form post replaced the app with this answer); a request that is
// not a form (no browser's) gets the API's JSON error.
func (h *ltiHandlers) deepLinkError(c *gin.Context, err error) {
	if !isForm(c.Request) {
		fail(c, err)
		return
	}
	msg, status := "Something went wrong on Markwell's side. Please try again in a moment.", http.StatusInternalServerError
	if errors.Is(err, apperr.ErrNotFound) {
		msg, status = "This request to add an assignment has expired or was already used. Add Markwell to the course again from your course.", http.StatusNotFound
	} else {
		logger(c).Error("lti deep link failed", "err", err)
	}
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Status(status)
	_ = ltiErrorPage.Execute(c.Writer, errorPageData{Message: msg})
	c.Abort()
}

type ltiStatusBody struct {
	assignmentRef
	Roster bool `json:"roster"`
}

func (h *ltiHandlers) status(c *gin.Context, a identity.Actor, in *ltiStatusBody) (gin.H, error) {
	st, err := h.svc.Status(c, a, in.AssignmentID.UUID(), in.Roster)
	return gin.H{"lti": st}, err
}
