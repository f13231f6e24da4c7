package httpapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/httpapi"
)

// Issue 17, point 1: the Word export must never tie up the API. Point 2: one stored image named many times is
// embedded once.

const downloadDocx = "/api/v1/chat/download-docx"

// postDocx posts {markdown: md} to base+downloadDocx with br's session under ctx, returning the status, the
// Retry-After header and the body.
func postDocx(ctx context.Context, t *testing.T, br *browser, base, md string) (int, string, []byte, error) {
	t.Helper()
	raw, err := json.Marshal(map[string]string{"markdown": md})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(ctx, "POST", base+downloadDocx, bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.CSRFHeader, br.csrfToken(t))
	res, err := br.client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Retry-After"), body, err
}

func bodyMessage(t *testing.T, body []byte) string {
	t.Helper()
	var got map[string]any
	require.NoError(t, json.Unmarshal(body, &got), string(body))
	return errMessage(got)
}

// TestDownloadDocxPathologicalBodiesAreRefusedAtOnce: the probe's bodies ran for 298 s and 500 s; they and
// their kin are now refused within 2 s, each with the limit's sentence. It measures wall time, so it does not
// run in parallel with the package's other tests (Go runs it before them).
func TestDownloadDocxPathologicalBodiesAreRefusedAtOnce(t *testing.T) {
	b := setup(t)
	b.signIn(t, "Ada", "ada.docxbounds@school.test")
	var nested strings.Builder
	for i := 0; i < 40; i++ {
		nested.WriteString(strings.Repeat("  ", i) + "- a\n")
	}
	marks := "The document has too many formatting marks (such as *, _, `, [ or <) in one paragraph to convert. " +
		"Split long paragraphs with blank lines, or remove some of the marks."
	deep := "The document nests quotes or lists more than 20 deep."
	for _, tc := range []struct{ name, md, want string }{
		{"[a]( × 120,000", strings.Repeat("[a](", 120_000), marks},
		{"> × 499,000", strings.Repeat(">", 499_000), deep},
		{"emphasis runs", strings.Repeat("*a_", 160_000), marks},
		{"[ × 500,000", strings.Repeat("[", 500_000), marks},
		{"backticks", strings.Repeat("`a", 250_000), marks},
		{"< × 500,000", strings.Repeat("<", 500_000), marks},
		{"nested lists", strings.Repeat("- * ", 120_000), deep},
		{"lists nested by indentation", nested.String(), deep},
		{"long table", "|a|b|\n|-|-|\n" + strings.Repeat("|x|y|\n", 80_000), "A table in the document has more than 1,000 rows."},
		{"| × 500,000", strings.Repeat("|", 500_000), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			status, _, body, err := postDocx(ctx, t, b.browser, b.srv.URL, tc.md)
			require.NoError(t, err)
			require.Less(t, time.Since(start), 2*time.Second)
			if tc.want == "" {
				require.Equal(t, 200, status, string(body))
				return
			}
			require.Equal(t, 400, status, string(body))
			require.Equal(t, tc.want, bodyMessage(t, body))
		})
	}
}

// stallingStore is the router's store, except that reading a chat file blocks until release is closed, whatever
// the request's context says: a store that is slow to answer.
type stallingStore struct {
	blob.Blob
	reads   atomic.Int32
	started chan struct{} // gets a value when a read begins
	release chan struct{}
}

func stall(t *testing.T, b *bundle) *stallingStore {
	s := &stallingStore{Blob: b.blobs, started: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(func() {
		select {
		case <-s.release:
		default:
			close(s.release)
		}
	})
	b.chats.Blob = s
	b.chats.Exports = chat.NewExportGate() // this test's own: the process's gate is shared by parallel tests
	return s
}

func (s *stallingStore) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if strings.HasPrefix(key, "chats/") {
		s.reads.Add(1)
		s.started <- struct{}{}
		<-s.release
	}
	return s.Blob.Get(ctx, key)
}

// pngFile is a w×w PNG of random pixels (it does not compress).
func pngFile(t *testing.T, w int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, w))
	_, _ = rand.Read(img.Pix)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// TestDownloadDocxStopsWhenTheClientLeaves: a client that goes away mid-export gets its handler back at once,
// although the export is stuck in a slow read; the export then stops at its next check (it reads no further
// image) and frees its slot.
func TestDownloadDocxStopsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.docxleaves@school.test")
	one := b.uploadFile(t, "/api/v1/s3-upload", "chats/one.png", "image/png", string(pngFile(t, 8)))
	two := b.uploadFile(t, "/api/v1/s3-upload", "chats/two.png", "image/png", string(pngFile(t, 9)))
	store := stall(t, b)

	// The same router, with a note of when its handler returns.
	returned := make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.router.ServeHTTP(w, r)
		if r.URL.Path == downloadDocx {
			returned <- time.Now()
		}
	}))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, _, err := postDocx(ctx, t, b.browser, srv.URL, "# Trip\n\n![one]("+one+") ![two]("+two+")")
		done <- err
	}()
	<-store.started
	left := time.Now()
	cancel()
	require.Error(t, <-done)
	select {
	case at := <-returned:
		require.Less(t, at.Sub(left), time.Second, "the handler returned when the client left")
	case <-time.After(3 * time.Second):
		t.Fatal("the handler is still running after the client left")
	}
	require.Equal(t, 1, b.chats.Exports.Running(), "the stuck read still holds its slot")

	close(store.release)
	require.Eventually(t, func() bool { return b.chats.Exports.Running() == 0 }, 2*time.Second, 5*time.Millisecond,
		"the export stops once the read returns")
	require.EqualValues(t, 1, store.reads.Load(), "the second image is never read")
}

// TestDownloadDocxBusyIs429: with ExportSlots exports running, another waits ExportWait and is refused with 429,
// Retry-After and a sentence; once they finish, exports go through again.
func TestDownloadDocxBusyIs429(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.docxbusy@school.test")
	img := b.uploadFile(t, "/api/v1/s3-upload", "chats/slow.png", "image/png", string(pngFile(t, 8)))
	store := stall(t, b)

	statuses := make(chan int, chat.ExportSlots)
	for range chat.ExportSlots {
		go func() {
			status, _, _, err := postDocx(context.Background(), t, b.browser, b.srv.URL, "![slow]("+img+")")
			if err != nil {
				status = -1
			}
			statuses <- status
		}()
		<-store.started
	}
	require.Equal(t, chat.ExportSlots, b.chats.Exports.Running())

	start := time.Now()
	status, retry, body, err := postDocx(context.Background(), t, b.browser, b.srv.URL, "# Just text")
	require.NoError(t, err)
	require.Equal(t, 429, status, string(body))
	require.Equal(t, "2", retry)
	require.Equal(t, chat.MsgExportBusy, bodyMessage(t, body))
	require.GreaterOrEqual(t, time.Since(start), chat.ExportWait, "it waited for a slot first")

	close(store.release)
	for range chat.ExportSlots {
		require.Equal(t, 200, <-statuses)
	}
	status, _, body, err = postDocx(context.Background(), t, b.browser, b.srv.URL, "# Just text")
	require.NoError(t, err)
	require.Equal(t, 200, status, string(body))
}

// TestDownloadDocxEmbedsAStoredImageOnce: the probe's 50 references to one stored PNG of about 1 MiB made a 52.5
// MB file; the file now holds the image once.
func TestDownloadDocxEmbedsAStoredImageOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.docxonce@school.test")
	img := pngFile(t, 500) // 1,000,000 pixel bytes: just under the test store's 1 MiB upload limit
	url := b.uploadFile(t, "/api/v1/s3-upload", "chats/chart.png", "image/png", string(img))

	status, _, doc, err := postDocx(context.Background(), t, b.browser, b.srv.URL, strings.Repeat("![chart]("+url+")\n\n", 50))
	require.NoError(t, err)
	require.Equal(t, 200, status, string(doc))
	require.Less(t, len(doc), len(img)+len(img)/5, "about one image, not fifty")
	z, err := zip.NewReader(bytes.NewReader(doc), int64(len(doc)))
	require.NoError(t, err)
	var media []string
	for _, f := range z.File {
		if strings.HasPrefix(f.Name, "word/media/") {
			media = append(media, f.Name)
		}
	}
	require.Equal(t, []string{"word/media/image1.png"}, media)
}
