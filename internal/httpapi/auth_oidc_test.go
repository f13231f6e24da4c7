package httpapi_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/httpapi"
)

// idp is a mock OpenID Connect issuer (oauth2-proxy/mockoidc) whose token
// endpoint can be made to hand out a doctored id_token.
type idp struct {
	m           *mockoidc.MockOIDC
	discoveries atomic.Int32
	// failDiscoveries makes that many discovery requests answer 503.
	failDiscoveries atomic.Int32
	mu              sync.Mutex
	doctor          func(t *testing.T, claims jwt.MapClaims) *mockoidc.Keypair
}

func startIDP(t *testing.T) *idp {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	require.NoError(t, err)
	p := &idp{m: m}
	require.NoError(t, m.AddMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == mockoidc.DiscoveryEndpoint {
				p.discoveries.Add(1)
				if p.failDiscoveries.Add(-1) >= 0 {
					http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
					return
				}
			}
			p.mu.Lock()
			doctor := p.doctor
			p.mu.Unlock()
			if r.URL.Path != mockoidc.TokenEndpoint || doctor == nil {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			var body map[string]any
			if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body["id_token"] == nil {
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
				return
			}
			claims := jwt.MapClaims{}
			_, _, err := jwt.NewParser().ParseUnverified(body["id_token"].(string), claims)
			require.NoError(t, err)
			kp := doctor(t, claims)
			signed, err := kp.SignJWT(claims)
			require.NoError(t, err)
			body["id_token"] = signed
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(body)
		})
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, m.Start(ln, nil))
	t.Cleanup(func() { _ = m.Shutdown() })
	return p
}

func (p *idp) setDoctor(f func(t *testing.T, claims jwt.MapClaims) *mockoidc.Keypair) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.doctor = f
}

// oidcSetup serves Markwell with Google pointed at a mock issuer.
func oidcSetup(t *testing.T) (*bundle, *idp) {
	t.Helper()
	p := startIDP(t)
	b := setup(t, func(c *config.Config) {
		c.GoogleClientID, c.GoogleClientSecret, c.GoogleIssuer = p.m.ClientID, p.m.ClientSecret, p.m.Issuer()
	})
	return b, p
}

// begin signs in with Google as next-auth/react's signIn("google") does and
// follows the mock issuer's redirect; it returns our callback URL with code
// and state.
func (br *browser) begin(t *testing.T, p *idp, user *mockoidc.MockUser) string {
	t.Helper()
	res, body := br.postForm(t, "/api/auth/signin/google", url.Values{"callbackUrl": {"/library"}})
	require.Equal(t, 200, res.StatusCode, body)
	authURL, err := url.Parse(body["url"].(string))
	require.NoError(t, err)
	require.Equal(t, p.m.AuthorizationEndpoint(), authURL.Scheme+"://"+authURL.Host+authURL.Path)
	q := authURL.Query()
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.NotEmpty(t, q.Get("code_challenge"))
	require.NotEmpty(t, q.Get("nonce"))
	require.NotEmpty(t, q.Get("state"))
	require.Equal(t, br.b.srv.URL+"/api/auth/callback/google", q.Get("redirect_uri"))
	require.Equal(t, "openid email profile", q.Get("scope"))
	st := cookie(res, httpapi.StateCookie)
	require.NotNil(t, st)
	require.True(t, st.HttpOnly)
	require.Equal(t, q.Get("state"), st.Value)

	p.m.QueueUser(user)
	res, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(authURL.String())
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 302, res.StatusCode)
	back := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(back, br.b.srv.URL+"/api/auth/callback/google?"), back)
	return back
}

// finish delivers the issuer's redirect to our callback and returns where
// Markwell sends the browser.
func (br *browser) finish(t *testing.T, back string) *url.URL {
	t.Helper()
	res, _ := br.send(t, "GET", back, nil, "")
	require.Equal(t, 302, res.StatusCode)
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	return loc
}

func mockUser(email string, verified bool) *mockoidc.MockUser {
	return &mockoidc.MockUser{Subject: "sub-" + email, Email: email, EmailVerified: verified, PreferredUsername: "Grace Hopper"}
}

func TestOIDCSignInEndToEnd(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	require.Zero(t, p.discoveries.Load(), "nothing is fetched before the first sign-in")

	res, providers := b.send(t, "GET", "/api/auth/providers", nil, "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, map[string]any{
		"id": "google", "name": "Google", "type": "oauth",
		"signinUrl": b.srv.URL + "/api/auth/signin/google", "callbackUrl": b.srv.URL + "/api/auth/callback/google",
	}, providers["google"])
	require.Zero(t, p.discoveries.Load())

	back := b.begin(t, p, mockUser("grace-oidc@school.test", true))
	require.Equal(t, int32(1), p.discoveries.Load(), "discovery happens on first use")
	res, _ = b.send(t, "GET", back, nil, "")
	require.Equal(t, 302, res.StatusCode)
	require.Equal(t, b.srv.URL+"/library", res.Header.Get("Location"))
	ck := cookie(res, httpapi.SessionCookie)
	require.NotNil(t, ck)
	require.True(t, ck.HttpOnly)

	_, session := b.send(t, "GET", "/api/auth/session", nil, "")
	user := session["user"].(map[string]any)
	require.Equal(t, "grace-oidc@school.test", user["email"])
	require.Equal(t, "Grace Hopper", user["name"])
	require.NotNil(t, user["teamId"])

	// Again in another browser: the same user, and discovery stays cached.
	other := b.newBrowser(t)
	loc := other.finish(t, other.begin(t, p, mockUser("grace-oidc@school.test", true)))
	require.Equal(t, b.srv.URL+"/library", loc.String())
	_, s2 := other.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, user["id"], s2["user"].(map[string]any)["id"])
	require.Equal(t, int32(1), p.discoveries.Load())

	// A developer who signed in with the development sign-in first is linked
	// by the verified email.
	dev := b.newBrowser(t)
	devUser := dev.signIn(t, "Dev", "dev-oidc@school.test")
	g := b.newBrowser(t)
	g.finish(t, g.begin(t, p, mockUser("dev-oidc@school.test", true)))
	_, s3 := g.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, devUser["id"], s3["user"].(map[string]any)["id"])
}

// refused checks a refused sign-in: back to the sign-in page with the error
// and the callback URL, and no session.
func refused(t *testing.T, b *bundle, br *browser, loc *url.URL, name string) {
	t.Helper()
	require.Equal(t, "/signin", loc.Path, loc.String())
	require.Equal(t, name, loc.Query().Get("error"), loc.String())
	_, session := br.send(t, "GET", "/api/auth/session", nil, "")
	require.Empty(t, session)
}

func TestOIDCRefusesWrongAudience(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	p.setDoctor(func(t *testing.T, c jwt.MapClaims) *mockoidc.Keypair {
		c["aud"] = "someone-else"
		return p.m.Keypair // properly signed, for another client
	})
	loc := b.finish(t, b.begin(t, p, mockUser("aud@school.test", true)))
	refused(t, b, b.browser, loc, "OAuthCallbackError")
	require.Equal(t, b.srv.URL+"/library", loc.Query().Get("callbackUrl"))
}

func TestOIDCRefusesBadSignature(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	p.setDoctor(func(t *testing.T, c jwt.MapClaims) *mockoidc.Keypair {
		// Another key under the issuer's key id: the JWKS does not match it.
		forger, err := mockoidc.RandomKeypair(2048)
		require.NoError(t, err)
		kid, err := p.m.Keypair.KeyID()
		require.NoError(t, err)
		forger.Kid = kid
		c["email"] = "ceo@school.test"
		return forger
	})
	loc := b.finish(t, b.begin(t, p, mockUser("sig@school.test", true)))
	refused(t, b, b.browser, loc, "OAuthCallbackError")
}

func TestOIDCRefusesWrongNonce(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	p.setDoctor(func(t *testing.T, c jwt.MapClaims) *mockoidc.Keypair {
		c["nonce"] = "replayed-from-elsewhere"
		return p.m.Keypair
	})
	loc := b.finish(t, b.begin(t, p, mockUser("nonce@school.test", true)))
	refused(t, b, b.browser, loc, "OAuthCallbackError")
}

func TestOIDCRefusesReplayedState(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	back := b.begin(t, p, mockUser("replay@school.test", true))
	state, err := url.Parse(back)
	require.NoError(t, err)
	loc := b.finish(t, back)
	require.Equal(t, b.srv.URL+"/library", loc.String())

	// The same callback again, in a fresh browser that even holds the state
	// cookie: the attempt was consumed, so it is refused.
	replayer := b.newBrowser(t)
	u, err := url.Parse(b.srv.URL + "/api/auth")
	require.NoError(t, err)
	replayer.client.Jar.SetCookies(u, []*http.Cookie{{Name: httpapi.StateCookie, Value: state.Query().Get("state"), Path: "/api/auth"}})
	loc = replayer.finish(t, back)
	refused(t, b, replayer, loc, "OAuthCallbackError")
}

func TestOIDCRefusesAStateFromAnotherBrowser(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	// An attacker begins a sign-in and lures a victim to its callback (login CSRF).
	back := b.begin(t, p, mockUser("attacker@school.test", true))
	victim := b.newBrowser(t)
	loc := victim.finish(t, back)
	refused(t, b, victim, loc, "OAuthCallbackError")
}

func TestOIDCUnverifiedEmailIsNotLinked(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	b.newBrowser(t).signIn(t, "Owner", "owner-unverified@school.test")
	loc := b.finish(t, b.begin(t, p, mockUser("owner-unverified@school.test", false)))
	refused(t, b, b.browser, loc, "AccountNotLinkedError")
}

func TestOIDCProviderErrorAndMissingCode(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	back := b.begin(t, p, mockUser("declined@school.test", true))
	u, err := url.Parse(back)
	require.NoError(t, err)
	q := u.Query()
	q.Del("code")
	q.Set("error", "access_denied")
	u.RawQuery = q.Encode()
	loc := b.finish(t, u.String())
	refused(t, b, b.browser, loc, "OAuthCallbackError")
	require.Equal(t, b.srv.URL+"/library", loc.Query().Get("callbackUrl"))
}

func TestOIDCDiscoveryFailureIsOAuthSignin(t *testing.T) {
	t.Parallel()
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	b := setup(t, func(c *config.Config) {
		c.OIDCIssuer, c.OIDCClientID, c.OIDCClientSecret, c.OIDCName = dead.URL, "id", "secret", "Keycloak"
	})
	res, body := b.postForm(t, "/api/auth/signin/oidc", url.Values{"callbackUrl": {"/library"}})
	require.Equal(t, 200, res.StatusCode)
	u, err := url.Parse(body["url"].(string))
	require.NoError(t, err)
	require.Equal(t, "/signin", u.Path)
	require.Equal(t, "OAuthSignin", u.Query().Get("error"))
	require.Nil(t, cookie(res, httpapi.StateCookie))
}

func TestOIDCDiscoveryIsRetriedAfterAFailure(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	p.failDiscoveries.Store(1)
	res, body := b.postForm(t, "/api/auth/signin/google", url.Values{"callbackUrl": {"/library"}})
	require.Equal(t, 200, res.StatusCode)
	u, err := url.Parse(body["url"].(string))
	require.NoError(t, err)
	require.Equal(t, "OAuthSignin", u.Query().Get("error"))

	// The failure was not cached: the next sign-in discovers and works.
	loc := b.finish(t, b.begin(t, p, mockUser("retry@school.test", true)))
	require.Equal(t, b.srv.URL+"/library", loc.String())
	require.Equal(t, int32(2), p.discoveries.Load())
}
