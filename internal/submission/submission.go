// Package submission is an assignment's submissions: the files teachers
// upload (and the rows of a CSV, a student's work through the link, a Google
// Classroom import), each with its function result and, for a file, the job
// that reads its text. Every method takes the actor from the session; ids of
// other teams are answered as not found.
package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// How a submission arrived.
const (
	SourceUpload  = "upload"
	SourceCSV     = "csv"
	SourceStudent = "student"
	SourceGoogle  = "google"
)

// Who submitted: a teacher (uploads, imports) or a student (the link).
const (
	RoleTeacher = string(store.SubmissionRoleTeacher)
	RoleStudent = string(store.SubmissionRoleStudent)
)

// Where a submission's text is: queued → extracting → ready, or failed.
const (
	StatusQueued     = "queued"
	StatusExtracting = "extracting"
	StatusReady      = "ready"
	StatusFailed     = "failed"
)

// The readers a client may ask for; a hint only, the file's bytes decide.
const (
	ReaderTextract = "textract"
	ReaderPDF      = "pdf"
	ReaderImage    = "image"
)

// Limits.
const (
	// MaxPerUpload caps the files of one update-submissions call.
	MaxPerUpload = 200
	// MaxPerDelete caps the submissions of one delete call.
	MaxPerDelete = 1000
	// PreviewLength is how many characters of the text a summary shows.
	PreviewLength = 200
)

// Messages users see.
const (
	MsgNoFiles      = "Please choose at least one file to upload."
	MsgTooManyFiles = "You can upload at most 200 files at once."
	MsgNoLocation   = "Each submission needs the location of its uploaded file."
	// MsgRefusedWithFile answers an upload that has both a location and the
	// reason it could not be uploaded.
	MsgRefusedWithFile = "A file that could not be uploaded has no location: send its error without one."
	MsgNameEmpty       = "Submission name cannot be empty"
	MsgTypeMismatch    = "The type does not match this assignment's type."
	MsgTeacherRole     = "Uploads from this page are teacher submissions."
	// MsgAlreadyAdded names the file (fmt verb %s).
	MsgAlreadyAdded    = "%s has already been added to this assignment."
	MsgEmail           = "Please enter a valid email address"
	MsgNothingToUpdate = "Nothing to update: send a name, a student name or a student email."
	MsgNoneToDelete    = "Please choose at least one submission to delete."
	MsgTooManyToDelete = "You can delete at most 1000 submissions at once."
)

// Submission is a submission as the API lists it: no full text, a preview.
type Submission struct {
	ID           uuid.UUID `json:"_id"`
	AssignmentID uuid.UUID `json:"assignmentId"`
	Name         string    `json:"name"`
	// Location is the blob key of the file; "" for a CSV row.
	Location       string `json:"location"`
	StudentName    string `json:"studentName"`
	StudentEmail   string `json:"studentEmail"`
	SubmissionRole string `json:"submissionRole"`
	Source         string `json:"source"`
	Status         string `json:"status"`
	// Error is the teacher-facing reason of a failed extraction, or a
	// warning about a ready one ("No text found on 1 of 4 pages", "Page 2
	// may be misread: check it against the original").
	Error string `json:"error"`
	// DoubtfulPages numbers (from 1) the pages whose text may be misread,
	// to check against the original; each one's reason is its page's
	// Warning in Detail. A text file has none: its text is its original.
	DoubtfulPages []int  `json:"doubtfulPages"`
	Preview       string `json:"preview"`
	PageCount     int    `json:"pageCount"`
	IsHandWritten bool   `json:"isHandWritten"`
	// Attempt is 1, or for a student who submitted through the link again
	// (the assignment allows resubmission), their attempt's number;
	// PreviousSubmissionID is then their attempt before this one (nil once
	// that one is deleted).
	Attempt              int        `json:"attempt"`
	PreviousSubmissionID *uuid.UUID `json:"previousSubmissionId"`
	// ContentHash is the SHA-256 of the file in lower-case hex, once the
	// extraction job has read it; "" before that and for rows without a
	// file. The upload screen skips files whose content is already here.
	ContentHash string    `json:"contentHash"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	// Stamp is the transaction that last wrote the row (its changed_xid;
	// 0 when not read): a class kept in memory answers deltas by it.
	Stamp uint64 `json:"-"`
}

// Page is one page of a submission's text and where it came from ("file",
// "pdftotext", "ocr", "vision"), with OCR's confidence (0–100) for a page
// OCR read since confidences are kept, and a warning for the teacher when
// its text may be misread.
type Page struct {
	Text       string `json:"text"`
	Source     string `json:"source"`
	Confidence *int   `json:"confidence,omitempty"`
	Warning    string `json:"warning,omitempty"`
}

// Detail is a submission with its full text and pages.
type Detail struct {
	Submission
	Text  string `json:"text"`
	Pages []Page `json:"pages"`
}

// NewSubmission is a submission to create. A file (Key set, Text empty) is
// queued for extraction; a row with Text (a CSV row), or with neither, is
// ready at once with that text. Name defaults to the file's name. An
// ExternalID already imported into the assignment creates nothing.
type NewSubmission struct {
	Name, Key, ContentType, Source, Role, StudentName, StudentEmail string
	// LTI is the student's LTI launch details, stored as given (JSON).
	LTI json.RawMessage
	// ReaderHint is ReaderTextract, ReaderPDF, ReaderImage or "".
	ReaderHint    string
	IsHandWritten bool
	ExternalID    string
	Text          string
	// CSVAnswers are a CSV row's answers, [{"question": 0, "text": …}].
	CSVAnswers    json.RawMessage
	ViewTokenHash []byte
}

// Service manages submissions.
type Service struct {
	Pool *pgxpool.Pool
	// Jobs inserts the extraction and file deletion jobs, in the
	// transactions that write the rows they work on.
	Jobs *queue.Client
	// Files proves that an uploaded file is the team's.
	Files *files.Service
}

// CreateTx creates subs in asg (of team teamID) within tx: each with an
// empty function result for the assignment's function, and each file with
// an extract_text job, all inserted in tx. It returns the submissions and
// results created, in order (none for an ExternalID imported before, or
// earlier in subs).
//
// A batch costs a fixed number of statements whatever its size: one insert
// of every row, one of every result and one of every job. Nothing is written
// when any of subs is invalid.
func (s *Service) CreateTx(ctx context.Context, tx pgx.Tx, teamID uuid.UUID, asg store.Assignment, subs []NewSubmission) ([]Submission, []assignment.FunctionResult, error) {
	if asg.TeamID != teamID {
		return nil, nil, apperr.ErrNotFound
	}
	batch, err := newBatch(teamID, asg.ID, subs)
	if err != nil {
		return nil, nil, err
	}
	out := make([]Submission, 0, len(subs))
	results := make([]assignment.FunctionResult, 0, len(subs))
	if len(subs) == 0 {
		return out, results, nil
	}
	functionID := uuid.NullUUID{}
	fn, err := store.Q.GetAssignmentFunction(ctx, tx, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: teamID})
	switch {
	case errors.Is(err, pgx.ErrNoRows): // not defined yet: results without a function
	case err != nil:
		return nil, nil, fmt.Errorf("load function of assignment %s: %w", asg.ID, err)
	default:
		functionID = uuid.NullUUID{UUID: fn.ID, Valid: true}
	}

	rows, err := store.Q.InsertSubmissions(ctx, tx, batch)
	if err != nil {
		return nil, nil, fmt.Errorf("insert %d submissions into assignment %s: %w", len(subs), asg.ID, err)
	}
	if len(rows) == 0 {
		return out, results, nil // every external id was imported before
	}
	ids := make([]uuid.UUID, len(rows))
	var extract []river.InsertManyParams
	for i, r := range rows {
		out = append(out, fromRow(store.Submission(r)))
		ids[i] = r.ID
		if r.ExtractStatus == StatusQueued {
			extract = append(extract, river.InsertManyParams{Args: queue.ExtractTextArgs{SubmissionID: r.ID}})
		}
	}
	frs, err := store.Q.CreateFunctionResults(ctx, tx, store.CreateFunctionResultsParams{
		TeamID: teamID, AssignmentID: asg.ID, FunctionID: functionID, SubmissionIds: ids,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("create %d function results of assignment %s: %w", len(ids), asg.ID, err)
	}
	bySubmission := make(map[uuid.UUID]store.FunctionResult, len(frs))
	for _, r := range frs {
		bySubmission[r.SubmissionID] = r
	}
	for _, id := range ids {
		r, ok := bySubmission[id]
		if !ok {
			return nil, nil, fmt.Errorf("no function result was created for submission %s", id)
		}
		results = append(results, assignment.FunctionResultFromRow(r))
	}
	if len(extract) > 0 {
		if _, err := s.Jobs.InsertManyTx(ctx, tx, extract); err != nil {
			return nil, nil, fmt.Errorf("enqueue extraction of %d submissions: %w", len(extract), err)
		}
	}
	return out, results, nil
}

// newBatch checks subs and lays them out as the columns of one insert into
// assignment.
func newBatch(teamID, assignmentID uuid.UUID, subs []NewSubmission) (store.InsertSubmissionsParams, error) {
	n := len(subs)
	b := store.InsertSubmissionsParams{
		TeamID: teamID, AssignmentID: assignmentID,
		Names: make([]string, n), FileKeys: make([]string, n), ContentTypes: make([]string, n),
		Roles: make([]string, n), StudentNames: make([]string, n), StudentEmails: make([]string, n),
		Lti: make([]string, n), Sources: make([]string, n), ReaderHints: make([]string, n),
		IsHandWritten: make([]bool, n), ExternalIds: make([]string, n), CsvAnswers: make([]string, n),
		ViewTokenHashes: make([][]byte, n), Ready: make([]bool, n), Texts: make([]string, n),
	}
	for i, sub := range subs {
		r, err := checkRow(sub)
		if err != nil {
			return store.InsertSubmissionsParams{}, err
		}
		b.Names[i], b.FileKeys[i], b.ContentTypes[i], b.Roles[i] = r.name, sub.Key, sub.ContentType, r.role
		b.StudentNames[i], b.StudentEmails[i], b.Lti[i], b.Sources[i] = r.studentName, r.email, string(sub.LTI), sub.Source
		b.ReaderHints[i], b.IsHandWritten[i], b.ExternalIds[i] = sub.ReaderHint, sub.IsHandWritten, sub.ExternalID
		b.CsvAnswers[i], b.ViewTokenHashes[i] = string(sub.CSVAnswers), sub.ViewTokenHash
		// A row with its text, or without a file, has nothing to extract.
		b.Ready[i], b.Texts[i] = sub.Key == "" || sub.Text != "", sub.Text
	}
	return b, nil
}

// checkedRow is a NewSubmission's cleaned name, student name, email and role.
type checkedRow struct {
	name, studentName, email, role string
}

// checkRow checks n and cleans its names and email.
func checkRow(n NewSubmission) (checkedRow, error) {
	name := input.Name(n.Name)
	if name == "" {
		name = FileName(n.Key)
	}
	if name == "" {
		return checkedRow{}, apperr.New(apperr.Invalid, MsgNameEmpty)
	}
	studentName := input.Name(n.StudentName)
	if err := errors.Join(input.Length("Name", name, input.MaxName), input.Length("Student name", studentName, input.MaxName)); err != nil {
		return checkedRow{}, err
	}
	email, err := Email(n.StudentEmail)
	if err != nil {
		return checkedRow{}, err
	}
	role := n.Role
	if role == "" {
		role = RoleTeacher
	}
	switch {
	case !slices.Contains([]string{SourceUpload, SourceCSV, SourceStudent, SourceGoogle}, n.Source):
		return checkedRow{}, fmt.Errorf("unknown submission source %q", n.Source)
	case role != RoleTeacher && role != RoleStudent:
		return checkedRow{}, fmt.Errorf("unknown submission role %q", n.Role)
	case !slices.Contains([]string{"", ReaderTextract, ReaderPDF, ReaderImage}, n.ReaderHint):
		return checkedRow{}, fmt.Errorf("unknown reader hint %q", n.ReaderHint)
	}
	return checkedRow{name: name, studentName: studentName, email: email, role: role}, nil
}

// FileName is the name a client gave the file stored under a key (or a file
// URL): its last segment without the random prefix NewKey adds.
func FileName(key string) string {
	key, _, _ = strings.Cut(key, "?")
	base := path.Base(key)
	if base == "." || base == "/" {
		return ""
	}
	if len(base) > 17 && base[16] == '-' && isHex(base[:16]) {
		base = base[17:]
	}
	return input.Name(base)
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// Email checks a student's email address and returns it in lower case; ""
// is no address.
func Email(email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", nil
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Name != "" || addr.Address != email || !strings.Contains(addr.Address, ".") || len(addr.Address) > input.MaxEmail {
		return "", apperr.New(apperr.Invalid, MsgEmail)
	}
	return strings.ToLower(addr.Address), nil
}

// fromRow turns a stored submission into its summary.
func fromRow(r store.Submission) Submission {
	text := ""
	if r.ExtractedText != nil {
		text = *r.ExtractedText
	}
	return Submission{
		ID: r.ID, AssignmentID: r.AssignmentID, Name: r.Name, Location: r.FileKey,
		StudentName: r.StudentName, StudentEmail: r.StudentEmail, SubmissionRole: string(r.Role),
		Source: r.Source, Status: r.ExtractStatus, Error: r.ExtractError, Preview: Preview(text),
		PageCount: int(r.PageCount), IsHandWritten: r.IsHandWritten,
		Attempt: int(r.Attempt), PreviousSubmissionID: previous(r.PreviousSubmissionID),
		ContentHash: deref(r.ContentSha256), DoubtfulPages: ints(r.DoubtfulPages),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// ints is a stored list of page numbers, never nil.
func ints(ns []int32) []int {
	out := make([]int, len(ns))
	for i, n := range ns {
		out[i] = int(n)
	}
	return out
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// previous is a submission's previous attempt, or nil.
func previous(id uuid.NullUUID) *uuid.UUID {
	if !id.Valid {
		return nil
	}
	return &id.UUID
}

// Preview is the first PreviewLength characters of text.
func Preview(text string) string {
	n := 0
	for i := range text {
		if n == PreviewLength {
			return text[:i]
		}
		n++
	}
	return text
}

// detailFromRow turns a stored submission into its full shape.
func detailFromRow(r store.Submission) (Detail, error) {
	d := Detail{Submission: fromRow(r), Pages: []Page{}}
	if r.ExtractedText != nil {
		d.Text = *r.ExtractedText
	}
	if len(r.Pages) > 0 {
		if err := json.Unmarshal(r.Pages, &d.Pages); err != nil {
			return Detail{}, fmt.Errorf("decode pages of submission %s: %w", r.ID, err)
		}
	}
	if d.Pages == nil {
		d.Pages = []Page{}
	}
	return d, nil
}
