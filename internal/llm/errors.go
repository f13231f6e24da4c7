package llm

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrPermanent is wrapped by errors that will not go away on retry: a request
// the provider rejects (400, 401, 403, 404, 413, 422) or one Markwell cannot
// build. River workers cancel the job.
var ErrPermanent = errors.New("permanent model error")

// ErrBadOutput is wrapped by errors for answers that cannot be used: not JSON,
// not following the schema, cut off at the token limit, refused or empty. It
// is not permanent: another attempt may produce a good answer.
var ErrBadOutput = errors.New("unusable model output")

// DefaultRetryAfter is the wait assumed for a rate limit that names none.
const DefaultRetryAfter = 30 * time.Second

// RateLimitError reports a 429 from the provider. Workers snooze the job for
// RetryAfter.
type RateLimitError struct {
	// RetryAfter is the provider's Retry-After (or retry-after-ms), or
	// DefaultRetryAfter when it sent none.
	RetryAfter time.Duration
	// Message is the provider's explanation, if any.
	Message string
	err     error
}

// Error describes the rate limit.
func (e *RateLimitError) Error() string {
	msg := fmt.Sprintf("rate limited, retry after %s", e.RetryAfter)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Unwrap returns the provider's error.
func (e *RateLimitError) Unwrap() error { return e.err }

// IsPermanent reports whether err will not succeed on retry.
func IsPermanent(err error) bool { return errors.Is(err, ErrPermanent) }

// RetryAfter reports how long to wait when err is a rate limit.
func RetryAfter(err error) (time.Duration, bool) {
	var rl *RateLimitError
	if errors.As(err, &rl) {
		return rl.RetryAfter, true
	}
	return 0, false
}

// permanentStatus lists the HTTP statuses that retrying cannot fix.
var permanentStatus = map[int]bool{
	http.StatusBadRequest:            true,
	http.StatusUnauthorized:          true,
	http.StatusForbidden:             true,
	http.StatusNotFound:              true,
	http.StatusRequestEntityTooLarge: true,
	http.StatusUnprocessableEntity:   true,
}

// parseRetryAfter reads retry-after-ms, then Retry-After (seconds or an
// HTTP-date), falling back to DefaultRetryAfter.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0)
		}
	}
	return DefaultRetryAfter
}
