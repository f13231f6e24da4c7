package httpapi

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
)

// directives splits a Content-Security-Policy into its directives.
func directives(csp string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

// Images (and uploads) are allowed from Markwell, data:, blob: and the
// configured file store only: the bucket's own origin, as the store
// addresses it, not any https: address or all of amazonaws.com.
func TestTheCSPAllowsImagesOnlyFromTheFileStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := func(c blob.Config) *files.Service {
		t.Helper()
		c.Dir, c.PublicURL, c.Secret = t.TempDir(), "https://markwell.school.test", bytes.Repeat([]byte("k"), 32)
		b, _, err := blob.New(ctx, c)
		require.NoError(t, err)
		return &files.Service{Blob: b}
	}
	for name, tc := range map[string]struct {
		deps  Deps
		files string
	}{
		"local store": {
			deps:  Deps{Config: config.Config{}, Files: store(blob.Config{})},
			files: "'self'",
		},
		"S3-compatible endpoint": {
			deps: Deps{
				Config: config.Config{S3Bucket: "markwell", S3Endpoint: "https://minio.school.test:9000"},
				Files:  store(blob.Config{S3Bucket: "markwell", S3Endpoint: "https://minio.school.test:9000", S3AccessKey: "a", S3SecretKey: "s"}),
			},
			files: "'self' https://minio.school.test:9000",
		},
		"AWS bucket": {
			deps: Deps{
				Config: config.Config{S3Bucket: "markwell-files", S3Region: "eu-west-1"},
				Files:  store(blob.Config{S3Bucket: "markwell-files", S3Region: "eu-west-1", S3AccessKey: "a", S3SecretKey: "s"}),
			},
			files: "'self' https://markwell-files.s3.eu-west-1.amazonaws.com",
		},
		"AWS bucket, no store at hand": {
			deps:  Deps{Config: config.Config{S3Bucket: "markwell-files", S3Region: "eu-west-1"}},
			files: "'self' https://markwell-files.s3.eu-west-1.amazonaws.com",
		},
	} {
		csp := directives(contentSecurityPolicy(tc.deps.Config, fileStoreOrigin(tc.deps)).header("n0nce"))
		require.Equal(t, tc.files+" data: blob:", csp["img-src"], name)
		require.Equal(t, tc.files, csp["connect-src"], name)
		require.Equal(t, "'self' 'nonce-n0nce'", csp["style-src"], name)
		require.Equal(t, "'self'", csp["script-src"], name)
	}
}
