package blob

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const testMaxUpload = 1 << 10

type localBundle struct {
	local  *Local
	srv    *httptest.Server
	dir    string
	offset *atomic.Int64 // seconds added to the store's clock
}

// setup starts a Local store behind an httptest server, as the API mounts it.
func setup(t *testing.T) localBundle {
	t.Helper()
	b := localBundle{dir: t.TempDir(), offset: new(atomic.Int64)}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.local.ServeHTTP(w, r)
	}))
	t.Cleanup(b.srv.Close)
	local, err := NewLocal(Config{
		Dir:            b.dir,
		PublicURL:      b.srv.URL,
		Secret:         bytes.Repeat([]byte("k"), 32),
		MaxUploadBytes: testMaxUpload,
	})
	require.NoError(t, err)
	local.now = func() time.Time { return time.Now().Add(time.Duration(b.offset.Load()) * time.Second) }
	b.local = local
	return b
}

// do sends one request with an optional Content-Type and returns the response, body read.
// A PUT carries "If-None-Match: *", as the app's upload helper sends it.
func do(t *testing.T, method, url, contentType string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if method == http.MethodPut {
		req.Header.Set(WriteOnceHeader, WriteOnceValue)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// upload PUTs body to a fresh presigned URL for key, signed with its size, and requires
// 200.
func (b localBundle) upload(t *testing.T, key, contentType string, body []byte) {
	t.Helper()
	putURL, err := b.local.PresignPut(t.Context(), key, contentType, int64(len(body)), time.Minute)
	require.NoError(t, err)
	resp, _ := do(t, http.MethodPut, putURL, contentType, bytes.NewReader(body))
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// changeDigit replaces the hex digit at s[i] by another one, to tamper with a signature.
func changeDigit(s string, i int) string {
	d := byte('0')
	if s[i] == '0' {
		d = '1'
	}
	return s[:i] + string(d) + s[i+1:]
}

// files lists every regular file under the store's root.
func (b localBundle) files(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(b.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	return files
}

func TestLocalPresignedRoundTrip(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "notes.pdf")
	require.NoError(t, err)
	body := []byte("%PDF-1.7 pretend")

	putURL, err := b.local.PresignPut(t.Context(), key, "application/pdf", int64(len(body)), time.Minute)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(putURL, b.srv.URL+"/files/"+key+"?"), putURL)
	require.Contains(t, putURL, "X-Size=16")
	fileURL, _, _ := strings.Cut(putURL, "?")
	require.Equal(t, b.local.FileURL(key), fileURL)
	gotKey, err := b.local.KeyFromURL(fileURL)
	require.NoError(t, err)
	require.Equal(t, key, gotKey)

	resp, _ := do(t, http.MethodPut, putURL, "application/pdf", bytes.NewReader(body))
	require.Equal(t, http.StatusOK, resp.StatusCode)

	getURL, err := b.local.PresignGet(t.Context(), key, time.Minute)
	require.NoError(t, err)
	resp, got := do(t, http.MethodGet, getURL, "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, body, got)
	require.Equal(t, "application/pdf", resp.Header.Get("Content-Type"))
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "sandbox", resp.Header.Get("Content-Security-Policy"))
	require.Equal(t, "attachment; filename=notes.pdf", resp.Header.Get("Content-Disposition"), "a pdf downloads")
	require.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))

	r, err := b.local.Get(t.Context(), key)
	require.NoError(t, err)
	defer r.Close()
	got, err = io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, body, got)
}

func TestLocalDownloadDisposition(t *testing.T) {
	t.Parallel()
	b := setup(t)

	tests := []struct {
		contentType, disposition string
	}{
		{"image/png", ""},
		{"image/jpeg", ""},
		{"image/gif", ""},
		{"image/webp", ""},
		{"text/html; charset=utf-8", `attachment; filename=page.html`},
		{"image/svg+xml", `attachment; filename=page.html`},
		{"application/pdf", `attachment; filename=page.html`},
		{"text/plain", `attachment; filename=page.html`},
		{"application/vnd.openxmlformats-officedocument.wordprocessingml.document", `attachment; filename=page.html`},
	}
	for _, tt := range tests {
		key, err := NewKey("", "page.html")
		require.NoError(t, err)
		b.upload(t, key, tt.contentType, []byte("<script>alert(1)</script>"))
		getURL, err := b.local.PresignGet(t.Context(), key, time.Minute)
		require.NoError(t, err)
		resp, _ := do(t, http.MethodGet, getURL, "", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, tt.contentType, resp.Header.Get("Content-Type"))
		require.Equal(t, tt.disposition, resp.Header.Get("Content-Disposition"), tt.contentType)
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "sandbox", resp.Header.Get("Content-Security-Policy"), tt.contentType)
	}
}

func TestLocalRefusesBadSignatures(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "a.txt")
	require.NoError(t, err)
	other, err := NewKey("chats/", "b.txt")
	require.NoError(t, err)
	b.upload(t, key, "text/plain", []byte("hello"))
	b.upload(t, other, "text/plain", []byte("other"))

	putURL, err := b.local.PresignPut(t.Context(), key, "text/plain", UnknownSize, time.Minute)
	require.NoError(t, err)
	sizedURL, err := b.local.PresignPut(t.Context(), key, "text/plain", 4, time.Minute)
	require.NoError(t, err)
	getURL, err := b.local.PresignGet(t.Context(), key, time.Minute)
	require.NoError(t, err)

	tests := []struct {
		name, method, url, contentType string
	}{
		{"tampered get", http.MethodGet, changeDigit(getURL, len(getURL)-1), ""},
		{"tampered put", http.MethodPut, changeDigit(putURL, len(putURL)-1), "text/plain"},
		{"unsigned get", http.MethodGet, b.local.FileURL(key), ""},
		{"unsigned put", http.MethodPut, b.local.FileURL(key), "text/plain"},
		{"get signature used for put", http.MethodPut, getURL, "text/plain"},
		{"get signature with method changed to put", http.MethodPut, strings.Replace(getURL, "X-Method=GET", "X-Method=PUT", 1), "text/plain"},
		{"put signature used for get", http.MethodGet, putURL, ""},
		{"put with another content type", http.MethodPut, putURL, "text/html"},
		{"signature for another key", http.MethodGet, strings.Replace(getURL, key, other, 1), ""},
		{"expiry extended", http.MethodGet, strings.Replace(getURL, "X-Expires=", "X-Expires=9", 1), ""},
		{"signature not hex", http.MethodGet, strings.Replace(getURL, "X-Signature=", "X-Signature=zz", 1), ""},
		{"signed size removed", http.MethodPut, strings.Replace(sizedURL, "&X-Size=4", "", 1), "text/plain"},
		{"signed size changed", http.MethodPut, strings.Replace(sizedURL, "X-Size=4", "X-Size=5", 1), "text/plain"},
		{"size added to an unsized url", http.MethodPut, putURL + "&X-Size=4", "text/plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, _ := do(t, tt.method, tt.url, tt.contentType, strings.NewReader("evil"))
			require.Equal(t, http.StatusForbidden, resp.StatusCode)
		})
	}
	t.Cleanup(func() { // after the parallel subtests: nothing was overwritten
		r, err := b.local.Get(context.Background(), key)
		require.NoError(t, err)
		defer r.Close()
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		require.Equal(t, "hello", string(got))
	})
}

func TestLocalExpiredSignature(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "a.txt")
	require.NoError(t, err)
	b.upload(t, key, "text/plain", []byte("hello"))
	putURL, err := b.local.PresignPut(t.Context(), key, "text/plain", UnknownSize, time.Minute)
	require.NoError(t, err)
	getURL, err := b.local.PresignGet(t.Context(), key, time.Minute)
	require.NoError(t, err)

	b.offset.Store(61)

	resp, _ := do(t, http.MethodGet, getURL, "", nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	resp, _ = do(t, http.MethodPut, putURL, "text/plain", strings.NewReader("late"))
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestLocalOversizeUpload(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "big.bin")
	require.NoError(t, err)
	putURL, err := b.local.PresignPut(t.Context(), key, "application/octet-stream", UnknownSize, time.Minute)
	require.NoError(t, err)
	big := bytes.Repeat([]byte("x"), testMaxUpload+1)

	// Declared length over the limit: refused before reading.
	resp, _ := do(t, http.MethodPut, putURL, "application/octet-stream", bytes.NewReader(big))
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	// Unknown length (chunked): refused while reading.
	resp, _ = do(t, http.MethodPut, putURL, "application/octet-stream", io.MultiReader(bytes.NewReader(big)))
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	require.Empty(t, b.files(t), "no partial or temporary file")

	_, err = b.local.Get(t.Context(), key)
	require.ErrorIs(t, err, ErrNotFound)

	// Exactly the limit is fine.
	resp, _ = do(t, http.MethodPut, putURL, "application/octet-stream", bytes.NewReader(big[:testMaxUpload]))
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// A size over the limit is never signed.
	_, err = b.local.PresignPut(t.Context(), key, "application/octet-stream", testMaxUpload+1, time.Minute)
	require.ErrorIs(t, err, ErrInvalidSize)
	require.Equal(t, int64(testMaxUpload), b.local.MaxUploadBytes())
}

func TestLocalSignedSize(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "notes.txt")
	require.NoError(t, err)
	const size = 10
	putURL, err := b.local.PresignPut(t.Context(), key, "text/plain", size, time.Minute)
	require.NoError(t, err)
	body := bytes.Repeat([]byte("n"), size+1)

	// A Content-Length other than the signed one is refused before reading, as S3 does.
	resp, _ := do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(body))
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "longer than signed")
	resp, _ = do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(body[:size-1]))
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "shorter than signed")
	// Unknown length (chunked): refused while reading.
	resp, _ = do(t, http.MethodPut, putURL, "text/plain", io.MultiReader(bytes.NewReader(body)))
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "chunked, longer than signed")
	resp, _ = do(t, http.MethodPut, putURL, "text/plain", io.MultiReader(bytes.NewReader(body[:size-1])))
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, "chunked, shorter than signed")
	require.Empty(t, b.files(t), "no partial or temporary file")

	resp, _ = do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(body[:size]))
	require.Equal(t, http.StatusOK, resp.StatusCode)

	for _, bad := range []int64{0, -2, testMaxUpload + 1} {
		_, err = b.local.PresignPut(t.Context(), key, "text/plain", bad, time.Minute)
		require.ErrorIs(t, err, ErrInvalidSize, bad)
	}
}

func TestLocalHandlerStatuses(t *testing.T) {
	t.Parallel()
	b := setup(t)
	missing, err := NewKey("chats/", "missing.txt")
	require.NoError(t, err)
	getMissing, err := b.local.PresignGet(t.Context(), missing, time.Minute)
	require.NoError(t, err)
	public, err := NewKey("public/", "logo.png")
	require.NoError(t, err)
	b.upload(t, public, "image/png", []byte("png"))
	publicHTML, err := NewKey("public/", "page.html")
	require.NoError(t, err)
	b.upload(t, publicHTML, "text/html", []byte("<script>alert(1)</script>"))
	publicSVG, err := NewKey("public/", "logo.svg")
	require.NoError(t, err)
	b.upload(t, publicSVG, "image/svg+xml", []byte("<svg onload=alert(1)>"))
	publicUntyped, err := NewKey("public/", "logo.png")
	require.NoError(t, err)
	b.upload(t, publicUntyped, "image/png", []byte("png"))
	require.NoError(t, os.Remove(b.local.metaPath(publicUntyped)))

	tests := []struct {
		name, method, path string
		want               int
	}{
		{"missing file", http.MethodGet, strings.TrimPrefix(getMissing, b.srv.URL), http.StatusNotFound},
		{"post", http.MethodPost, "/files/chats/a.txt", http.StatusMethodNotAllowed},
		{"delete", http.MethodDelete, "/files/chats/a.txt", http.StatusMethodNotAllowed},
		{"options", http.MethodOptions, "/files/chats/a.txt", http.StatusMethodNotAllowed},
		{"traversal", http.MethodGet, "/files/chats/../../secret", http.StatusNotFound},
		{"encoded slash", http.MethodGet, "/files/chats%2Fa.txt", http.StatusNotFound},
		{"encoded dots", http.MethodGet, "/files/%2e%2e/a.txt", http.StatusNotFound},
		{"folder", http.MethodGet, "/files/chats", http.StatusForbidden},
		{"outside mount", http.MethodGet, "/other/a.txt", http.StatusNotFound},
		{"public without signature", http.MethodGet, "/files/" + public, http.StatusOK},
		{"public head without signature", http.MethodHead, "/files/" + public, http.StatusOK},
		{"public html without signature", http.MethodGet, "/files/" + publicHTML, http.StatusForbidden},
		{"public svg without signature", http.MethodGet, "/files/" + publicSVG, http.StatusForbidden},
		{"public file of unknown type without signature", http.MethodGet, "/files/" + publicUntyped, http.StatusForbidden},
		{"public put without signature", http.MethodPut, "/files/" + public, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, _ := do(t, tt.method, b.srv.URL+tt.path, "image/png", nil)
			require.Equal(t, tt.want, resp.StatusCode)
			require.Equal(t, "sandbox", resp.Header.Get("Content-Security-Policy"), "every answer is sandboxed")
			require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		})
	}

	// With a signature, the HTML under public/ is readable by the teacher who has one,
	// as a download.
	getURL, err := b.local.PresignGet(t.Context(), publicHTML, time.Minute)
	require.NoError(t, err)
	resp, _ := do(t, http.MethodGet, getURL, "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "attachment; filename=page.html", resp.Header.Get("Content-Disposition"))
}

func TestLocalKeyFromURL(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("chats/", "a.pdf")
	require.NoError(t, err)
	base := b.srv.URL + "/files/"
	host := strings.TrimPrefix(b.srv.URL, "http://")

	for _, ok := range []string{base + key, base + key + "?X-Expires=1&X-Signature=00", base + "public/x"} {
		got, err := b.local.KeyFromURL(ok)
		require.NoError(t, err, ok)
		require.Equal(t, strings.TrimPrefix(strings.Split(ok, "?")[0], base), got)
	}
	for _, foreign := range []string{
		"http://evil.example/files/" + key,
		"https://" + host + "/files/" + key,
		"http://" + host + "/other/" + key,
		"http://" + host + "/filesx/" + key,
		"http://" + host + "/" + key,
		"http://" + host + "/files/",
		"http://" + host + "/files/chats/../../etc/passwd",
		"http://" + host + "/files/../files/" + key,
		"http://" + host + "/files/chats%2F" + strings.TrimPrefix(key, "chats/"),
		"http://" + host + "/files/%2e%2e/" + key,
		"http://" + host + "/files/chats//a.pdf",
		"http://user@" + host + "/files/" + key,
		"http://" + host + "/files/" + key + "#frag",
		"http://" + host + ":1/files/" + key,
		"//" + host + "/files/" + key,
		"/files/" + key,
		"file:///etc/passwd",
		"http://169.254.169.254/latest/meta-data/",
		"",
		"::not a url",
	} {
		_, err := b.local.KeyFromURL(foreign)
		require.ErrorIs(t, err, ErrForeignURL, foreign)
	}
}

func TestLocalPutGetDelete(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	key, err := NewKey("assistants/", "summary.docx")
	require.NoError(t, err)

	_, err = b.local.Get(ctx, key)
	require.ErrorIs(t, err, ErrNotFound)

	// A body shorter than announced is refused and leaves nothing behind.
	err = b.local.Put(ctx, key, strings.NewReader("abc"), 10, "text/plain")
	require.ErrorIs(t, err, ErrInvalidSize)
	err = b.local.Put(ctx, key, strings.NewReader("abc"), 2, "text/plain")
	require.ErrorIs(t, err, ErrInvalidSize)
	require.Empty(t, b.files(t))

	// Put is not bound by the browser upload limit.
	body := bytes.Repeat([]byte("y"), testMaxUpload*3)
	require.NoError(t, b.local.Put(ctx, key, io.MultiReader(bytes.NewReader(body)), int64(len(body)), "text/plain"))
	r, err := b.local.Get(ctx, key)
	require.NoError(t, err)
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	require.Equal(t, body, got)

	require.NoError(t, b.local.Delete(ctx, key))
	require.NoError(t, b.local.Delete(ctx, key), "deleting twice is fine")
	_, err = b.local.Get(ctx, key)
	require.ErrorIs(t, err, ErrNotFound)

	require.ErrorIs(t, b.local.Put(ctx, "../x", strings.NewReader(""), 0, "text/plain"), ErrInvalidKey)
	require.ErrorIs(t, b.local.Put(ctx, "x", strings.NewReader(""), 0, ""), ErrInvalidContentType)
	require.ErrorIs(t, b.local.Put(ctx, "x", strings.NewReader(""), -1, "text/plain"), ErrInvalidSize)
	_, err = b.local.Get(ctx, "/etc/passwd")
	require.ErrorIs(t, err, ErrInvalidKey)
	_, err = b.local.PresignGet(ctx, "x", 0)
	require.ErrorIs(t, err, ErrInvalidTTL)
	_, err = b.local.PresignPut(ctx, "x", "text/plain", UnknownSize, MaxTTL+time.Second)
	require.ErrorIs(t, err, ErrInvalidTTL)
}

func TestNewLocalConfig(t *testing.T) {
	t.Parallel()
	secret := bytes.Repeat([]byte("k"), 32)

	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"valid", Config{PublicURL: "http://localhost:8080", Secret: secret}, true},
		{"trailing slash and prefix", Config{PublicURL: "https://example.com/app/", Secret: secret}, true},
		{"short secret", Config{PublicURL: "http://localhost:8080", Secret: secret[:31]}, false},
		{"no public url", Config{Secret: secret}, false},
		{"relative public url", Config{PublicURL: "/app", Secret: secret}, false},
		{"ftp public url", Config{PublicURL: "ftp://example.com", Secret: secret}, false},
		{"public url with query", Config{PublicURL: "http://example.com/?a=b", Secret: secret}, false},
		{"negative limit", Config{PublicURL: "http://localhost", Secret: secret, MaxUploadBytes: -1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.cfg.Dir = t.TempDir()
			blob, handler, err := New(t.Context(), tt.cfg)
			if !tt.ok {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.IsType(t, &Local{}, blob)
			require.Same(t, blob, handler)
			require.Equal(t, DefaultMaxUploadBytes, blob.(*Local).maxUpload)
		})
	}

	t.Run("path prefix", func(t *testing.T) {
		t.Parallel()
		l, err := NewLocal(Config{Dir: t.TempDir(), PublicURL: "https://example.com/app/", Secret: secret})
		require.NoError(t, err)
		require.Equal(t, "https://example.com/app/files/chats/a.pdf", l.FileURL("chats/a.pdf"))
		key, err := l.KeyFromURL("https://example.com/app/files/chats/a.pdf")
		require.NoError(t, err)
		require.Equal(t, "chats/a.pdf", key)
	})
}

func TestLocalStatAndDeletePrefix(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	const asg = "assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/"
	one, err := NewKey(asg+"submissions/", "one.pdf")
	require.NoError(t, err)
	two, err := NewKey(asg+"submissions/student/", "two.txt")
	require.NoError(t, err)
	other, err := NewKey("assignments/1b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/", "keep.txt")
	require.NoError(t, err)
	b.upload(t, one, "application/pdf", []byte("%PDF-1.7"))
	b.upload(t, two, "text/plain", []byte("hello"))
	b.upload(t, other, "text/plain", []byte("stay"))

	info, err := b.local.Stat(ctx, one)
	require.NoError(t, err)
	require.Equal(t, Info{Size: 8, ContentType: "application/pdf"}, info)
	_, err = b.local.Stat(ctx, asg+"submissions/missing.pdf")
	require.ErrorIs(t, err, ErrNotFound)
	_, err = b.local.Stat(ctx, asg+"submissions")
	require.ErrorIs(t, err, ErrNotFound, "a folder is not a file")
	_, err = b.local.Stat(ctx, "../etc/passwd")
	require.ErrorIs(t, err, ErrInvalidKey)

	for _, bad := range []string{"", "assignments/", "assignments", "assignments/x", "../x/", "a//", "/assignments/x/"} {
		require.ErrorIs(t, b.local.DeletePrefix(ctx, bad), ErrInvalidKey, bad)
	}
	require.NoError(t, b.local.DeletePrefix(ctx, asg))
	for _, key := range []string{one, two} {
		_, err := b.local.Stat(ctx, key)
		require.ErrorIs(t, err, ErrNotFound, key)
	}
	_, err = b.local.Stat(ctx, other)
	require.NoError(t, err, "another folder stays")
	require.NoError(t, b.local.DeletePrefix(ctx, asg), "an empty folder is fine")
	for _, f := range b.files(t) {
		require.NotContains(t, f, "0b6f4c2e", "no data or metadata is left")
	}
}

func TestLocalPresignDownloadSavesUnderItsName(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("", "photo.png")
	require.NoError(t, err)
	b.upload(t, key, "image/png", []byte("\x89PNG\r\n\x1a\nnot really"))

	u, err := b.local.PresignDownload(t.Context(), key, "Ada’s photo.png", time.Minute)
	require.NoError(t, err)
	resp, body := do(t, http.MethodGet, u, "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "\x89PNG\r\n\x1a\nnot really", string(body))
	// An image too downloads, under the name asked for (RFC 2231 for what is not ASCII).
	require.Equal(t, `attachment; filename*=utf-8''Ada%E2%80%99s%20photo.png`, resp.Header.Get("Content-Disposition"))

	// The name is signed: another name, or none, is refused.
	tampered := strings.Replace(u, "X-Filename=Ada", "X-Filename=Eve", 1)
	require.NotEqual(t, u, tampered)
	resp, _ = do(t, http.MethodGet, tampered, "", nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	resp, _ = do(t, http.MethodGet, u[:strings.Index(u, "&X-Filename=")], "", nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)

	for _, bad := range []string{"", "a/b.png", "line\nbreak.png", strings.Repeat("x", 256)} {
		_, err := b.local.PresignDownload(t.Context(), key, bad, time.Minute)
		require.ErrorIs(t, err, ErrInvalidFileName, bad)
	}
}

// cutReader sends part of a body, then fails as a browser's connection does when the page
// that uploads is reloaded or closed.
type cutReader struct{ sent bool }

func (c *cutReader) Read(p []byte) (int, error) {
	if c.sent {
		return 0, io.ErrUnexpectedEOF
	}
	c.sent = true
	return copy(p, "half a file"), nil
}

func TestLocalUploadCutOffByTheClient(t *testing.T) {
	t.Parallel()
	b := setup(t)
	key, err := NewKey("assignments/a/submissions/", "essay.pdf")
	require.NoError(t, err)
	putURL, err := b.local.PresignPut(t.Context(), key, "application/pdf", 100, time.Minute)
	require.NoError(t, err)
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPut, putURL, &cutReader{})
	req.ContentLength = 100
	req.Header.Set("Content-Type", "application/pdf")
	req.Header.Set(WriteOnceHeader, WriteOnceValue)
	rec := httptest.NewRecorder()
	b.local.ServeHTTP(rec, req)
	// The client's failure, not the server's: no 500 (an ERROR in the log) for a reload.
	require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
	require.Empty(t, b.files(t), "no partial or temporary file")
	// The same signed URL still uploads the whole file afterwards.
	resp, _ := do(t, http.MethodPut, putURL, "application/pdf", bytes.NewReader(bytes.Repeat([]byte("p"), 100)))
	require.Equal(t, http.StatusOK, resp.StatusCode)
}
