// Package config reads Markwell's settings from the environment into one
// typed Config, validated once at start-up.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
)

// Config holds every setting of the API and the worker. The README's
// configuration table lists each variable and its default.
type Config struct {
	// Env is "development" or "production".
	Env string
	// DatabaseURL is the PostgreSQL connection string.
	DatabaseURL string
	// ChangesListenURL is the direct PostgreSQL connection the API LISTENs
	// on for changes to classes, so that a poll of an unchanged class is a
	// 304 without a query (ChangesListen). "off" turns it off.
	ChangesListenURL string
	// HTTPAddr is the address the API listens on.
	HTTPAddr string
	// PublicURL is the address users reach the app at; signed file URLs use it.
	PublicURL string
	// SecretKey signs local file URLs and CSRF tokens.
	SecretKey string
	// StaticDir holds the built frontend the API serves.
	StaticDir string
	// MigrateOnStart applies pending migrations when the API starts.
	MigrateOnStart bool

	// BlobDir is the local store's root when S3 is not configured.
	BlobDir string
	// MaxUploadBytes caps one uploaded file.
	MaxUploadBytes int64
	// SignedURLTTL is how long a signed file URL stays valid.
	SignedURLTTL time.Duration
	// S3Bucket switches storage to S3 when set.
	S3Bucket string
	// S3Region is the bucket's region.
	S3Region string
	// S3Endpoint is a custom endpoint for S3-compatible stores.
	S3Endpoint string
	// S3AccessKeyID and S3SecretAccessKey are static credentials; empty uses the default chain.
	S3AccessKeyID     string
	S3SecretAccessKey string

	// LLMBaseURL is the OpenAI-compatible endpoint (the demo model in development).
	LLMBaseURL string
	// LLMAPIKey authenticates against the endpoint.
	LLMAPIKey string
	// LLMModel is the model for text tasks.
	LLMModel string
	// LLMVisionModel is the vision-capable model that transcribes handwriting;
	// empty means LLM_MODEL.
	LLMVisionModel string
	// LLMSummaryModel is a cheaper model for class summaries; empty means
	// LLM_MODEL.
	LLMSummaryModel string
	// LLMPrices prices the models' tokens, so job code can record what a
	// result cost (LLMPrices.Cost(usage)); empty prices everything at 0.
	LLMPrices llm.Prices
	// LLMRPM and LLMTPM are the most model requests and tokens per minute of
	// every API and worker process together (0: no limit), kept in
	// PostgreSQL; see ModelLimit.
	LLMRPM int
	LLMTPM int
	// LLMTimeout bounds one model call.
	LLMTimeout time.Duration
	// LLMOutputMode is how structured answers are asked for
	// (LLM_OUTPUT_MODE): auto (the default) detects what the provider
	// accepts, or json_schema, json_object or prompt.
	LLMOutputMode llm.OutputMode
	// DemoModel tells the UI that results come from the demo model.
	DemoModel bool

	// WorkerQueues lists queues and their concurrency, e.g. "default=10,ai=64".
	WorkerQueues string
	// JobTimeout bounds one job attempt.
	JobTimeout time.Duration
	// JobRescueAfter is when a job left running by a dead worker is picked up again.
	JobRescueAfter time.Duration
	// WorkerAddr is where a worker serves /healthz and /metrics (its
	// --addr flag overrides it; --addr= turns them off).
	WorkerAddr string
	// GradeJobTimeout bounds one grading attempt, and so how long the
	// grading jobs of a killed worker wait to be rescued (docs/faults.md).
	GradeJobTimeout time.Duration
	// ConvertTimeout bounds one LibreOffice conversion in the worker (ODT,
	// ODP, RTF, DOC, PPT); past it the submission fails with a sentence.
	ConvertTimeout time.Duration
	// SofficePath is LibreOffice's soffice ("" finds it in PATH).
	SofficePath string
	// JobsPollOnly makes workers poll for jobs instead of LISTENing for
	// PostgreSQL notifications (River's PollOnly), for connections through a
	// transaction-pooling PgBouncer, where LISTEN does not work.
	JobsPollOnly bool

	// OperatorEmails may open the job dashboard at /admin/jobs.
	OperatorEmails []string
	// SMTPURL and SMTPFrom are the mail server released results are
	// emailed through and their sender (release.ParseSMTP); both empty, no
	// email: teachers copy the links or download them. SMTPPerTeamPerMinute
	// caps one team's emails (0: no cap).
	SMTPURL              string
	SMTPFrom             string
	SMTPPerTeamPerMinute int

	// AuthBasePath is where the NextAuth-compatible sign-in API lives.
	AuthBasePath string
	// SessionMaxAge is a session's lifetime since it was last extended.
	SessionMaxAge time.Duration
	// SessionUpdateAge is how often a session in use is extended (sliding expiry).
	SessionUpdateAge time.Duration
	// InviteLinkTTL is how long a team's invitation link works.
	InviteLinkTTL time.Duration
	// DevSignIn turns on the development sign-in: a name and an email, no password.
	DevSignIn bool
	// LTIAllowInsecureURLs lets registered LTI platforms use http:// URLs
	// (LTI_ALLOW_INSECURE_URLS; tests and local platforms only).
	LTIAllowInsecureURLs bool
	// GoogleClientID and GoogleClientSecret enable "Sign in with Google" when both are set.
	GoogleClientID     string
	GoogleClientSecret string
	// GoogleIssuer is Google's OpenID Connect issuer; tests point it at a mock.
	GoogleIssuer string
	// GoogleClassroomEnabled offers Google Classroom import when Google
	// sign-in is configured (its client must be allowed the Classroom and
	// Drive scopes and list PUBLIC_URL/api/v1/google/classroom/callback).
	GoogleClassroomEnabled bool
	// GoogleAPIBaseURL points every Google endpoint of the Classroom import
	// (consent, token, Classroom, Drive) at one fake server; tests only.
	GoogleAPIBaseURL string
	// OIDCIssuer enables a generic OpenID Connect provider (Entra, Keycloak …), id "oidc".
	OIDCIssuer string
	// OIDCClientID and OIDCClientSecret are Markwell's client at OIDCIssuer.
	OIDCClientID     string
	OIDCClientSecret string
	// OIDCName labels the provider's sign-in button.
	OIDCName string

	// LogLevel is debug, info, warn or error.
	LogLevel string
	// ShutdownTimeout bounds graceful shutdown.
	ShutdownTimeout time.Duration
	// TrustedProxies are the proxies (IPs or CIDRs) whose X-Forwarded-For is
	// believed; none by default, so a client cannot choose its own address.
	TrustedProxies []string
	// MetricsAddr is where the API serves /metrics to Prometheus (loopback by
	// default; empty turns it off). On the app port only operators see them.
	MetricsAddr string
	// PprofAddr, when set, serves net/http/pprof on an address of its own
	// (benchmarks only, never the app port); empty turns it off.
	PprofAddr string

	// SignInLimit caps sign-in attempts per client address.
	SignInLimit ratelimit.Rule
	// AILimitTeacher and AILimitTeam cap the AI calls a teacher makes per
	// window and a team makes per window (model cost is not unbounded).
	AILimitTeacher ratelimit.Rule
	AILimitTeam    ratelimit.Rule
	// AITokenLimitTeacher and AITokenLimitTeam cap the AI tokens (prompt and
	// answer) a teacher uses per window through the API, and a team uses
	// per window, grading included.
	AITokenLimitTeacher ratelimit.Rule
	AITokenLimitTeam    ratelimit.Rule
	// StudentLimitLink and StudentLimitAddr cap the uploads and the
	// submissions made through one assignment's student link, and from one
	// client address, per window (each route counted on its own). The link's
	// cap is a base: it grows by StudentLinkGrowth for each distinct address
	// that sent through the link in its window, up to StudentLinkMax.
	StudentLimitLink  ratelimit.Rule
	StudentLimitAddr  ratelimit.Rule
	StudentLinkGrowth int
	StudentLinkMax    int
	// StudentLimitSubmitter caps one client address on one link, so one
	// holder of the link cannot use up its quota; StudentLimitStudent caps
	// the submissions of one student (by email) through one link.
	StudentLimitSubmitter ratelimit.Rule
	StudentLimitStudent   ratelimit.Rule
}

// DefaultGradeJobTimeout is GRADE_JOB_TIMEOUT's default: a few model
// calls, each with its own timeout. A worker given none uses it too.
const DefaultGradeJobTimeout = 10 * time.Minute

// Production reports whether the app runs in production mode.
func (c Config) Production() bool { return c.Env == "production" }

// IsOperator reports whether email may open operator tools.
func (c Config) IsOperator(email string) bool {
	email = strings.ToLower(strings.TrimSpace(email))
	for _, e := range c.OperatorEmails {
		if email != "" && e == email {
			return true
		}
	}
	return false
}

// Load reads the configuration from the environment. It returns every bad
// value at once, one line each.
func Load() (Config, error) {
	return load(os.LookupEnv)
}

// LoadFrom reads the configuration from a map, for tests.
func LoadFrom(env map[string]string) (Config, error) {
	return load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
}

type reader struct {
	lookup func(string) (string, bool)
	errs   []error
}

func (r *reader) str(key, def string) string {
	if v, ok := r.lookup(key); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return def
}

func (r *reader) boolean(key string, def bool) bool {
	v := r.str(key, "")
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %q is not a boolean (use true or false)", key, v))
		return def
	}
	return b
}

func (r *reader) duration(key string, def time.Duration) time.Duration {
	v := r.str(key, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.errs = append(r.errs, fmt.Errorf("%s: %q is not a positive duration (e.g. 30s, 5m)", key, v))
		return def
	}
	return d
}

// addr reads a listen address, host:port (the host may be empty, as in
// :9091); def by default.
func (r *reader) addr(key, def string) string {
	v := r.str(key, def)
	if v == "" {
		return ""
	}
	_, port, err := net.SplitHostPort(v)
	if err == nil {
		if n, perr := strconv.Atoi(port); perr != nil || n < 0 || n > 65535 {
			err = errors.New("bad port")
		}
	}
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %q is not a listen address host:port (e.g. 127.0.0.1:9091)", key, v))
		return def
	}
	return v
}

func (r *reader) size(key string, def int64) int64 {
	v := r.str(key, "")
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		r.errs = append(r.errs, fmt.Errorf("%s: %q is not a positive number of bytes", key, v))
		return def
	}
	return n
}

// count reads a whole number of at least 0, 0 by default.
func (r *reader) count(key string) int {
	return r.countOr(key, 0)
}

// countOr reads a whole number of at least 0, def by default.
func (r *reader) countOr(key string, def int) int {
	v := r.str(key, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 1_000_000_000 {
		r.errs = append(r.errs, fmt.Errorf("%s: %q is not a whole number from 0 (no limit) to 1000000000", key, v))
		return 0
	}
	return n
}

func (r *reader) prices(key string) llm.Prices {
	p, err := llm.ParsePrices(r.str(key, ""))
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", key, err))
	}
	return p
}

func (r *reader) outputMode(key string) llm.OutputMode {
	m, err := llm.ParseOutputMode(r.str(key, string(llm.ModeAuto)))
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", key, err))
	}
	return m
}

func (r *reader) rule(key, def string) ratelimit.Rule {
	v := r.str(key, def)
	rule, err := ratelimit.ParseRule(v)
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", key, err))
	}
	return rule
}

func (r *reader) check(ok bool, format string, args ...any) {
	if !ok {
		r.errs = append(r.errs, fmt.Errorf(format, args...))
	}
}

func load(lookup func(string) (string, bool)) (Config, error) {
	r := &reader{lookup: lookup}
	c := Config{
		Env:                  r.str("APP_ENV", "production"),
		DatabaseURL:          r.str("DATABASE_URL", ""),
		ChangesListenURL:     r.str("CHANGES_LISTEN_URL", ""),
		HTTPAddr:             r.str("HTTP_ADDR", ":8080"),
		PublicURL:            strings.TrimRight(r.str("PUBLIC_URL", "http://localhost:8080"), "/"),
		SecretKey:            r.str("SECRET_KEY", ""),
		StaticDir:            r.str("STATIC_DIR", "frontend/dist"),
		MigrateOnStart:       r.boolean("MIGRATE_ON_START", true),
		BlobDir:              r.str("BLOB_DIR", ".data/blobs"),
		MaxUploadBytes:       r.size("MAX_UPLOAD_BYTES", 50<<20),
		SignedURLTTL:         r.duration("SIGNED_URL_TTL", 15*time.Minute),
		S3Bucket:             r.str("S3_BUCKET", ""),
		S3Region:             r.str("S3_REGION", "us-east-1"),
		S3Endpoint:           r.str("S3_ENDPOINT", ""),
		S3AccessKeyID:        r.str("S3_ACCESS_KEY_ID", ""),
		S3SecretAccessKey:    r.str("S3_SECRET_ACCESS_KEY", ""),
		LLMBaseURL:           r.str("LLM_BASE_URL", "http://127.0.0.1:8090/v1"),
		LLMAPIKey:            r.str("LLM_API_KEY", ""),
		LLMModel:             r.str("LLM_MODEL", "markwell-demo"),
		LLMVisionModel:       r.str("LLM_VISION_MODEL", ""),
		LLMSummaryModel:      r.str("LLM_SUMMARY_MODEL", ""),
		LLMPrices:            r.prices("LLM_PRICES"),
		LLMRPM:               r.count("LLM_RPM"),
		LLMTPM:               r.count("LLM_TPM"),
		LLMTimeout:           r.duration("LLM_TIMEOUT", 2*time.Minute),
		LLMOutputMode:        r.outputMode("LLM_OUTPUT_MODE"),
		DemoModel:            r.boolean("DEMO_MODEL", false),
		WorkerQueues:         r.str("WORKER_QUEUES", "default=10,extract=4,ocr=2,ai=32"),
		JobTimeout:           r.duration("JOB_TIMEOUT", 5*time.Minute),
		JobRescueAfter:       r.duration("JOB_RESCUE_AFTER", 7*time.Minute),
		JobsPollOnly:         r.boolean("JOBS_POLL_ONLY", false),
		WorkerAddr:           r.addr("WORKER_ADDR", "127.0.0.1:9091"),
		GradeJobTimeout:      r.duration("GRADE_JOB_TIMEOUT", DefaultGradeJobTimeout),
		ConvertTimeout:       r.duration("CONVERT_TIMEOUT", time.Minute),
		SofficePath:          r.str("SOFFICE_PATH", ""),
		LogLevel:             strings.ToLower(r.str("LOG_LEVEL", "info")),
		ShutdownTimeout:      r.duration("SHUTDOWN_TIMEOUT", 30*time.Second),
		MetricsAddr:          r.str("METRICS_ADDR", "127.0.0.1:9090"),
		PprofAddr:            r.addr("PPROF_ADDR", ""),
		SignInLimit:          r.rule("SIGNIN_RATE_LIMIT", "20/1m"),
		AILimitTeacher:       r.rule("AI_RATE_LIMIT_TEACHER", "30/1m"),
		AILimitTeam:          r.rule("AI_RATE_LIMIT_TEAM", "2000/24h"),
		StudentLimitLink:     r.rule("STUDENT_RATE_LIMIT_LINK", "300/1h"),
		StudentLimitAddr:     r.rule("STUDENT_RATE_LIMIT_ADDR", "200/10m"),
		SMTPURL:              r.str("SMTP_URL", ""),
		SMTPFrom:             r.str("SMTP_FROM", ""),
		SMTPPerTeamPerMinute: r.countOr("SMTP_PER_TEAM_PER_MINUTE", release.DefaultPerTeamPerMinute),
		// the AI budget's tokens, prompt and answer together
		AITokenLimitTeacher: r.rule("AI_TOKEN_LIMIT_TEACHER", "2000000/24h"),
		AITokenLimitTeam:    r.rule("AI_TOKEN_LIMIT_TEAM", "20000000/24h"),

		StudentLinkGrowth:     r.countOr("STUDENT_RATE_LIMIT_LINK_GROWTH", 25),
		StudentLinkMax:        r.countOr("STUDENT_RATE_LIMIT_LINK_MAX", 3000),
		StudentLimitSubmitter: r.rule("STUDENT_RATE_LIMIT_SUBMITTER", "100/1h"),
		StudentLimitStudent:   r.rule("STUDENT_RATE_LIMIT_STUDENT", "10/1h"),

		AuthBasePath:         strings.TrimRight(r.str("AUTH_BASE_PATH", "/api/auth"), "/"),
		SessionMaxAge:        r.duration("SESSION_MAX_AGE", 30*24*time.Hour),
		SessionUpdateAge:     r.duration("SESSION_UPDATE_AGE", 24*time.Hour),
		InviteLinkTTL:        r.duration("INVITE_LINK_TTL", 7*24*time.Hour),
		DevSignIn:            r.boolean("DEV_SIGNIN", false),
		LTIAllowInsecureURLs: r.boolean("LTI_ALLOW_INSECURE_URLS", false),
		GoogleClientID:       r.str("GOOGLE_CLIENT_ID", ""),
		GoogleClientSecret:   r.str("GOOGLE_CLIENT_SECRET", ""),
		GoogleIssuer:         strings.TrimRight(r.str("GOOGLE_ISSUER", "https://accounts.google.com"), "/"),
		OIDCIssuer:           strings.TrimRight(r.str("OIDC_ISSUER", ""), "/"),
		OIDCClientID:         r.str("OIDC_CLIENT_ID", ""),
		OIDCClientSecret:     r.str("OIDC_CLIENT_SECRET", ""),
		OIDCName:             r.str("OIDC_NAME", "Single sign-on"),

		GoogleClassroomEnabled: r.boolean("GOOGLE_CLASSROOM_ENABLED", true),
		GoogleAPIBaseURL:       strings.TrimRight(r.str("GOOGLE_API_BASE_URL", ""), "/"),
	}
	for _, p := range strings.Split(r.str("TRUSTED_PROXIES", ""), ",") {
		if p = strings.TrimSpace(p); p != "" {
			_, _, cidrErr := net.ParseCIDR(p)
			r.check(net.ParseIP(p) != nil || cidrErr == nil, "TRUSTED_PROXIES: %q is not an IP address or CIDR", p)
			c.TrustedProxies = append(c.TrustedProxies, p)
		}
	}
	for _, e := range strings.Split(r.str("OPERATOR_EMAILS", ""), ",") {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			c.OperatorEmails = append(c.OperatorEmails, e)
		}
	}

	r.check(c.Env == "development" || c.Env == "production", "APP_ENV: %q must be development or production", c.Env)
	r.check(c.DatabaseURL != "", "DATABASE_URL: required (e.g. postgres://user@localhost:5432/markwell)")
	r.check(len(c.SecretKey) >= 32, "SECRET_KEY: required, at least 32 characters (e.g. the output of `openssl rand -hex 32`)")
	if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		r.errs = append(r.errs, fmt.Errorf("PUBLIC_URL: %q must be an absolute http(s) URL", c.PublicURL))
	}
	if u, err := url.Parse(c.LLMBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		r.errs = append(r.errs, fmt.Errorf("LLM_BASE_URL: %q must be an absolute http(s) URL", c.LLMBaseURL))
	}
	if c.S3Endpoint != "" {
		u, err := url.Parse(c.S3Endpoint)
		r.check(err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "", "S3_ENDPOINT: %q must be an absolute http(s) URL", c.S3Endpoint)
	}
	r.check((c.S3AccessKeyID == "") == (c.S3SecretAccessKey == ""), "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither")
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		r.errs = append(r.errs, fmt.Errorf("LOG_LEVEL: %q must be debug, info, warn or error", c.LogLevel))
	}
	r.check(c.JobRescueAfter > c.JobTimeout, "JOB_RESCUE_AFTER: must be longer than JOB_TIMEOUT (%s)", c.JobTimeout)
	// An upload URL must not outlive the upload's record: a PUT after the
	// clean-up would store a file nothing knows of.
	r.check(c.SignedURLTTL < files.UnsubmittedUploadAge, "SIGNED_URL_TTL: must be shorter than %s, after which student uploads never submitted are deleted", files.UnsubmittedUploadAge)
	r.check(c.StudentLinkMax == 0 || c.StudentLinkMax >= c.StudentLimitLink.Limit,
		"STUDENT_RATE_LIMIT_LINK_MAX: must be 0 (no cap) or at least the count of STUDENT_RATE_LIMIT_LINK (%d)", c.StudentLimitLink.Limit)
	if _, err := ParseQueues(c.WorkerQueues); err != nil {
		r.errs = append(r.errs, fmt.Errorf("WORKER_QUEUES: %w", err))
	}
	if _, err := release.ParseSMTP(c.SMTPURL, c.SMTPFrom); err != nil {
		r.errs = append(r.errs, err)
	}
	r.checkModelPrices(&c)
	r.checkAuth(&c)
	if len(r.errs) > 0 {
		return c, fmt.Errorf("invalid configuration:\n  %w", joinLines(r.errs))
	}
	return c, nil
}

// checkModelPrices makes sure a price table, once given, prices every
// configured model, so no result's cost is silently 0.
func (r *reader) checkModelPrices(c *Config) {
	if len(c.LLMPrices) == 0 {
		return
	}
	for _, m := range []struct{ key, model string }{
		{"LLM_MODEL", c.LLMModel}, {"LLM_VISION_MODEL", c.LLMVisionModel}, {"LLM_SUMMARY_MODEL", c.LLMSummaryModel},
	} {
		if _, ok := c.LLMPrices.Lookup(m.model); m.model != "" && !ok {
			r.errs = append(r.errs, fmt.Errorf("LLM_PRICES: no price for %s %q (add %s=prompt/completion or prompt/cached/completion in US dollars per million tokens; 0/0 for a free model)", m.key, m.model, m.model))
		}
	}
}

var validBasePath = regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`)

// checkAuth validates the sign-in settings.
func (r *reader) checkAuth(c *Config) {
	r.check(validBasePath.MatchString(c.AuthBasePath) && !strings.HasPrefix(c.AuthBasePath+"/", "/api/v1/"),
		"AUTH_BASE_PATH: %q must be a path such as /api/auth (not / and not under /api/v1)", c.AuthBasePath)
	r.check(c.SessionUpdateAge < c.SessionMaxAge, "SESSION_UPDATE_AGE: must be shorter than SESSION_MAX_AGE (%s)", c.SessionMaxAge)
	r.check(c.InviteLinkTTL >= time.Minute && c.InviteLinkTTL <= 90*24*time.Hour, "INVITE_LINK_TTL: must be between 1m and 2160h (90 days), e.g. 168h")
	r.check((c.GoogleClientID == "") == (c.GoogleClientSecret == ""), "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither")
	r.issuer("GOOGLE_ISSUER", c.GoogleIssuer, c.Production())
	if c.GoogleAPIBaseURL != "" {
		r.issuer("GOOGLE_API_BASE_URL", c.GoogleAPIBaseURL, c.Production())
	}
	if c.OIDCIssuer != "" || c.OIDCClientID != "" || c.OIDCClientSecret != "" {
		r.check(c.OIDCIssuer != "", "OIDC_ISSUER: required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set (e.g. https://login.microsoftonline.com/{tenant}/v2.0)")
		r.check(c.OIDCClientID != "", "OIDC_CLIENT_ID: required for the OIDC provider (set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together)")
		r.check(c.OIDCClientSecret != "", "OIDC_CLIENT_SECRET: required for the OIDC provider (set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together)")
		if c.OIDCIssuer != "" {
			r.issuer("OIDC_ISSUER", c.OIDCIssuer, c.Production())
		}
	}
}

// issuer checks an OpenID Connect issuer URL: absolute, without query or
// fragment, and https in production unless it is on this machine.
func (r *reader) issuer(key, v string, production bool) {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		r.errs = append(r.errs, fmt.Errorf("%s: %q must be an absolute http(s) URL without query or fragment", key, v))
		return
	}
	local := u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1"
	r.check(!production || u.Scheme == "https" || local, "%s: %q must use https in production", key, v)
}

// SignInProviders names the sign-in providers the configuration turns on.
func (c Config) SignInProviders() []string {
	var out []string
	if c.GoogleClientID != "" {
		out = append(out, "google")
	}
	if c.OIDCIssuer != "" {
		out = append(out, "oidc")
	}
	if c.DevSignIn {
		out = append(out, "credentials")
	}
	return out
}

func joinLines(errs []error) error {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return errors.New(strings.Join(lines, "\n  "))
}

// KnownQueues are the queues workers can run.
var KnownQueues = []string{"default", "extract", "ocr", "ai"}

// ParseQueues parses "name=concurrency,…" into a map, refusing unknown
// queue names and non-positive widths.
func ParseQueues(spec string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, width, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want name=concurrency, e.g. ai=64", part)
		}
		name = strings.TrimSpace(name)
		known := false
		for _, q := range KnownQueues {
			known = known || q == name
		}
		if !known {
			return nil, fmt.Errorf("%q: unknown queue (known: %s)", name, strings.Join(KnownQueues, ", "))
		}
		n, err := strconv.Atoi(strings.TrimSpace(width))
		if err != nil || n < 1 || n > 10000 {
			return nil, fmt.Errorf("%q: concurrency must be a whole number from 1 to 10000", part)
		}
		out[name] = n
	}
	if len(out) == 0 {
		return nil, errors.New("no queues given")
	}
	return out, nil
}

// ChangesListen is the connection string the API listens for changes on,
// "" for none: CHANGES_LISTEN_URL, "off" for none; unset, DATABASE_URL,
// unless JOBS_POLL_ONLY says that goes through a transaction-pooling
// PgBouncer, where LISTEN does not work (set CHANGES_LISTEN_URL to the
// database's own address there).
func (c Config) ChangesListen() string {
	switch {
	case c.ChangesListenURL == "off":
		return ""
	case c.ChangesListenURL != "":
		return c.ChangesListenURL
	case c.JobsPollOnly:
		return ""
	}
	return c.DatabaseURL
}
