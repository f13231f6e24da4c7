package files

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/store"
)

// statConcurrency bounds the stat requests one SubmissionFiles call sends
// to the blob store at once.
const statConcurrency = 8

// recordTeacherUpload records key as issued to a teacher of team (user, when
// known), under the assignment when p is an assignment's submissions
// folder. Without a database (Pool nil, tests that only sign URLs) nothing is
// recorded, and no submission can then name the file: it fails closed.
func (s *Service) recordTeacherUpload(ctx context.Context, team uuid.UUID, p place, key string, user uuid.UUID) error {
	if s.Pool == nil {
		return nil
	}
	params := store.FilesRecordUploadParams{Key: key, TeamID: team, UserID: uuid.NullUUID{UUID: user, Valid: user != uuid.Nil}}
	if p.root == assignmentsRoot {
		params.AssignmentID = uuid.NullUUID{UUID: p.id, Valid: true}
	}
	if err := store.Q.FilesRecordUpload(ctx, s.Pool, params); err != nil {
		return fmt.Errorf("record upload %s: %w", key, err)
	}
	return nil
}

// Claim is a file a client says it uploaded for a submission: Location is
// the blob key, or this store's file URL (the signed upload URL without, or
// with, its query string); Name names it in messages.
type Claim struct {
	Name     string
	Location string
}

// StoredFile is a claimed file proven to be an upload of the team to the
// assignment's submissions folder, and present in the store.
type StoredFile struct {
	Key         string
	ContentType string
	Size        int64
}

// Origin says whose uploads a submission may name.
type Origin int

// Origins of submission files.
const (
	// FromTeam accepts any key issued for the assignment: to one of the
	// team's teachers or through the assignment's student link.
	FromTeam Origin = iota
	// FromStudentLink accepts only keys issued through the assignment's
	// student link.
	FromStudentLink
)

// SubmissionFiles proves that each claim is a file of team's assignment and
// returns them in order. A location that is not a file of this store, a key
// outside an assignment's submissions folder, the same file twice, a file
// uploaded to another of the team's assignments or one that never finished
// uploading is invalid, with a message naming the file; a key never issued,
// issued to another team, or not of origin is not found, exactly like
// another team's assignment.
func (s *Service) SubmissionFiles(ctx context.Context, team, assignment uuid.UUID, origin Origin, claims []Claim) ([]StoredFile, error) {
	keys := make([]string, len(claims))
	places := make([]place, len(claims))
	seen := make(map[string]bool, len(claims))
	for i, c := range claims {
		key, err := s.locationKey(c.Location)
		if err != nil {
			return nil, apperr.Wrap(apperr.Invalid, fmt.Sprintf("%s is not a file uploaded to Markwell.", c.Name), err)
		}
		p, rest, ok := parsePlace(key)
		if !ok || p.root != assignmentsRoot || rest == "" {
			return nil, apperr.Invalidf("%s is not in an assignment's submissions folder.", c.Name)
		}
		if seen[key] {
			return nil, apperr.Invalidf("%s is listed twice.", c.Name)
		}
		seen[key] = true
		keys[i], places[i] = key, p
	}

	rows, err := store.Q.FilesUploads(ctx, s.Pool, keys)
	if err != nil {
		return nil, fmt.Errorf("load upload records: %w", err)
	}
	issued := make(map[string]store.BlobUpload, len(rows))
	for _, r := range rows {
		issued[r.Key] = r
	}
	for i, key := range keys {
		r, ok := issued[key]
		if !ok || r.TeamID != team || origin == FromStudentLink && !r.ByStudent {
			return nil, apperr.ErrNotFound
		}
		if r.AssignmentID != (uuid.NullUUID{UUID: assignment, Valid: true}) || places[i].id != assignment {
			return nil, apperr.Invalidf("%s was uploaded to another assignment.", claims[i].Name)
		}
	}
	return s.statAll(ctx, claims, keys)
}

// statAll asks the store for each key, a few at a time.
func (s *Service) statAll(ctx context.Context, claims []Claim, keys []string) ([]StoredFile, error) {
	out := make([]StoredFile, len(keys))
	errs := make([]error, len(keys))
	sem := make(chan struct{}, statConcurrency)
	var wg sync.WaitGroup
	for i, key := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			info, err := s.Blob.Stat(ctx, key)
			switch {
			case errors.Is(err, blob.ErrNotFound):
				errs[i] = apperr.Wrap(apperr.Invalid, fmt.Sprintf("%s has not finished uploading. Please upload it again.", claims[i].Name), err)
			case err != nil:
				errs[i] = fmt.Errorf("look up uploaded file %s: %w", key, err)
			default:
				out[i] = StoredFile{Key: key, ContentType: info.ContentType, Size: info.Size}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// locationKey turns a location into a key: a URL must be a file URL of this
// store; anything else is taken as a key, which parsePlace and the upload
// records then vouch for.
func (s *Service) locationKey(location string) (string, error) {
	location = strings.TrimSpace(location)
	if location == "" {
		return "", errors.New("empty location")
	}
	if strings.Contains(location, "://") {
		return s.Blob.KeyFromURL(location)
	}
	return location, nil
}
