package library

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// maxNamedUsers is how many assignments the refusal of DeleteRubric names
// before "and N more".
const maxNamedUsers = 3

// DeleteRubric deletes a rubric of the actor's team that no assignment of
// the team uses. A rubric still used — by a rubric-feedback definition, or
// by a grade question, whose rubric the grading reads — is refused
// (apperr.Conflict, naming the assignments): deleting it would leave the
// graded work without the rubric its scores and the teacher's levels
// stand on.
//
// The rubric is locked first (LibraryLockRubric), so the check and the
// delete see the same uses: a definition saved at the same time either
// committed before the lock (and is found) or waits for it and then finds
// the rubric gone (not found).
func (s *Service) DeleteRubric(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if _, err := store.Q.LibraryLockRubric(ctx, tx, store.LibraryLockRubricParams{ID: id, TeamID: a.TeamID}); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return apperr.ErrNotFound
			}
			return fmt.Errorf("lock rubric %s: %w", id, err)
		}
		users, err := store.Q.LibraryRubricUsers(ctx, tx, store.LibraryRubricUsersParams{TeamID: a.TeamID, RubricID: id})
		if err != nil {
			return fmt.Errorf("list assignments using rubric %s: %w", id, err)
		}
		if len(users) > 0 {
			return apperr.New(apperr.Conflict, RubricInUseMessage(users))
		}
		n, err := store.Q.LibraryDeleteRubric(ctx, tx, store.LibraryDeleteRubricParams{ID: id, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("delete rubric %s: %w", id, err)
		}
		return store.Affected(n)
	})
}

// RubricInUseMessage is the refusal of DeleteRubric for a rubric the
// named assignments use: the first three names, then "and N more".
func RubricInUseMessage(names []string) string {
	quoted := make([]string, 0, maxNamedUsers+1)
	for i, n := range names {
		if i == maxNamedUsers {
			break
		}
		quoted = append(quoted, "“"+n+"”")
	}
	if rest := len(names) - len(quoted); rest > 0 {
		quoted = append(quoted, fmt.Sprintf("%d more", rest))
	}
	list := quoted[0]
	if len(quoted) > 1 {
		list = strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
	}
	them := "them"
	if len(names) == 1 {
		them = "it"
	}
	return fmt.Sprintf("This rubric is used by %s. Choose another rubric for %s or delete %s first.", list, them, them)
}
