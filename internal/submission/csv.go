package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/store"
)

// The CSV import's messages (the spec's, exactly; MsgCSVRead is followed by
// ": " and the detail).
const (
	MsgCSVType     = "This assignment type does not support CSV uploads"
	MsgCSVNoFile   = "No file uploaded."
	MsgCSVNotCSV   = "Uploaded file is not a CSV file."
	MsgCSVRead     = "Error reading CSV file"
	MsgCSVImported = "This CSV file has already been imported into this assignment."
)

// CSVPreviewRows is how many data rows a preview shows.
const CSVPreviewRows = 5

// NoAnswer stands in a submission's text for a question the student left
// blank.
const NoAnswer = "(no answer)"

// CSVQuestion is a top-level question of a grade assignment, as the mapping
// step labels it.
type CSVQuestion struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
}

// CSVPreview is a CSV's first rows and a suggested mapping
// (db/assignment/preview-csv).
type CSVPreview struct {
	Headers []string `json:"headers"`
	// Rows are the first CSVPreviewRows data rows, cells exactly as written.
	Rows [][]string `json:"rows"`
	// RowCount counts every non-blank data row.
	RowCount int `json:"rowCount"`
	// Delimiter is ",", ";" or "\t".
	Delimiter string `json:"delimiter"`
	// Mapping is csvimport's guess, its questions limited to the
	// assignment's.
	Mapping csvimport.Mapping `json:"mapping"`
	// Questions are the assignment's top-level questions.
	Questions []CSVQuestion `json:"questions"`
}

// CSVInput is a teacher's CSV import (db/assignment/update-submissions-csv).
type CSVInput struct {
	AssignmentID uuid.UUID
	// SubmissionRole is "teacher" (or empty).
	SubmissionRole string
	// Type, when not empty, must be the assignment's type.
	Type string
	// Location is the CSV's blob key or file URL, uploaded by the team to
	// the assignment's submissions folder.
	Location string
	// Mapping is the mapping the teacher confirmed; nil takes the suggested
	// one (see PreviewCSV).
	Mapping *csvimport.Mapping
}

// csvFile is an uploaded CSV of an assignment, read and parsed.
type csvFile struct {
	asg       store.Assignment
	questions []assignment.Question
	stored    files.StoredFile
	table     *csvimport.Table
}

// PreviewCSV reads a CSV the team uploaded to a grade assignment and
// returns its header, first rows and a suggested mapping. It changes
// nothing.
func (s *Service) PreviewCSV(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, location string) (CSVPreview, error) {
	f, err := s.readCSV(ctx, a, assignmentID, "", location)
	if err != nil {
		return CSVPreview{}, err
	}
	t := f.table
	rows := append([][]string{}, t.Rows[:min(len(t.Rows), CSVPreviewRows)]...)
	questions := make([]CSVQuestion, len(f.questions))
	for i, q := range f.questions {
		questions[i] = CSVQuestion{Index: i, Text: q.QuestionText}
	}
	return CSVPreview{
		Headers: t.Header, Rows: rows, RowCount: len(t.Rows), Delimiter: string(t.Delimiter),
		Mapping: suggest(t, len(f.questions)), Questions: questions,
	}, nil
}

// suggest is the table's suggested mapping with questions beyond the
// assignment's left unmapped.
func suggest(t *csvimport.Table, questions int) csvimport.Mapping {
	m := t.Suggest()
	m.Questions = slices.DeleteFunc(m.Questions, func(q csvimport.QuestionColumn) bool { return q.Question >= questions })
	return m
}

// ImportCSV turns the rows of a CSV the team uploaded to a grade assignment
// into ready submissions, one per student row, each with an empty function
// result: all in one transaction, or nothing. A row's submission is named
// after the student, carries their email when the cell holds a valid
// address, and its text lays the answers out under their questions.
//
// The same uploaded file (the same key) is imported once: a second import of
// it, as a double click or a retried request would send, is refused with
// MsgCSVImported. Uploading the file again gives a new key, which imports.
func (s *Service) ImportCSV(ctx context.Context, a identity.Actor, in CSVInput) ([]Submission, []assignment.FunctionResult, error) {
	if in.SubmissionRole != "" && in.SubmissionRole != RoleTeacher {
		return nil, nil, apperr.New(apperr.Invalid, MsgTeacherRole)
	}
	f, err := s.readCSV(ctx, a, in.AssignmentID, in.Type, in.Location)
	if err != nil {
		return nil, nil, err
	}
	m := suggest(f.table, len(f.questions))
	if in.Mapping != nil {
		m = *in.Mapping
	}
	for _, q := range m.Questions {
		switch {
		case len(f.questions) == 0:
			return nil, nil, readError(fmt.Errorf("%w: this assignment has no questions yet; add them before importing answers",
				csvimport.ErrMapping))
		case q.Question >= len(f.questions):
			return nil, nil, readError(fmt.Errorf("%w: question %d does not exist (this assignment has %d questions)",
				csvimport.ErrMapping, q.Question+1, len(f.questions)))
		}
	}
	rows, err := f.table.Apply(m)
	if err != nil {
		return nil, nil, readError(err)
	}
	subs := make([]NewSubmission, len(rows))
	for i, r := range rows {
		answers, err := json.Marshal(r.Answers)
		if err != nil {
			return nil, nil, fmt.Errorf("encode answers of line %d: %w", r.Line, err)
		}
		email, err := Email(r.Email)
		if err != nil {
			email = "" // a cell that is not an address is no email, not an error
		}
		// The row names the CSV's key, which keeps the file from being
		// imported twice; its text makes it ready at once, with no job.
		subs[i] = NewSubmission{
			Name: r.Name, StudentName: r.Name, StudentEmail: email, Key: f.stored.Key, ContentType: f.stored.ContentType,
			Source: SourceCSV, Role: RoleTeacher, Text: answerText(f.questions, r.Answers), CSVAnswers: answers,
		}
	}

	var out []Submission
	var results []assignment.FunctionResult
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if err := notImportedYet(ctx, tx, f.stored.Key); err != nil {
			return err
		}
		var err error
		out, results, err = s.CreateTx(ctx, tx, a.TeamID, f.asg, subs)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, results, nil
}

// notImportedYet locks the record of an uploaded CSV until tx ends and
// refuses the file when its rows are already submissions.
func notImportedYet(ctx context.Context, tx pgx.Tx, key string) error {
	if _, err := store.Q.LockUploadForImport(ctx, tx, key); err != nil {
		return store.NotFound(fmt.Errorf("lock upload %s: %w", key, err))
	}
	used, err := store.Q.SubmissionKeysInUse(ctx, tx, []string{key})
	if err != nil {
		return fmt.Errorf("find imports of %s: %w", key, err)
	}
	if len(used) > 0 {
		return apperr.New(apperr.Invalid, MsgCSVImported)
	}
	return nil
}

// answerText lays a row's answers out for a reader (a teacher, the grading
// model): "Question 1: <question text>\n<answer>", one block per mapped
// question, blocks a blank line apart.
func answerText(questions []assignment.Question, answers []csvimport.Answer) string {
	var b strings.Builder
	for i, ans := range answers {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "Question %d: %s\n", ans.Question+1, questions[ans.Question].QuestionText)
		if ans.Text == "" {
			b.WriteString(NoAnswer)
		} else {
			b.WriteString(ans.Text)
		}
	}
	return b.String()
}

// readCSV loads a grade assignment of the actor's team and its top-level
// questions, proves location is a file the team uploaded to it, and reads
// and parses the file. typ, when not empty, must be the assignment's type.
func (s *Service) readCSV(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, typ, location string) (csvFile, error) {
	asg, err := s.assignment(ctx, s.Pool, a, assignmentID, "")
	if err != nil {
		return csvFile{}, err
	}
	if !process.ImportsCSV(string(asg.Type)) {
		return csvFile{}, apperr.New(apperr.Invalid, MsgCSVType)
	}
	if typ != "" && typ != string(asg.Type) {
		return csvFile{}, apperr.New(apperr.Invalid, MsgTypeMismatch)
	}
	location = strings.TrimSpace(location)
	if location == "" {
		return csvFile{}, apperr.New(apperr.Invalid, MsgCSVNoFile)
	}
	name := FileName(location)
	if name == "" {
		name = "The CSV file"
	}
	stored, err := s.Files.SubmissionFiles(ctx, a.TeamID, asg.ID, files.FromTeam, []files.Claim{{Name: name, Location: location}})
	if err != nil {
		return csvFile{}, err
	}
	f := csvFile{asg: asg, stored: stored[0]}
	if !textType(f.stored.ContentType) {
		return csvFile{}, apperr.Wrap(apperr.Invalid, MsgCSVNotCSV, fmt.Errorf("stored as %q", f.stored.ContentType))
	}
	if f.stored.Size > csvimport.MaxBytes {
		return csvFile{}, readError(fmt.Errorf("%w: the limit is %d MB", csvimport.ErrTooLarge, csvimport.MaxBytes>>20))
	}
	data, err := s.readBlob(ctx, f.stored.Key)
	if err != nil {
		return csvFile{}, err
	}
	f.table, err = csvimport.Parse(strings.NewReader(data))
	if err != nil {
		return csvFile{}, readError(err)
	}
	if f.questions, err = s.topQuestions(ctx, a, asg.ID); err != nil {
		return csvFile{}, err
	}
	return f, nil
}

// readBlob reads at most one byte past csvimport.MaxBytes of a stored file
// (enough for Parse to tell it is too large).
func (s *Service) readBlob(ctx context.Context, key string) (string, error) {
	r, err := s.Files.Blob.Get(ctx, key)
	if err != nil {
		return "", fmt.Errorf("open CSV %s: %w", key, err)
	}
	defer r.Close()
	var b strings.Builder
	if _, err := io.Copy(&b, io.LimitReader(r, csvimport.MaxBytes+1)); err != nil {
		return "", fmt.Errorf("read CSV %s: %w", key, err)
	}
	return b.String(), nil
}

// topQuestions are a grade assignment's top-level questions (none while it
// is not defined).
func (s *Service) topQuestions(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) ([]assignment.Question, error) {
	row, err := store.Q.GetAssignmentFunction(ctx, s.Pool, store.GetAssignmentFunctionParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return []assignment.Question{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load function of assignment %s: %w", assignmentID, err)
	}
	fn, err := assignment.FunctionFromRow(row)
	if err != nil {
		return nil, err
	}
	return fn.Questions, nil
}

// readError is a teacher-facing "Error reading CSV file: <detail>", or
// MsgCSVNotCSV for binary content.
func readError(err error) error {
	if errors.Is(err, csvimport.ErrNotCSV) {
		return apperr.Wrap(apperr.Invalid, MsgCSVNotCSV, err)
	}
	return apperr.Wrap(apperr.Invalid, MsgCSVRead+": "+err.Error(), err)
}

// textType reports whether a stored media type may hold a CSV: text/*, the
// CSV types, Excel's type (browsers on Windows give .csv files that one) and
// the unknown ones (empty, application/octet-stream). Anything else (a PDF,
// an image, a spreadsheet workbook) is not a CSV; the bytes are checked too.
func textType(contentType string) bool {
	if strings.TrimSpace(contentType) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	if strings.HasPrefix(mt, "text/") {
		return true
	}
	switch mt {
	case "application/csv", "application/x-csv", "text/x-csv", "application/vnd.ms-excel",
		"application/octet-stream", "application/tab-separated-values":
		return true
	}
	return false
}
