// Package files signs uploads and downloads: it turns a client's file name
// into a safe, unguessable key in a folder its team owns, and a file URL back
// into a short-lived signed URL, refusing URLs that are not the store's own
// and keys of other teams. The key layout is described in docs/files.md and
// keys.go.
package files

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/store"
)

// Service signs file URLs.
type Service struct {
	Blob blob.Blob
	TTL  time.Duration
	// Pool answers which team an assignment belongs to, so that a team's
	// submission files stay with that team.
	Pool *pgxpool.Pool
}

// Upload is a signed upload: PUT the bytes to SignedURL; FileURL is the
// file's permanent address.
type Upload struct {
	SignedURL string `json:"signedUrl"`
	FileURL   string `json:"fileUrl"`
	Key       string `json:"key"`
}

// UploadRequest is what a client asks to upload.
type UploadRequest struct {
	// FileName is the file's name, with an optional folder prefix
	// ("chats/notes.pdf").
	FileName string
	// FileType is the media type the PUT must carry as Content-Type.
	FileType string
	// FileSize is the file's exact size in bytes, or nil when the client did
	// not say. When given it is signed into the upload URL, so the store
	// refuses a body of any other length. The S3 store requires it.
	FileSize *int64
	// UserID is the signed-in teacher asking, recorded with the key; uuid.Nil
	// for nobody.
	UserID uuid.UUID
}

// Scope says who uploads, which limits where.
type Scope int

// Scopes of upload routes.
const (
	// Teacher uploads go to the team's chats/ folder or to a submissions
	// folder of one of the team's assignments.
	Teacher Scope = iota
	// PublicAsset uploads are images that go to the team's public/ folder.
	PublicAsset
)

// PresignUpload validates a client's upload request and signs a PUT for a
// new key in the folder it names (see uploadPlace). team is the uploading
// teacher's team. A folder of another team, or of an assignment that is not
// the teacher's, is not found. Students upload with PresignStudentUpload.
func (s *Service) PresignUpload(ctx context.Context, scope Scope, team uuid.UUID, req UploadRequest) (Upload, error) {
	fileName, fileType := strings.TrimSpace(req.FileName), strings.TrimSpace(req.FileType)
	if fileName == "" || fileType == "" {
		return Upload{}, apperr.New(apperr.Invalid, "fileName and fileType are required")
	}
	size, err := s.uploadSize(req.FileSize)
	if err != nil {
		return Upload{}, err
	}
	folder, base := blob.SplitFolder(fileName)
	p, err := uploadPlace(scope, team, folder)
	if err != nil {
		return Upload{}, err
	}
	if scope == PublicAsset && !blob.IsPublicImage(fileType) {
		return Upload{}, apperr.New(apperr.Invalid, "Public assets must be PNG, JPEG, GIF or WebP images.")
	}
	if err := s.checkOwner(ctx, scope, team, p); err != nil {
		return Upload{}, err
	}
	key, err := blob.NewKey(p.folder(), base)
	if err != nil {
		return Upload{}, fmt.Errorf("new key for %q: %w", fileName, err)
	}
	signed, err := s.Blob.PresignPut(ctx, key, fileType, size, s.TTL)
	switch {
	case errors.Is(err, blob.ErrInvalidContentType):
		return Upload{}, apperr.Invalidf("fileType %q is not a valid media type", fileType)
	case errors.Is(err, blob.ErrSizeRequired):
		return Upload{}, apperr.New(apperr.Invalid, "fileSize is required: send the file's size in bytes with the upload request.")
	case err != nil:
		return Upload{}, fmt.Errorf("presign put %s: %w", key, err)
	}
	if err := s.recordTeacherUpload(ctx, team, p, key, req.UserID); err != nil {
		return Upload{}, err
	}
	return Upload{SignedURL: signed, FileURL: s.Blob.FileURL(key), Key: key}, nil
}

// UnsubmittedUploadAge is how long a file uploaded through a student link
// is kept when no submission names it: the purge_link_uploads job then
// deletes the file and its records. Signed URLs expire long before
// (config refuses a SIGNED_URL_TTL as long).
const UnsubmittedUploadAge = 24 * time.Hour

// LinkUpload names the student link that signs an upload (the caller
// resolved it from the link's token).
type LinkUpload struct {
	// Team and Assignment are the link's assignment and its team.
	Team, Assignment uuid.UUID
	// Generation is the link's generation when it signed the upload
	// (assignments.student_link_generation): a submission through a later
	// generation of the link refuses the file.
	Generation int32
	// Addr is the student's client address, kept a day (docs/security.md).
	Addr string
}

// PresignStudentUpload signs a PUT for a file a student submits through the
// link. The file goes to the assignment's submissions/student/ folder
// whatever folder the file name carries, its size is required, and the key
// is recorded as issued through the link, with the link's generation and
// the student's address, so only this assignment's student submission
// through the same generation of the link takes it.
func (s *Service) PresignStudentUpload(ctx context.Context, link LinkUpload, req UploadRequest) (Upload, error) {
	team, assignment := link.Team, link.Assignment
	fileName, fileType := strings.TrimSpace(req.FileName), strings.TrimSpace(req.FileType)
	if fileName == "" || fileType == "" {
		return Upload{}, apperr.New(apperr.Invalid, "fileName and fileType are required")
	}
	if req.FileSize == nil {
		return Upload{}, apperr.New(apperr.Invalid, "fileSize is required: send the file's size in bytes with the upload request.")
	}
	size, err := s.uploadSize(req.FileSize)
	if err != nil {
		return Upload{}, err
	}
	_, base := blob.SplitFolder(fileName)
	key, err := blob.NewKey(StudentFolder(assignment), base)
	if err != nil {
		return Upload{}, fmt.Errorf("new student key for %q: %w", fileName, err)
	}
	signed, err := s.Blob.PresignPut(ctx, key, fileType, size, s.TTL)
	if errors.Is(err, blob.ErrInvalidContentType) {
		return Upload{}, apperr.Invalidf("fileType %q is not a valid media type", fileType)
	}
	if err != nil {
		return Upload{}, fmt.Errorf("presign put %s: %w", key, err)
	}
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		err := store.Q.FilesRecordUpload(ctx, tx, store.FilesRecordUploadParams{
			Key: key, TeamID: team, AssignmentID: uuid.NullUUID{UUID: assignment, Valid: true}, ByStudent: true,
		})
		if err != nil {
			return err
		}
		return store.Q.RecordLinkUpload(ctx, tx, store.RecordLinkUploadParams{
			Key: key, AssignmentID: assignment, LinkGeneration: link.Generation, Addr: link.Addr,
		})
	})
	if err != nil {
		return Upload{}, fmt.Errorf("record student upload %s: %w", key, err)
	}
	return Upload{SignedURL: signed, FileURL: s.Blob.FileURL(key), Key: key}, nil
}

// uploadSize checks a client's fileSize against the store's limit; no size
// is blob.UnknownSize.
func (s *Service) uploadSize(fileSize *int64) (int64, error) {
	if fileSize == nil {
		return blob.UnknownSize, nil
	}
	limit := s.Blob.MaxUploadBytes()
	switch size := *fileSize; {
	case size > limit:
		return 0, apperr.Invalidf("This file is larger than the %s limit.", formatBytes(limit))
	case size == 0:
		return 0, apperr.New(apperr.Invalid, "This file is empty.")
	case size < 0:
		return 0, apperr.New(apperr.Invalid, "fileSize must be the file's size in bytes.")
	default:
		return size, nil
	}
}

// formatBytes writes a limit the way people read file sizes: "50 MB".
func formatBytes(n int64) string {
	const kb, mb = 1 << 10, 1 << 20
	switch {
	case n >= mb && n%mb == 0:
		return fmt.Sprintf("%d MB", n/mb)
	case n >= mb:
		return fmt.Sprintf("%.1f MB", float64(n)/mb)
	case n >= kb && n%kb == 0:
		return fmt.Sprintf("%d KB", n/kb)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// uploadPlace maps the folder a client put before its file name to the
// place the file goes:
//   - teachers: no folder or "chats/" is the team's chats/{teamId}/;
//     "chats/{teamId}/" and "assignments/{id}/submissions/" are taken as they
//     are (whose they are is checked after);
//   - public assets: no folder or "public/" is the team's public/{teamId}/,
//     or "public/{teamId}/".
//
// Any other folder is invalid.
func uploadPlace(scope Scope, team uuid.UUID, folder string) (place, error) {
	p, named := parseFolder(folder)
	switch scope {
	case PublicAsset:
		if folder == "" || folder == publicRoot {
			return place{root: publicRoot, id: team}, nil
		}
		if !named || p.root != publicRoot {
			return place{}, apperr.New(apperr.Invalid, "Public assets go to public/")
		}
	default:
		if folder == "" || folder == chatsRoot {
			return place{root: chatsRoot, id: team}, nil
		}
		if !named || p.root == publicRoot {
			return place{}, apperr.Invalidf("Folder %q is not an upload folder", folder)
		}
	}
	return p, nil
}

// checkOwner answers the one not-found error unless team owns p.
func (s *Service) checkOwner(ctx context.Context, scope Scope, team uuid.UUID, p place) error {
	owner := p.id
	if p.root == assignmentsRoot {
		var err error
		owner, err = store.Q.AssignmentTeamID(ctx, s.Pool, p.id)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("find the team of assignment %s: %w", p.id, err)
		}
	}
	if team == uuid.Nil || owner != team {
		return apperr.ErrNotFound
	}
	return nil
}

// SignedURL signs a GET for a file URL of this store for a teacher of team.
// Any other URL is refused: the server never signs or fetches an address a
// user chose. A file of another team, or one outside the key layout, is not
// found, exactly like a file that does not exist.
func (s *Service) SignedURL(ctx context.Context, team uuid.UUID, link string) (string, error) {
	if strings.TrimSpace(link) == "" {
		return "", apperr.New(apperr.Invalid, "link is required")
	}
	key, err := s.Blob.KeyFromURL(link)
	if err != nil {
		return "", apperr.Wrap(apperr.Invalid, "link is not a Markwell file URL", err)
	}
	p, rest, ok := parsePlace(key)
	if !ok || rest == "" {
		return "", apperr.ErrNotFound
	}
	if err := s.checkOwner(ctx, Teacher, team, p); err != nil {
		return "", err
	}
	u, err := s.Blob.PresignGet(ctx, key, s.TTL)
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return u, nil
}
