// Package release publishes finished results to their students: a private,
// revocable link per submission (PUBLIC_URL/results/<token>) that opens the
// student's read-only result page from any device, and, when SMTP is set
// up, an email carrying it (the send_result_email job). Teacher methods
// take the actor from the session, and ids of other teams are not found; a
// student reaches a release only through its token (Resolve).
package release

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// The messages a teacher sees.
const (
	MsgNothingToRelease = "Nothing to release: only graded, annotated or reviewed results can be released."
	MsgNoneReviewed     = "Nothing to release: no result of this assignment is reviewed yet. Select the rows to release instead."
	MsgEmailOff         = "Email is not set up on this server: copy the links or download the list instead."
	MsgChooseRows       = "Choose the rows to revoke."
	// MsgNotReleased answers a student whose feedback is not released yet.
	MsgNotReleased = "Your teacher has not released your feedback yet."
)

// Release states and email states (the Release's State and Email).
const (
	StateNotReleased = "not-released"
	StateReleased    = "released"
	StateRevoked     = "revoked"

	EmailNone    = "none"
	EmailQueued  = "queued"
	EmailSent    = "sent"
	EmailBounced = "bounced"
	EmailFailed  = "failed"
)

// Release is one submission's release as its teacher sees it. Link is
// there only while the release is live.
type Release struct {
	SubmissionID uuid.UUID  `json:"submissionId"`
	StudentName  string     `json:"studentName"`
	StudentEmail string     `json:"studentEmail"`
	State        string     `json:"state"`
	Link         string     `json:"link,omitempty"`
	ReleasedAt   *time.Time `json:"releasedAt,omitempty"`
	RevokedAt    *time.Time `json:"revokedAt,omitempty"`
	Email        string     `json:"email"`
	EmailError   string     `json:"emailError,omitempty"`
	EmailedAt    *time.Time `json:"emailedAt,omitempty"`
}

// Service releases results and revokes them.
type Service struct {
	Pool *pgxpool.Pool
	// Jobs queues send_result_email in the release's transaction.
	Jobs *queue.Client
	// Links makes and recognises release tokens.
	Links Links
	// EmailEnabled says SMTP is configured: without it sendEmail is refused.
	EmailEnabled bool
}

// Input is a release request: the given submissions of the assignment, or
// with none every reviewed result; SendEmail queues an email to each
// released student with a known address (again for one already released).
type Input struct {
	AssignmentID  uuid.UUID
	SubmissionIDs []uuid.UUID
	SendEmail     bool
	// InTx, when set, runs in the release's transaction after the rows are
	// released, with their releases (links included): work queued there
	// (the LTI scores) commits with the release or not at all.
	InTx func(ctx context.Context, tx pgx.Tx, released []Release) error
}

// Outcome is what a release did: the releases of the rows it released and
// how many rows it skipped, in all and by reason.
type Outcome struct {
	Releases []Release `json:"releases"`
	// Skipped is every row left out: SkippedNotReviewed + SkippedNotGraded.
	Skipped int `json:"skipped"`
	// SkippedNotReviewed are finished results (graded, annotated) left out
	// because releasing all takes only reviewed ones.
	SkippedNotReviewed int `json:"skippedNotReviewed"`
	// SkippedNotGraded are results not finished: still grading, failed, or
	// none yet.
	SkippedNotGraded int `json:"skippedNotGraded"`
}

// skips counts the rows a release left out, by reason.
type skips struct{ notReviewed, notGraded int }

// add counts a row left out in status.
func (k *skips) add(status string) {
	if assignment.Finished(status) {
		k.notReviewed++
	} else {
		k.notGraded++
	}
}

// List returns one Release per submission of one of the actor's
// assignments, released or not.
func (s *Service) List(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]Release, error) {
	return s.list(ctx, a, assignmentID, nil)
}

// list is List of the given submissions, or of all with nil.
func (s *Service) list(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]Release, error) {
	rows, err := s.rows(ctx, s.Pool, a, assignmentID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Release, len(rows))
	for i, r := range rows {
		out[i] = s.view(r)
	}
	return out, nil
}

// ListOf is List for the given submissions of the assignment only, in the
// same order: what a page of the submissions table shows, and what a
// release or revoke answers. Ids that are not submissions of the
// assignment are left out.
func (s *Service) ListOf(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]Release, error) {
	if ids == nil {
		ids = []uuid.UUID{} // none, not all
	}
	return s.list(ctx, a, assignmentID, ids)
}

// rows are an assignment's submissions with their releases (the given
// ones only, or all with nil ids); not found for an assignment of another
// team.
func (s *Service) rows(ctx context.Context, db store.DBTX, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]store.ListReleaseRowsRow, error) {
	if _, err := store.Q.GetAssignment(ctx, db, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID}); err != nil {
		return nil, store.NotFound(fmt.Errorf("assignment %s: %w", assignmentID, err))
	}
	rows, err := store.Q.ListReleaseRows(ctx, db, store.ListReleaseRowsParams{AssignmentID: assignmentID, TeamID: a.TeamID, SubmissionIds: ids})
	if err != nil {
		return nil, fmt.Errorf("list releases of assignment %s: %w", assignmentID, err)
	}
	return rows, nil
}

// view is a row as its teacher sees it.
func (s *Service) view(r store.ListReleaseRowsRow) Release {
	out := Release{
		SubmissionID: r.SubmissionID, StudentName: studentName(r.StudentName, r.Name), StudentEmail: r.StudentEmail,
		State: StateNotReleased, Email: r.EmailState, EmailError: r.EmailError, EmailedAt: r.EmailedAt,
	}
	switch {
	case r.ReleasedAt == nil:
	case r.RevokedAt != nil:
		out.State, out.ReleasedAt, out.RevokedAt = StateRevoked, r.ReleasedAt, r.RevokedAt
	default:
		out.State, out.ReleasedAt, out.Link = StateReleased, r.ReleasedAt, s.Links.URL(s.Links.Token(r.TokenNonce))
	}
	return out
}

// studentName is the name a release shows: the student's, else the
// submission's (a teacher upload named after its file).
func studentName(student, submission string) string {
	if student != "" {
		return student
	}
	return submission
}

// Release releases results of one of the actor's assignments (see Input).
// A row released already keeps its link; a revoked one gets a new link.
// Only finished results (graded, annotated, reviewed) are released; the
// others are skipped and counted. Ids not of the assignment (another
// team's) are not found, and nothing is released. The email jobs, and
// whatever in.InTx queues, are queued in the same transaction as the
// releases.
func (s *Service) Release(ctx context.Context, a identity.Actor, in Input) (Outcome, error) {
	if in.SendEmail && !s.EmailEnabled {
		return Outcome{}, apperr.New(apperr.Invalid, MsgEmailOff)
	}
	var released []uuid.UUID
	var skipped skips
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if _, err := s.rows(ctx, tx, a, in.AssignmentID, nil); err != nil {
			return err
		}
		if err := store.Q.LockReleases(ctx, tx, in.AssignmentID.String()); err != nil {
			return fmt.Errorf("lock releases: %w", err)
		}
		rows, err := s.rows(ctx, tx, a, in.AssignmentID, nil) // again, under the lock
		if err != nil {
			return err
		}
		targets, n, err := choose(rows, in.SubmissionIDs)
		if err != nil {
			return err
		}
		skipped = n
		for _, r := range targets {
			releasedAt := r.ReleasedAt
			if r.ReleasedAt == nil || r.RevokedAt != nil {
				nonce := newNonce()
				at, err := store.Q.PutRelease(ctx, tx, store.PutReleaseParams{
					SubmissionID: r.SubmissionID, TeamID: a.TeamID, AssignmentID: in.AssignmentID,
					TokenNonce: nonce, TokenHash: hashToken(s.Links.Token(nonce)),
					ReleasedBy: uuid.NullUUID{UUID: a.UserID, Valid: a.UserID != uuid.Nil},
				})
				if err != nil {
					return fmt.Errorf("release submission %s: %w", r.SubmissionID, err)
				}
				releasedAt = &at
			}
			released = append(released, r.SubmissionID)
			if in.SendEmail && r.StudentEmail != "" {
				if err := s.queueEmail(ctx, tx, a, r, *releasedAt); err != nil {
					return err
				}
			}
		}
		if in.InTx == nil || len(released) == 0 {
			return nil
		}
		rows, err = s.rows(ctx, tx, a, in.AssignmentID, nil)
		if err != nil {
			return err
		}
		views := make([]Release, len(rows))
		for i, r := range rows {
			views[i] = s.view(r)
		}
		return in.InTx(ctx, tx, only(views, released))
	})
	if err != nil {
		return Outcome{}, err
	}
	releases, err := s.ListOf(ctx, a, in.AssignmentID, released)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Releases: releases, Skipped: skipped.notReviewed + skipped.notGraded,
		SkippedNotReviewed: skipped.notReviewed, SkippedNotGraded: skipped.notGraded}, nil
}

// choose picks the rows to release: the given ids' finished results, or
// without ids every reviewed result; it counts the rows left out by
// reason. An id that is not a submission of the assignment is not found;
// none to release is a bad request.
func choose(rows []store.ListReleaseRowsRow, ids []uuid.UUID) ([]store.ListReleaseRowsRow, skips, error) {
	var out []store.ListReleaseRowsRow
	var skipped skips
	if len(ids) == 0 {
		for _, r := range rows {
			if r.ResultStatus == "reviewed" {
				out = append(out, r)
			} else {
				skipped.add(r.ResultStatus)
			}
		}
		if len(out) == 0 {
			return nil, skips{}, apperr.New(apperr.Invalid, MsgNoneReviewed)
		}
		return out, skipped, nil
	}
	byID := make(map[uuid.UUID]store.ListReleaseRowsRow, len(rows))
	for _, r := range rows {
		byID[r.SubmissionID] = r
	}
	seen := map[uuid.UUID]bool{}
	for _, id := range ids {
		r, ok := byID[id]
		if !ok {
			return nil, skips{}, apperr.ErrNotFound
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		if !assignment.Finished(r.ResultStatus) {
			skipped.add(r.ResultStatus)
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, skipped, apperr.New(apperr.Invalid, MsgNothingToRelease)
	}
	return out, skipped, nil
}

// queueEmail queues the email of a live release, or marks it failed at
// once when the student's address cannot be mailed.
func (s *Service) queueEmail(ctx context.Context, tx pgx.Tx, a identity.Actor, r store.ListReleaseRowsRow, releasedAt time.Time) error {
	if _, err := mail.ParseAddress(r.StudentEmail); err != nil {
		return store.Q.SetReleaseEmail(ctx, tx, store.SetReleaseEmailParams{
			EmailState: EmailFailed, EmailError: "Not an email address: " + r.StudentEmail,
			SubmissionID: r.SubmissionID, TeamID: a.TeamID, ReleasedAt: releasedAt,
		})
	}
	if err := store.Q.QueueReleaseEmail(ctx, tx, store.QueueReleaseEmailParams{SubmissionID: r.SubmissionID, TeamID: a.TeamID}); err != nil {
		return fmt.Errorf("queue email of submission %s: %w", r.SubmissionID, err)
	}
	if _, err := s.Jobs.InsertTx(ctx, tx, queue.SendResultEmailArgs{
		SubmissionID: r.SubmissionID, TeamID: a.TeamID, ReleasedAt: releasedAt,
	}, nil); err != nil {
		return fmt.Errorf("queue send_result_email: %w", err)
	}
	return nil
}

// Revoke closes the links of the given submissions of one of the actor's
// assignments at once; rows not released are left as they are. An id not
// of the assignment is not found, and nothing is revoked.
func (s *Service) Revoke(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]Release, error) {
	if len(ids) == 0 {
		return nil, apperr.New(apperr.Invalid, MsgChooseRows)
	}
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		rows, err := s.rows(ctx, tx, a, assignmentID, ids) // those asked only, not the class
		if err != nil {
			return err
		}
		for _, id := range ids {
			if !slices.ContainsFunc(rows, func(r store.ListReleaseRowsRow) bool { return r.SubmissionID == id }) {
				return apperr.ErrNotFound
			}
		}
		return store.Q.RevokeReleases(ctx, tx, store.RevokeReleasesParams{AssignmentID: assignmentID, TeamID: a.TeamID, SubmissionIds: ids})
	})
	if err != nil {
		return nil, err
	}
	return s.ListOf(ctx, a, assignmentID, ids)
}

// only keeps the releases of ids, in all's order.
func only(all []Release, ids []uuid.UUID) []Release {
	out := []Release{}
	for _, r := range all {
		if slices.Contains(ids, r.SubmissionID) {
			out = append(out, r)
		}
	}
	return out
}

// LinksCSV is the CSV of an assignment's live links, for a teacher who
// hands them out without email: student name, email, link; the assignment's
// name for the file name. Cells that look like formulas are escaped.
func (s *Service) LinksCSV(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (string, []byte, error) {
	asg, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return "", nil, store.NotFound(fmt.Errorf("assignment %s: %w", assignmentID, err))
	}
	all, err := s.List(ctx, a, assignmentID)
	if err != nil {
		return "", nil, err
	}
	var buf bytes.Buffer
	buf.WriteString("\ufeff") // a BOM, so Excel reads the names as UTF-8
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"Student name", "Email", "Link"})
	for _, r := range all {
		if r.State == StateReleased {
			_ = w.Write([]string{csvimport.EscapeCell(r.StudentName), csvimport.EscapeCell(r.StudentEmail), r.Link})
		}
	}
	w.Flush()
	return asg.Name, buf.Bytes(), w.Error()
}

// Visibility says what a student's view token shows of a submission:
// released (a live release), and show (feedback is shown: released, or
// the assignment gives instant feedback).
func Visibility(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID) (released, show bool, err error) {
	row, err := store.Q.SubmissionReleased(ctx, db, store.SubmissionReleasedParams{
		SubmissionID: submissionID, TeamID: teamID, AssignmentID: assignmentID,
	})
	if err != nil {
		return false, false, store.NotFound(fmt.Errorf("release of submission %s: %w", submissionID, err))
	}
	return row.Released, row.Released || row.ProvideInstantFeedback, nil
}

// Opened is what a live release token opens.
type Opened struct {
	SubmissionID, AssignmentID, TeamID uuid.UUID
}

// Resolve finds the live release of token; a malformed, unknown or revoked
// token is not found.
func Resolve(ctx context.Context, db store.DBTX, token string) (Opened, error) {
	if !WellFormed(token) {
		return Opened{}, apperr.ErrNotFound
	}
	row, err := store.Q.GetLiveReleaseByTokenHash(ctx, db, hashToken(token))
	if errors.Is(err, pgx.ErrNoRows) {
		return Opened{}, apperr.ErrNotFound
	}
	if err != nil {
		return Opened{}, fmt.Errorf("release by token: %w", err)
	}
	return Opened{SubmissionID: row.SubmissionID, AssignmentID: row.AssignmentID, TeamID: row.TeamID}, nil
}
