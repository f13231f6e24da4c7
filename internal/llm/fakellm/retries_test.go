package fakellm

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fencedRequest is a chat request whose submission is fenced with code, as
// package grading sends it.
func fencedRequest(t *testing.T, code, text string) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"model": DefaultModel,
		"messages": []any{
			map[string]any{"role": "system", "content": "Grade it.\nFence marker: " + code},
			map[string]any{"role": "user", "content": "<<<ASSIGNMENT-" + code + ">>>\n{}\n<<<END-ASSIGNMENT-" + code + ">>>\n" +
				"<<<SUBMISSION-" + code + ">>>\n" + text + "\n<<<END-SUBMISSION-" + code + ">>>"},
		},
	})
	require.NoError(t, err)
	return string(body)
}

func TestEarlyRetriesCountTheSameSubmissionSentBeforeItsRetryAfter(t *testing.T) {
	t.Parallel()
	wait := 300 * time.Millisecond
	b := setup(t, Options{RetryAfter: wait})
	essay := "Plants make sugar from light."

	b.srv.FailNext(FaultRateLimit, 1)
	status, _, _ := b.post(t, fencedRequest(t, "AAAAAAAA1", essay))
	require.Equal(t, http.StatusTooManyRequests, status)
	// Another essay is not a retry; the same essay under a new fence code is.
	status, _, _ = b.post(t, fencedRequest(t, "BBBBBBBB2", "Another essay entirely."))
	require.Equal(t, http.StatusOK, status)
	require.Zero(t, b.srv.Stats().EarlyRetries)
	status, _, _ = b.post(t, fencedRequest(t, "CCCCCCCC3", essay))
	require.Equal(t, http.StatusOK, status, "an early retry is still answered")
	require.Equal(t, int64(1), b.srv.Stats().EarlyRetries)

	time.Sleep(wait)
	b.post(t, fencedRequest(t, "DDDDDDDD4", essay))
	require.Equal(t, int64(1), b.srv.Stats().EarlyRetries, "a retry after the wait is on time")

	// Requests without fences are known by their whole user text.
	b.srv.FailNext(FaultRateLimit, 1)
	status, _, _ = b.post(t, hello)
	require.Equal(t, http.StatusTooManyRequests, status)
	b.post(t, hello)
	require.Equal(t, int64(2), b.srv.Stats().EarlyRetries)
}

func TestEarlyRetriesNeedARetryAfter(t *testing.T) {
	t.Parallel()
	b := setup(t, Options{RetryAfter: -1})
	b.srv.FailNext(FaultRateLimit, 1)
	status, header, _ := b.post(t, hello)
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Empty(t, header.Get("Retry-After"))
	b.post(t, hello)
	require.Zero(t, b.srv.Stats().EarlyRetries, "a 429 without Retry-After asks for no wait")
}
