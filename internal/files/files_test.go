package files

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
)

// s3Service is a Service over an S3 store addressed on AWS: presigning sends no request,
// and no test here reaches the database (chats/ and public/ keys name their team).
func s3Service(t *testing.T, maxUpload int64) *Service {
	t.Helper()
	blobs, _, err := blob.New(t.Context(), blob.Config{
		S3Bucket: "markwell-files", S3Region: "eu-west-1",
		S3AccessKey: "AKIDEXAMPLE", S3SecretKey: "secret", MaxUploadBytes: maxUpload,
	})
	require.NoError(t, err)
	return &Service{Blob: blobs, TTL: 15 * time.Minute}
}

// requireInvalid requires err to be a 400 with message.
func requireInvalid(t *testing.T, err error, message string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, apperr.Invalid, e.Code, err)
	require.Equal(t, message, e.Message)
}

func TestS3UploadsSignTheSize(t *testing.T) {
	t.Parallel()
	svc := s3Service(t, 0)
	team := uuid.New()
	size := func(n int64) *int64 { return &n }

	up, err := svc.PresignUpload(t.Context(), Teacher, team, UploadRequest{FileName: "chats/notes.pdf", FileType: "application/pdf", FileSize: size(1234)})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(up.Key, "chats/"+team.String()+"/"), up.Key)
	u, err := url.Parse(up.SignedURL)
	require.NoError(t, err)
	require.Equal(t, "content-length;content-type;host;if-none-match", u.Query().Get("X-Amz-SignedHeaders"), "a conditional write")

	_, err = svc.PresignUpload(t.Context(), Teacher, team, UploadRequest{FileName: "chats/notes.pdf", FileType: "application/pdf"})
	requireInvalid(t, err, "fileSize is required: send the file's size in bytes with the upload request.")
	_, err = svc.PresignUpload(t.Context(), Teacher, team, UploadRequest{FileName: "chats/big.pdf", FileType: "application/pdf", FileSize: size(50<<20 + 1)})
	requireInvalid(t, err, "This file is larger than the 50 MB limit.")
	_, err = svc.PresignUpload(t.Context(), Teacher, team, UploadRequest{FileName: "chats/big.pdf", FileType: "application/pdf", FileSize: size(50 << 20)})
	require.NoError(t, err, "exactly the limit")
}

func TestFormatBytes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{
		50 << 20: "50 MB", 1 << 20: "1 MB", 3 << 19: "1.5 MB", 512 << 10: "512 KB", 1000: "1000 bytes",
	} {
		require.Equal(t, want, formatBytes(n), n)
	}
}

func TestUploadPlace(t *testing.T) {
	t.Parallel()
	team, other := uuid.New(), uuid.New()
	assignment := uuid.New()
	chats := place{root: chatsRoot, id: team}
	public := place{root: publicRoot, id: team}
	submissions := place{root: assignmentsRoot, id: assignment}

	tests := []struct {
		name   string
		scope  Scope
		folder string
		want   place // zero: refused
	}{
		{"teacher, no folder", Teacher, "", chats},
		{"teacher, chats", Teacher, "chats/", chats},
		{"teacher, own team's chats", Teacher, "chats/" + team.String() + "/", chats},
		{"teacher, another team's chats (owner checked later)", Teacher, "chats/" + other.String() + "/", place{root: chatsRoot, id: other}},
		{"teacher, submissions", Teacher, "assignments/" + assignment.String() + "/submissions/", submissions},
		{"teacher, public", Teacher, "public/", place{}},
		{"teacher, team's public", Teacher, "public/" + team.String() + "/", place{}},
		{"teacher, assistants", Teacher, "assistants/", place{}},
		{"teacher, nested chats", Teacher, "chats/" + team.String() + "/x/", place{}},
		{"teacher, chats not a uuid", Teacher, "chats/abc/", place{}},
		{"teacher, chats upper-case uuid", Teacher, "chats/" + strings.ToUpper(team.String()) + "/", place{}},
		{"teacher, assignment without submissions", Teacher, "assignments/" + assignment.String() + "/", place{}},
		{"teacher, assignment braced uuid", Teacher, "assignments/{" + assignment.String() + "}/submissions/", place{}},
		{"teacher, traversal", Teacher, "chats/../", place{}},
		{"public asset, no folder", PublicAsset, "", public},
		{"public asset, public", PublicAsset, "public/", public},
		{"public asset, own team's public", PublicAsset, "public/" + team.String() + "/", public},
		{"public asset, chats", PublicAsset, "chats/", place{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := uploadPlace(tt.scope, team, tt.folder)
			if tt.want == (place{}) {
				require.Equal(t, apperr.Invalid, apperr.From(err).Code, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			p, ok := parseFolder(got.folder())
			require.True(t, ok, "a place's folder reads back")
			require.Equal(t, got, p)
		})
	}
}

func TestSignedURLOfKeysOutsideTheLayout(t *testing.T) {
	t.Parallel()
	svc := s3Service(t, 0)
	team := uuid.New()
	for _, key := range []string{
		"chats/0123456789abcdef-a.pdf",
		"assistants/0123456789abcdef-a.pdf",
		"0123456789abcdef-a.pdf",
		"chats/" + uuid.NewString() + "/0123456789abcdef-a.pdf",
		"public/" + uuid.NewString() + "/0123456789abcdef-a.png",
		"chats/" + strings.ToUpper(team.String()) + "/0123456789abcdef-a.pdf",
	} {
		_, err := svc.SignedURL(t.Context(), team, svc.Blob.FileURL(key))
		require.ErrorIs(t, err, apperr.ErrNotFound, key)
	}
	for _, key := range []string{
		"chats/" + team.String() + "/0123456789abcdef-a.pdf",
		"public/" + team.String() + "/0123456789abcdef-a.png",
	} {
		_, err := svc.SignedURL(t.Context(), team, svc.Blob.FileURL(key))
		require.NoError(t, err, key)
	}
	_, err := svc.SignedURL(t.Context(), uuid.Nil, svc.Blob.FileURL("chats/"+uuid.Nil.String()+"/0123456789abcdef-a.pdf"))
	require.ErrorIs(t, err, apperr.ErrNotFound, "no team owns nothing")
}
