// Package httpapi is Markwell's HTTP surface: the Gin router, one file per
// area, thin handlers that bind, call one service method and respond.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/migrate"
	"github.com/markwell/markwell/internal/modelcheck"
	"github.com/markwell/markwell/internal/ratelimit"
)

// maxJSONBody caps JSON request bodies; files go straight to storage.
const maxJSONBody = 4 << 20

// Deps is what the router serves.
type Deps struct {
	Config   config.Config
	Pool     *pgxpool.Pool
	Log      *slog.Logger
	Files    *files.Service
	Registry *prometheus.Registry
	// BlobHandler serves signed local file URLs; nil when files live in S3.
	BlobHandler http.Handler
	// JobsUI is the River UI handler, mounted at /admin/jobs for operators.
	JobsUI http.Handler
	// CurrentEmail reports the signed-in user's email, if any; nil means the
	// session's (see operatorEmail).
	CurrentEmail func(c *gin.Context) (string, bool)
	// Auth signs people in and keeps their sessions. Without it nobody is
	// signed in and every write is refused.
	Auth *auth.Service
	// Services back the signed-in routes.
	Services Services
	// Limiter keeps the rate limits' counts; nil turns every limit off.
	Limiter *ratelimit.Limiter
	// ModelCheck runs the provider check for operators
	// (/api/v1/operator/model-check); nil turns the route off.
	ModelCheck *modelcheck.Checker
}

// NewRouter builds the API's handler.
func NewRouter(d Deps) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := r.SetTrustedProxies(d.Config.TrustedProxies); err != nil {
		d.Log.Error("TRUSTED_PROXIES is not a list of IPs or CIDRs; trusting none", "err", err)
		_ = r.SetTrustedProxies(nil)
	}
	r.ContextWithFallback = true
	r.HandleMethodNotAllowed = false
	r.Use(requestContext(d.Log), recoverer(), securityHeaders(d.Config), checkInput())
	ah := newAuthHandlers(d)
	if d.Registry != nil {
		r.Use(newHTTPMetrics(d.Registry).middleware())
	}
	r.Use(ah.sessions())
	if d.CurrentEmail == nil {
		d.CurrentEmail = operatorEmail()
	}
	if d.Registry != nil {
		// On the app port only operators see the metrics; Prometheus scrapes
		// them at METRICS_ADDR (see MetricsHandler).
		r.GET("/metrics", operatorOnly(d), gin.WrapH(MetricsHandler(d.Registry)))
	}

	r.GET("/healthz", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"status": "ok"}) })
	r.GET("/readyz", readyz(d.Pool))

	if d.BlobHandler != nil {
		r.Any(blob.MountPath+"*key", gin.WrapH(d.BlobHandler))
	}
	if d.JobsUI != nil {
		r.Any("/admin/jobs", operatorOnly(d), gin.WrapH(d.JobsUI))
		r.Any("/admin/jobs/*path", operatorOnly(d), gin.WrapH(d.JobsUI))
	}

	if d.Auth != nil {
		ah.register(r)
	}

	v1 := r.Group("/api/v1", limitBody(maxJSONBody), ah.csrfProtect(), noteWrites(d.Services.Results))
	fh := &fileHandlers{svc: d.Files}
	v1.POST("/s3-upload", requireUser(), fh.upload(files.Teacher))
	(&studentHandlers{svc: d.Services.StudentLink}).registerStudent(v1)
	v1.GET("/app-config", appConfig(d.Config))
	v1.POST("/s3-public-asset-upload", requireUser(), fh.upload(files.PublicAsset))
	v1.POST("/getSignedURL", requireUser(), handle(fh.signedURL))
	registerModelCheck(v1, d)
	registerLTI(r, v1, d, ah)
	signedInRoutes(v1.Group("", signedInOrViewToken(d.Services)), d.Services, d.Auth)

	app := spa(d.Config.StaticDir, contentSecurityPolicy(d.Config, fileStoreOrigin(d)), ah.pageHead)
	if d.ModelCheck != nil {
		// The provider check's page is the app's, served to operators only.
		r.GET(ModelCheckPage, operatorOnly(d), app)
	}
	if d.Services.LTI != nil {
		r.GET(LTIPage, operatorOnly(d), app)
	}
	r.NoRoute(app)
	return r
}

func readyz(pool *pgxpool.Pool) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
		defer cancel()
		if err := pool.Ping(ctx); err != nil {
			logger(c).Warn("not ready: database", "err", err)
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "database": "unreachable"})
			return
		}
		current, err := migrate.Current(ctx, pool)
		if err != nil || !current {
			logger(c).Warn("not ready: migrations", "err", err, "current", current)
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "database": "ok", "migrations": "pending"})
			return
		}
		c.JSON(http.StatusOK, gin.H{"status": "ok", "database": "ok", "migrations": "current"})
	}
}

// operatorOnly lets operators through and answers 404 to everyone else, so
// the dashboard's existence is not revealed.
func operatorOnly(d Deps) gin.HandlerFunc {
	return func(c *gin.Context) {
		if d.CurrentEmail != nil {
			if email, ok := d.CurrentEmail(c); ok && d.Config.IsOperator(email) {
				c.Next()
				return
			}
		}
		notFound(c)
	}
}

// MetricsHandler serves reg's metrics in Prometheus's format.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// securityHeaders sets the headers every response carries; HSTS when the
// app is reached over https.
func securityHeaders(cfg config.Config) gin.HandlerFunc {
	hsts := strings.HasPrefix(cfg.PublicURL, "https://")
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		if hsts {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		c.Next()
	}
}

// appConfig tells the browser what it shows about this deployment: whether
// AI results come from the demo model, and whether released results can be
// emailed (SMTP is configured).
func appConfig(cfg config.Config) gin.HandlerFunc {
	email := cfg.EmailEnabled()
	return func(c *gin.Context) {
		ok(c, gin.H{"demoModel": cfg.DemoModel, "emailEnabled": email})
	}
}
