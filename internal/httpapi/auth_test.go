package httpapi_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/httpapi"
)

// cookie returns the Set-Cookie of name in res.
func cookie(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// jarCookie returns the value of br's cookie name ("" when it has none).
func (br *browser) jarCookie(t *testing.T, name string) string {
	t.Helper()
	u, err := url.Parse(br.b.srv.URL)
	require.NoError(t, err)
	for _, c := range br.client.Jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// plant puts a cookie in br's jar, as an attacker who can write cookies
// for the site (a sibling subdomain, a plain-http response) would.
func (br *browser) plant(t *testing.T, name, value string) {
	t.Helper()
	u, err := url.Parse(br.b.srv.URL)
	require.NoError(t, err)
	br.client.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// csrfPair returns br's CSRF token and the cookie value that carries it.
func (br *browser) csrfPair(t *testing.T) (token, cookieValue string) {
	t.Helper()
	token = br.csrfToken(t)
	return token, br.jarCookie(t, httpapi.CSRFCookie)
}

// writeRoutes lists every state-changing route under /api, with path
// parameters filled in, so routes added later are covered automatically.
func writeRoutes(b *bundle) [][2]string {
	param := regexp.MustCompile(`[:*][A-Za-z_]+`)
	var out [][2]string
	for _, r := range b.router.Routes() {
		switch r.Method {
		case "POST", "PUT", "PATCH", "DELETE":
		default:
			continue
		}
		if !strings.HasPrefix(r.Path, "/api/") || r.Path == "/api/auth/_log" {
			continue
		}
		if r.Path == "/api/lti/login" || r.Path == "/api/lti/launch" {
			// The LMS posts these cross-site, where no CSRF token can be: the
			// launch is trusted for its signed id_token, its single-use nonce
			// and the state cookie bound to this browser at login (lti_test.go
			// refuses each tampering; docs/lti.md).
			continue
		}
		out = append(out, [2]string{r.Method, param.ReplaceAllString(r.Path, "x")})
	}
	return out
}

func TestEveryWriteNeedsTheCSRFToken(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada-csrf@school.test")
	routes := writeRoutes(b)
	require.GreaterOrEqual(t, len(routes), 8, "auth and /api/v1 writes are listed")
	good := b.csrfToken(t)
	// Genuine pairs minted for other clients: one signed out, one signed in
	// as someone else. Planted beside Ada's session cookie, they are refused.
	anonToken, anonCookie := b.newBrowser(t).csrfPair(t)
	mallory := b.newBrowser(t)
	mallory.signIn(t, "Mallory", "mallory-csrf@school.test")
	malToken, malCookie := mallory.csrfPair(t)
	victim := b.newBrowser(t)
	victim.plant(t, httpapi.SessionCookie, b.jarCookie(t, httpapi.SessionCookie))
	for _, rt := range routes {
		method, path := rt[0], rt[1]
		check := func(what string, res *http.Response, body map[string]any) {
			t.Helper()
			require.Equal(t, 403, res.StatusCode, "%s %s %s", what, method, path)
			require.Equal(t, map[string]any{"code": "forbidden", "message": "Invalid CSRF token"}, body["error"], "%s %s %s", what, method, path)
		}
		// No token at all.
		res, body := b.send(t, method, path, []byte(`{}`), "application/json")
		check("no token", res, body)
		// A wrong token in the header.
		res, body = b.send(t, method, path, []byte(`{}`), "application/json", httpapi.CSRFHeader, strings.Repeat("0", 64))
		check("wrong header", res, body)
		// A wrong token in a form.
		res, body = b.send(t, method, path, []byte("csrfToken="+strings.Repeat("0", 64)), "application/x-www-form-urlencoded")
		check("wrong form field", res, body)
		// The right token from another browser (whose cookie this one lacks).
		other := b.newBrowser(t)
		res, body = other.send(t, method, path, []byte(`{}`), "application/json", httpapi.CSRFHeader, good)
		check("someone else's token", res, body)
		// Another client's whole pair, with Ada's session.
		victim.plant(t, httpapi.CSRFCookie, anonCookie)
		res, body = victim.send(t, method, path, []byte(`{}`), "application/json", httpapi.CSRFHeader, anonToken)
		check("a signed-out client's pair", res, body)
		victim.plant(t, httpapi.CSRFCookie, malCookie)
		res, body = victim.send(t, method, path, []byte("csrfToken="+malToken), "application/x-www-form-urlencoded")
		check("another session's pair", res, body)
	}
	// The right token passes the check (whatever the route then says).
	res, _ := b.do(t, "POST", "/api/v1/getSignedURL", map[string]string{"link": ""})
	require.Equal(t, 400, res.StatusCode)
}

func TestCSRFTokenIsStableAndCookieBound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, body := b.send(t, "GET", "/api/auth/csrf", nil, "")
	require.Equal(t, 200, res.StatusCode)
	token := body["csrfToken"].(string)
	require.Regexp(t, `^[0-9a-f]{64}$`, token)
	ck := cookie(res, httpapi.CSRFCookie)
	require.NotNil(t, ck)
	require.True(t, ck.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
	require.Equal(t, "/", ck.Path)
	require.Regexp(t, `^`+token+`\|[0-9a-f]{64}$`, ck.Value)
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))

	// With its cookie, the same token again and no new cookie.
	res, body = b.send(t, "GET", "/api/auth/csrf", nil, "")
	require.Equal(t, token, body["csrfToken"])
	require.Nil(t, cookie(res, httpapi.CSRFCookie))
}

func TestACSRFPairMintedForAnotherClientIsRefusedWithTheVictimsSession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	bob := b.newBrowser(t)
	user := bob.signIn(t, "Bob", "bob-victim@school.test")
	team := user["teamId"].(string)
	folders := func() []any {
		t.Helper()
		res, body := bob.do(t, "GET", "/api/v1/db/library/get", nil)
		require.Equal(t, 200, res.StatusCode, body)
		return body["data"].(map[string]any)["folders"].([]any)
	}
	require.Empty(t, folders())

	// Mallory fetches genuine pairs: signed out, then signed in as herself.
	mallory := b.newBrowser(t)
	anonToken, anonCookie := mallory.csrfPair(t)
	mallory.signIn(t, "Mallory", "mallory-attacker@school.test")
	sessToken, sessCookie := mallory.csrfPair(t)

	// She plants each in Bob's browser and has it post with the matching
	// token: refused, and nothing changes.
	for name, pair := range map[string][2]string{"signed-out pair": {anonToken, anonCookie}, "Mallory's session pair": {sessToken, sessCookie}} {
		bob.plant(t, httpapi.CSRFCookie, pair[1])
		res, body := bob.send(t, "POST", "/api/v1/db/team/create-folder", []byte(`{"teamId":"`+team+`","folderName":"Planted"}`),
			"application/json", httpapi.CSRFHeader, pair[0])
		require.Equal(t, 403, res.StatusCode, name)
		require.Equal(t, "Invalid CSRF token", body["error"].(map[string]any)["message"], name)
		f := url.Values{"csrfToken": {pair[0]}, "callbackUrl": {"/"}, "json": {"true"}}
		res, _ = bob.send(t, "POST", "/api/auth/signout", []byte(f.Encode()), "application/x-www-form-urlencoded")
		require.Equal(t, 403, res.StatusCode, name)
		_, session := bob.send(t, "GET", "/api/auth/session", nil, "")
		require.Contains(t, session, "user", "%s: Bob is still signed in", name)
	}
	require.Empty(t, folders())

	// Bob's browser asks for a token again and gets its own, which works.
	bob.csrf = ""
	res, body := bob.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": team, "folderName": "Term 1"})
	require.Equal(t, 200, res.StatusCode, body)
	require.Len(t, folders(), 1)
}

func TestCSRFTokenIsRenewedAtSignInAndSignOut(t *testing.T) {
	t.Parallel()
	b := setup(t)
	csrf := func() (string, *http.Response) {
		t.Helper()
		res, body := b.send(t, "GET", "/api/auth/csrf", nil, "")
		require.Equal(t, 200, res.StatusCode)
		return body["csrfToken"].(string), res
	}
	signInForm := func(token, email string) (*http.Response, map[string]any) {
		t.Helper()
		f := url.Values{"csrfToken": {token}, "name": {"Ada"}, "email": {email}, "redirect": {"false"}, "callbackUrl": {"/library"}, "json": {"true"}}
		return b.send(t, "POST", "/api/auth/callback/credentials", []byte(f.Encode()), "application/x-www-form-urlencoded", "X-Auth-Return-Redirect", "1")
	}

	// next-auth/react, signed out: GET csrf, then the form with csrfToken.
	anon, _ := csrf()
	anonCookie := b.jarCookie(t, httpapi.CSRFCookie)
	res, body := signInForm(anon, "ada-renew@school.test")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, b.srv.URL+"/library", body["url"])
	require.NotNil(t, cookie(res, httpapi.SessionCookie))
	renewed := cookie(res, httpapi.CSRFCookie)
	require.NotNil(t, renewed, "signing in sets a new csrf cookie")
	require.True(t, renewed.HttpOnly)
	require.Equal(t, "/", renewed.Path)
	signedIn, res := csrf()
	require.NotEqual(t, anon, signedIn)
	require.True(t, strings.HasPrefix(renewed.Value, signedIn+"|"))
	require.Nil(t, cookie(res, httpapi.CSRFCookie), "stable while the session lasts")
	again, _ := csrf()
	require.Equal(t, signedIn, again)
	res, _ = b.send(t, "POST", "/api/v1/getSignedURL", []byte(`{"link":""}`), "application/json", httpapi.CSRFHeader, signedIn)
	require.Equal(t, 400, res.StatusCode, "the renewed token passes the check")
	// The signed-out pair is worth nothing now, even with its own cookie.
	sessCookie := b.jarCookie(t, httpapi.CSRFCookie)
	b.plant(t, httpapi.CSRFCookie, anonCookie)
	res, _ = b.send(t, "POST", "/api/v1/getSignedURL", []byte(`{"link":""}`), "application/json", httpapi.CSRFHeader, anon)
	require.Equal(t, 403, res.StatusCode)
	b.plant(t, httpapi.CSRFCookie, sessCookie)

	// Signing in again as someone else, from a signed-in browser.
	res, body = signInForm(signedIn, "grace-renew@school.test")
	require.Equal(t, 200, res.StatusCode, body)
	require.NotNil(t, cookie(res, httpapi.CSRFCookie))
	second, _ := csrf()
	require.NotEqual(t, signedIn, second)
	_, session := b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, "grace-renew@school.test", session["user"].(map[string]any)["email"])

	// Signing out renews it too, and the session's pair is refused after.
	sessCookie = b.jarCookie(t, httpapi.CSRFCookie)
	f := url.Values{"csrfToken": {second}, "callbackUrl": {"/signin"}, "json": {"true"}}
	res, body = b.send(t, "POST", "/api/auth/signout", []byte(f.Encode()), "application/x-www-form-urlencoded")
	require.Equal(t, 200, res.StatusCode, body)
	require.NotNil(t, cookie(res, httpapi.CSRFCookie), "signing out sets a new csrf cookie")
	out, _ := csrf()
	require.NotEqual(t, second, out)
	require.NotEqual(t, anon, out)
	require.True(t, strings.HasPrefix(cookie(res, httpapi.CSRFCookie).Value, out+"|"))
	b.plant(t, httpapi.CSRFCookie, sessCookie)
	res, _ = b.send(t, "POST", "/api/auth/session", []byte(`{"csrfToken":"`+second+`","data":{}}`), "application/json")
	require.Equal(t, 403, res.StatusCode)

	// Signed out, the flow starts over and still signs in.
	b.plant(t, httpapi.CSRFCookie, "")
	fresh, _ := csrf()
	res, body = signInForm(fresh, "ada-renew@school.test")
	require.Equal(t, 200, res.StatusCode, body)
	_, session = b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, "ada-renew@school.test", session["user"].(map[string]any)["email"])
}

func TestOIDCSignInRenewsTheCSRFToken(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	before := b.csrfToken(t)
	back := b.begin(t, p, mockUser("grace-oidc-csrf@school.test", true))
	res, _ := b.send(t, "GET", back, nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.NotNil(t, cookie(res, httpapi.SessionCookie))
	require.NotNil(t, cookie(res, httpapi.CSRFCookie), "the callback that starts the session renews the token")
	after := b.csrfToken(t)
	require.NotEqual(t, before, after)
	res, _ = b.send(t, "POST", "/api/v1/getSignedURL", []byte(`{"link":""}`), "application/json", httpapi.CSRFHeader, after)
	require.Equal(t, 400, res.StatusCode, "the renewed token passes the check")
}

func TestCredentialsSignInAsNextAuthDoesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)

	res, providers := b.send(t, "GET", "/api/auth/providers", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, map[string]any{"credentials": map[string]any{
		"id": "credentials", "name": "Development sign-in", "type": "credentials",
		"signinUrl":   b.srv.URL + "/api/auth/signin/credentials",
		"callbackUrl": b.srv.URL + "/api/auth/callback/credentials",
	}}, providers)

	res, session := b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, session, "signed out is {}")

	// signIn("credentials", …) posts to callback/credentials.
	res, body := b.postForm(t, "/api/auth/callback/credentials", url.Values{
		"name": {"Ada Lovelace"}, "email": {"Ada-NA@School.test"}, "redirect": {"false"}, "callbackUrl": {b.srv.URL + "/assignment/1?tab=2"},
	})
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, map[string]any{"url": b.srv.URL + "/assignment/1?tab=2"}, body)
	ck := cookie(res, httpapi.SessionCookie)
	require.NotNil(t, ck)
	require.True(t, ck.HttpOnly)
	require.False(t, ck.Secure, "http PUBLIC_URL")
	require.Equal(t, http.SameSiteLaxMode, ck.SameSite)
	require.Equal(t, "/", ck.Path)
	require.Equal(t, int((30 * 24 * time.Hour).Seconds()), ck.MaxAge)
	require.Regexp(t, `^[A-Za-z0-9_-]{43}$`, ck.Value)

	before := time.Now()
	res, session = b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	user := session["user"].(map[string]any)
	require.Equal(t, "Ada Lovelace", user["name"])
	require.Equal(t, "ada-na@school.test", user["email"])
	require.Nil(t, user["image"])
	require.Regexp(t, `^[0-9a-f-]{36}$`, user["id"])
	require.Regexp(t, `^[0-9a-f-]{36}$`, user["teamId"])
	require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`, session["expires"])
	expires, err := time.Parse(time.RFC3339, session["expires"].(string))
	require.NoError(t, err)
	require.WithinDuration(t, before.Add(30*24*time.Hour), expires, time.Minute)

	// A second sign-in with the same email (another browser) is the same user.
	again := b.newBrowser(t).signIn(t, "Ada", "ada-na@school.test")
	require.Equal(t, user["id"], again["id"])
	require.Equal(t, user["teamId"], again["teamId"])
}

func TestCredentialsSignInAcceptsJSONAndPlainForms(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// A JSON body with the token inside (no header).
	res, body := b.send(t, "POST", "/api/auth/callback/credentials",
		[]byte(`{"csrfToken":"`+b.csrfToken(t)+`","name":"Ada","email":"ada-json@school.test","callbackUrl":"/library","json":true}`), "application/json")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, b.srv.URL+"/library", body["url"])

	// A plain HTML form (no json=true): a 302.
	other := b.newBrowser(t)
	f := url.Values{"csrfToken": {other.csrfToken(t)}, "name": {"Ada"}, "email": {"ada-json@school.test"}, "callbackUrl": {"/library"}}
	res, _ = other.send(t, "POST", "/api/auth/callback/credentials", []byte(f.Encode()), "application/x-www-form-urlencoded")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/library", res.Header.Get("Location"))
	require.NotNil(t, cookie(res, httpapi.SessionCookie))
}

func TestCredentialsSignInRefusesBadInput(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, email := range []string{"", "not-an-email", "a@b"} {
		res, body := b.postForm(t, "/api/auth/callback/credentials", url.Values{
			"name": {"Ada"}, "email": {email}, "redirect": {"false"}, "callbackUrl": {"/library"},
		})
		require.Equal(t, 401, res.StatusCode, email)
		u, err := url.Parse(body["url"].(string))
		require.NoError(t, err)
		// next-auth/react reads error from the url's query.
		require.Equal(t, "CredentialsSignin", u.Query().Get("error"))
		require.Equal(t, "/signin", u.Path)
		require.Equal(t, b.srv.URL+"/library", u.Query().Get("callbackUrl"))
		require.Nil(t, cookie(res, httpapi.SessionCookie))
	}
	res, session := b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, session)
}

func TestDevSignInOffHidesCredentials(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.DevSignIn = false })
	res, providers := b.send(t, "GET", "/api/auth/providers", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, providers)
	res, body := b.postForm(t, "/api/auth/callback/credentials", url.Values{"name": {"Ada"}, "email": {"ada-off@school.test"}, "callbackUrl": {"/x"}})
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, b.srv.URL+"/signin?callbackUrl="+url.QueryEscape(b.srv.URL+"/x"), body["url"])
	require.Nil(t, cookie(res, httpapi.SessionCookie))
}

func TestUnknownProviderGoesToTheSignInPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, path := range []string{"/api/auth/signin/nope", "/api/auth/signin/credentials"} {
		res, body := b.postForm(t, path, url.Values{"callbackUrl": {"/library"}})
		require.Equal(t, 200, res.StatusCode)
		require.Equal(t, b.srv.URL+"/signin?callbackUrl="+url.QueryEscape(b.srv.URL+"/library"), body["url"], path)
	}
}

func TestCallbackURLMustStayOnSite(t *testing.T) {
	t.Parallel()
	b := setup(t)
	home := b.srv.URL + "/"
	pub, err := url.Parse(b.srv.URL)
	require.NoError(t, err)
	for given, want := range map[string]string{
		"":                                  home,
		"/library?x=1#top":                  b.srv.URL + "/library?x=1#top",
		b.srv.URL + "/assignment/7":         b.srv.URL + "/assignment/7",
		"https://evil.test/phish":           home,
		"//evil.test/phish":                 home,
		"/\\evil.test":                      home,
		"/\t/evil.test":                     home,
		"javascript:alert(1)":               home,
		"http://" + pub.Hostname() + ":1/x": home,
		"https://" + pub.Host + "/x":        home,
		"http://user@" + pub.Host + "/x":    home,
		"evil.test":                         home,
	} {
		br := b.newBrowser(t)
		res, body := br.postForm(t, "/api/auth/callback/credentials", url.Values{
			"name": {"Ada"}, "email": {"ada-redirect@school.test"}, "callbackUrl": {given},
		})
		require.Equal(t, 200, res.StatusCode, given)
		require.Equal(t, want, body["url"], given)

		res, body = br.postForm(t, "/api/auth/signout", url.Values{"callbackUrl": {given}})
		require.Equal(t, 200, res.StatusCode, given)
		require.Equal(t, want, body["url"], given)
	}
	// The GET pages clean it too.
	res, _ := b.send(t, "GET", "/api/auth/signin?error=SessionRequired&callbackUrl="+url.QueryEscape("https://evil.test/"), nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/signin?callbackUrl="+url.QueryEscape(home)+"&error=SessionRequired", res.Header.Get("Location"))
}

func TestSignOutDeletesTheSession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada-signout@school.test")
	u, err := url.Parse(b.srv.URL)
	require.NoError(t, err)
	var token string
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == httpapi.SessionCookie {
			token = c.Value
		}
	}
	require.NotEmpty(t, token)

	res, body := b.postForm(t, "/api/auth/signout", url.Values{"callbackUrl": {"/"}})
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, b.srv.URL+"/", body["url"])
	ck := cookie(res, httpapi.SessionCookie)
	require.NotNil(t, ck)
	require.Less(t, ck.MaxAge, 0, "the cookie is cleared")

	// The old cookie, replayed by hand, is worth nothing: the row is gone.
	stolen := b.newBrowser(t)
	stolen.client.Jar.SetCookies(u, []*http.Cookie{{Name: httpapi.SessionCookie, Value: token, Path: "/"}})
	res, session := stolen.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, session)
	require.Less(t, cookie(res, httpapi.SessionCookie).MaxAge, 0, "a dead session cookie is cleared")
	stolen.client.Jar.SetCookies(u, []*http.Cookie{{Name: httpapi.SessionCookie, Value: token, Path: "/"}})
	res, body = stolen.do(t, "POST", "/api/v1/s3-upload", map[string]string{"fileName": "chats/a.txt", "fileType": "text/plain"})
	require.Equal(t, 401, res.StatusCode)
	require.Equal(t, map[string]any{"code": "unauthorized", "message": "Please sign in to continue."}, body["error"])
}

func TestTeacherRoutesNeedASession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, path := range []string{"/api/v1/s3-upload", "/api/v1/s3-public-asset-upload", "/api/v1/getSignedURL"} {
		res, body := b.do(t, "POST", path, map[string]string{"fileName": "chats/a.txt", "fileType": "text/plain"})
		require.Equal(t, 401, res.StatusCode, path)
		require.Equal(t, "unauthorized", body["error"].(map[string]any)["code"])
	}
	// Students upload by link without signing in (with a CSRF token).
	res, _ := b.do(t, "POST", "/api/v1/s3-pub-upload", map[string]any{
		"fileName": "a.txt", "fileType": "text/plain", "fileSize": 1, "linkToken": someLink(t),
	})
	require.Equal(t, 200, res.StatusCode)
}

func TestSessionUpdateAsNextAuthDoesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// Signed out: {}.
	res, body := b.send(t, "POST", "/api/auth/session", []byte(`{"csrfToken":"`+b.csrfToken(t)+`","data":{"x":1}}`), "application/json")
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, body)

	b.signIn(t, "Ada", "ada-update@school.test")
	// useSession().update(data) posts JSON {csrfToken, data} without a header.
	res, body = b.send(t, "POST", "/api/auth/session", []byte(`{"csrfToken":"`+b.csrfToken(t)+`","data":{"theme":"dark"}}`), "application/json")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "Ada", body["user"].(map[string]any)["name"])
	require.Equal(t, map[string]any{"theme": "dark"}, body["data"])
	_, session := b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, map[string]any{"theme": "dark"}, session["data"])

	// Too large.
	res, _ = b.send(t, "POST", "/api/auth/session", []byte(`{"csrfToken":"`+b.csrfToken(t)+`","data":"`+strings.Repeat("x", 17<<10)+`"}`), "application/json")
	require.Equal(t, 413, res.StatusCode)
	// A bad token.
	res, _ = b.send(t, "POST", "/api/auth/session", []byte(`{"csrfToken":"nope","data":{}}`), "application/json")
	require.Equal(t, 403, res.StatusCode)
}

func TestClientLogIsRateLimitedAndCapped(t *testing.T) {
	t.Parallel()
	b := setup(t)
	form := url.Values{"level": {"error"}, "code": {"CLIENT_FETCH_ERROR"}, "url": {"/api/auth/session"}, "client": {"true"}}
	for i := 0; i < 10; i++ {
		// sendBeacon carries no CSRF token, and needs none here.
		res, body := b.send(t, "POST", "/api/auth/_log", []byte(form.Encode()), "application/x-www-form-urlencoded;charset=UTF-8")
		require.Equal(t, 200, res.StatusCode, i)
		require.Empty(t, body)
	}
	res, _ := b.send(t, "POST", "/api/auth/_log", []byte(form.Encode()), "application/x-www-form-urlencoded")
	require.Equal(t, 429, res.StatusCode)

	c := setup(t)
	res, _ = c.send(t, "POST", "/api/auth/_log", []byte("level=error&code=X&big="+strings.Repeat("x", 17<<10)), "application/x-www-form-urlencoded")
	require.Equal(t, 413, res.StatusCode)
}

func TestSignInAndErrorPagesRedirectToTheFrontend(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, _ := b.send(t, "GET", "/api/auth/signin?callbackUrl=%2Flibrary&error=SessionRequired", nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/signin?callbackUrl="+url.QueryEscape(b.srv.URL+"/library")+"&error=SessionRequired", res.Header.Get("Location"))

	res, _ = b.send(t, "GET", "/api/auth/error?error=AccountNotLinkedError", nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/signin?error=AccountNotLinkedError", res.Header.Get("Location"))

	res, _ = b.send(t, "GET", "/api/auth/error?error=%3Cscript%3E", nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/signin", res.Header.Get("Location"))
}

func TestUnreadableBodiesAreRefusedAfterTheCSRFCheck(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, body := b.send(t, "POST", "/api/auth/session", []byte(`[not json`), "application/json")
	require.Equal(t, 403, res.StatusCode)
	require.Equal(t, "forbidden", body["error"].(map[string]any)["code"])
	require.Equal(t, b.srv.URL+"/signin?csrf=true", body["url"], "next-auth/react reads url")
	res, body = b.send(t, "POST", "/api/auth/session", []byte(`[not json`), "application/json", httpapi.CSRFHeader, b.csrfToken(t))
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, "Request body must be a form or a JSON object", body["error"].(map[string]any)["message"])
}

func TestSessionInUseIsExtendedAndItsCookieResent(t *testing.T) {
	t.Parallel()
	// Update age 0: every use extends the session.
	b := setup(t, func(c *config.Config) { c.SessionUpdateAge = 0 })
	b.signIn(t, "Ada", "ada-slide@school.test")
	res, session := b.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.NotEmpty(t, session)
	ck := cookie(res, httpapi.SessionCookie)
	require.NotNil(t, ck, "the extended session's cookie is sent again")
	require.Equal(t, int((30 * 24 * time.Hour).Seconds()), ck.MaxAge)

	// With the default update age, a fresh session is not re-sent.
	d := setup(t)
	d.signIn(t, "Ada", "ada-slide@school.test")
	res, _ = d.send(t, "GET", "/api/auth/session", nil, "")
	require.Nil(t, cookie(res, httpapi.SessionCookie))
}

// A page served to a signed-in browser carries its session's CSRF token,
// which the page's first write sends without asking /api/auth/csrf; signed
// out the page carries none, and the token is worthless in another
// browser's session.
func TestASignedInPageCarriesItsSessionsCSRFToken(t *testing.T) {
	t.Parallel()
	b := setup(t)
	page := `<!doctype html><html><head><title>Markwell</title></head><body></body></html>`
	require.NoError(t, os.WriteFile(filepath.Join(b.cfg.StaticDir, "index.html"), []byte(page), 0o644))
	meta := regexp.MustCompile(`<meta name="` + httpapi.PageCSRFMeta + `" content="([0-9a-f]{64})">`)
	pageOf := func(br *browser, p string) string {
		t.Helper()
		res, err := br.client.Get(b.srv.URL + p)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		require.Equal(t, 200, res.StatusCode, p)
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"), p)
		return string(body)
	}

	ann := b.newBrowser(t)
	require.NotRegexp(t, meta, pageOf(ann, "/library"), "signed out: no token in the page")
	user := ann.signIn(t, "Ann", "ann-page-token@school.test")
	m := meta.FindStringSubmatch(pageOf(ann, "/library"))
	require.NotNil(t, m, "a signed-in page carries its token")
	require.Equal(t, m[1], meta.FindStringSubmatch(pageOf(ann, "/assignment/123?page=2"))[1], "the same token on every page of the session")
	_, asked := ann.send(t, "GET", "/api/auth/csrf", nil, "")
	require.Equal(t, m[1], asked["csrfToken"], "the token /api/auth/csrf gives")

	ann.csrf = m[1]
	res, body := ann.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": user["teamId"], "folderName": "Term 1"})
	require.Equal(t, 200, res.StatusCode, body)

	eve := b.newBrowser(t)
	eveUser := eve.signIn(t, "Eve", "eve-page-token@school.test")
	eve.csrf = m[1]
	res, body = eve.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"teamId": eveUser["teamId"], "folderName": "Stolen"})
	require.Equal(t, 403, res.StatusCode, body)

	// Signed out, the page carries no token again.
	ann.csrf = ""
	f := url.Values{"csrfToken": {ann.csrfToken(t)}, "callbackUrl": {"/"}, "json": {"true"}}
	res, _ = ann.send(t, "POST", "/api/auth/signout", []byte(f.Encode()), "application/x-www-form-urlencoded")
	require.Equal(t, 200, res.StatusCode)
	require.NotRegexp(t, meta, pageOf(ann, "/library"))
}
