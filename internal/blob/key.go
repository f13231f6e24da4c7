package blob

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
)

const (
	// maxNameLen caps a sanitized file name so a key's last segment stays well under
	// the 255-byte file name limit of common file systems.
	maxNameLen = 128
	// maxKeyLen is S3's key length limit.
	maxKeyLen = 1024
)

// SanitizeFileName keeps only the ASCII letters, digits, '_', '-', '.' and '~' of name
// (spec §5), shortens it to 128 bytes keeping a short extension, and returns "file" when
// nothing usable is left (empty, "." or "..").
func SanitizeFileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if isNameChar(r) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if len(s) > maxNameLen {
		ext := path.Ext(s)
		if len(ext) > 16 {
			ext = ""
		}
		s = s[:maxNameLen-len(ext)] + ext
	}
	if s == "" || s == "." || s == ".." {
		return "file"
	}
	return s
}

// SplitFolder splits a client-sent file name such as
// "assignments/0b6…/submissions/essay one.pdf" at its last '/' into the folder (with its
// trailing '/') and the base name. A name without '/' has an empty folder.
func SplitFolder(fileName string) (folder, base string) {
	i := strings.LastIndexByte(fileName, '/')
	return fileName[:i+1], fileName[i+1:]
}

// NewKey returns an unguessable key "{folder}{16 random hex}-{sanitized fileName}".
// folder is "" or one or more segments each followed by '/', made of the sanitized
// characters only and without "." or ".." segments; anything else gives an error wrapping
// ErrInvalidFolder. Which folders a client may upload to, and who owns them, is decided by
// the caller (see internal/files and docs/files.md).
func NewKey(folder, fileName string) (string, error) {
	if folder != "" {
		prefix, ok := strings.CutSuffix(folder, "/")
		if !ok || checkKey(prefix) != nil {
			return "", fmt.Errorf("new key in %q: %w", folder, ErrInvalidFolder)
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it crashes the program instead).
	key := folder + hex.EncodeToString(b[:]) + "-" + SanitizeFileName(fileName)
	if err := checkKey(key); err != nil {
		return "", fmt.Errorf("new key in %q: %w: %v", folder, ErrInvalidFolder, err)
	}
	return key, nil
}

// checkKey refuses keys that could escape a directory or need escaping in a URL: only
// sanitized characters and '/', no leading, trailing or doubled '/', no "." or ".."
// segments.
func checkKey(key string) error {
	if key == "" || len(key) > maxKeyLen {
		return fmt.Errorf("%w: length %d", ErrInvalidKey, len(key))
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
		for _, r := range seg {
			if !isNameChar(r) {
				return fmt.Errorf("%w: %q", ErrInvalidKey, key)
			}
		}
	}
	return nil
}

// isNameChar reports whether r may appear in a sanitized file name.
func isNameChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		r == '_' || r == '-' || r == '.' || r == '~'
}

// checkContentType refuses a missing or malformed media type.
func checkContentType(contentType string) error {
	if _, _, err := mime.ParseMediaType(contentType); err != nil {
		return fmt.Errorf("%w %q: %v", ErrInvalidContentType, contentType, err)
	}
	return nil
}

// keyFromURL returns the key of raw when raw is one of bases followed by a valid key.
// Scheme and host must match exactly (host case-insensitively); user info, fragments and
// percent-encoding in the path are refused, which also rules out encoded slashes and dots.
func keyFromURL(raw string, bases ...*url.URL) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("key from url: %w: %v", ErrForeignURL, err)
	}
	if u.User != nil || u.Fragment != "" || u.Opaque != "" || strings.Contains(u.EscapedPath(), "%") {
		return "", fmt.Errorf("key from url %q: %w", raw, ErrForeignURL)
	}
	for _, base := range bases {
		if u.Scheme != base.Scheme || !strings.EqualFold(u.Host, base.Host) {
			continue
		}
		key, ok := strings.CutPrefix(u.Path, strings.TrimSuffix(base.Path, "/")+"/")
		if !ok {
			continue
		}
		if err := checkKey(key); err != nil {
			return "", fmt.Errorf("key from url %q: %w: %v", raw, ErrForeignURL, err)
		}
		return key, nil
	}
	return "", fmt.Errorf("key from url %q: %w", raw, ErrForeignURL)
}
