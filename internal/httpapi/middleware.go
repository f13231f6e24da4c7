package httpapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/input"
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
				// An internal error: logged with the panic, the user sees
				// only that something went wrong (500).
				fail(c, fmt.Errorf("panic: %v", r))
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

// checkInput applies Markwell's one input rule (package input) to every
// JSON and form body sent to an /api route: a NUL or other control
// character in any string, or JSON nested past input.MaxDepth, is refused
// with 400 before a handler sees it. Bodies larger than maxJSONBody are
// left to the routes' own limits (413); a path that is no route is not
// read at all (404).
func checkInput() gin.HandlerFunc {
	return func(c *gin.Context) {
		req := c.Request
		if req.Body == nil || req.Body == http.NoBody || !strings.HasPrefix(req.URL.Path, "/api/") || c.FullPath() == "" {
			c.Next()
			return
		}
		mt, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
		var check func([]byte) error
		switch mt {
		case "application/json", "":
			check = input.CheckJSON
		case "application/x-www-form-urlencoded":
			check = input.CheckForm
		default:
			c.Next()
			return
		}
		head, err := io.ReadAll(io.LimitReader(req.Body, maxJSONBody+1))
		if err != nil {
			fail(c, apperr.Wrap(apperr.Invalid, "Request body could not be read", err))
			return
		}
		req.Body = readCloser{io.MultiReader(bytes.NewReader(head), req.Body), req.Body}
		if len(head) <= maxJSONBody {
			if err := check(head); err != nil {
				fail(c, err)
				return
			}
		}
		c.Next()
	}
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

// Close closes the original body.
func (r readCloser) Close() error { return r.c.Close() }
