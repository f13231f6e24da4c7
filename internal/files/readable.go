package files

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
)

// ReadableFiles proves that each claim names a file a teacher of team may
// have the server read back, such as a chat attachment, and returns them in
// order: a file in the team's chats/ folder or a submission file of one of
// the team's assignments, present in the store. A location that is not a
// file of this store (any outside URL: it is never fetched), a key outside
// those folders or a file that never finished uploading is invalid, with a
// message naming the file; a file of another team, or of an assignment that
// does not exist, is not found. Every claim is checked before any is
// stat'ed, so a refused call reads nothing.
func (s *Service) ReadableFiles(ctx context.Context, team uuid.UUID, claims []Claim) ([]StoredFile, error) {
	keys := make([]string, len(claims))
	places := make([]place, len(claims))
	for i, c := range claims {
		key, err := s.locationKey(c.Location)
		if err != nil {
			return nil, apperr.Wrap(apperr.Invalid, fmt.Sprintf("%s is not a file uploaded to Markwell.", c.Name), err)
		}
		p, rest, ok := parsePlace(key)
		if !ok || rest == "" || p.root == publicRoot {
			return nil, apperr.Invalidf("%s is not a chat attachment or a submission file.", c.Name)
		}
		keys[i], places[i] = key, p
	}
	owners := make(map[place]error, len(places))
	for _, p := range places {
		if _, done := owners[p]; done {
			continue
		}
		owners[p] = s.checkOwner(ctx, Teacher, team, p)
	}
	for _, p := range places {
		if err := owners[p]; err != nil {
			return nil, err
		}
	}
	return s.statAll(ctx, claims, keys)
}
