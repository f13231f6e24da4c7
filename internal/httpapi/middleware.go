package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

const loggerKey = "logger"

// RequestIDHeader carries a request's id in and out.
const RequestIDHeader = "X-Request-ID"

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// requestContext gives each request an id (the caller's when well-formed)
// and a logger that carries it, and logs the request when it ends.
func requestContext(base *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if !validRequestID.MatchString(id) {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		c.Header(RequestIDHeader, id)
		l := base.With("request_id", id)
		c.Set(loggerKey, l)
		start := time.Now()
		c.Next()
		level := slog.LevelInfo
		if c.Writer.Status() >= 500 {
			level = slog.LevelError
		}
		if c.Request.URL.Path == "/healthz" || c.Request.URL.Path == "/metrics" {
			level = slog.LevelDebug
		}
		l.Log(c.Request.Context(), level, "request",
			"method", c.Request.Method, "route", c.FullPath(), "path", c.Request.URL.Path,
			"status", c.Writer.Status(), "duration_ms", time.Since(start).Milliseconds(), "bytes", c.Writer.Size())
	}
}

// recoverer turns a panic into a logged 500.
func recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				logger(c).Error("panic", "panic", r)
				c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": gin.H{"code": "internal", "message": "Something went wrong. Please try again."}})
			}
		}()
		c.Next()
	}
}

// httpMetrics records request latency by route.
type httpMetrics struct {
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "markwell_http_request_duration_seconds",
		Help:    "HTTP request latency by route, method and status.",
		Buckets: prometheus.DefBuckets,
	}, []string{"route", "method", "status"})}
	reg.MustRegister(m.duration)
	return m
}

func (m *httpMetrics) middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched" // keeps label cardinality bounded
		}
		m.duration.WithLabelValues(route, c.Request.Method, strconv.Itoa(c.Writer.Status())).Observe(time.Since(start).Seconds())
	}
}

// limitBody caps JSON request bodies.
func limitBody(n int64) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.Body != nil {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, n)
		}
		c.Next()
	}
}
