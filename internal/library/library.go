// Package library is a team's library of assignments, rubrics and folders:
// the listing, folder edits, deletes, duplicates, and sharing an item with a
// teacher of another team, who copies it through a notification. Every method
// takes the actor from the session; ids of other teams are answered as not
// found.
package library

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// MaxFolderName is the longest folder name, in characters.
const MaxFolderName = 200

// MaxFolders caps a team's folders: far more than a teacher keeps, few
// enough that one request cannot flood the table.
const MaxFolders = 500

// CopyPrefix starts the name of a duplicated assignment.
const CopyPrefix = "Copy of "

// Messages users see.
const (
	msgFolderNameEmpty   = "Folder name cannot be empty"
	msgFolderNameLong    = "Folder name can be at most 200 characters"
	msgFolderNameInvalid = "Folder name contains a character that is not allowed"
	msgFolderTwice       = "Each folder can appear only once"
	msgOneFolder         = "An assignment can sit in at most one folder"
)

// Service is the team library.
type Service struct {
	Pool *pgxpool.Pool
	// Jobs queues the deletion of a deleted assignment's files, in the
	// transaction that deletes it.
	Jobs *queue.Client
}

// Folder is a named group of assignment ids.
type Folder struct {
	ID          uuid.UUID   `json:"_id"`
	Name        string      `json:"name"`
	Assignments []uuid.UUID `json:"assignments"`
}

// FolderInput is one folder of the desired list UpdateFolders takes; a zero
// ID makes a new folder.
type FolderInput struct {
	ID          uuid.UUID
	Name        string
	Assignments []uuid.UUID
}

// Library is a team's whole library.
type Library struct {
	Assignments []assignment.Assignment `json:"assignments"`
	Rubrics     []rubric.Rubric         `json:"rubrics"`
	Folders     []Folder                `json:"folders"`
}

// Library lists the actor's team's assignments and rubrics, newest first,
// and its folders in their saved order.
func (s *Service) Library(ctx context.Context, a identity.Actor) (Library, error) {
	asg, err := store.Q.LibraryListAssignments(ctx, s.Pool, a.TeamID)
	if err != nil {
		return Library{}, fmt.Errorf("list assignments of team %s: %w", a.TeamID, err)
	}
	rub, err := store.Q.ListRubrics(ctx, s.Pool, a.TeamID)
	if err != nil {
		return Library{}, fmt.Errorf("list rubrics of team %s: %w", a.TeamID, err)
	}
	folders, err := s.folders(ctx, s.Pool, a.TeamID)
	if err != nil {
		return Library{}, err
	}
	out := Library{Assignments: make([]assignment.Assignment, len(asg)), Rubrics: make([]rubric.Rubric, len(rub)), Folders: folders}
	for i, r := range asg {
		out.Assignments[i] = assignment.FromRow(r.Assignment, r.SubmissionIds)
	}
	for i, r := range rub {
		if out.Rubrics[i], err = rubric.FromRow(r); err != nil {
			return Library{}, err
		}
	}
	return out, nil
}

// CreateFolder adds an empty folder at the end of the team's folders.
func (s *Service) CreateFolder(ctx context.Context, a identity.Actor, name string) (Folder, error) {
	name, err := folderName(name)
	if err != nil {
		return Folder{}, err
	}
	n, err := store.Q.LibraryCountFolders(ctx, s.Pool, a.TeamID)
	if err != nil {
		return Folder{}, fmt.Errorf("count folders: %w", err)
	}
	if n >= MaxFolders {
		return Folder{}, apperr.Invalidf("A team can have at most %d folders", MaxFolders)
	}
	f, err := store.Q.LibraryCreateFolder(ctx, s.Pool, store.LibraryCreateFolderParams{TeamID: a.TeamID, Name: name})
	if err != nil {
		return Folder{}, fmt.Errorf("create folder: %w", err)
	}
	return Folder{ID: f.ID, Name: f.Name, Assignments: []uuid.UUID{}}, nil
}

// UpdateFolders makes the team's folders the desired list, in its order: a
// folder left out is deleted (its assignments return to the top level), one
// without an id is created, names are updated, each listed assignment moves
// into its folder and every other assignment goes to the top level. Unknown
// or foreign ids are not found and change nothing.
func (s *Service) UpdateFolders(ctx context.Context, a identity.Actor, desired []FolderInput) ([]Folder, error) {
	if len(desired) > MaxFolders {
		return nil, apperr.Invalidf("A team can have at most %d folders", MaxFolders)
	}
	seenFolder := map[uuid.UUID]bool{}
	home := map[uuid.UUID]int{} // assignment → index of its folder
	var listed []uuid.UUID
	names := make([]string, len(desired))
	for i, f := range desired {
		name, err := folderName(f.Name)
		if err != nil {
			return nil, err
		}
		names[i] = name
		if f.ID != uuid.Nil {
			if seenFolder[f.ID] {
				return nil, apperr.New(apperr.Invalid, msgFolderTwice)
			}
			seenFolder[f.ID] = true
		}
		for _, id := range f.Assignments {
			if j, ok := home[id]; ok {
				if j != i {
					return nil, apperr.New(apperr.Invalid, msgOneFolder)
				}
				continue
			}
			home[id] = i
			listed = append(listed, id)
		}
	}
	var out []Folder
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if err := store.Q.LibraryLockTeam(ctx, tx, a.TeamID); err != nil {
			return fmt.Errorf("lock team %s: %w", a.TeamID, err)
		}
		existing, err := store.Q.LibraryFolderIDs(ctx, tx, a.TeamID)
		if err != nil {
			return fmt.Errorf("list folders: %w", err)
		}
		own := make(map[uuid.UUID]bool, len(existing))
		for _, id := range existing {
			own[id] = true
		}
		keep := []uuid.UUID{}
		for id := range seenFolder {
			if !own[id] {
				return apperr.ErrNotFound
			}
			keep = append(keep, id)
		}
		if listed == nil {
			listed = []uuid.UUID{}
		}
		n, err := store.Q.LibraryCountTeamAssignments(ctx, tx, store.LibraryCountTeamAssignmentsParams{TeamID: a.TeamID, Ids: listed})
		if err != nil {
			return fmt.Errorf("check assignments: %w", err)
		}
		if int(n) != len(listed) {
			return apperr.ErrNotFound
		}
		if _, err := store.Q.LibraryDeleteOtherFolders(ctx, tx, store.LibraryDeleteOtherFoldersParams{TeamID: a.TeamID, Keep: keep}); err != nil {
			return fmt.Errorf("delete folders: %w", err)
		}
		ids := make([]uuid.UUID, len(desired))
		for i, f := range desired {
			if f.ID == uuid.Nil {
				row, err := store.Q.LibraryInsertFolder(ctx, tx, store.LibraryInsertFolderParams{TeamID: a.TeamID, Name: names[i], Position: int32(i)})
				if err != nil {
					return fmt.Errorf("create folder: %w", err)
				}
				ids[i] = row.ID
				continue
			}
			ids[i] = f.ID
			if _, err := store.Q.LibraryUpdateFolder(ctx, tx, store.LibraryUpdateFolderParams{ID: f.ID, TeamID: a.TeamID, Name: names[i], Position: int32(i)}); err != nil {
				return fmt.Errorf("update folder %s: %w", f.ID, err)
			}
		}
		if err := store.Q.LibraryUnfileOthers(ctx, tx, store.LibraryUnfileOthersParams{TeamID: a.TeamID, Listed: listed}); err != nil {
			return fmt.Errorf("move assignments to the top level: %w", err)
		}
		for i, f := range desired {
			if len(f.Assignments) == 0 {
				continue
			}
			if err := store.Q.LibraryFileAssignments(ctx, tx, store.LibraryFileAssignmentsParams{
				TeamID: a.TeamID, FolderID: uuid.NullUUID{UUID: ids[i], Valid: true}, Ids: f.Assignments,
			}); err != nil {
				return fmt.Errorf("move assignments into folder %s: %w", ids[i], err)
			}
		}
		out, err = s.folders(ctx, tx, a.TeamID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteAssignment deletes an assignment of the actor's team with its
// definition, submissions and results. Its folder loses it. The files of
// its submissions (assignments/{id}/) go through a delete_blobs job queued
// in the same transaction, so they go even if the API stops right after.
func (s *Service) DeleteAssignment(ctx context.Context, a identity.Actor, id uuid.UUID) error {
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		n, err := store.Q.LibraryDeleteAssignment(ctx, tx, store.LibraryDeleteAssignmentParams{ID: id, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("delete assignment %s: %w", id, err)
		}
		if err := store.Affected(n); err != nil {
			return err
		}
		folder := "assignments/" + id.String() + "/"
		if _, err := s.Jobs.InsertTx(ctx, tx, queue.DeleteBlobsArgs{Prefix: folder}, nil); err != nil {
			return fmt.Errorf("enqueue deletion of %s: %w", folder, err)
		}
		return nil
	})
}

// Duplicate copies an assignment of the actor's team as "Copy of {name}" in
// the same folder, with a copy of its definition and no submissions.
func (s *Service) Duplicate(ctx context.Context, a identity.Actor, id uuid.UUID) (assignment.Assignment, error) {
	var out assignment.Assignment
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		src, err := store.Q.GetAssignment(ctx, tx, store.GetAssignmentParams{ID: id, TeamID: a.TeamID})
		if err != nil {
			return fmt.Errorf("load assignment %s: %w", id, store.NotFound(err))
		}
		cp, err := store.Q.CopyAssignment(ctx, tx, store.CopyAssignmentParams{
			TeamID:                 a.TeamID,
			FolderID:               src.FolderID,
			Name:                   copyName(src.Name),
			Type:                   src.Type,
			IsHandWritten:          src.IsHandWritten,
			ProvideInstantFeedback: src.ProvideInstantFeedback,
			CreatedBy:              uuid.NullUUID{UUID: a.UserID, Valid: true},
		})
		if err != nil {
			return fmt.Errorf("copy assignment %s: %w", id, err)
		}
		fn, err := store.Q.GetAssignmentFunction(ctx, tx, store.GetAssignmentFunctionParams{AssignmentID: id, TeamID: a.TeamID})
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// Not defined yet: the copy is not either.
		case err != nil:
			return fmt.Errorf("load function of assignment %s: %w", id, err)
		default:
			if _, err := store.Q.CreateFunction(ctx, tx, copyFunctionParams(fn, a.TeamID, cp.ID, fn.RubricID, fn.Questions)); err != nil {
				return fmt.Errorf("copy function of assignment %s: %w", id, err)
			}
		}
		out = assignment.FromRow(cp, nil)
		return nil
	})
	return out, err
}

func (s *Service) folders(ctx context.Context, db store.DBTX, teamID uuid.UUID) ([]Folder, error) {
	rows, err := store.Q.TeamFolders(ctx, db, teamID)
	if err != nil {
		return nil, fmt.Errorf("list folders of team %s: %w", teamID, err)
	}
	out := make([]Folder, len(rows))
	for i, f := range rows {
		out[i] = Folder{ID: f.ID, Name: f.Name, Assignments: f.AssignmentIds}
	}
	return out, nil
}

func folderName(s string) (string, error) {
	s = input.Name(s)
	switch {
	case s == "":
		return "", apperr.New(apperr.Invalid, msgFolderNameEmpty)
	case utf8.RuneCountInString(s) > MaxFolderName:
		return "", apperr.New(apperr.Invalid, msgFolderNameLong)
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		return "", apperr.New(apperr.Invalid, msgFolderNameInvalid)
	}
	return s, nil
}

func copyFunctionParams(fn store.Function, teamID, assignmentID uuid.UUID, rubricID uuid.NullUUID, questions json.RawMessage) store.CreateFunctionParams {
	return store.CreateFunctionParams{
		TeamID:       teamID,
		AssignmentID: assignmentID,
		Type:         fn.Type,
		Highlights:   fn.Highlights,
		Context:      fn.Context,
		Questions:    questions,
		RubricID:     rubricID,
		Prompt:       fn.Prompt,
	}
}

// copyName is "Copy of {name}", cut to the longest assignment name.
func copyName(name string) string {
	r := []rune(CopyPrefix + name)
	if len(r) > assignment.MaxNameLength {
		r = r[:assignment.MaxNameLength]
	}
	return strings.TrimSpace(string(r))
}
