package assignment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// Limits on a function.
const (
	// MaxQuestionDepth is how deep grade questions nest: a question, its
	// subquestions and theirs.
	MaxQuestionDepth = 3
	// MaxPoints is the most a criterion can be worth.
	MaxPoints = 1000
	// MaxQuestions caps the questions of a grade assignment, subquestions
	// counted; MaxCriteria the criteria of one question; MaxHighlighters the
	// highlighters of a feedback assignment. No teacher meets them; a request
	// that floods the table does.
	MaxQuestions    = 200
	MaxCriteria     = 50
	MaxHighlighters = 30
)

// The function validation messages.
const (
	MsgAlreadyDefined   = "This assignment already has a definition"
	MsgTooDeep          = "Grade questions nest at most 3 levels"
	MsgQuestionText     = "Each question needs question text"
	MsgPoints           = "Criterion points must be a number from 0 to 1000"
	MsgHighlighterTitle = "Highlighter title cannot be empty"
	MsgHighlighterKey   = "Highlighter key must be camel case, at most 25 characters"
	MsgHighlighterDup   = "Highlighter keys must be unique"
	MsgColour           = "Unknown highlighter colour"
	MsgChooseRubric     = "Please choose a rubric"
	MsgPromptEmpty      = "Prompt cannot be empty"
	MsgTooManyQuestions = "A grade assignment can have at most 200 questions"
	MsgTooManyCriteria  = "A question can have at most 50 criteria"
	MsgTooManyHighlight = "A feedback assignment can have at most 30 highlighters"
)

// Highlighter is one kind of highlight a feedback assignment marks.
type Highlighter struct {
	Key         string `json:"key"`
	Color       string `json:"color"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Criterion is what a grade question awards points for.
type Criterion struct {
	// ID is stable across edits (assignIDs): a result's tick follows it.
	ID          string  `json:"id,omitempty"`
	Description string  `json:"description"`
	Points      float64 `json:"points"`
}

// Question is a grade question; Subquestions nest at most
// [MaxQuestionDepth] levels in all.
type Question struct {
	// ID is stable across edits (assignIDs): a result's answer follows it
	// when the question moves.
	ID           string `json:"id,omitempty"`
	QuestionText string `json:"questionText"`
	Context      string `json:"context"`
	// RubricID is the id of one of the team's rubrics, or nil.
	RubricID     *string     `json:"rubricId"`
	Criteria     []Criterion `json:"criteria"`
	Subquestions []Question  `json:"subquestions"`
}

// Function is an assignment's definition (a "function" in the spec). Which
// fields matter depends on Type.
type Function struct {
	ID           uuid.UUID `json:"_id"`
	AssignmentID uuid.UUID `json:"assignmentId"`
	Type         string    `json:"type"`
	// Highlights and Context define a feedback assignment.
	Highlights []Highlighter `json:"highlights"`
	Context    string        `json:"context"`
	// Questions define a grade assignment.
	Questions []Question `json:"questions"`
	// RubricID defines a rubric-feedback assignment; GetFunction embeds the
	// rubric itself.
	RubricID *uuid.UUID     `json:"rubricId"`
	Rubric   *rubric.Rubric `json:"rubric,omitempty"`
	// Prompt defines a prompt assignment.
	Prompt string `json:"prompt"`

	// storedQuestions is Questions as stored, when read from the database.
	storedQuestions string
}

// QuestionsKey identifies the questions of a definition read from the
// database (their stored bytes): equal keys, equal questions. Empty for a
// definition built in memory.
func (f Function) QuestionsKey() string { return f.storedQuestions }

// FunctionInput is what a teacher saves as an assignment's definition; only
// the fields of the assignment's type are kept.
type FunctionInput struct {
	Highlights []Highlighter `json:"highlights"`
	Context    string        `json:"context"`
	Questions  []Question    `json:"questions"`
	RubricID   string        `json:"rubricId"`
	Prompt     string        `json:"prompt"`
}

// PutFunction defines an assignment; an assignment has one definition.
func (s *Service) PutFunction(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, in FunctionInput) (Function, error) {
	var out Function
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		asg, err := store.Q.GetAssignment(ctx, tx, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("load assignment %s: %w", assignmentID, err))
		}
		if _, err := store.Q.GetAssignmentFunction(ctx, tx, store.GetAssignmentFunctionParams{AssignmentID: assignmentID, TeamID: a.TeamID}); err == nil {
			return apperr.New(apperr.Invalid, MsgAlreadyDefined)
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("load function of assignment %s: %w", assignmentID, err)
		}
		v, err := validateFunction(ctx, tx, a, string(asg.Type), in, nil)
		if err != nil {
			return err
		}
		row, err := store.Q.CreateFunction(ctx, tx, store.CreateFunctionParams{
			TeamID: a.TeamID, AssignmentID: assignmentID, Type: asg.Type,
			Highlights: v.highlights, Context: v.context, Questions: v.questions, RubricID: v.rubricID, Prompt: v.prompt,
		})
		if errors.Is(err, pgx.ErrNoRows) { // another request defined it first
			return apperr.New(apperr.Invalid, MsgAlreadyDefined)
		}
		if err != nil {
			return fmt.Errorf("create function of assignment %s: %w", assignmentID, err)
		}
		if err := store.Q.TouchAssignment(ctx, tx, store.TouchAssignmentParams{ID: assignmentID, TeamID: a.TeamID}); err != nil {
			return fmt.Errorf("touch assignment %s: %w", assignmentID, err)
		}
		out, err = FunctionFromRow(row)
		return err
	})
	return out, err
}

// UpdateFunction replaces an assignment's definition. assignmentID, when not
// uuid.Nil, must be the function's assignment. In the same transaction the
// results' answers follow their questions and criteria (RemapAnswers),
// results graded before versions existed are taken as graded against the
// definition replaced, and the change is recorded in the history.
func (s *Service) UpdateFunction(ctx context.Context, a identity.Actor, functionID, assignmentID uuid.UUID, in FunctionInput) (Function, error) {
	var out Function
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		cur, err := store.Q.GetFunction(ctx, tx, store.GetFunctionParams{ID: functionID, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("load function %s: %w", functionID, err))
		}
		if assignmentID != uuid.Nil && assignmentID != cur.AssignmentID {
			return apperr.ErrNotFound
		}
		before, err := FunctionFromRow(cur)
		if err != nil {
			return err
		}
		v, err := validateFunction(ctx, tx, a, string(cur.Type), in, before.Questions)
		if err != nil {
			return err
		}
		row, err := store.Q.UpdateFunction(ctx, tx, store.UpdateFunctionParams{
			ID: functionID, TeamID: a.TeamID,
			Highlights: v.highlights, Context: v.context, Questions: v.questions, RubricID: v.rubricID, Prompt: v.prompt,
		})
		if err != nil {
			return store.NotFound(fmt.Errorf("update function %s: %w", functionID, err))
		}
		if out, err = FunctionFromRow(row); err != nil {
			return err
		}
		if err := s.recordFunctionChange(ctx, tx, a, before, out); err != nil {
			return err
		}
		if err := store.Q.TouchAssignment(ctx, tx, store.TouchAssignmentParams{ID: cur.AssignmentID, TeamID: a.TeamID}); err != nil {
			return fmt.Errorf("touch assignment %s: %w", cur.AssignmentID, err)
		}
		return nil
	})
	return out, err
}

// GetFunction returns an assignment's definition, with the rubric embedded
// for rubric-feedback. typ, when not empty, must be the assignment's type.
// An assignment not defined yet is not found.
func (s *Service) GetFunction(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, typ string) (Function, error) {
	return s.GetFunctionIn(ctx, s.Pool, a, assignmentID, typ)
}

// GetFunctionIn is GetFunction through db, typically the caller's
// transaction. A caller holding a transaction must use it: asking the pool
// for a second connection while holding one deadlocks once every
// connection is held by such a caller (cmd/bench found it: four teachers
// ticking criteria at once stopped the API on a 2-core machine's 4
// connections).
func (s *Service) GetFunctionIn(ctx context.Context, db store.DBTX, a identity.Actor, assignmentID uuid.UUID, typ string) (Function, error) {
	row, err := store.Q.GetAssignmentFunction(ctx, db, store.GetAssignmentFunctionParams{AssignmentID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Function{}, store.NotFound(fmt.Errorf("load function of assignment %s: %w", assignmentID, err))
	}
	if typ != "" && typ != string(row.Type) {
		return Function{}, apperr.ErrNotFound
	}
	return s.FunctionIn(ctx, db, a, row)
}

// FunctionIn turns a stored definition of a's team into its API shape,
// with its rubric (a type whose definition has one) read through db and
// embedded, by the one rule of [LoadFunction].
func (s *Service) FunctionIn(ctx context.Context, db store.DBTX, a identity.Actor, row store.Function) (Function, error) {
	f, err := FunctionFromRow(row)
	if err != nil {
		return Function{}, err
	}
	if !process.Uses(f.Type, process.PartRubric) || f.RubricID == nil {
		return f, nil
	}
	rubrics, err := loadRubrics(ctx, db, a.TeamID, []uuid.UUID{*f.RubricID})
	if err != nil {
		return Function{}, err
	}
	embedRubric(&f, rubrics)
	return f, nil
}

// LoadFunction reads an assignment's definition by ids the caller has
// scoped (a job's), with its rubric embedded as FunctionIn does and the
// rubrics its questions use, by id. An assignment without a definition
// answers apperr.ErrNotFound.
func LoadFunction(ctx context.Context, db store.DBTX, teamID, assignmentID uuid.UUID) (Function, map[uuid.UUID]rubric.Rubric, error) {
	row, err := store.Q.GetAssignmentFunction(ctx, db, store.GetAssignmentFunctionParams{AssignmentID: assignmentID, TeamID: teamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return Function{}, nil, apperr.ErrNotFound
	}
	if err != nil {
		return Function{}, nil, fmt.Errorf("load function of assignment %s: %w", assignmentID, err)
	}
	f, err := FunctionFromRow(row)
	if err != nil {
		return Function{}, nil, err
	}
	rubrics, err := EmbedRubrics(ctx, db, teamID, &f, RubricIDs(f))
	if err != nil {
		return Function{}, nil, err
	}
	return f, rubrics, nil
}

// RubricIDs are the rubrics a definition uses: its questions' and, for a
// type whose definition has one, its own.
func RubricIDs(f Function) []uuid.UUID {
	ids := questionRubricIDs(f.Questions)
	if f.RubricID != nil && process.Uses(f.Type, process.PartRubric) {
		ids = append(ids, *f.RubricID)
	}
	return ids
}

// EmbedRubrics reads the team's rubrics among ids (RubricIDs(*f)) through
// db and embeds f's own by the one rule of LoadFunction; it returns them
// by id.
func EmbedRubrics(ctx context.Context, db store.DBTX, teamID uuid.UUID, f *Function, ids []uuid.UUID) (map[uuid.UUID]rubric.Rubric, error) {
	rubrics, err := loadRubrics(ctx, db, teamID, ids)
	if err != nil {
		return nil, err
	}
	embedRubric(f, rubrics)
	return rubrics, nil
}

// embedRubric is the one rule for a definition's rubric: a type whose
// definition has one gets it when it is still there; a deleted rubric (or
// one no longer the team's) leaves the definition without one, which the
// grading reports ("This assignment's rubric is missing") and an edit
// refuses (MsgChooseRubric).
func embedRubric(f *Function, rubrics map[uuid.UUID]rubric.Rubric) {
	if f.RubricID == nil || !process.Uses(f.Type, process.PartRubric) {
		return
	}
	if r, ok := rubrics[*f.RubricID]; ok {
		f.Rubric = &r
	}
}

// loadRubrics reads the team's rubrics among ids, by id.
func loadRubrics(ctx context.Context, db store.DBTX, teamID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]rubric.Rubric, error) {
	out := map[uuid.UUID]rubric.Rubric{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := store.Q.GetRubricsByIDs(ctx, db, store.GetRubricsByIDsParams{TeamID: teamID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("load rubrics: %w", err)
	}
	for _, r := range rows {
		rb, err := rubric.FromRow(r)
		if err != nil {
			return nil, err
		}
		out[r.ID] = rb
	}
	return out, nil
}

// questionRubricIDs are the rubrics questions use (Question.RubricID).
func questionRubricIDs(qs []Question) []uuid.UUID {
	var out []uuid.UUID
	for _, q := range qs {
		if q.RubricID != nil {
			if id, err := uuid.Parse(*q.RubricID); err == nil {
				out = append(out, id)
			}
		}
		out = append(out, questionRubricIDs(q.Subquestions)...)
	}
	return out
}

// FunctionFromRow turns a stored function into its API shape (without the
// embedded rubric).
func FunctionFromRow(row store.Function) (Function, error) {
	f := Function{
		ID: row.ID, AssignmentID: row.AssignmentID, Type: string(row.Type), Context: row.Context, Prompt: row.Prompt,
		storedQuestions: string(row.Questions),
	}
	if err := json.Unmarshal(row.Highlights, &f.Highlights); err != nil {
		return Function{}, fmt.Errorf("decode highlights of function %s: %w", row.ID, err)
	}
	if err := json.Unmarshal(row.Questions, &f.Questions); err != nil {
		return Function{}, fmt.Errorf("decode questions of function %s: %w", row.ID, err)
	}
	if f.Highlights == nil {
		f.Highlights = []Highlighter{}
	}
	f.Questions = normalise(f.Questions)
	legacyIDs(f.Questions, "")
	if row.RubricID.Valid {
		id := row.RubricID.UUID
		f.RubricID = &id
	}
	return f, nil
}

// normalise gives every question non-nil lists, so they encode as [].
func normalise(qs []Question) []Question {
	if qs == nil {
		return []Question{}
	}
	for i := range qs {
		if qs[i].Criteria == nil {
			qs[i].Criteria = []Criterion{}
		}
		qs[i].Subquestions = normalise(qs[i].Subquestions)
	}
	return qs
}

// valid is a checked function, ready to store.
type valid struct {
	highlights json.RawMessage
	context    string
	questions  json.RawMessage
	rubricID   uuid.NullUUID
	prompt     string
}

// validateFunction checks in for an assignment of type typ and keeps only
// that type's fields (and the context, which every type may use).
//
// Questions and criteria keep their ids; those without one take the id of
// the question (criterion) at the same place in old, the definition being
// replaced, or a new one (assignIDs).
func validateFunction(ctx context.Context, db store.DBTX, a identity.Actor, typ string, in FunctionInput, old []Question) (valid, error) {
	v := valid{highlights: json.RawMessage(`[]`), questions: json.RawMessage(`[]`), context: strings.TrimSpace(in.Context)}
	if err := input.Length("Context", v.context, input.MaxLongText); err != nil {
		return valid{}, err
	}
	if !process.Known(typ) {
		return valid{}, fmt.Errorf("assignment type %q has no function", typ)
	}
	if process.Uses(typ, process.PartHighlights) {
		hs, err := ValidateHighlighters(in.Highlights)
		if err != nil {
			return valid{}, err
		}
		if v.highlights, err = json.Marshal(hs); err != nil {
			return valid{}, fmt.Errorf("encode highlights: %w", err)
		}
	}
	if process.Uses(typ, process.PartQuestions) {
		qs, err := validateQuestions(ctx, db, a, in.Questions)
		if err != nil {
			return valid{}, err
		}
		assignIDs(qs, old)
		if v.questions, err = json.Marshal(qs); err != nil {
			return valid{}, fmt.Errorf("encode questions: %w", err)
		}
	}
	if process.Uses(typ, process.PartRubric) {
		raw := strings.TrimSpace(in.RubricID)
		if raw == "" {
			return valid{}, apperr.New(apperr.Invalid, MsgChooseRubric)
		}
		id, err := ownRubric(ctx, db, a, raw)
		if err != nil {
			return valid{}, err
		}
		v.rubricID = uuid.NullUUID{UUID: id, Valid: true}
	}
	if process.Uses(typ, process.PartPrompt) {
		if v.prompt = strings.TrimSpace(in.Prompt); v.prompt == "" {
			return valid{}, apperr.New(apperr.Invalid, MsgPromptEmpty)
		}
		if err := input.Length("Prompt", v.prompt, input.MaxLongText); err != nil {
			return valid{}, err
		}
	}
	return v, nil
}

// ownRubric parses a rubric id and checks that the rubric is the team's;
// anything else is not found. Through a transaction, the rubric stays
// locked against deletion until it ends (lockOwnRubrics).
func ownRubric(ctx context.Context, db store.DBTX, a identity.Actor, raw string) (uuid.UUID, error) {
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, apperr.ErrNotFound
	}
	if err := lockOwnRubrics(ctx, db, a, []uuid.UUID{id}); err != nil {
		return uuid.Nil, err
	}
	return id, nil
}

// lockOwnRubrics checks that every id (distinct) is a rubric of the team,
// and locks them FOR KEY SHARE: a colleague deleting one of them at the
// same time (library.DeleteRubric) either waits for the definition to be
// saved, and then refuses, or has deleted it first, and the rubric is not
// found here.
func lockOwnRubrics(ctx context.Context, db store.DBTX, a identity.Actor, ids []uuid.UUID) error {
	found, err := store.Q.LockTeamRubrics(ctx, db, store.LockTeamRubricsParams{TeamID: a.TeamID, Ids: ids})
	if err != nil {
		return fmt.Errorf("check rubrics: %w", err)
	}
	if len(found) != len(ids) {
		return apperr.ErrNotFound
	}
	return nil
}

// validateQuestions checks the depth of the whole tree first, then each
// question in order, then that every rubric named is the team's.
func validateQuestions(ctx context.Context, db store.DBTX, a identity.Actor, qs []Question) ([]Question, error) {
	if depth(qs) > MaxQuestionDepth {
		return nil, apperr.New(apperr.Invalid, MsgTooDeep)
	}
	if count(qs) > MaxQuestions {
		return nil, apperr.New(apperr.Invalid, MsgTooManyQuestions)
	}
	rubrics := map[uuid.UUID]bool{}
	out, err := cleanQuestions(qs, rubrics)
	if err != nil {
		return nil, err
	}
	if len(rubrics) > 0 {
		ids := make([]uuid.UUID, 0, len(rubrics))
		for id := range rubrics {
			ids = append(ids, id)
		}
		if err := lockOwnRubrics(ctx, db, a, ids); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// count is the number of questions in the tree, subquestions included.
func count(qs []Question) int {
	n := len(qs)
	for _, q := range qs {
		n += count(q.Subquestions)
	}
	return n
}

func depth(qs []Question) int {
	d := 0
	for _, q := range qs {
		d = max(d, 1+depth(q.Subquestions))
	}
	return d
}

func cleanQuestions(qs []Question, rubrics map[uuid.UUID]bool) ([]Question, error) {
	out := make([]Question, len(qs))
	for i, q := range qs {
		c := Question{ID: q.ID, QuestionText: strings.TrimSpace(q.QuestionText), Context: strings.TrimSpace(q.Context), Criteria: make([]Criterion, len(q.Criteria))}
		if c.QuestionText == "" {
			return nil, apperr.New(apperr.Invalid, MsgQuestionText)
		}
		if err := errors.Join(input.Length("Question text", c.QuestionText, input.MaxLongText),
			input.Length("Question context", c.Context, input.MaxLongText)); err != nil {
			return nil, err
		}
		if len(q.Criteria) > MaxCriteria {
			return nil, apperr.New(apperr.Invalid, MsgTooManyCriteria)
		}
		for j, cr := range q.Criteria {
			if cr.Points < 0 || cr.Points > MaxPoints {
				return nil, apperr.New(apperr.Invalid, MsgPoints)
			}
			c.Criteria[j] = Criterion{ID: cr.ID, Description: strings.TrimSpace(cr.Description), Points: cr.Points}
			if err := input.Length("Criterion description", c.Criteria[j].Description, input.MaxLongText); err != nil {
				return nil, err
			}
		}
		if q.RubricID != nil && strings.TrimSpace(*q.RubricID) != "" {
			id, err := uuid.Parse(strings.TrimSpace(*q.RubricID))
			if err != nil {
				return nil, apperr.ErrNotFound
			}
			s := id.String()
			c.RubricID = &s
			rubrics[id] = true
		}
		sub, err := cleanQuestions(q.Subquestions, rubrics)
		if err != nil {
			return nil, err
		}
		c.Subquestions = sub
		out[i] = c
	}
	return out, nil
}
