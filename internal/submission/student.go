package submission

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// StudentSubmission is a submission as its student reads it by view token
// (db/submission/get-view-only): what their result page shows of their own
// work, and nothing else. It is an allow-list: a field added to Submission
// or Detail does not reach a student unless it is added here.
type StudentSubmission struct {
	ID          uuid.UUID `json:"_id"`
	Name        string    `json:"name"`
	StudentName string    `json:"studentName"`
	// Status is where the work's text is: queued, extracting, ready or failed.
	Status string `json:"status"`
	// Error says why the file could not be read, or warns about a part of
	// it ("No text found on 1 of 4 pages"): a sentence about the student's
	// own file.
	Error     string `json:"error"`
	PageCount int    `json:"pageCount"`
	// Text is the work's text as it was read.
	Text string `json:"text"`
}

// GetForStudent returns submission id of a's team as its student reads it.
func (s *Service) GetForStudent(ctx context.Context, a identity.Actor, id uuid.UUID) (StudentSubmission, error) {
	row, err := store.Q.GetSubmission(ctx, s.Pool, store.GetSubmissionParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return StudentSubmission{}, store.NotFound(fmt.Errorf("load submission %s for its student: %w", id, err))
	}
	out := StudentSubmission{
		ID: row.ID, Name: row.Name, StudentName: row.StudentName, Status: row.ExtractStatus,
		Error: row.ExtractError, PageCount: int(row.PageCount),
	}
	if row.ExtractedText != nil {
		out.Text = *row.ExtractedText
	}
	return out, nil
}
