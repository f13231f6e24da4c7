// Package files signs uploads and downloads: it turns a client's file name
// into a safe, unguessable key in an allowed folder, and a file URL back into
// a short-lived signed URL, refusing URLs that are not the store's own.
package files

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/storage"
	"github.com/markwell/markwell/internal/store"
)

// Service signs file URLs.
type Service struct {
	Blob storage.Blob
	TTL  time.Duration
	// Pool answers which team an assignment belongs to, so that a team's
	// submission files stay with that team.
	Pool *pgxpool.Pool
}

// checkAssignmentFolder lets a key under assignments/{id}/ through only when
// the assignment exists and, for a teacher (team not Nil), is their team's.
// Other teams' assignments are not found, like everything else of theirs.
func (s *Service) checkAssignmentFolder(ctx context.Context, team uuid.UUID, key string) error {
	rest, ok := strings.CutPrefix(key, "assignments/")
	if !ok {
		return nil
	}
	idText, _, _ := strings.Cut(rest, "/")
	id, err := uuid.Parse(idText)
	if err != nil {
		return apperr.ErrNotFound
	}
	owner, err := store.Q.AssignmentTeamID(ctx, s.Pool, id)
	if err != nil {
		return apperr.Wrap(apperr.NotFound, "Not found", err)
	}
	if team != uuid.Nil && owner != team {
		return apperr.ErrNotFound
	}
	return nil
}

// Upload is a signed upload: PUT the bytes to SignedURL; FileURL is the
// file's permanent address.
type Upload struct {
	SignedURL string `json:"signedUrl"`
	FileURL   string `json:"fileUrl"`
	Key       string `json:"key"`
}

// Scope says who uploads, which limits where.
type Scope int

// Scopes of upload routes.
const (
	// Teacher uploads may go to any upload folder.
	Teacher Scope = iota
	// Student uploads go only to an assignment's submissions folder.
	Student
	// PublicAsset uploads go to public/.
	PublicAsset
)

// PresignUpload validates a client's fileName (with an optional folder
// prefix) and fileType, and signs a PUT for it. team is the uploading
// teacher's team, or uuid.Nil for a student.
func (s *Service) PresignUpload(ctx context.Context, scope Scope, team uuid.UUID, fileName, fileType string) (Upload, error) {
	fileName, fileType = strings.TrimSpace(fileName), strings.TrimSpace(fileType)
	if fileName == "" || fileType == "" {
		return Upload{}, apperr.New(apperr.Invalid, "fileName and fileType are required")
	}
	folder, base := storage.SplitFolder(fileName)
	switch scope {
	case Student:
		if !strings.HasPrefix(folder, "assignments/") {
			return Upload{}, apperr.New(apperr.Invalid, "Student uploads must go to assignments/{id}/submissions/")
		}
	case PublicAsset:
		if folder != "" && folder != "public/" {
			return Upload{}, apperr.New(apperr.Invalid, "Public assets go to public/")
		}
		folder = "public/"
	}
	key, err := storage.NewKey(folder, base)
	if err != nil {
		if errors.Is(err, storage.ErrInvalidFolder) {
			return Upload{}, apperr.Invalidf("Folder %q is not an upload folder", folder)
		}
		return Upload{}, fmt.Errorf("new key for %q: %w", fileName, err)
	}
	if err := s.checkAssignmentFolder(ctx, team, key); err != nil {
		return Upload{}, err
	}
	signed, err := s.Blob.PresignPut(ctx, key, fileType, s.TTL)
	if err != nil {
		if errors.Is(err, storage.ErrInvalidContentType) {
			return Upload{}, apperr.Invalidf("fileType %q is not a valid media type", fileType)
		}
		return Upload{}, fmt.Errorf("presign put %s: %w", key, err)
	}
	return Upload{SignedURL: signed, FileURL: s.Blob.FileURL(key), Key: key}, nil
}

// SignedURL signs a GET for a file URL of this store for a teacher of team.
// Any other URL is refused: the server never signs or fetches an address a
// user chose.
func (s *Service) SignedURL(ctx context.Context, team uuid.UUID, link string) (string, error) {
	if strings.TrimSpace(link) == "" {
		return "", apperr.New(apperr.Invalid, "link is required")
	}
	key, err := s.Blob.KeyFromURL(link)
	if err != nil {
		return "", apperr.Wrap(apperr.Invalid, "link is not a Markwell file URL", err)
	}
	if err := s.checkAssignmentFolder(ctx, team, key); err != nil {
		return "", err
	}
	u, err := s.Blob.PresignGet(ctx, key, s.TTL)
	if err != nil {
		return "", fmt.Errorf("presign get %s: %w", key, err)
	}
	return u, nil
}
