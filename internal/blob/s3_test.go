package blob

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/require"
)

// versitygwVersion is the S3 gateway the integration test runs; the Makefile pre-installs
// the same version into .data/bin.
const versitygwVersion = "v1.8.0"

const (
	testBucket    = "markwell-test"
	testAccessKey = "markwelltestaccess"
	testSecretKey = "markwelltestsecret0123456789"
)

type s3Bundle struct {
	store    *S3
	endpoint string
}

// setupS3 starts a versitygw S3 gateway on loopback over a POSIX directory and returns a
// store on a fresh bucket in it.
func setupS3(t *testing.T) s3Bundle {
	t.Helper()
	endpoint := startGateway(t, versitygwBin(t))
	store, err := NewS3(t.Context(), Config{
		S3Bucket:       testBucket,
		S3Endpoint:     endpoint,
		S3AccessKey:    testAccessKey,
		S3SecretKey:    testSecretKey,
		MaxUploadBytes: testMaxUpload,
	})
	require.NoError(t, err)
	_, err = store.client.CreateBucket(t.Context(), &s3.CreateBucketInput{Bucket: &store.bucket})
	require.NoError(t, err)
	return s3Bundle{store: store, endpoint: endpoint}
}

func TestS3Gateway(t *testing.T) {
	t.Parallel()
	b := setupS3(t)

	t.Run("presigned put then get", func(t *testing.T) {
		t.Parallel()
		key, err := NewKey("chats/", "essay one.pdf")
		require.NoError(t, err)
		body := []byte("%PDF-1.7 pretend")

		putURL, err := b.store.PresignPut(t.Context(), key, "application/pdf", int64(len(body)), time.Minute)
		require.NoError(t, err)
		fileURL, _, _ := strings.Cut(putURL, "?")
		require.Equal(t, b.endpoint+"/"+testBucket+"/"+key, fileURL)
		require.Equal(t, b.store.FileURL(key), fileURL)
		gotKey, err := b.store.KeyFromURL(putURL)
		require.NoError(t, err)
		require.Equal(t, key, gotKey)

		resp, respBody := do(t, http.MethodPut, putURL, "application/pdf", bytes.NewReader(body))
		require.Equal(t, http.StatusOK, resp.StatusCode, string(respBody))

		getURL, err := b.store.PresignGet(t.Context(), key, time.Minute)
		require.NoError(t, err)
		resp, got := do(t, http.MethodGet, getURL, "", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(got))
		require.Equal(t, body, got)
		require.Equal(t, "application/pdf", resp.Header.Get("Content-Type"))
	})

	t.Run("a signed download is saved under the name asked", func(t *testing.T) {
		t.Parallel()
		key, err := NewKey("assignments/a/submissions/", "scan.png")
		require.NoError(t, err)
		require.NoError(t, b.store.Put(t.Context(), key, strings.NewReader("png bytes"), 9, "image/png"))

		url, err := b.store.PresignDownload(t.Context(), key, "Ada Lovelace.png", time.Minute)
		require.NoError(t, err)
		resp, got := do(t, http.MethodGet, url, "", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(got))
		require.Equal(t, "png bytes", string(got))
		require.Equal(t, `attachment; filename="Ada Lovelace.png"`, resp.Header.Get("Content-Disposition"))

		_, err = b.store.PresignDownload(t.Context(), key, "../evil\r\n.png", time.Minute)
		require.Error(t, err, "a name with a path or a line break is refused")
	})

	t.Run("refuses tampered urls", func(t *testing.T) {
		t.Parallel()
		key, err := NewKey("chats/", "secret.txt")
		require.NoError(t, err)
		other, err := NewKey("chats/", "other.txt")
		require.NoError(t, err)
		require.NoError(t, b.store.Put(t.Context(), key, strings.NewReader("secret"), 6, "text/plain"))
		require.NoError(t, b.store.Put(t.Context(), other, strings.NewReader("other"), 5, "text/plain"))

		getURL, err := b.store.PresignGet(t.Context(), key, time.Minute)
		require.NoError(t, err)
		sig := strings.Index(getURL, "X-Amz-Signature=") + len("X-Amz-Signature=")
		resp, respBody := do(t, http.MethodGet, changeDigit(getURL, sig), "", nil)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, string(respBody))

		resp, respBody = do(t, http.MethodGet, strings.Replace(getURL, key, other, 1), "", nil)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, string(respBody))

		resp, respBody = do(t, http.MethodPut, getURL, "text/plain", strings.NewReader("overwrite"))
		require.Equal(t, http.StatusForbidden, resp.StatusCode, string(respBody))

		putURL, err := b.store.PresignPut(t.Context(), key, "application/pdf", 8, time.Minute)
		require.NoError(t, err)
		resp, respBody = do(t, http.MethodPut, putURL, "text/html", strings.NewReader("<script>"))
		require.Equal(t, http.StatusForbidden, resp.StatusCode, string(respBody))

		resp, respBody = do(t, http.MethodGet, b.store.FileURL(key), "", nil)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, string(respBody))
	})

	t.Run("the bucket enforces the signed size", func(t *testing.T) {
		t.Parallel()
		key, err := NewKey("chats/", "notes.txt")
		require.NoError(t, err)
		const size = 10
		putURL, err := b.store.PresignPut(t.Context(), key, "text/plain", size, time.Minute)
		require.NoError(t, err)
		require.Contains(t, putURL, "content-length", "Content-Length is among the signed headers")
		body := bytes.Repeat([]byte("n"), testMaxUpload+1)

		for _, n := range []int{size + 1, testMaxUpload + 1, size - 1} {
			resp, respBody := do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(body[:n]))
			require.Equal(t, http.StatusForbidden, resp.StatusCode, "%d bytes: %s", n, respBody)
		}
		_, err = b.store.Get(t.Context(), key)
		require.ErrorIs(t, err, ErrNotFound, "nothing was stored")

		resp, respBody := do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(body[:size]))
		require.Equal(t, http.StatusOK, resp.StatusCode, string(respBody))

		// No size, or one over the limit, is never signed: the bucket could not refuse it.
		_, err = b.store.PresignPut(t.Context(), key, "text/plain", UnknownSize, time.Minute)
		require.ErrorIs(t, err, ErrSizeRequired)
		for _, bad := range []int64{0, -2, testMaxUpload + 1} {
			_, err = b.store.PresignPut(t.Context(), key, "text/plain", bad, time.Minute)
			require.ErrorIs(t, err, ErrInvalidSize, bad)
		}
		require.Equal(t, int64(testMaxUpload), b.store.MaxUploadBytes())
	})

	t.Run("a signed upload writes once", func(t *testing.T) {
		t.Parallel()
		// A folder of its own: the gateway's POSIX backend removes a deleted object's empty
		// folders, which raced this upload when "put get delete" (in parallel) used the same one.
		key, err := NewKey("assignments/1b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/student/", "essay.txt")
		require.NoError(t, err)
		first, second := []byte("the essay that was graded"), []byte("a different essay text!!!")
		putURL, err := b.store.PresignPut(t.Context(), key, "text/plain", int64(len(first)), 15*time.Minute)
		require.NoError(t, err)

		// If-None-Match is signed: a PUT without it is refused before anything is stored.
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, putURL, bytes.NewReader(first))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/plain")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusForbidden, resp.StatusCode)

		resp, respBody := do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(first))
		require.Equal(t, http.StatusOK, resp.StatusCode, string(respBody))
		// The same URL, still valid: the bucket refuses to replace the object.
		resp, respBody = do(t, http.MethodPut, putURL, "text/plain", bytes.NewReader(second))
		require.Equal(t, http.StatusPreconditionFailed, resp.StatusCode, string(respBody))

		r, err := b.store.Get(t.Context(), key)
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		require.NoError(t, r.Close())
		require.Equal(t, first, got, "the teacher downloads the bytes that were graded")
	})

	t.Run("put get delete", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		key, err := NewKey("assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/", "essay.txt")
		require.NoError(t, err)

		_, err = b.store.Get(ctx, key)
		require.ErrorIs(t, err, ErrNotFound)

		// A reader that cannot seek, as a worker streaming a generated file would pass.
		body := bytes.Repeat([]byte("z"), 3<<20)
		require.NoError(t, b.store.Put(ctx, key, io.MultiReader(bytes.NewReader(body)), int64(len(body)), "text/plain"))
		r, err := b.store.Get(ctx, key)
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		require.NoError(t, r.Close())
		require.Equal(t, body, got)

		require.NoError(t, b.store.Delete(ctx, key))
		_, err = b.store.Get(ctx, key)
		require.ErrorIs(t, err, ErrNotFound)
	})

	t.Run("stat and delete prefix", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		const asg = "assignments/2c6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/"
		var keys []string
		for i := range 3 {
			key, err := NewKey(asg+"submissions/", fmt.Sprintf("essay%d.txt", i))
			require.NoError(t, err)
			require.NoError(t, b.store.Put(ctx, key, strings.NewReader("essay"), 5, "text/plain"))
			keys = append(keys, key)
		}
		other, err := NewKey("assignments/3c6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/submissions/", "keep.txt")
		require.NoError(t, err)
		require.NoError(t, b.store.Put(ctx, other, strings.NewReader("keep"), 4, "text/plain"))

		info, err := b.store.Stat(ctx, keys[0])
		require.NoError(t, err)
		require.Equal(t, Info{Size: 5, ContentType: "text/plain"}, info)
		_, err = b.store.Stat(ctx, asg+"submissions/missing.txt")
		require.ErrorIs(t, err, ErrNotFound)
		require.ErrorIs(t, b.store.DeletePrefix(ctx, "assignments/"), ErrInvalidKey)

		require.NoError(t, b.store.DeletePrefix(ctx, asg))
		for _, key := range keys {
			_, err := b.store.Stat(ctx, key)
			require.ErrorIs(t, err, ErrNotFound, key)
		}
		_, err = b.store.Stat(ctx, other)
		require.NoError(t, err, "another folder stays")
		require.NoError(t, b.store.DeletePrefix(ctx, asg), "an empty folder is fine")
	})

	t.Run("key from url", func(t *testing.T) {
		t.Parallel()
		host := strings.TrimPrefix(b.endpoint, "http://")
		key, err := b.store.KeyFromURL(b.endpoint + "/" + testBucket + "/public/a.png?X-Amz-Signature=00")
		require.NoError(t, err)
		require.Equal(t, "public/a.png", key)
		for _, foreign := range []string{
			"http://" + host + "/other-bucket/public/a.png",
			"http://" + host + "/" + testBucket + "x/public/a.png",
			"http://" + host + "/" + testBucket + "/../other-bucket/a.png",
			"http://" + host + "/" + testBucket + "/public%2Fa.png",
			"https://" + host + "/" + testBucket + "/public/a.png",
			"http://" + testBucket + "." + host + "/public/a.png",
			"http://169.254.169.254/latest/meta-data/",
		} {
			_, err := b.store.KeyFromURL(foreign)
			require.ErrorIs(t, err, ErrForeignURL, foreign)
		}
	})
}

func TestS3AddressesAWS(t *testing.T) {
	t.Parallel()
	blob, handler, err := New(t.Context(), Config{
		S3Bucket:    "markwell-files",
		S3Region:    "eu-west-1",
		S3AccessKey: "AKIDEXAMPLE",
		S3SecretKey: "secret",
	})
	require.NoError(t, err)
	require.Nil(t, handler)
	store, ok := blob.(*S3)
	require.True(t, ok)

	const key = "chats/0123456789abcdef-a.pdf"
	virtual := "https://markwell-files.s3.eu-west-1.amazonaws.com/" + key
	require.Equal(t, virtual, store.FileURL(key))

	putURL, err := store.PresignPut(t.Context(), key, "application/pdf", 1234, time.Minute)
	require.NoError(t, err)
	fileURL, query, _ := strings.Cut(putURL, "?")
	require.Equal(t, virtual, fileURL)
	q, err := url.ParseQuery(query)
	require.NoError(t, err)
	require.Equal(t, "content-length;content-type;host;if-none-match", q.Get("X-Amz-SignedHeaders"))
	require.Equal(t, DefaultMaxUploadBytes, store.MaxUploadBytes())

	for _, ok := range []string{virtual, virtual + "?X-Amz-Signature=00", "https://s3.eu-west-1.amazonaws.com/markwell-files/" + key} {
		got, err := store.KeyFromURL(ok)
		require.NoError(t, err, ok)
		require.Equal(t, key, got)
	}
	for _, foreign := range []string{
		"http://markwell-files.s3.eu-west-1.amazonaws.com/" + key,
		"https://other.s3.eu-west-1.amazonaws.com/" + key,
		"https://markwell-files.s3.us-east-1.amazonaws.com/" + key,
		"https://s3.eu-west-1.amazonaws.com/other/" + key,
		"https://s3.eu-west-1.amazonaws.com/markwell-files/../other/" + key,
		"https://markwell-files.s3.eu-west-1.amazonaws.com.evil.example/" + key,
	} {
		_, err := store.KeyFromURL(foreign)
		require.ErrorIs(t, err, ErrForeignURL, foreign)
	}
}

func TestNewS3Config(t *testing.T) {
	t.Parallel()
	_, err := NewS3(t.Context(), Config{S3Bucket: "b", S3Region: "eu-west-1", S3AccessKey: "only-access"})
	require.Error(t, err)
	_, err = NewS3(t.Context(), Config{S3Region: "eu-west-1"})
	require.Error(t, err)
}

// versitygwBin finds the gateway binary: $VERSITYGW_BIN, else <repo>/.data/bin/versitygw,
// which it installs at versitygwVersion when missing. A failed install fails the test:
// a skipped integration test proves nothing.
func versitygwBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("VERSITYGW_BIN"); bin != "" {
		return bin
	}
	binDir := filepath.Join(repoRoot(t), ".data", "bin")
	bin := filepath.Join(binDir, "versitygw")
	require.NoError(t, os.MkdirAll(binDir, 0o755))

	// Packages test in parallel processes: one installs while the others wait, and none
	// sees a half-written binary.
	lock, err := os.OpenFile(filepath.Join(binDir, ".versitygw.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	require.NoError(t, err)
	defer lock.Close()
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_EX))
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
	if _, err := os.Stat(bin); err == nil {
		return bin
	}

	cmd := exec.CommandContext(t.Context(), "go", "install", "github.com/versity/versitygw/cmd/versitygw@"+versitygwVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+binDir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "install versitygw %s: %s", versitygwVersion, out)
	return bin
}

// repoRoot is the nearest directory above the test's working directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "go.mod not found")
		dir = parent
	}
}

// startGateway runs versitygw on a free loopback port with the test's root credentials
// and returns its endpoint once it accepts connections. It retries on a new port when
// another process took the port between choosing and binding it.
func startGateway(t *testing.T, bin string) string {
	t.Helper()
	var lastErr error
	for range 3 {
		endpoint, err := tryStartGateway(t, bin)
		if err == nil {
			return endpoint
		}
		lastErr = err
	}
	require.NoError(t, lastErr, "start versitygw")
	return ""
}

func tryStartGateway(t *testing.T, bin string) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find free port: %w", err)
	}
	addr := l.Addr().String()
	l.Close()

	dir := t.TempDir()
	root, sidecar := filepath.Join(dir, "root"), filepath.Join(dir, "meta")
	for _, d := range []string{root, sidecar} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", err
		}
	}
	logPath := filepath.Join(dir, "versitygw.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer logFile.Close()
	// A sidecar directory keeps metadata out of extended attributes, which tmpfs may lack.
	cmd := exec.Command(bin, "--port", addr, "--access", testAccessKey, "--secret", testSecretKey,
		"--region", "us-east-1", "--quiet", "posix", "--sidecar", sidecar, root)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("run %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}

	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logPath)
			return "", fmt.Errorf("versitygw exited: %v: %s", err, log)
		default:
		}
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			t.Cleanup(stop)
			return "http://" + addr, nil
		}
		if time.Now().After(deadline) {
			stop()
			log, _ := os.ReadFile(logPath)
			return "", errors.Join(fmt.Errorf("versitygw not listening on %s after 30s: %s", addr, log), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
