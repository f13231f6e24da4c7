// Package assignment is a team's assignments and their definitions (the
// spec's "functions"): highlighters for feedback, a question tree for grade,
// a rubric for rubric-feedback and a prompt for prompt assignments. Every
// method takes the actor from the session; ids of other teams are answered
// as not found.
package assignment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/store"
)

// The assignment types.
const (
	TypeGrade          = string(store.AssignmentTypeGrade)
	TypeFeedback       = string(store.AssignmentTypeFeedback)
	TypeRubricFeedback = string(store.AssignmentTypeRubricFeedback)
	TypePrompt         = string(store.AssignmentTypePrompt)
)

// Types lists the built-in assignment types (internal/grading registers
// them); a type is valid when the process registry knows it
// (process.Known).
var Types = []string{TypeGrade, TypeFeedback, TypeRubricFeedback, TypePrompt}

// MaxNameLength caps an assignment's name, in characters.
const MaxNameLength = 200

// The assignment validation messages.
const (
	MsgNameEmpty     = "Assignment name cannot be empty"
	MsgNameTooLong   = "Assignment name can be at most 200 characters"
	MsgUnknownType   = "Unknown assignment type"
	MsgTypeImmutable = "The assignment type cannot be changed"
)

// Ref is an id in the spec's {_id} shape.
type Ref struct {
	ID uuid.UUID `json:"_id"`
}

// Assignment is an assignment as the API shows it.
type Assignment struct {
	ID                     uuid.UUID       `json:"_id"`
	Name                   string          `json:"name"`
	Type                   string          `json:"type"`
	IsHandWritten          bool            `json:"isHandWritten"`
	ProvideInstantFeedback bool            `json:"provideInstantFeedback"`
	FolderID               *uuid.UUID      `json:"folderId"`
	ClassSummary           json.RawMessage `json:"classSummary"`
	// SummaryStatus is '' | running | done | failed.
	SummaryStatus string `json:"summaryStatus"`
	// Agreement is the last "Check agreement" report (agreement.Report);
	// AgreementStatus is '' | running | done | failed.
	Agreement       json.RawMessage `json:"agreement"`
	AgreementStatus string          `json:"agreementStatus"`
	// Usage is what the AI has cost the assignment, summed over its results;
	// only assignment/get fills it.
	Usage       *Usage    `json:"usage,omitempty"`
	Submissions []Ref     `json:"submissions"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// FunctionResult is the outcome of running an assignment's function on one
// submission.
type FunctionResult struct {
	ID         uuid.UUID `json:"_id"`
	Submission uuid.UUID `json:"submission"`
	Status     string    `json:"status"`
	ResultFields
	IsBenchmark bool `json:"isBenchmark"`
	// Error is why a run failed, in a sentence for the teacher.
	Error string `json:"error"`
	// TotalPoints and MaxPoints are computed on every read from the
	// assignment's current criteria (grade) or rubric (rubric-feedback);
	// nil for the other types and for results without a grade.
	TotalPoints *float64 `json:"totalPoints"`
	MaxPoints   *float64 `json:"maxPoints"`
	// Flags (injection attempts), DroppedHighlights and Usage are for the
	// teacher; the student's view-only read leaves them out.
	Flags             json.RawMessage `json:"flags,omitempty"`
	DroppedHighlights *int            `json:"droppedHighlights,omitempty"`
	Usage             *Usage          `json:"usage,omitempty"`
	GradedAt          *time.Time      `json:"gradedAt"`
	ReviewedAt        *time.Time      `json:"reviewedAt"`
	// Outdated says the result was graded against an earlier version of
	// the definition; OutdatedParts names what changed since ("question
	// 2b", "the prompt"). Set on the teacher's reads (MarkOutdated).
	Outdated      bool     `json:"outdated"`
	OutdatedParts []string `json:"outdatedParts,omitempty"`
	// QuestionsAdded says a question or criterion was added since the
	// result was graded (not only changed): its student would see it as
	// not met. Set with Outdated.
	QuestionsAdded bool `json:"questionsAdded,omitempty"`
	// GradedParts is the stored graded_parts (versions.go), never sent.
	GradedParts json.RawMessage `json:"-"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	// Stamp is the stored row's changed_xid (migration 00022): every write
	// of the row moves it. 0 when the row was read partially (GetForTable)
	// or built in memory. Never sent.
	Stamp uint64 `json:"-"`
}

// Usage is what AI runs cost: model calls, tokens and money (from the
// configured price table, cached prompt tokens at the cached-input price;
// 0 for the demo model).
type Usage struct {
	Model        string `json:"model,omitempty"`
	Calls        int    `json:"calls"`
	PromptTokens int    `json:"promptTokens"`
	// CachedPromptTokens is the part of PromptTokens the provider served
	// from its prompt cache.
	CachedPromptTokens int     `json:"cachedPromptTokens"`
	CompletionTokens   int     `json:"completionTokens"`
	CostUSD            float64 `json:"costUsd"`
}

// Input is what a teacher saves about an assignment itself.
type Input struct {
	Name                   string `json:"name"`
	Type                   string `json:"type"`
	IsHandWritten          bool   `json:"isHandWritten"`
	ProvideInstantFeedback bool   `json:"provideInstantFeedback"`
}

// Service manages assignments and their functions.
type Service struct {
	Pool *pgxpool.Pool
	// AnswerMedia signs the answer crops of results returned to a teacher
	// (answerbox.Signer); nil leaves answers as stored.
	AnswerMedia AnswerMediaSigner
}

// AnswerMediaSigner adds signedAnswerMedia (short-lived signed URLs, never
// stored) to the nodes of an answers tree that have answerMedia.
type AnswerMediaSigner interface {
	SignAnswers(ctx context.Context, assignment uuid.UUID, answers json.RawMessage) (json.RawMessage, error)
}

// Create saves a new assignment in the actor's team.
func (s *Service) Create(ctx context.Context, a identity.Actor, in Input) (Assignment, error) {
	name, err := validName(in.Name)
	if err != nil {
		return Assignment{}, err
	}
	if !process.Known(in.Type) {
		return Assignment{}, apperr.New(apperr.Invalid, MsgUnknownType)
	}
	row, err := store.Q.CreateAssignment(ctx, s.Pool, store.CreateAssignmentParams{
		TeamID: a.TeamID, Name: name, Type: store.AssignmentType(in.Type),
		IsHandWritten: in.IsHandWritten, ProvideInstantFeedback: in.ProvideInstantFeedback,
		CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
	})
	if err != nil {
		return Assignment{}, fmt.Errorf("create assignment: %w", err)
	}
	return FromRow(row, nil), nil
}

// Update changes an assignment's name and switches, and records what
// changed in its history. Its type never changes; an empty type means
// "unchanged".
func (s *Service) Update(ctx context.Context, a identity.Actor, id uuid.UUID, in Input) (Assignment, error) {
	name, err := validName(in.Name)
	if err != nil {
		return Assignment{}, err
	}
	if in.Type != "" && !process.Known(in.Type) {
		return Assignment{}, apperr.New(apperr.Invalid, MsgUnknownType)
	}
	cur, err := s.load(ctx, a, id)
	if err != nil {
		return Assignment{}, err
	}
	if in.Type != "" && in.Type != string(cur.Type) {
		return Assignment{}, apperr.New(apperr.Invalid, MsgTypeImmutable)
	}
	var row store.Assignment
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		row, err = store.Q.UpdateAssignment(ctx, tx, store.UpdateAssignmentParams{
			ID: id, TeamID: a.TeamID, Name: name,
			IsHandWritten: in.IsHandWritten, ProvideInstantFeedback: in.ProvideInstantFeedback,
		})
		if err != nil {
			return store.NotFound(fmt.Errorf("update assignment %s: %w", id, err))
		}
		return RecordChange(ctx, tx, a, id, describeSettings(cur, name, in))
	})
	if err != nil {
		return Assignment{}, err
	}
	return s.withSubmissions(ctx, a, row)
}

// Get returns an assignment with the results of its function so far, their
// answer media signed.
func (s *Service) Get(ctx context.Context, a identity.Actor, id uuid.UUID) (Assignment, []FunctionResult, error) {
	asg, _, results, err := s.GetUnsigned(ctx, a, id)
	if err != nil {
		return asg, nil, err
	}
	return asg, results, s.SignResults(ctx, id, results)
}

// GetUnsigned is Get with the answers as stored, and the assignment's
// definition (nil when it has none yet) read in the same round trip: a
// caller that derives something from the answers (totals) does so before
// SignResults.
func (s *Service) GetUnsigned(ctx context.Context, a identity.Actor, id uuid.UUID) (Assignment, *Function, []FunctionResult, error) {
	return s.getUnsigned(ctx, a, id, nil, false)
}

// GetUnsignedResults is GetUnsigned with only the results named by
// resultIDs (those of the assignment; none when the list is empty): a
// poll's delta.
func (s *Service) GetUnsignedResults(ctx context.Context, a identity.Actor, id uuid.UUID, resultIDs []uuid.UUID) (Assignment, *Function, []FunctionResult, error) {
	if resultIDs == nil {
		resultIDs = []uuid.UUID{}
	}
	return s.getUnsigned(ctx, a, id, resultIDs, false)
}

// GetForTable is GetUnsigned with only what the submissions table shows
// and scores of each result: its status, error, flags, dates, answers and
// criteria; its feedback, highlights and usage are left empty. The table
// of a class of 10,000 (submission-rows) reads every result for each page.
func (s *Service) GetForTable(ctx context.Context, a identity.Actor, id uuid.UUID) (Assignment, *Function, []FunctionResult, error) {
	return s.getUnsigned(ctx, a, id, nil, true)
}

// tableResults are ListAssignmentResultsForTable's rows as stored results
// (the columns it leaves out empty).
func tableResults(ctx context.Context, db store.DBTX, a identity.Actor, id uuid.UUID) ([]store.FunctionResult, error) {
	rows, err := store.Q.ListAssignmentResultsForTable(ctx, db, store.ListAssignmentResultsForTableParams{AssignmentID: id, TeamID: a.TeamID})
	if err != nil {
		return nil, err
	}
	out := make([]store.FunctionResult, len(rows))
	for i, r := range rows {
		out[i] = store.FunctionResult{
			ID: r.ID, TeamID: a.TeamID, AssignmentID: id, SubmissionID: r.SubmissionID, Status: r.Status, Error: r.Error,
			Flags: r.Flags, IsBenchmark: r.IsBenchmark, Answers: r.Answers,
			CriteriaLevels: r.CriteriaLevels, CriteriaPoints: r.CriteriaPoints, CriteriaFeedback: json.RawMessage("[]"),
			GradedAt: r.GradedAt, ReviewedAt: r.ReviewedAt, GradedParts: r.GradedParts, CreatedAt: r.CreatedAt,
		}
	}
	return out, nil
}

// getUnsigned reads all the results when only is nil, else those in only;
// forTable reads only what the submissions table needs of them. An
// assignment with a definition comes with its Usage summed over all its
// results; one without has none.
func (s *Service) getUnsigned(ctx context.Context, a identity.Actor, id uuid.UUID, only []uuid.UUID, forTable bool) (Assignment, *Function, []FunctionResult, error) {
	var asg Assignment
	var fn *Function
	both, err := store.Q.GetAssignmentWithFunction(ctx, s.Pool, store.GetAssignmentWithFunctionParams{ID: id, TeamID: a.TeamID})
	switch {
	case err == nil:
		f, err := s.FunctionIn(ctx, s.Pool, a, both.Function)
		if err != nil {
			return Assignment{}, nil, nil, err
		}
		asg, fn = FromRow(both.Assignment, both.SubmissionIds), &f
		asg.Usage = &Usage{
			Calls: int(both.UsageCalls), PromptTokens: int(both.UsagePromptTokens), CachedPromptTokens: int(both.UsageCachedPromptTokens),
			CompletionTokens: int(both.UsageCompletionTokens), CostUSD: both.UsageCostUsd,
		}
	case errors.Is(err, pgx.ErrNoRows): // not defined yet (or not found: GetViewOnly says)
		if asg, err = s.GetViewOnly(ctx, a, id); err != nil {
			return Assignment{}, nil, nil, err
		}
	default:
		return Assignment{}, nil, nil, fmt.Errorf("load assignment %s: %w", id, err)
	}
	var rows []store.FunctionResult
	if forTable {
		rows, err = tableResults(ctx, s.Pool, a, id)
	} else if only == nil {
		rows, err = store.Q.ListAssignmentFunctionResults(ctx, s.Pool, store.ListAssignmentFunctionResultsParams{AssignmentID: id, TeamID: a.TeamID})
	} else if len(only) > 0 {
		rows, err = store.Q.ListAssignmentFunctionResultsByIDs(ctx, s.Pool, store.ListAssignmentFunctionResultsByIDsParams{AssignmentID: id, TeamID: a.TeamID, Ids: only})
	}
	if err != nil {
		return Assignment{}, nil, nil, fmt.Errorf("list function results of assignment %s: %w", id, err)
	}
	results := make([]FunctionResult, len(rows))
	for i, r := range rows {
		results[i] = FunctionResultFromRow(r)
	}
	return asg, fn, results, nil
}

// SignResults adds signed URLs of their answer media to results of the
// assignment id.
func (s *Service) SignResults(ctx context.Context, id uuid.UUID, results []FunctionResult) error {
	if s.AnswerMedia == nil {
		return nil
	}
	for i := range results {
		signed, err := s.AnswerMedia.SignAnswers(ctx, id, results[i].Answers)
		if err != nil {
			return fmt.Errorf("sign answer media of result %s: %w", results[i].ID, err)
		}
		results[i].Answers = signed
	}
	return nil
}

// FunctionResultFromRow turns a stored function result into its API shape.
func FunctionResultFromRow(r store.FunctionResult) FunctionResult {
	dropped := int(r.DroppedHighlights)
	return FunctionResult{
		ID: r.ID, Submission: r.SubmissionID, Status: r.Status, ResultFields: ResultFieldsFromRow(r),
		IsBenchmark: r.IsBenchmark, Error: r.Error, Flags: r.Flags, DroppedHighlights: &dropped,
		Usage: &Usage{
			Model: r.Model, Calls: int(r.ModelCalls), PromptTokens: int(r.PromptTokens),
			CachedPromptTokens: int(r.CachedPromptTokens), CompletionTokens: int(r.CompletionTokens), CostUSD: r.CostUsd,
		},
		GradedAt: r.GradedAt, ReviewedAt: r.ReviewedAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		GradedParts: r.GradedParts, Stamp: stampOf(r.ChangedXid),
	}
}

func stampOf(x pgtype.Uint64) uint64 {
	if !x.Valid {
		return 0
	}
	return x.Uint64
}

// MarkOutdated sets Outdated and OutdatedParts of a graded result from the
// assignment's current definition f.
func (r *FunctionResult) MarkOutdated(f Function) {
	if r.GradedAt == nil || r.Status == "failed" || process.IsInProgress(r.Status) {
		return
	}
	parts := Outdated(r.GradedParts, f)
	r.Outdated = len(parts) > 0
	if r.Outdated {
		r.OutdatedParts = OutdatedLabels(parts)
		r.QuestionsAdded = QuestionsAdded(parts)
	}
}

// ForStudent leaves out what only the teacher sees: flags, dropped
// highlights and cost.
func (r FunctionResult) ForStudent() FunctionResult {
	r.Flags, r.DroppedHighlights, r.Usage = nil, nil, nil
	r.Outdated, r.OutdatedParts, r.QuestionsAdded = false, nil, false
	return r
}

// GetViewOnly returns an assignment without its results.
func (s *Service) GetViewOnly(ctx context.Context, a identity.Actor, id uuid.UUID) (Assignment, error) {
	row, err := store.Q.GetAssignmentWithSubmissionIDs(ctx, s.Pool, store.GetAssignmentWithSubmissionIDsParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return Assignment{}, store.NotFound(fmt.Errorf("load assignment %s: %w", id, err))
	}
	return FromRow(row.Assignment, row.SubmissionIds), nil
}

func (s *Service) load(ctx context.Context, a identity.Actor, id uuid.UUID) (store.Assignment, error) {
	row, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return store.Assignment{}, store.NotFound(fmt.Errorf("load assignment %s: %w", id, err))
	}
	return row, nil
}

func (s *Service) withSubmissions(ctx context.Context, a identity.Actor, row store.Assignment) (Assignment, error) {
	ids, err := store.Q.AssignmentSubmissionIDs(ctx, s.Pool, store.AssignmentSubmissionIDsParams{AssignmentID: row.ID, TeamID: a.TeamID})
	if err != nil {
		return Assignment{}, fmt.Errorf("list submissions of assignment %s: %w", row.ID, err)
	}
	return FromRow(row, ids), nil
}

// FromRow turns a stored assignment and the ids of its submissions into the
// API shape.
func FromRow(row store.Assignment, submissions []uuid.UUID) Assignment {
	out := Assignment{
		ID: row.ID, Name: row.Name, Type: string(row.Type),
		IsHandWritten: row.IsHandWritten, ProvideInstantFeedback: row.ProvideInstantFeedback,
		ClassSummary: row.ClassSummary, SummaryStatus: row.SummaryStatus,
		Agreement: row.Agreement, AgreementStatus: row.AgreementStatus,
		Submissions: make([]Ref, len(submissions)),
		CreatedAt:   row.CreatedAt, UpdatedAt: row.UpdatedAt,
	}
	if row.FolderID.Valid {
		id := row.FolderID.UUID
		out.FolderID = &id
	}
	for i, id := range submissions {
		out.Submissions[i] = Ref{ID: id}
	}
	return out
}

func validName(name string) (string, error) {
	name = input.Name(name)
	switch {
	case name == "":
		return "", apperr.New(apperr.Invalid, MsgNameEmpty)
	case utf8.RuneCountInString(name) > MaxNameLength:
		return "", apperr.New(apperr.Invalid, MsgNameTooLong)
	}
	return name, nil
}
