package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
)

// statusOf maps error codes to HTTP statuses; it is the only such map.
var statusOf = map[apperr.Code]int{
	apperr.Invalid:      http.StatusBadRequest,
	apperr.NotFound:     http.StatusNotFound,
	apperr.Forbidden:    http.StatusForbidden,
	apperr.Unauthorized: http.StatusUnauthorized,
	apperr.Conflict:     http.StatusConflict,
	apperr.TooLarge:     http.StatusRequestEntityTooLarge,
	apperr.RateLimited:  http.StatusTooManyRequests,
	apperr.Upstream:     http.StatusBadGateway,
	apperr.Internal:     http.StatusInternalServerError,
}

// statusClientClosed is nginx's 499: the client closed the request.
const statusClientClosed = 499

// ok writes the spec's success wrapper: {"data": …}.
func ok(c *gin.Context, data any) {
	b, err := json.Marshal(gin.H{"data": data})
	if err != nil {
		fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, b)
}

// writeJSON writes a JSON body with its length: sent in one piece, not
// chunked (net/http chunks a body past 2 KB whose length it was not told).
func writeJSON(c *gin.Context, status int, body []byte) {
	c.Header("Content-Length", strconv.Itoa(len(body)))
	c.Data(status, "application/json; charset=utf-8", body)
}

// fail writes {"error": {code, message}}, logging internal causes and never
// showing them. It is the one writer of error answers.
func fail(c *gin.Context, err error) {
	failWith(c, err, nil)
}

// failWith is fail with more top-level fields beside "error", for answers
// whose clients read them (NextAuth's client reads url from every auth
// answer, errors included).
func failWith(c *gin.Context, err error, extra gin.H) {
	if errors.Is(err, context.Canceled) && c.Request.Context().Err() != nil {
		// The client went away (a page navigated on); nothing failed.
		logger(c).Info("request abandoned by the client", "err", err)
		c.AbortWithStatus(statusClientClosed)
		return
	}
	e := apperr.From(err)
	status := statusOf[e.Code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if status >= 500 {
		logger(c).Error("request failed", "err", err)
	} else if e.Err != nil {
		logger(c).Info("request refused", "code", e.Code, "err", e.Err)
	}
	if e.RetryAfter > 0 {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
	}
	body := gin.H{"error": gin.H{"code": e.Code, "message": e.Message}}
	for k, v := range extra {
		if k != "error" {
			body[k] = v
		}
	}
	c.AbortWithStatusJSON(status, body)
}

// notFound answers 404 with apperr.ErrNotFound's body: the answer of unknown
// API paths, and of pages a caller may not know exist.
func notFound(c *gin.Context) {
	fail(c, apperr.ErrNotFound)
}

// bind decodes a JSON body, answering 400 with a clear message when it does
// not fit.
func bind(c *gin.Context, v any) bool {
	if err := c.ShouldBindJSON(v); err != nil {
		if errors.Is(err, errMalformedID) {
			fail(c, apperr.ErrNotFound)
			return false
		}
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(c, apperr.New(apperr.TooLarge, "Request body is too large"))
			return false
		}
		fail(c, apperr.Wrap(apperr.Invalid, "Request body must be valid JSON", err))
		return false
	}
	return true
}

func logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(loggerKey); ok {
		return l.(*slog.Logger)
	}
	return slog.Default()
}

// sendAttachment answers with a generated file (an export, a report, a
// list of links) as a download under name: never cached, never sniffed.
func sendAttachment(c *gin.Context, name, contentType string, body []byte) {
	c.Header("Content-Disposition", contentDisposition(name))
	c.Header("Cache-Control", "no-store")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Data(http.StatusOK, contentType, body)
}

// contentDisposition is an attachment header for name (RFC 6266):
// filename= with the name's ASCII letters (others as _), and filename*=
// with the name itself when it is not plain ASCII.
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	if ascii == name {
		return mime.FormatMediaType("attachment", map[string]string{"filename": name})
	}
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + url.PathEscape(name)
}
