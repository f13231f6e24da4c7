package blob

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Signed URL query parameters of Local.
const (
	paramExpires   = "X-Expires"
	paramMethod    = "X-Method"
	paramSignature = "X-Signature"
	paramSize      = "X-Size"
	// paramFilename names the file a signed download is saved as (PresignDownload).
	paramFilename = "X-Filename"
)

// Local keeps files on local disk and serves them through its own HTTP handler, mounted
// on MountPath, which accepts HMAC-signed URLs of the form
//
//	{PublicURL}/files/{key}?X-Expires={unix}&X-Method=PUT|GET[&X-Size={bytes}]&X-Signature={hex}
//
// The signature is HMAC-SHA256 over the method, key, expiry and, for PUT, the size (when
// known) and the content type the upload must be sent with, as S3 signs Content-Length
// and Content-Type. Files under "public/" whose stored type is a PNG, JPEG, GIF or WebP
// image are readable without a signature; nothing else is.
//
// Every response carries "Content-Security-Policy: sandbox" and
// "X-Content-Type-Options: nosniff", and everything but those images is served with
// "Content-Disposition: attachment", so a stored file never runs as a page of the app's
// origin.
//
// On disk, under the root directory: data/{key} holds the bytes, meta/{key}.json the
// content type, and tmp/ the uploads in progress, which are renamed into place only when
// complete.
type Local struct {
	dir       string
	base      *url.URL // PublicURL + MountPath
	secret    []byte
	maxUpload int64
	now       func() time.Time // replaced by tests
}

// localMeta is the JSON sidecar stored next to each file.
type localMeta struct {
	ContentType string `json:"contentType"`
}

var _ Blob = (*Local)(nil)
var _ http.Handler = (*Local)(nil)

// NewLocal creates the store's directories under cfg.Dir and returns the store. It needs
// an absolute http(s) cfg.PublicURL and a cfg.Secret of at least 32 bytes.
func NewLocal(cfg Config) (*Local, error) {
	if len(cfg.Secret) < 32 {
		return nil, fmt.Errorf("local storage: secret must be at least 32 bytes, got %d", len(cfg.Secret))
	}
	base, err := url.Parse(strings.TrimSuffix(cfg.PublicURL, "/") + MountPath)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" ||
		base.User != nil || base.RawQuery != "" || base.Fragment != "" {
		return nil, fmt.Errorf("local storage: public url %q must be an absolute http(s) url without query", cfg.PublicURL)
	}
	limit, err := maxUpload(cfg)
	if err != nil {
		return nil, fmt.Errorf("local storage: %w", err)
	}
	l := &Local{
		dir:       cmp.Or(cfg.Dir, DefaultDir),
		base:      base,
		secret:    cfg.Secret,
		maxUpload: limit,
		now:       time.Now,
	}
	for _, sub := range []string{"data", "meta", "tmp"} {
		if err := os.MkdirAll(filepath.Join(l.dir, sub), 0o750); err != nil {
			return nil, fmt.Errorf("local storage: create %s: %w", sub, err)
		}
	}
	return l, nil
}

// PresignPut returns a signed URL accepting one PUT of the file with the header
// Content-Type equal to contentType, and of exactly size bytes unless size is
// UnknownSize, until ttl has passed. The URL writes once: once a file is stored under
// key, every later PUT is refused with 412 and the file stays as it was.
func (l *Local) PresignPut(_ context.Context, key, contentType string, size int64, ttl time.Duration) (string, error) {
	if err := errors.Join(checkKey(key), checkContentType(contentType), checkUploadSize(size, l.maxUpload), checkTTL(ttl)); err != nil {
		return "", fmt.Errorf("presign put %s: %w", key, err)
	}
	return l.signedURL(http.MethodPut, key, contentType, size, ttl), nil
}

// MaxUploadBytes is the largest body the handler accepts on a signed PUT.
func (l *Local) MaxUploadBytes() int64 { return l.maxUpload }

// PresignGet returns a signed URL that reads the file until ttl has passed.
func (l *Local) PresignGet(_ context.Context, key string, ttl time.Duration) (string, error) {
	if err := errors.Join(checkKey(key), checkTTL(ttl)); err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return l.signedURL(http.MethodGet, key, "", UnknownSize, ttl), nil
}

// PresignDownload returns a signed URL that downloads the file as fileName (Content-Disposition
// attachment, whatever its type) until ttl has passed. The name is part of the signature.
func (l *Local) PresignDownload(_ context.Context, key, fileName string, ttl time.Duration) (string, error) {
	if err := errors.Join(checkKey(key), checkTTL(ttl), checkDownloadName(fileName)); err != nil {
		return "", fmt.Errorf("presign download %s: %w", key, err)
	}
	u := l.signedURL(http.MethodGet, key, downloadField(fileName), UnknownSize, ttl)
	return u + "&" + url.Values{paramFilename: {fileName}}.Encode(), nil
}

// downloadField is what a download's signature covers in the place of a PUT's content
// type: the name the file is saved as.
func downloadField(fileName string) string { return "download:" + fileName }

// Put stores the size bytes of r under key; a body of another length is refused and
// leaves nothing behind. The upload limit does not apply: Put is for trusted server-side
// writers.
func (l *Local) Put(_ context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := errors.Join(checkKey(key), checkContentType(contentType), checkSize(size)); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err := l.write(key, r, size, contentType, true); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Get opens the file stored under key.
func (l *Local) Get(_ context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	f, err := l.open(key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return f, nil
}

// Delete removes the file stored under key and its metadata.
func (l *Local) Delete(_ context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	for _, p := range []string{l.dataPath(key), l.metaPath(key)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", key, err)
		}
	}
	return nil
}

// DeletePrefix removes the folder prefix with every file and metadata under it.
func (l *Local) DeletePrefix(_ context.Context, prefix string) error {
	if err := checkPrefix(prefix); err != nil {
		return fmt.Errorf("delete prefix %s: %w", prefix, err)
	}
	for _, root := range []string{"data", "meta"} {
		if err := os.RemoveAll(filepath.Join(l.dir, root, filepath.FromSlash(prefix))); err != nil {
			return fmt.Errorf("delete prefix %s: %w", prefix, err)
		}
	}
	return nil
}

// Stat returns the size and stored content type of key.
func (l *Local) Stat(_ context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, fmt.Errorf("stat %s: %w", key, err)
	}
	info, err := os.Stat(l.dataPath(key))
	if errors.Is(err, fs.ErrNotExist) || err == nil && info.IsDir() {
		return Info{}, fmt.Errorf("stat %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return Info{}, fmt.Errorf("stat %s: %w", key, err)
	}
	return Info{Size: info.Size(), ContentType: l.contentType(key)}, nil
}

// FileURL returns {PublicURL}/files/{key}.
func (l *Local) FileURL(key string) string {
	return l.base.String() + key
}

// KeyFromURL returns the key of a URL of the form {PublicURL}/files/{key}.
func (l *Local) KeyFromURL(fileURL string) (string, error) {
	return keyFromURL(fileURL, l.base)
}

// ServeHTTP serves signed PUTs (uploads, at most the upload limit and exactly the signed
// size) and signed GETs and HEADs (downloads) of files under MountPath. A bad or expired
// signature, or a Content-Length other than the signed one, gives 403; a missing file
// 404; an oversized body 413; a body shorter than signed 400; a PUT to a key that already
// holds a file 412 (uploads write once, as S3's conditional write does); any other
// method 405.
func (l *Local) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A stored file is never a page of the app: no script, no forms, no same-origin
	// access even when a browser is talked into rendering one.
	w.Header().Set("Content-Security-Policy", "sandbox")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPut {
		w.Header().Set("Allow", "GET, HEAD, PUT")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	// EscapedPath keeps percent-encoding, which checkKey refuses: no encoded slashes or dots.
	key, ok := strings.CutPrefix(r.URL.EscapedPath(), MountPath)
	if !ok || checkKey(key) != nil {
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodPut {
		l.serveUpload(w, r, key)
		return
	}
	l.serveDownload(w, r, key)
}

// MsgStorageFull answers an upload the local disk has no room for (507).
const MsgStorageFull = "The file store is full, so this file was not saved. Please ask your administrator to free space, then upload it again."

// serveUpload writes the body of a signed PUT to key.
func (l *Local) serveUpload(w http.ResponseWriter, r *http.Request, key string) {
	contentType := r.Header.Get("Content-Type")
	size, ok := l.verify(r, http.MethodPut, key, contentType)
	if !ok {
		http.Error(w, "invalid or expired signature", http.StatusForbidden)
		return
	}
	limit := l.maxUpload
	if size != UnknownSize {
		// The length is signed, as Content-Length is in an S3 presigned PUT.
		if r.ContentLength >= 0 && r.ContentLength != size {
			http.Error(w, "content length differs from the signed size", http.StatusForbidden)
			return
		}
		limit = size
	}
	if r.ContentLength > limit {
		http.Error(w, "file too large", http.StatusRequestEntityTooLarge)
		return
	}
	err := l.write(key, http.MaxBytesReader(w, r.Body, limit), size, contentType, false)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, ErrExists):
		// The upload helper shows error.message; the body was not read.
		writeJSONError(w, http.StatusPreconditionFailed, "already_uploaded", MsgAlreadyUploaded)
	case errors.As(err, &tooLarge):
		http.Error(w, "file too large", http.StatusRequestEntityTooLarge)
	case errors.Is(err, ErrInvalidSize):
		http.Error(w, "body shorter than the signed size", http.StatusBadRequest)
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		// The upload helper shows error.message: the teacher learns why.
		slog.ErrorContext(r.Context(), "storage: upload failed: disk full", "key", key, "dir", l.dir, "err", err)
		writeJSONError(w, http.StatusInsufficientStorage, "storage_full", MsgStorageFull)
	case errors.As(err, new(*bodyError)):
		// The browser stopped sending (the page was reloaded or closed, the network
		// dropped): nothing failed here, and nothing was kept.
		slog.InfoContext(r.Context(), "storage: upload abandoned by the client", "key", key, "err", err)
		http.Error(w, "upload interrupted", http.StatusBadRequest)
	case err != nil:
		slog.ErrorContext(r.Context(), "storage: upload failed", "key", key, "err", err)
		http.Error(w, "upload failed", http.StatusInternalServerError)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// writeJSONError answers status with the API's error shape, whose message the upload
// helper shows.
func writeJSONError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

// serveDownload streams the file under key with its stored content type. Without a valid
// signature only a public image is served.
func (l *Local) serveDownload(w http.ResponseWriter, r *http.Request, key string) {
	q := r.URL.Query()
	fileName, download := q.Get(paramFilename), q.Has(paramFilename)
	field := ""
	if download {
		field = downloadField(fileName)
	}
	_, signed := l.verify(r, http.MethodGet, key, field)
	if !signed && !strings.HasPrefix(key, "public/") {
		http.Error(w, "invalid or expired signature", http.StatusForbidden)
		return
	}
	f, err := l.open(key)
	if errors.Is(err, ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		slog.ErrorContext(r.Context(), "storage: download failed", "key", key, "err", err)
		http.Error(w, "download failed", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		slog.ErrorContext(r.Context(), "storage: download failed", "key", key, "err", err)
		http.Error(w, "download failed", http.StatusInternalServerError)
		return
	}
	contentType := l.contentType(key)
	if !signed && !IsPublicImage(contentType) {
		// Only images are public, whatever else ended up under public/.
		http.Error(w, "invalid or expired signature", http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "private")
	// Everything but images downloads. PDFs too: a sandboxed response cannot run the
	// browser's PDF viewer, and a PDF can carry script and forms of its own.
	if download && signed {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": fileName}))
	} else if !IsPublicImage(contentType) {
		// The leaf is "{16 hex}-{name}"; offer the name the user uploaded.
		leaf := path.Base(key)
		if len(leaf) > 17 && leaf[16] == '-' {
			leaf = leaf[17:]
		}
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": leaf}))
	}
	http.ServeContent(w, r, "", info.ModTime(), f)
}

// signedURL builds the signed URL for method on key; size is UnknownSize or the exact
// length a PUT must have.
func (l *Local) signedURL(method, key, contentType string, size int64, ttl time.Duration) string {
	expires := l.now().Add(ttl).Unix()
	q := url.Values{
		paramExpires:   {strconv.FormatInt(expires, 10)},
		paramMethod:    {method},
		paramSignature: {hex.EncodeToString(l.sign(method, key, contentType, size, expires))},
	}
	if size != UnknownSize {
		q.Set(paramSize, strconv.FormatInt(size, 10))
	}
	return l.FileURL(key) + "?" + q.Encode()
}

// verify reports whether r carries an unexpired signature for method on key, and the
// signed size (UnknownSize when the URL carries none).
func (l *Local) verify(r *http.Request, method, key, contentType string) (size int64, ok bool) {
	q := r.URL.Query()
	expires, err := strconv.ParseInt(q.Get(paramExpires), 10, 64)
	if err != nil || q.Get(paramMethod) != method || l.now().Unix() >= expires {
		return 0, false
	}
	size = UnknownSize
	if q.Has(paramSize) {
		size, err = strconv.ParseInt(q.Get(paramSize), 10, 64)
		if err != nil || size < 1 {
			return 0, false
		}
	}
	sig, err := hex.DecodeString(q.Get(paramSignature))
	return size, err == nil && hmac.Equal(sig, l.sign(method, key, contentType, size, expires))
}

// sign computes the HMAC of a signed URL. Fields are newline-separated and only the last
// one could contain a newline (keys are checked), so no two inputs share a message.
func (l *Local) sign(method, key, contentType string, size, expires int64) []byte {
	mac := hmac.New(sha256.New, l.secret)
	fmt.Fprintf(mac, "markwell-blob-v2\n%s\n%s\n%d\n%d\n%s", method, key, expires, size, contentType)
	return mac.Sum(nil)
}

// write stores r under key atomically: the bytes go to a temporary file that is moved
// into place only once complete, so a failed write leaves nothing behind. With replace
// false (a signed upload) a key that already holds a file gives ErrExists and the file
// stays as it was: checked before the body is read, and again, atomically, when the
// bytes are linked into place, so of two uploads racing for one key exactly one wins.
//
// The metadata is put in place before the bytes, so a reader that sees the bytes also
// sees their content type. A losing upload may rewrite it first, but only with the same
// content type: the type is signed into the upload URL, and each key is signed once.
func (l *Local) write(key string, r io.Reader, size int64, contentType string, replace bool) error {
	if !replace {
		if _, err := os.Lstat(l.dataPath(key)); err == nil {
			return ErrExists
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("look for an existing file: %w", err)
		}
	}
	meta, err := json.Marshal(localMeta{ContentType: contentType})
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	dataTmp, err := l.writeTemp(r, size)
	if err != nil {
		return err
	}
	defer os.Remove(dataTmp) // no-op once renamed
	metaTmp, err := l.writeTemp(strings.NewReader(string(meta)), int64(len(meta)))
	if err != nil {
		return err
	}
	defer os.Remove(metaTmp)
	// Metadata first: a reader that sees the new bytes also sees their content type.
	if err := renameInto(metaTmp, l.metaPath(key)); err != nil {
		return err
	}
	if !replace {
		return linkInto(dataTmp, l.dataPath(key))
	}
	return renameInto(dataTmp, l.dataPath(key))
}

// writeTemp copies r into a new file under tmp/ and returns its path. When size is not
// UnknownSize, r must hold exactly size bytes.
func (l *Local) writeTemp(r io.Reader, size int64) (name string, err error) {
	f, err := os.CreateTemp(filepath.Join(l.dir, "tmp"), "upload-*")
	if err != nil {
		return "", fmt.Errorf("create temp file: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	r = bodyReader{r}
	if size >= 0 {
		r = io.LimitReader(r, size+1) // one byte more tells a longer body apart
	}
	n, err := io.Copy(f, r)
	if err != nil {
		return "", fmt.Errorf("write temp file: %w", err)
	}
	if size >= 0 && n != size {
		return "", fmt.Errorf("write temp file: %w: got %d bytes, want %d", ErrInvalidSize, n, size)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("sync temp file: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("close temp file: %w", err)
	}
	return f.Name(), nil
}

// bodyError is a failure to read an upload's body (the client went away), told apart
// from a failure to write it here.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return "read upload body: " + e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// bodyReader marks the errors of reading r as bodyError.
type bodyReader struct{ r io.Reader }

func (b bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = &bodyError{err}
	}
	return n, err
}

// open opens the data file of key, mapping a missing file (or a folder) to ErrNotFound.
func (l *Local) open(key string) (*os.File, error) {
	f, err := os.Open(l.dataPath(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	if info, err := f.Stat(); err != nil || info.IsDir() {
		f.Close()
		return nil, ErrNotFound
	}
	return f, nil
}

// contentType reads the stored content type of key, defaulting to a download type.
func (l *Local) contentType(key string) string {
	var meta localMeta
	b, err := os.ReadFile(l.metaPath(key))
	if err != nil || json.Unmarshal(b, &meta) != nil || meta.ContentType == "" {
		return "application/octet-stream"
	}
	return meta.ContentType
}

// dataPath is where the bytes of a checked key live.
func (l *Local) dataPath(key string) string {
	return filepath.Join(l.dir, "data", filepath.FromSlash(key))
}

// metaPath is where the metadata of a checked key lives.
func (l *Local) metaPath(key string) string {
	return filepath.Join(l.dir, "meta", filepath.FromSlash(key)+".json")
}

// linkInto puts a finished temporary file at dst unless a file is already there
// (ErrExists), creating dst's directory. A hard link, unlike a rename, never replaces
// its target; the temporary name is removed by the caller.
func linkInto(tmp, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	if err := os.Link(tmp, dst); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ErrExists
		}
		return fmt.Errorf("move into place: %w", err)
	}
	return nil
}

// renameInto moves a finished temporary file to dst, creating dst's directory.
func renameInto(tmp, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("move into place: %w", err)
	}
	return nil
}
