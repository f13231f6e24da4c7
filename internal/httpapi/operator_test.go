package httpapi_test

import (
	"io"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/testdb"
)

// productionSetup serves Markwell with the configuration cmd/api loads in
// production (APP_ENV=production, the development sign-in off unless env
// says otherwise), Google pointed at a mock issuer and the given operators.
func productionSetup(t *testing.T, operators string, env map[string]string) (*bundle, *idp) {
	t.Helper()
	p := startIDP(t)
	b := setup(t, func(c *config.Config) {
		vars := map[string]string{
			"APP_ENV": "production", "DATABASE_URL": testdb.URL(), "SECRET_KEY": c.SecretKey,
			"PUBLIC_URL": c.PublicURL, "STATIC_DIR": c.StaticDir, "OPERATOR_EMAILS": operators,
			"GOOGLE_CLIENT_ID": p.m.ClientID, "GOOGLE_CLIENT_SECRET": p.m.ClientSecret, "GOOGLE_ISSUER": p.m.Issuer(),
		}
		for k, v := range env {
			vars[k] = v
		}
		loaded, err := config.LoadFrom(vars)
		require.NoError(t, err)
		require.True(t, loaded.Production())
		*c = loaded
	})
	return b, p
}

// operatorPages reports the status of each operator page for br.
func operatorPages(t *testing.T, br *browser) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, path := range []string{"/admin/jobs", "/admin/jobs/jobs", "/metrics"} {
		res, err := br.client.Get(br.b.srv.URL + path)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		out[path] = res.StatusCode
	}
	return out
}

var (
	operatorPagesOpen   = map[string]int{"/admin/jobs": 200, "/admin/jobs/jobs": 200, "/metrics": 200}
	operatorPagesClosed = map[string]int{"/admin/jobs": 404, "/admin/jobs/jobs": 404, "/metrics": 404}
)

// In production the operator pages (the job dashboard and the app port's
// metrics) open only to an operator's address that the sign-in provider
// verified: an issuer that says email_verified false, or says nothing about
// it, does not make its user an operator.
func TestOperatorPagesNeedAVerifiedEmailInProduction(t *testing.T) {
	t.Parallel()
	tag := uuid.NewString()[:8]
	unverified, silent, verified := "ops-unverified-"+tag+"@school.test", "ops-silent-"+tag+"@school.test", "ops-verified-"+tag+"@school.test"
	b, p := productionSetup(t, unverified+","+silent+","+verified, nil)
	require.True(t, b.cfg.IsOperator(unverified) && b.cfg.IsOperator(silent) && b.cfg.IsOperator(verified))
	require.False(t, b.cfg.DevSignIn)

	// email_verified: false.
	u := b.newBrowser(t)
	u.finish(t, u.begin(t, p, mockUser(unverified, false)))
	_, s := u.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, unverified, s["user"].(map[string]any)["email"], "signed in")
	require.Equal(t, operatorPagesClosed, operatorPages(t, u))

	// No email_verified claim at all.
	p.setDoctor(func(_ *testing.T, c jwt.MapClaims) *mockoidc.Keypair {
		delete(c, "email_verified")
		return p.m.Keypair
	})
	m := b.newBrowser(t)
	m.finish(t, m.begin(t, p, mockUser(silent, true)))
	_, s = m.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, silent, s["user"].(map[string]any)["email"], "signed in")
	require.Equal(t, operatorPagesClosed, operatorPages(t, m))
	p.setDoctor(nil)

	// The same production configuration opens them to a verified operator.
	v := b.newBrowser(t)
	v.finish(t, v.begin(t, p, mockUser(verified, true)))
	require.Equal(t, operatorPagesOpen, operatorPages(t, v))

	// Once a provider verifies the unverified operator's address, it counts.
	u2 := b.newBrowser(t)
	u2.finish(t, u2.begin(t, p, &mockoidc.MockUser{Subject: "other-" + unverified, Email: unverified, EmailVerified: true, PreferredUsername: "Ops"}))
	require.Equal(t, operatorPagesOpen, operatorPages(t, u2))
}

// A throwaway production demo with the development sign-in on: typing an
// operator's address does not open the operator pages.
func TestOperatorPagesStayClosedToTheDevelopmentSignInInProduction(t *testing.T) {
	t.Parallel()
	ops := "ops-typed-" + uuid.NewString()[:8] + "@school.test"
	b, _ := productionSetup(t, ops, map[string]string{"DEV_SIGNIN": "true"})
	require.True(t, b.cfg.DevSignIn)
	br := b.newBrowser(t)
	br.signIn(t, "Operator", ops)
	require.Equal(t, operatorPagesClosed, operatorPages(t, br))
}
