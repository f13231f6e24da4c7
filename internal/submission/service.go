package submission

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// Upload is one uploaded file a teacher adds: its location (the blob key,
// or the file URL the client PUT to) and a name (the file's name when
// empty). A file the teacher picked that could not be uploaded (empty, too
// large, of a type Markwell cannot read) has no location and an Error, the
// sentence that says why: it is kept as a failed submission with that
// reason, so the student it stands for is not forgotten.
type Upload struct {
	Name     string `json:"name"`
	Location string `json:"location"`
	Error    string `json:"error,omitempty"`
}

// MaxRefusalLength caps the reason of a file that could not be uploaded.
const MaxRefusalLength = 500

// UpdateInput is a teacher's batch of uploaded files for an assignment
// (db/assignment/update-submissions).
type UpdateInput struct {
	AssignmentID uuid.UUID
	Submissions  []Upload
	// SubmissionRole is "teacher" (or empty).
	SubmissionRole string
	// Type, when not empty, must be the assignment's type.
	Type string
	// Readers are the readers the client thinks each file needs.
	Readers
	// IsHandWritten marks the files handwritten (so does the assignment's
	// own switch).
	IsHandWritten bool
}

// UpdateSubmissions adds a teacher's uploaded files to an assignment: each
// location must be a file the team uploaded to this assignment's
// submissions folder (see files.Service.SubmissionFiles). It creates them
// all, or nothing.
func (s *Service) UpdateSubmissions(ctx context.Context, a identity.Actor, in UpdateInput) ([]Submission, []assignment.FunctionResult, error) {
	switch {
	case len(in.Submissions) == 0:
		return nil, nil, apperr.New(apperr.Invalid, MsgNoFiles)
	case len(in.Submissions) > MaxPerUpload:
		return nil, nil, apperr.New(apperr.Invalid, MsgTooManyFiles)
	case in.SubmissionRole != "" && in.SubmissionRole != RoleTeacher:
		return nil, nil, apperr.New(apperr.Invalid, MsgTeacherRole)
	}
	var claims []files.Claim
	refusals := map[int]string{} // position in in.Submissions → reason
	for i, u := range in.Submissions {
		loc := strings.TrimSpace(u.Location)
		reason := strings.TrimSpace(u.Error)
		switch {
		case reason != "" && loc != "":
			return nil, nil, apperr.New(apperr.Invalid, MsgRefusedWithFile)
		case reason == "" && loc == "":
			return nil, nil, apperr.New(apperr.Invalid, MsgNoLocation)
		}
		name := input.Name(u.Name)
		if name == "" {
			name = FileName(loc)
		}
		if name == "" {
			return nil, nil, apperr.New(apperr.Invalid, MsgNameEmpty)
		}
		if err := errors.Join(input.Length("Name", name, input.MaxName), input.Length("Reason", reason, MaxRefusalLength)); err != nil {
			return nil, nil, err
		}
		if reason != "" {
			refusals[i] = reason
		}
		claims = append(claims, files.Claim{Name: name, Location: loc})
	}

	asg, err := s.assignment(ctx, s.Pool, a, in.AssignmentID, in.Type)
	if err != nil {
		return nil, nil, err
	}
	// Only the files that did upload are the team's to prove.
	var uploaded []files.Claim
	for i, c := range claims {
		if _, refused := refusals[i]; !refused {
			uploaded = append(uploaded, c)
		}
	}
	stored := []files.StoredFile{}
	if len(uploaded) > 0 {
		if stored, err = s.Files.SubmissionFiles(ctx, a.TeamID, asg.ID, files.FromTeam, uploaded); err != nil {
			return nil, nil, err
		}
		if err := s.notAddedYet(ctx, uploaded, stored); err != nil {
			return nil, nil, err
		}
	}
	subs := make([]NewSubmission, len(claims))
	next := 0 // the next of stored
	for i, c := range claims {
		subs[i] = NewSubmission{
			Name: c.Name, Source: SourceUpload, Role: RoleTeacher, ReaderHint: in.Hint(i),
			IsHandWritten: in.IsHandWritten || asg.IsHandWritten,
		}
		if _, refused := refusals[i]; !refused {
			subs[i].Key, subs[i].ContentType = stored[next].Key, stored[next].ContentType
			next++
		}
	}
	var out []Submission
	var results []assignment.FunctionResult
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		out, results, err = s.CreateTx(ctx, tx, a.TeamID, asg, subs)
		if err != nil {
			return err
		}
		if err := s.replaceFailedUploads(ctx, tx, a.TeamID, asg.ID, uploaded, out); err != nil {
			return err
		}
		if len(refusals) == 0 {
			return nil
		}
		ids, reasons := make([]uuid.UUID, 0, len(refusals)), make([]string, 0, len(refusals))
		for i, reason := range refusals {
			out[i].Status, out[i].Error, out[i].Preview = StatusFailed, reason, ""
			ids, reasons = append(ids, out[i].ID), append(reasons, reason)
		}
		return store.Q.RefuseSubmissions(ctx, tx, store.RefuseSubmissionsParams{TeamID: a.TeamID, Ids: ids, Reasons: reasons})
	})
	if err != nil {
		return nil, nil, err
	}
	return out, results, nil
}

// replaceFailedUploads deletes the failed rows of earlier files that could
// not be uploaded when a file of the same name now arrived (the teacher
// tried again): the new row stands for that student, instead of a failed
// twin that the count and the export would still hold.
func (s *Service) replaceFailedUploads(ctx context.Context, tx pgx.Tx, teamID, assignmentID uuid.UUID, uploaded []files.Claim, created []Submission) error {
	if len(uploaded) == 0 {
		return nil
	}
	names := make([]string, len(uploaded))
	for i, c := range uploaded {
		names[i] = c.Name
	}
	ids := make([]uuid.UUID, len(created))
	for i, c := range created {
		ids[i] = c.ID
	}
	failed, err := store.Q.FailedUploadsNamed(ctx, tx, store.FailedUploadsNamedParams{TeamID: teamID, AssignmentID: assignmentID, Names: names, Created: ids})
	if err != nil {
		return fmt.Errorf("find failed uploads: %w", err)
	}
	if len(failed) == 0 {
		return nil
	}
	if _, err := store.Q.DeleteSubmissions(ctx, tx, store.DeleteSubmissionsParams{TeamID: teamID, AssignmentID: assignmentID, Ids: failed}); err != nil {
		return fmt.Errorf("delete %d failed uploads: %w", len(failed), err)
	}
	return nil
}

// notAddedYet refuses a file that is already a submission (a batch sent
// twice, say after a lost answer).
func (s *Service) notAddedYet(ctx context.Context, claims []files.Claim, stored []files.StoredFile) error {
	keys := make([]string, len(stored))
	for i, f := range stored {
		keys[i] = f.Key
	}
	used, err := store.Q.SubmissionKeysInUse(ctx, s.Pool, keys)
	if err != nil {
		return fmt.Errorf("find files already added: %w", err)
	}
	for i, key := range keys {
		if slices.Contains(used, key) {
			return apperr.Invalidf(MsgAlreadyAdded, claims[i].Name)
		}
	}
	return nil
}

// Readers are the readers a client thinks each of its files needs, one flag
// per file, as the spec's requires…Array fields send them. They are hints
// only: the worker reads the file's bytes.
type Readers struct {
	RequiresTextract  []bool `json:"requiresTextractArray"`
	RequiresPDFRead   []bool `json:"requiresPDFReadArray"`
	RequiresImageRead []bool `json:"requiresImageReadArray"`
}

// Hint is the reader flagged for file i (ReaderPDF, ReaderImage,
// ReaderTextract, or "" when none is).
func (r Readers) Hint(i int) string {
	flagged := func(flags []bool) bool { return i < len(flags) && flags[i] }
	switch {
	case flagged(r.RequiresPDFRead):
		return ReaderPDF
	case flagged(r.RequiresImageRead):
		return ReaderImage
	case flagged(r.RequiresTextract):
		return ReaderTextract
	}
	return ""
}

// assignment loads an assignment of the actor's team; typ, when not empty,
// must be its type.
func (s *Service) assignment(ctx context.Context, db store.DBTX, a identity.Actor, id uuid.UUID, typ string) (store.Assignment, error) {
	asg, err := store.Q.GetAssignment(ctx, db, store.GetAssignmentParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return store.Assignment{}, store.NotFound(fmt.Errorf("load assignment %s: %w", id, err))
	}
	if typ != "" && typ != string(asg.Type) {
		return store.Assignment{}, apperr.New(apperr.Invalid, MsgTypeMismatch)
	}
	return asg, nil
}

// List returns an assignment's submissions, oldest first, with a preview of
// their text and not the text itself.
func (s *Service) List(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]Submission, error) {
	if _, err := s.assignment(ctx, s.Pool, a, assignmentID, ""); err != nil {
		return nil, err
	}
	return s.ListLoaded(ctx, a, assignmentID)
}

// ListLoaded is List for a caller that has just loaded the assignment in
// the actor's team (assignment/get): it skips loading it again. The query
// is scoped to the team all the same; an unknown id lists nothing.
func (s *Service) ListLoaded(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]Submission, error) {
	rows, err := store.Q.ListSubmissions(ctx, s.Pool, store.ListSubmissionsParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, fmt.Errorf("list submissions of assignment %s: %w", assignmentID, err)
	}
	return loaded(rows), nil
}

// ListForSorting is ListLoaded with only what the submissions table
// filters, counts and sorts by (not the preview, the file or the text): a
// year group's table reads the whole class this way, then its page's rows
// whole (ListLoadedByIDs).
func (s *Service) ListForSorting(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]Submission, error) {
	rows, err := store.Q.ListSubmissionSortFields(ctx, s.Pool, store.ListSubmissionSortFieldsParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return nil, fmt.Errorf("list submissions of assignment %s: %w", assignmentID, err)
	}
	out := make([]Submission, len(rows))
	for i, r := range rows {
		out[i] = Submission{
			ID: r.ID, AssignmentID: assignmentID, Name: r.Name, StudentName: r.StudentName, StudentEmail: r.StudentEmail,
			Source: r.Source, Status: r.ExtractStatus, PageCount: int(r.PageCount), CreatedAt: r.CreatedAt,
		}
	}
	return out, nil
}

// ListLoadedByIDs is ListLoaded restricted to the submissions named by ids
// (those of the assignment): a poll's delta.
func (s *Service) ListLoadedByIDs(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]Submission, error) {
	if len(ids) == 0 {
		return []Submission{}, nil
	}
	rows, err := store.Q.ListSubmissionsByIDs(ctx, s.Pool, store.ListSubmissionsByIDsParams{AssignmentID: assignmentID, TeamID: a.TeamID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("list submissions of assignment %s: %w", assignmentID, err)
	}
	same := make([]store.ListSubmissionsRow, len(rows))
	for i, r := range rows {
		same[i] = store.ListSubmissionsRow(r)
	}
	return loaded(same), nil
}

// loaded turns the submissions table's rows into their API shape.
func loaded(rows []store.ListSubmissionsRow) []Submission {
	out := make([]Submission, len(rows))
	for i, r := range rows {
		out[i] = Submission{
			ID: r.ID, AssignmentID: r.AssignmentID, Name: r.Name, Location: r.FileKey,
			StudentName: r.StudentName, StudentEmail: r.StudentEmail, SubmissionRole: string(r.Role),
			Source: r.Source, Status: r.ExtractStatus, Error: r.ExtractError, Preview: r.Preview,
			PageCount: int(r.PageCount), IsHandWritten: r.IsHandWritten,
			Attempt: int(r.Attempt), PreviousSubmissionID: previous(r.PreviousSubmissionID),
			ContentHash: r.ContentSha256, DoubtfulPages: ints(r.DoubtfulPages),
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Stamp: r.ChangedXid.Uint64,
		}
	}
	return out
}

// Get returns a submission of the actor's team with its text and pages.
func (s *Service) Get(ctx context.Context, a identity.Actor, id uuid.UUID) (Detail, error) {
	row, err := store.Q.GetSubmission(ctx, s.Pool, store.GetSubmissionParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return Detail{}, store.NotFound(fmt.Errorf("load submission %s: %w", id, err))
	}
	return detailFromRow(row)
}

// GetViewOnly is Get for the view-only page: the same for a teacher of the
// team.
func (s *Service) GetViewOnly(ctx context.Context, a identity.Actor, id uuid.UUID) (Detail, error) {
	return s.Get(ctx, a, id)
}

// Changes are the fields of a submission a teacher may change; nil leaves a
// field as it is, and an empty email clears it.
type Changes struct {
	Name         *string `json:"name"`
	StudentName  *string `json:"studentName"`
	StudentEmail *string `json:"studentEmail"`
}

// Update changes a submission's name, student name or student email.
func (s *Service) Update(ctx context.Context, a identity.Actor, id uuid.UUID, c Changes) (Submission, error) {
	if c.Name == nil && c.StudentName == nil && c.StudentEmail == nil {
		return Submission{}, apperr.New(apperr.Invalid, MsgNothingToUpdate)
	}
	var p store.UpdateSubmissionDetailsParams
	if c.Name != nil {
		name := input.Name(*c.Name)
		if name == "" {
			return Submission{}, apperr.New(apperr.Invalid, MsgNameEmpty)
		}
		if err := input.Length("Name", name, input.MaxName); err != nil {
			return Submission{}, err
		}
		p.Name = &name
	}
	if c.StudentName != nil {
		name := input.Name(*c.StudentName)
		if err := input.Length("Student name", name, input.MaxName); err != nil {
			return Submission{}, err
		}
		p.StudentName = &name
	}
	if c.StudentEmail != nil {
		email, err := Email(*c.StudentEmail)
		if err != nil {
			return Submission{}, err
		}
		p.StudentEmail = &email
	}
	p.ID, p.TeamID = id, a.TeamID
	row, err := store.Q.UpdateSubmissionDetails(ctx, s.Pool, p)
	if err != nil {
		return Submission{}, store.NotFound(fmt.Errorf("update submission %s: %w", id, err))
	}
	return fromRow(row), nil
}

// DeleteInput names the submissions of one assignment to delete and,
// optionally, their function results (which go with them anyway).
type DeleteInput struct {
	AssignmentID  uuid.UUID
	SubmissionIDs []uuid.UUID
	ResultIDs     []uuid.UUID
	// Type, when not empty, must be the assignment's type.
	Type string
}

// Delete deletes submissions of an assignment with their function results,
// cancels their unfinished jobs and queues the deletion of their files, all
// in one transaction. Any id that is not a submission of the assignment (or
// a result of one of them) is not found, and nothing is deleted.
func (s *Service) Delete(ctx context.Context, a identity.Actor, in DeleteInput) (int, error) {
	ids := unique(in.SubmissionIDs)
	switch {
	case len(ids) == 0:
		return 0, apperr.New(apperr.Invalid, MsgNoneToDelete)
	case len(ids) > MaxPerDelete:
		return 0, apperr.New(apperr.Invalid, MsgTooManyToDelete)
	}
	var deleted int
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		asg, err := s.assignment(ctx, tx, a, in.AssignmentID, in.Type)
		if err != nil {
			return err
		}
		if results := unique(in.ResultIDs); len(results) > 0 {
			n, err := store.Q.CountSubmissionResults(ctx, tx, store.CountSubmissionResultsParams{TeamID: a.TeamID, Ids: results, SubmissionIds: ids})
			if err != nil {
				return fmt.Errorf("check function results: %w", err)
			}
			if n != int64(len(results)) {
				return apperr.ErrNotFound
			}
		}
		rows, err := store.Q.DeleteSubmissions(ctx, tx, store.DeleteSubmissionsParams{TeamID: a.TeamID, AssignmentID: asg.ID, Ids: ids})
		if err != nil {
			return fmt.Errorf("delete submissions of assignment %s: %w", asg.ID, err)
		}
		if len(rows) != len(ids) {
			return apperr.ErrNotFound // rolls back the rows that were found
		}
		if err := s.cancelJobs(ctx, tx, ids); err != nil {
			return err
		}
		if err := s.deleteFilesLater(ctx, tx, asg.ID, rows); err != nil {
			return err
		}
		deleted = len(rows)
		return nil
	})
	return deleted, err
}

// cancelJobs cancels the unfinished jobs that work on the submissions.
func (s *Service) cancelJobs(ctx context.Context, tx pgx.Tx, ids []uuid.UUID) error {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id.String()
	}
	pending, err := store.Q.PendingSubmissionJobs(ctx, tx, names)
	if err != nil {
		return fmt.Errorf("find jobs of %d submissions: %w", len(ids), err)
	}
	for _, job := range pending {
		if _, err := s.Jobs.JobCancelTx(ctx, tx, job); err != nil && !errors.Is(err, river.ErrNotFound) {
			return fmt.Errorf("cancel job %d: %w", job, err)
		}
	}
	return nil
}

// deleteFilesLater queues the deletion of the deleted rows' files that are
// in the assignment's folder and that no remaining submission names, and of
// the page images and answer crops made from them.
func (s *Service) deleteFilesLater(ctx context.Context, tx pgx.Tx, assignmentID uuid.UUID, rows []store.DeleteSubmissionsRow) error {
	folder := "assignments/" + assignmentID.String() + "/"
	var keys, prefixes []string
	for _, r := range rows {
		if strings.HasPrefix(r.FileKey, folder) && !slices.Contains(keys, r.FileKey) {
			keys = append(keys, r.FileKey)
		}
		pages, crops := files.DerivedFolders(assignmentID, r.ID)
		prefixes = append(prefixes, pages, crops)
	}
	if len(keys) > 0 {
		used, err := store.Q.SubmissionKeysInUse(ctx, tx, keys)
		if err != nil {
			return fmt.Errorf("find files still in use: %w", err)
		}
		keys = slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(used, k) })
	}
	if len(keys) == 0 && len(prefixes) == 0 {
		return nil
	}
	if _, err := s.Jobs.InsertTx(ctx, tx, queue.DeleteBlobsArgs{Keys: keys, Prefixes: prefixes}, nil); err != nil {
		return fmt.Errorf("enqueue deletion of %d files: %w", len(keys), err)
	}
	return nil
}

// unique drops repeated ids, keeping the first of each.
func unique(ids []uuid.UUID) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(ids))
	seen := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
