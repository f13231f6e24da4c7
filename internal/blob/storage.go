// Package storage keeps uploaded and generated files ("blobs") on local disk or in an
// S3-compatible bucket, and hands out short-lived signed URLs so browsers upload and
// download bytes directly without the API proxying them.
//
// A file is addressed by its key (for example "chats/3f2a9c0d1e4b5a67-notes.pdf"). The
// browser only ever sees URLs: a signed PUT URL to upload to, whose address without the
// query string is the file's permanent "file URL", and signed GET URLs to read from.
// KeyFromURL maps a file URL back to its key and refuses every URL this store did not
// produce, so the API never fetches or signs an address a user chose.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	// ErrNotFound is wrapped by Get when no file is stored under the key.
	ErrNotFound = errors.New("storage: file not found")
	// ErrForeignURL is wrapped by KeyFromURL when the URL is not a file URL of this store.
	ErrForeignURL = errors.New("storage: url does not belong to this store")
	// ErrInvalidFolder is wrapped by NewKey when the folder is not one of the upload folders.
	ErrInvalidFolder = errors.New("storage: folder not allowed")
	// ErrInvalidKey is wrapped when a key is empty, too long, has characters outside the
	// sanitized set or has empty, "." or ".." segments.
	ErrInvalidKey = errors.New("storage: invalid key")
	// ErrInvalidContentType is wrapped by PresignPut and Put when the content type is
	// missing or is not a valid media type.
	ErrInvalidContentType = errors.New("storage: invalid content type")
	// ErrInvalidSize is wrapped by Put when size is negative or differs from the number of
	// bytes read, and by PresignPut when size is neither UnknownSize nor 1..MaxUploadBytes.
	ErrInvalidSize = errors.New("storage: invalid size")
	// ErrSizeRequired is wrapped by S3's PresignPut when size is UnknownSize: a bucket
	// only enforces a length that is part of the signature.
	ErrSizeRequired = errors.New("storage: upload size required")
	// ErrInvalidTTL is wrapped by the presign methods when the lifetime is not positive or
	// longer than MaxTTL.
	ErrInvalidTTL = errors.New("storage: invalid signed url lifetime")
	// ErrExists is wrapped when an upload through a signed URL finds a file already stored
	// under its key: signed uploads write once and never replace a file.
	ErrExists = errors.New("storage: a file is already stored under this key")
)

// MsgAlreadyUploaded answers a second upload to a key that already holds a file (Local
// answers it with 412, as S3 answers its conditional write): the file sent first stays.
const MsgAlreadyUploaded = "This upload link has already been used, and the file sent with it cannot be replaced. To send a different file, upload it again."

// WriteOnceHeader and WriteOnceValue are the header and value a browser sends with every
// PUT to a signed upload URL. S3 signs the header into the URL (a conditional write: the
// bucket refuses the PUT with 412 when the key already holds an object); Local accepts it
// and writes once whether or not it is sent.
const (
	WriteOnceHeader = "If-None-Match"
	WriteOnceValue  = "*"
)

const (
	// MaxTTL is the longest lifetime a signed URL may have (the SigV4 limit, applied to
	// both stores so they behave alike).
	MaxTTL = 7 * 24 * time.Hour
	// DefaultDir is where Local keeps files when Config.Dir is empty.
	DefaultDir = ".data/blobs"
	// DefaultMaxUploadBytes is the largest file a signed PUT may carry when
	// Config.MaxUploadBytes is zero (50 MiB).
	DefaultMaxUploadBytes int64 = 50 << 20
	// UnknownSize is the size PresignPut takes when the uploader did not say how large the
	// file is. Local then enforces only its upload limit; S3 refuses it (ErrSizeRequired).
	UnknownSize int64 = -1
	// MountPath is the path the Local handler must be mounted on, for every method
	// (for example router.Any(MountPath+"*key", gin.WrapH(handler))).
	MountPath = "/files/"
)

// Blob stores files by key and signs URLs for browsers. Local and S3 implement it.
type Blob interface {
	// PresignPut returns a URL the browser PUTs the file's bytes to, with the header
	// Content-Type set to exactly contentType and WriteOnceHeader set to WriteOnceValue,
	// within ttl. size, when not UnknownSize, is part of the signature: a body of any other
	// length is refused by the store itself. It must be 1..MaxUploadBytes(). The URL
	// writes once: a PUT to a key that already holds a file is refused (412) and the file
	// stays as it was. The URL without its query string is the file URL (see FileURL).
	PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error)
	// MaxUploadBytes is the largest file a presigned PUT may carry.
	MaxUploadBytes() int64
	// PresignGet returns a URL that reads the file for ttl.
	PresignGet(ctx context.Context, key string, ttl time.Duration) (string, error)
	// PresignDownload returns a URL that downloads the file for ttl, saved by the browser
	// as fileName (Content-Disposition: attachment, whatever the file's type).
	PresignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error)
	// Put stores the bytes of r under key, replacing any file there; size must be their
	// exact number (S3 needs the length up front). It is for trusted server-side writers
	// (a job writing page images again on a retry): uploads through signed URLs never
	// replace a file.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Get opens the file stored under key; the caller closes it. A missing file gives an
	// error wrapping ErrNotFound.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Delete removes the file stored under key; deleting a missing file is not an error.
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every file whose key starts with prefix, a folder at least two
	// segments deep ending in '/' (for example "assignments/{id}/"); anything else gives an
	// error wrapping ErrInvalidKey. Deleting an empty folder is not an error.
	DeletePrefix(ctx context.Context, prefix string) error
	// Stat returns the size and content type of the file stored under key. A missing file
	// gives an error wrapping ErrNotFound.
	Stat(ctx context.Context, key string) (Info, error)
	// FileURL returns the permanent, unsigned address of key: the URL PresignPut returns,
	// without its query string.
	FileURL(key string) string
	// KeyFromURL returns the key of a file URL of this store (a query string is ignored).
	// Any other URL gives an error wrapping ErrForeignURL.
	KeyFromURL(fileURL string) (string, error)
}

// Info describes a stored file.
type Info struct {
	// Size is the file's length in bytes.
	Size int64
	// ContentType is the media type the file was stored with.
	ContentType string
}

// Config selects and configures a store. S3 is used when S3Bucket is set, Local otherwise.
type Config struct {
	// Dir is Local's root directory (DefaultDir when empty).
	Dir string
	// PublicURL is the origin the browser loads the app from, for Local's file URLs (for
	// example "http://localhost:8080"). A path prefix is allowed when a proxy strips it:
	// the handler itself always sees MountPath.
	PublicURL string
	// Secret keys Local's URL signatures; at least 32 bytes.
	Secret []byte
	// MaxUploadBytes caps presigned uploads (DefaultMaxUploadBytes when zero): Local
	// refuses longer PUT bodies, and both stores refuse to sign a larger size.
	MaxUploadBytes int64

	// S3Bucket names the bucket; setting it selects S3.
	S3Bucket string
	// S3Region is the bucket's region (from the AWS environment when empty, else us-east-1
	// with a custom endpoint).
	S3Region string
	// S3Endpoint is the base URL of an S3-compatible store; path-style addressing is used
	// when it is set. Empty means AWS.
	S3Endpoint string
	// S3AccessKey and S3SecretKey are static credentials; when both are empty the default
	// AWS credential chain is used.
	S3AccessKey string
	// S3SecretKey is the secret for S3AccessKey.
	S3SecretKey string
}

// New builds the store cfg selects. For Local it also returns the handler to mount on
// MountPath; for S3 the handler is nil.
func New(ctx context.Context, cfg Config) (Blob, http.Handler, error) {
	if cfg.S3Bucket != "" {
		s, err := NewS3(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
		return s, nil, nil
	}
	l, err := NewLocal(cfg)
	if err != nil {
		return nil, nil, err
	}
	return l, l, nil
}

// publicImageTypes are the media types of files anyone may read under "public/" and that
// Local lets a browser display inline. SVG is left out on purpose: it can carry script.
var publicImageTypes = map[string]bool{
	"image/png":  true,
	"image/jpeg": true,
	"image/gif":  true,
	"image/webp": true,
}

// IsPublicImage reports whether contentType is a PNG, JPEG, GIF or WebP image: the only
// files served without a signature (under "public/") and the only ones a browser is
// allowed to display inline rather than download.
func IsPublicImage(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && publicImageTypes[mediaType]
}

// maxUpload is cfg's upload limit, DefaultMaxUploadBytes when unset.
func maxUpload(cfg Config) (int64, error) {
	switch {
	case cfg.MaxUploadBytes < 0:
		return 0, fmt.Errorf("max upload bytes %d is negative", cfg.MaxUploadBytes)
	case cfg.MaxUploadBytes == 0:
		return DefaultMaxUploadBytes, nil
	}
	return cfg.MaxUploadBytes, nil
}

// ErrInvalidFileName is wrapped by PresignDownload when the name to save a file as is
// empty, longer than 255 bytes, not UTF-8 or holds a control character or a slash.
var ErrInvalidFileName = errors.New("storage: invalid download file name")

// checkDownloadName refuses a name no browser could save a file as.
func checkDownloadName(name string) error {
	if name == "" || len(name) > 255 || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '/' || r == '\\' }) {
		return fmt.Errorf("%w: %q", ErrInvalidFileName, name)
	}
	return nil
}

// checkUploadSize refuses a presign size that is neither UnknownSize nor 1..limit.
func checkUploadSize(size, limit int64) error {
	if size != UnknownSize && (size < 1 || size > limit) {
		return fmt.Errorf("%w: %d (limit %d)", ErrInvalidSize, size, limit)
	}
	return nil
}

// checkPrefix refuses a DeletePrefix folder that is not at least two valid key segments
// followed by '/': a mistake there must not empty a whole root such as "assignments/".
func checkPrefix(prefix string) error {
	folder, ok := strings.CutSuffix(prefix, "/")
	if !ok || strings.Count(folder, "/") < 1 {
		return fmt.Errorf("%w: prefix %q must be a folder at least two levels deep", ErrInvalidKey, prefix)
	}
	return checkKey(folder)
}

// checkSize refuses a negative size.
func checkSize(size int64) error {
	if size < 0 {
		return fmt.Errorf("%w: %d", ErrInvalidSize, size)
	}
	return nil
}

// checkTTL refuses lifetimes a signed URL cannot have.
func checkTTL(ttl time.Duration) error {
	if ttl <= 0 || ttl > MaxTTL {
		return fmt.Errorf("%w: %s", ErrInvalidTTL, ttl)
	}
	return nil
}
