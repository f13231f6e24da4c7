package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
)

func valid() map[string]string {
	return map[string]string{
		"DATABASE_URL": "postgres://localhost/markwell",
		"SECRET_KEY":   strings.Repeat("s", 32),
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "production", c.Env)
	require.Equal(t, ":8080", c.HTTPAddr)
	require.Equal(t, int64(50<<20), c.MaxUploadBytes)
	require.Equal(t, 5*time.Minute, c.JobTimeout)
	require.Greater(t, c.JobRescueAfter, c.JobTimeout)
	require.Equal(t, ".data/blobs", c.BlobDir)
}

func TestEveryBadValueIsReportedOnItsOwnLine(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"APP_ENV":          "staging",
		"PUBLIC_URL":       "localhost:8080",
		"MAX_UPLOAD_BYTES": "-1",
		"JOB_TIMEOUT":      "soon",
		"LOG_LEVEL":        "loud",
		"WORKER_QUEUES":    "ai=64,gpu=1",
		"S3_ACCESS_KEY_ID": "AKIA",
		"MIGRATE_ON_START": "yes please",
		"TRUSTED_PROXIES":  "10.0.0.0/8, proxy.local",
	}
	_, err := config.LoadFrom(env)
	require.Error(t, err)
	for _, want := range []string{
		`APP_ENV: "staging" must be development or production`,
		"DATABASE_URL: required",
		"SECRET_KEY: required, at least 32 characters",
		`PUBLIC_URL: "localhost:8080" must be an absolute http(s) URL`,
		`MAX_UPLOAD_BYTES: "-1" is not a positive number of bytes`,
		`JOB_TIMEOUT: "soon" is not a positive duration`,
		`LOG_LEVEL: "loud" must be debug, info, warn or error`,
		`WORKER_QUEUES: "gpu": unknown queue`,
		"S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither",
		`MIGRATE_ON_START: "yes please" is not a boolean`,
		`TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR`,
	} {
		require.Contains(t, err.Error(), want)
	}
}

func TestRescueMustOutlastTimeout(t *testing.T) {
	t.Parallel()
	env := valid()
	env["JOB_TIMEOUT"] = "10m"
	env["JOB_RESCUE_AFTER"] = "5m"
	_, err := config.LoadFrom(env)
	require.ErrorContains(t, err, "JOB_RESCUE_AFTER: must be longer than JOB_TIMEOUT")
}

func TestParseQueues(t *testing.T) {
	t.Parallel()
	q, err := config.ParseQueues("ai=64, ocr=2")
	require.NoError(t, err)
	require.Equal(t, map[string]int{"ai": 64, "ocr": 2}, q)
	for _, bad := range []string{"", "ai", "ai=0", "ai=x", "video=1"} {
		_, err := config.ParseQueues(bad)
		require.Error(t, err, bad)
	}
}

func TestOperators(t *testing.T) {
	t.Parallel()
	env := valid()
	env["OPERATOR_EMAILS"] = " Ops@School.test ,admin@school.test"
	c, err := config.LoadFrom(env)
	require.NoError(t, err)
	require.True(t, c.IsOperator("ops@school.test"))
	require.False(t, c.IsOperator("teacher@school.test"))
	require.False(t, c.IsOperator(""))
}

func TestAuthDefaults(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "/api/auth", c.AuthBasePath)
	require.Equal(t, 30*24*time.Hour, c.SessionMaxAge)
	require.Equal(t, 24*time.Hour, c.SessionUpdateAge)
	require.False(t, c.DevSignIn)
	require.Equal(t, "https://accounts.google.com", c.GoogleIssuer)
	require.Equal(t, "Single sign-on", c.OIDCName)
	require.Empty(t, c.SignInProviders())
}

func TestAuthProviders(t *testing.T) {
	t.Parallel()
	env := valid()
	env["AUTH_BASE_PATH"] = "/auth/"
	env["DEV_SIGNIN"] = "true"
	env["GOOGLE_CLIENT_ID"] = "id.apps.googleusercontent.com"
	env["GOOGLE_CLIENT_SECRET"] = "secret"
	env["OIDC_ISSUER"] = "https://login.microsoftonline.com/tenant/v2.0/"
	env["OIDC_CLIENT_ID"] = "client"
	env["OIDC_CLIENT_SECRET"] = "secret"
	env["OIDC_NAME"] = "Microsoft"
	env["SESSION_MAX_AGE"] = "2h"
	env["SESSION_UPDATE_AGE"] = "10m"
	c, err := config.LoadFrom(env)
	require.NoError(t, err)
	require.Equal(t, "/auth", c.AuthBasePath)
	require.Equal(t, "https://login.microsoftonline.com/tenant/v2.0", c.OIDCIssuer)
	require.Equal(t, 2*time.Hour, c.SessionMaxAge)
	require.Equal(t, 10*time.Minute, c.SessionUpdateAge)
	require.Equal(t, []string{"google", "oidc", "credentials"}, c.SignInProviders())

	// A local mock issuer over http is fine, even in production.
	env = valid()
	env["GOOGLE_CLIENT_ID"], env["GOOGLE_CLIENT_SECRET"], env["GOOGLE_ISSUER"] = "id", "secret", "http://127.0.0.1:9999/oidc"
	_, err = config.LoadFrom(env)
	require.NoError(t, err)
}

func TestAuthBadValuesAreReportedPerVariable(t *testing.T) {
	t.Parallel()
	env := valid()
	env["AUTH_BASE_PATH"] = "api/auth"
	env["SESSION_MAX_AGE"] = "1h"
	env["SESSION_UPDATE_AGE"] = "2h"
	env["DEV_SIGNIN"] = "sure"
	env["GOOGLE_CLIENT_ID"] = "id"
	env["GOOGLE_ISSUER"] = "http://accounts.example.com"
	env["OIDC_CLIENT_ID"] = "client"
	_, err := config.LoadFrom(env)
	require.Error(t, err)
	for _, want := range []string{
		`AUTH_BASE_PATH: "api/auth" must be a path such as /api/auth`,
		"SESSION_UPDATE_AGE: must be shorter than SESSION_MAX_AGE (1h0m0s)",
		`DEV_SIGNIN: "sure" is not a boolean`,
		"GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither",
		`GOOGLE_ISSUER: "http://accounts.example.com" must use https in production`,
		"OIDC_ISSUER: required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set",
		"OIDC_CLIENT_SECRET: required for the OIDC provider",
	} {
		require.Contains(t, err.Error(), want)
	}
	require.NotContains(t, err.Error(), "OIDC_CLIENT_ID: required")

	env = valid()
	env["OIDC_ISSUER"] = "not a url"
	env["OIDC_CLIENT_SECRET"] = "s"
	env["AUTH_BASE_PATH"] = "/api/v1/auth"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `OIDC_ISSUER: "not a url" must be an absolute http(s) URL`)
	require.ErrorContains(t, err, "OIDC_CLIENT_ID: required for the OIDC provider")
	require.ErrorContains(t, err, `AUTH_BASE_PATH: "/api/v1/auth" must be a path`)
}

func TestInviteLinkTTL(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, 7*24*time.Hour, c.InviteLinkTTL)

	env := valid()
	env["INVITE_LINK_TTL"] = "48h"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.Equal(t, 48*time.Hour, c.InviteLinkTTL)

	for _, bad := range []string{"30s", "2161h"} {
		env["INVITE_LINK_TTL"] = bad
		_, err = config.LoadFrom(env)
		require.ErrorContains(t, err, "INVITE_LINK_TTL: must be between 1m and 2160h (90 days)", bad)
	}
	env["INVITE_LINK_TTL"] = "a week"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `INVITE_LINK_TTL: "a week" is not a positive duration`)
}

func TestStudentRateLimits(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.Equal(t, "300/1h0m0s", c.StudentLimitLink.String())
	require.Equal(t, "200/10m0s", c.StudentLimitAddr.String())

	env := valid()
	env["STUDENT_RATE_LIMIT_LINK"] = "off"
	env["STUDENT_RATE_LIMIT_ADDR"] = "5/1m"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.Zero(t, c.StudentLimitLink.Limit, "off turns the limit off")
	require.Equal(t, 5, c.StudentLimitAddr.Limit)
	require.Equal(t, time.Minute, c.StudentLimitAddr.Window)

	env["STUDENT_RATE_LIMIT_LINK"] = "many"
	env["STUDENT_RATE_LIMIT_ADDR"] = "10/forever"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `STUDENT_RATE_LIMIT_LINK: "many": want N/window`)
	require.ErrorContains(t, err, `STUDENT_RATE_LIMIT_ADDR: "10/forever": the window must be a duration`)
}

func TestGoogleClassroom(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.True(t, c.GoogleClassroomEnabled, "on wherever Google sign-in is")
	require.Empty(t, c.GoogleAPIBaseURL, "Google's own endpoints")

	env := valid()
	env["GOOGLE_CLASSROOM_ENABLED"] = "false"
	env["GOOGLE_API_BASE_URL"] = "http://127.0.0.1:9999/"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.False(t, c.GoogleClassroomEnabled)
	require.Equal(t, "http://127.0.0.1:9999", c.GoogleAPIBaseURL)

	env["GOOGLE_API_BASE_URL"] = "http://fake-google.test"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `GOOGLE_API_BASE_URL: "http://fake-google.test" must use https in production`)
	env["GOOGLE_CLASSROOM_ENABLED"] = "maybe"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `GOOGLE_CLASSROOM_ENABLED: "maybe" is not a boolean`)
}

func TestJobsPollOnlyIsOffUnlessAsked(t *testing.T) {
	t.Parallel()
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.False(t, c.JobsPollOnly, "workers LISTEN by default")

	env := valid()
	env["JOBS_POLL_ONLY"] = "true"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.True(t, c.JobsPollOnly)

	env["JOBS_POLL_ONLY"] = "pgbouncer"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, `JOBS_POLL_ONLY: "pgbouncer" is not a boolean (use true or false)`)
}

func TestSMTPSettingsAreCheckedAtStartup(t *testing.T) {
	c, err := config.LoadFrom(valid())
	require.NoError(t, err)
	require.False(t, c.EmailEnabled(), "no SMTP_URL, no email")
	require.Equal(t, 60, c.SMTPPerTeamPerMinute)

	env := valid()
	env["SMTP_URL"] = "smtp://user:secret@mail.school.example:587"
	env["SMTP_FROM"] = "Markwell <no-reply@school.example>"
	env["SMTP_PER_TEAM_PER_MINUTE"] = "30"
	c, err = config.LoadFrom(env)
	require.NoError(t, err)
	require.True(t, c.EmailEnabled())
	require.Equal(t, "starttls", c.SMTP().TLS)
	require.Equal(t, 30, c.SMTPPerTeamPerMinute)

	env["SMTP_URL"] = "http://mail.school.example"
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, "SMTP_URL: scheme \"http\" is not smtp:// (STARTTLS, port 587) or smtps:// (TLS, port 465)")
	require.NotContains(t, err.Error(), "secret")
	env["SMTP_URL"] = "smtp://mail.school.example"
	env["SMTP_FROM"] = ""
	_, err = config.LoadFrom(env)
	require.ErrorContains(t, err, "SMTP_FROM: required with SMTP_URL")
}

// The API listens for changes on DATABASE_URL unless that goes through a
// transaction pool (JOBS_POLL_ONLY), where LISTEN does not work: then only
// on CHANGES_LISTEN_URL.
func TestChangesListen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "postgres://localhost/markwell"},
		{map[string]string{"JOBS_POLL_ONLY": "true"}, ""},
		{map[string]string{"JOBS_POLL_ONLY": "true", "CHANGES_LISTEN_URL": "postgres://db:5432/markwell"}, "postgres://db:5432/markwell"},
		{map[string]string{"CHANGES_LISTEN_URL": "off"}, ""},
	} {
		env := valid()
		for k, v := range tc.env {
			env[k] = v
		}
		c, err := config.LoadFrom(env)
		require.NoError(t, err)
		require.Equal(t, tc.want, c.ChangesListen(), tc.env)
	}
}
