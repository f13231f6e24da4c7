package studentlink

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// The messages of a refused student submission.
// Files are checked by files.Service.SubmissionFiles, emails by
// submission.Email.
const (
	MsgNameRequired  = "Please enter your name."
	MsgOneFile       = "Please attach exactly one file."
	MsgFileSubmitted = "This file has already been submitted."
	MsgRole          = "Submissions through a student link have the role student."
	MsgLTITooLarge   = "studentSubmissionLTIDetails can be at most 8 KB"
)

// MaxLTI caps the LTI details a student submission carries, in bytes.
const MaxLTI = 8 << 10

// SubmitInput is a student's submission through a link.
type SubmitInput struct {
	LinkToken    string
	AssignmentID uuid.UUID
	// Files are the submission's files (exactly one): the name and the key
	// or file URL (without query string) s3-pub-upload returned.
	Files []submission.Upload
	// Role and Type, when sent, must be "student" and the assignment's type.
	Role string
	Type string
	// Readers are the client's reader hints, one per file.
	submission.Readers
	StudentName, StudentEmail string
	// LTI is JSON of at most MaxLTI bytes (null or empty is none). Sent
	// without LTILaunch, it is stored as {"unverified": LTI}: kept for the
	// teacher to see, never read as the pupil's LMS identity.
	LTI json.RawMessage
	// LTILaunch is a pupil's LTI launch token (internal/lti): when set, the
	// name, email and LTI details come from the verified launch, not from
	// the client.
	LTILaunch string
}

// MsgLTILaunch answers a submission whose LTI launch is unknown or expired.
const MsgLTILaunch = "Your launch from the course has expired. Please open the activity again from your course."

// LTILearner is a pupil's verified LTI launch.
type LTILearner struct {
	Name    string          `json:"name"`
	Email   string          `json:"email"`
	Details json.RawMessage `json:"-"`
}

// LTILearners resolves a pupil's launch token for an assignment
// (lti.Service).
type LTILearners interface {
	Learner(ctx context.Context, assignmentID uuid.UUID, token string) (LTILearner, error)
}

// Submitted is the answer to a student's submission: the assignment, and the
// submission and its result, which ViewToken lets the student read again.
type Submitted struct {
	Assignment      LinkAssignment              `json:"assignment"`
	FunctionResults []assignment.FunctionResult `json:"functionResults"`
	Submissions     []submission.Submission     `json:"submissions"`
	ViewToken       string                      `json:"viewToken"`
}

// Submit creates a student's submission: the link must be on and lead to
// in.AssignmentID, the student give a name and an email address, and the one
// file be an upload this link issued (Upload) that arrived in the store and
// was not submitted before. A student (their email, whatever its case) who
// submitted through the link before is refused with MsgAlreadySubmitted
// unless the assignment allows resubmission; then the submission is their
// next attempt, linked to the one before. The submission (source student,
// role student), its function result and its extraction job are created in
// one transaction. addr is the student's client address, for the rate limits.
func (s *Service) Submit(ctx context.Context, addr string, in SubmitInput) (Submitted, error) {
	asg, err := s.limited(ctx, "submit", addr, in.LinkToken)
	if err != nil {
		return Submitted{}, err
	}
	if asg.ID != in.AssignmentID {
		return Submitted{}, apperr.New(apperr.NotFound, MsgLinkOff)
	}
	if in.LTILaunch != "" {
		if s.LTI == nil {
			return Submitted{}, apperr.New(apperr.NotFound, MsgLTILaunch)
		}
		l, err := s.LTI.Learner(ctx, asg.ID, in.LTILaunch)
		if err != nil {
			return Submitted{}, apperr.Wrap(apperr.NotFound, MsgLTILaunch, err)
		}
		in.StudentName, in.StudentEmail, in.LTI = l.Name, l.Email, l.Details
	}
	sub, err := newSubmission(asg, in)
	if err != nil {
		return Submitted{}, err
	}
	stored, err := s.Files.SubmissionFiles(ctx, asg.TeamID, asg.ID, files.FromStudentLink,
		[]files.Claim{{Name: fileLabel(in.Files[0].Name), Location: in.Files[0].Location}})
	if err != nil {
		return Submitted{}, err
	}
	sub.Key, sub.ContentType = stored[0].Key, stored[0].ContentType
	if err := s.checkLinkUpload(ctx, asg, sub); err != nil {
		return Submitted{}, err
	}
	viewToken := newToken()
	sub.ViewTokenHash = hashToken(viewToken)

	var out Submitted
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		// The upload record, locked: two submissions of one file wait for
		// each other, and the second finds the first.
		_, err := store.Q.LockStudentUpload(ctx, tx, store.LockStudentUploadParams{Key: sub.Key, AssignmentID: uuid.NullUUID{UUID: asg.ID, Valid: true}})
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound // the assignment went while we looked
		}
		if err != nil {
			return fmt.Errorf("lock student upload %s: %w", sub.Key, err)
		}
		used, err := store.Q.SubmissionKeyUsed(ctx, tx, store.SubmissionKeyUsedParams{AssignmentID: asg.ID, FileKey: sub.Key})
		if err != nil {
			return fmt.Errorf("is %s submitted: %w", sub.Key, err)
		}
		if used {
			return apperr.New(apperr.Invalid, MsgFileSubmitted)
		}
		// Once per student, or as their next attempt (attempt.go).
		at, err := nextAttempt(ctx, tx, asg, studentKey(sub.StudentEmail, sub.StudentName))
		if err != nil {
			return err
		}
		subs, results, err := s.Submissions.CreateTx(ctx, tx, asg.TeamID, asg, []submission.NewSubmission{sub})
		if err != nil {
			return fmt.Errorf("create student submission: %w", err)
		}
		if err := at.record(ctx, tx, subs[0].ID); err != nil {
			return err
		}
		subs[0].Attempt, subs[0].PreviousSubmissionID = at.shown()
		out = Submitted{Assignment: linkAssignment(asg), FunctionResults: results, Submissions: subs, ViewToken: viewToken}
		return nil
	})
	if err != nil {
		return Submitted{}, err
	}
	return out, nil
}

// newSubmission validates a student's submission of asg into the one it
// creates, without its file's key, type and view token.
func newSubmission(asg store.Assignment, in SubmitInput) (submission.NewSubmission, error) {
	if in.Role != "" && in.Role != submission.RoleStudent {
		return submission.NewSubmission{}, apperr.New(apperr.Invalid, MsgRole)
	}
	if in.Type != "" && in.Type != string(asg.Type) {
		return submission.NewSubmission{}, apperr.New(apperr.Invalid, submission.MsgTypeMismatch)
	}
	name := input.Name(in.StudentName)
	if name == "" {
		return submission.NewSubmission{}, apperr.New(apperr.Invalid, MsgNameRequired)
	}
	if err := input.Length("Name", name, input.MaxName); err != nil {
		return submission.NewSubmission{}, err
	}
	if strings.TrimSpace(in.StudentEmail) == "" {
		return submission.NewSubmission{}, apperr.New(apperr.Invalid, submission.MsgEmail)
	}
	email, err := submission.Email(in.StudentEmail)
	if err != nil {
		return submission.NewSubmission{}, err
	}
	if len(in.Files) != 1 {
		return submission.NewSubmission{}, apperr.New(apperr.Invalid, MsgOneFile)
	}
	fileName := input.Name(in.Files[0].Name)
	if err := input.Length("File name", fileName, input.MaxName); err != nil {
		return submission.NewSubmission{}, err
	}
	lti, err := validLTI(in.LTI)
	if err != nil {
		return submission.NewSubmission{}, err
	}
	if in.LTILaunch == "" {
		lti = unverifiedLTI(lti)
	}
	return submission.NewSubmission{
		Name: fileName, Source: submission.SourceStudent, Role: submission.RoleStudent,
		StudentName: name, StudentEmail: email, LTI: lti,
		ReaderHint:    in.Hint(0),
		IsHandWritten: asg.IsHandWritten,
	}, nil
}

// fileLabel names the student's file in messages.
func fileLabel(name string) string {
	if name = input.Name(name); name != "" {
		return name
	}
	return "Your file"
}

// unverifiedLTI keeps the LTI details a client sent without a launch under
// "unverified": nothing reads an LMS identity from them (the export's LTI
// user id, the roster's "submitted", a score sent back to the course all
// read the top-level keys a verified launch writes), so a pupil cannot
// claim a classmate's LMS account.
func unverifiedLTI(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	wrapped, err := json.Marshal(map[string]json.RawMessage{"unverified": raw})
	if err != nil {
		return nil
	}
	return wrapped
}

// validLTI keeps LTI details as given, capped; null is none.
func validLTI(raw json.RawMessage) (json.RawMessage, error) {
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return nil, nil
	}
	if len(raw) > MaxLTI {
		return nil, apperr.New(apperr.Invalid, MsgLTITooLarge)
	}
	if !json.Valid(raw) {
		return nil, apperr.New(apperr.Invalid, "studentSubmissionLTIDetails must be JSON")
	}
	return raw, nil
}
