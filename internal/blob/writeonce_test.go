package blob

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requireAlreadyUploaded requires a 412 answer carrying MsgAlreadyUploaded in the API's
// error shape, which the upload helper shows.
func requireAlreadyUploaded(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	require.Equal(t, http.StatusPreconditionFailed, resp.StatusCode, string(body))
	var answer struct {
		Error struct{ Code, Message string }
	}
	require.NoError(t, json.Unmarshal(body, &answer), string(body))
	require.Equal(t, "already_uploaded", answer.Error.Code)
	require.Equal(t, MsgAlreadyUploaded, answer.Error.Message)
}

// get reads key back through a signed GET.
func (b localBundle) get(t *testing.T, key string) (*http.Response, []byte) {
	t.Helper()
	getURL, err := b.local.PresignGet(t.Context(), key, time.Minute)
	require.NoError(t, err)
	return do(t, http.MethodGet, getURL, "", nil)
}

func TestLocalSignedUploadWritesOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/student/", "essay.txt")
	require.NoError(t, err)
	first, second := []byte("the essay that was graded"), []byte("a different essay text!!!")
	require.Len(t, second, len(first), "the same signed size")

	putURL, err := b.local.PresignPut(t.Context(), key, "text/plain", int64(len(first)), 15*time.Minute)
	require.NoError(t, err)
	resp, body := do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(first))
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))

	// The same URL, still valid, with or without If-None-Match: refused, file unchanged.
	resp, body = do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(second))
	requireAlreadyUploaded(t, resp, body)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, putURL, bytes.NewReader(second))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "text/plain")
	raw, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	rawBody, err := io.ReadAll(raw.Body)
	require.NoError(t, err)
	raw.Body.Close()
	requireAlreadyUploaded(t, raw, rawBody)

	// Nor does a fresh URL for the key replace it.
	again, err := b.local.PresignPut(t.Context(), key, "text/plain", int64(len(second)), time.Minute)
	require.NoError(t, err)
	resp, body = do(t, http.MethodPut, again, "text/plain", bytes.NewReader(second))
	requireAlreadyUploaded(t, resp, body)

	resp, got := b.get(t, key)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, first, got, "the teacher downloads the bytes that were graded")
	info, err := b.local.Stat(t.Context(), key)
	require.NoError(t, err)
	require.Equal(t, Info{Size: int64(len(first)), ContentType: "text/plain"}, info)
	require.Len(t, b.files(t), 2, "the bytes and their metadata; nothing left in tmp/")

	// Trusted server-side writers (a job writing page images again) still replace.
	require.NoError(t, b.local.Put(t.Context(), key, bytes.NewReader(second), int64(len(second)), "text/plain"))
	_, got = b.get(t, key)
	require.Equal(t, second, got)
}

func TestLocalRacingUploadsKeepOneFile(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "notes.txt")
	require.NoError(t, err)
	const racers = 8
	putURL, err := b.local.PresignPut(t.Context(), key, "text/plain", 10, time.Minute)
	require.NoError(t, err)

	statuses := make([]int, racers)
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, putURL, strings.NewReader(fmt.Sprintf("racer %03d!", i)))
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set("Content-Type", "text/plain")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}

	winner := -1
	for i, status := range statuses {
		if status == http.StatusOK {
			require.Equal(t, -1, winner, "exactly one upload is stored: %v", statuses)
			winner = i
			continue
		}
		require.Equal(t, http.StatusPreconditionFailed, status, "%v", statuses)
	}
	require.NotEqual(t, -1, winner, "one upload is stored: %v", statuses)
	_, got := b.get(t, key)
	require.Equal(t, fmt.Sprintf("racer %03d!", winner), string(got), "the stored file is the winner's")
	require.Len(t, b.files(t), 2, "nothing left in tmp/")
}
