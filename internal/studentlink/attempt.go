package studentlink

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// MsgAlreadySubmitted refuses a second submission from a student through a
// link that does not allow resubmission.
const MsgAlreadySubmitted = "You have already submitted this assignment. Ask your teacher if you need to submit again."

// attemptIndex is the unique index that keeps one submission per student
// and attempt (migrations/00008_resubmission.sql).
const attemptIndex = "submissions_student_attempt_idx"

// studentKey is who a student is, for counting their attempts at an
// assignment: their email in lower case, or, without one, "name:" and
// their name in lower case with runs of spaces made one. Case and spacing
// never make a second student.
func studentKey(email, name string) string {
	if email = strings.ToLower(strings.TrimSpace(email)); email != "" {
		return email
	}
	return "name:" + strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// attempt is a student's next attempt at an assignment: its number and the
// submission before it (uuid.Nil for a first attempt).
type attempt struct {
	key      string
	number   int32
	previous uuid.UUID
}

// nextAttempt locks the student's attempts at the assignment until tx ends
// (so that two submissions of one student sent at once are numbered one
// after the other) and returns the next one, or a conflict with
// MsgAlreadySubmitted when the student has submitted before and the
// assignment does not allow resubmission.
func nextAttempt(ctx context.Context, tx pgx.Tx, asg store.Assignment, key string) (attempt, error) {
	if err := store.Q.LockStudentAttempts(ctx, tx, store.LockStudentAttemptsParams{AssignmentID: asg.ID, StudentKey: key}); err != nil {
		return attempt{}, fmt.Errorf("lock the attempts of a student at assignment %s: %w", asg.ID, err)
	}
	last, err := store.Q.LatestStudentAttempt(ctx, tx, store.LatestStudentAttemptParams{AssignmentID: asg.ID, StudentKey: key})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return attempt{key: key, number: 1}, nil
	case err != nil:
		return attempt{}, fmt.Errorf("latest attempt of a student at assignment %s: %w", asg.ID, err)
	case !asg.AllowResubmission:
		return attempt{}, apperr.New(apperr.Conflict, MsgAlreadySubmitted)
	}
	return attempt{key: key, number: last.Attempt + 1, previous: last.ID}, nil
}

// attempt is the attempt's number and the id of the one before (nil for a
// first attempt), as a submission shows them.
func (at attempt) shown() (int, *uuid.UUID) {
	if at.previous == uuid.Nil {
		return int(at.number), nil
	}
	previous := at.previous
	return int(at.number), &previous
}

// record writes the attempt on the submission just made. Should another
// submission hold the same attempt (the lock makes it unlikely), the
// student has submitted already.
func (at attempt) record(ctx context.Context, tx pgx.Tx, submissionID uuid.UUID) error {
	err := store.Q.SetStudentAttempt(ctx, tx, store.SetStudentAttemptParams{
		StudentKey: at.key, Attempt: at.number, ID: submissionID,
		PreviousSubmissionID: uuid.NullUUID{UUID: at.previous, Valid: at.previous != uuid.Nil},
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == attemptIndex {
		return apperr.New(apperr.Conflict, MsgAlreadySubmitted)
	}
	if err != nil {
		return fmt.Errorf("record attempt %d of submission %s: %w", at.number, submissionID, err)
	}
	return nil
}
