// Package rubric is a team's saved rubrics: criteria, each with level
// descriptions and optional point ranges per level. Every method takes the
// actor from the session; rubrics of other teams are answered as not found.
package rubric

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/store"
)

// Limits on what a rubric holds.
const (
	MaxNameLength            = 200
	maxCriteria, maxLevels   = 100, 50
	maxDescriptionCharacters = 10_000
)

// The validation messages, in the order they are checked.
const (
	MsgNameEmpty         = "Rubric name cannot be empty"
	MsgNameTooLong       = "Rubric name can be at most 200 characters"
	MsgNoCriteria        = "A rubric needs at least one criterion"
	MsgTooManyCriteria   = "A rubric can have at most 100 criteria"
	MsgCriterionEmpty    = "Criterion description cannot be empty"
	MsgNoLevels          = "Each criterion needs at least one level"
	MsgTooManyLevels     = "A criterion can have at most 50 levels"
	MsgLevelEmpty        = "Level description cannot be empty"
	MsgTextTooLong       = "Descriptions can be at most 10000 characters"
	MsgRangesMissing     = "If point ranges are enabled, min and max must be set for each level description"
	MsgLevelRangeMissing = "Level range must be set for each level description"
	MsgRangeIncomplete   = "Level range must have both min and max values"
	MsgRangeInverted     = "Level range minimum cannot be greater than its maximum"
)

// LevelRange is the point range of one level; Min and Max are nil when unset.
type LevelRange struct {
	LevelDescriptionsIndex int      `json:"levelDescriptionsIndex"`
	Min                    *float64 `json:"min,omitempty"`
	Max                    *float64 `json:"max,omitempty"`
}

// Criterion is one row of a rubric.
type Criterion struct {
	CriterionDescription string   `json:"criterionDescription"`
	LevelDescriptions    []string `json:"levelDescriptions"`
	UseRange             bool     `json:"useRange"`
	// LevelRanges is nil when the client sent none; with UseRange it holds
	// exactly one range per level, in level order.
	LevelRanges []LevelRange `json:"levelRanges,omitempty"`
}

// Rubric is a saved rubric.
type Rubric struct {
	ID        uuid.UUID   `json:"_id"`
	Name      string      `json:"name"`
	Criteria  []Criterion `json:"criteria"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
}

// Input is what a teacher saves.
type Input struct {
	Name     string      `json:"name"`
	Criteria []Criterion `json:"criteria"`
}

// Service manages rubrics.
type Service struct {
	Pool *pgxpool.Pool
}

// Create saves a new rubric in the actor's team.
func (s *Service) Create(ctx context.Context, a identity.Actor, in Input) (Rubric, error) {
	name, criteria, err := Validate(in)
	if err != nil {
		return Rubric{}, err
	}
	row, err := store.Q.CreateRubric(ctx, s.Pool, store.CreateRubricParams{
		TeamID: a.TeamID, Name: name, Criteria: criteria, CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
	})
	if err != nil {
		return Rubric{}, fmt.Errorf("create rubric: %w", err)
	}
	return FromRow(row)
}

// Update replaces a rubric's name and criteria. A change (not a save of
// the same rubric) goes into the history of every assignment of the team
// that uses the rubric, in the same transaction: their results are then
// graded against an earlier version, and the history says why.
func (s *Service) Update(ctx context.Context, a identity.Actor, id uuid.UUID, in Input) (Rubric, error) {
	name, criteria, err := Validate(in)
	if err != nil {
		return Rubric{}, err
	}
	var row store.Rubric
	err = store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		old, err := store.Q.GetRubric(ctx, tx, store.GetRubricParams{ID: id, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("load rubric %s: %w", id, err))
		}
		if row, err = store.Q.UpdateRubric(ctx, tx, store.UpdateRubricParams{ID: id, TeamID: a.TeamID, Name: name, Criteria: criteria}); err != nil {
			return store.NotFound(fmt.Errorf("update rubric %s: %w", id, err))
		}
		return recordChange(ctx, tx, a, old, row)
	})
	if err != nil {
		return Rubric{}, err
	}
	return FromRow(row)
}

// recordChange puts a rubric's change from old to saved into the history of
// the assignments using it: "changed the rubric “Essay rubric”", and its new
// name when it was renamed. Saving it unchanged records nothing.
func recordChange(ctx context.Context, tx pgx.Tx, a identity.Actor, old, saved store.Rubric) error {
	// Both as PostgreSQL's jsonb prints them: equal values, equal bytes.
	if bytes.Equal(old.Criteria, saved.Criteria) && old.Name == saved.Name {
		return nil
	}
	change := fmt.Sprintf("changed the rubric “%s”", old.Name)
	if old.Name != saved.Name {
		change += fmt.Sprintf(" (now “%s”)", saved.Name)
	}
	changes, err := json.Marshal([]string{change})
	if err != nil {
		return err
	}
	_, err = store.Q.AddRubricChangeToUsers(ctx, tx, store.AddRubricChangeToUsersParams{
		UserID: uuid.NullUUID{UUID: a.UserID, Valid: a.UserID != uuid.Nil}, Changes: changes, TeamID: a.TeamID, RubricID: saved.ID,
	})
	if err != nil {
		return fmt.Errorf("record the change of rubric %s: %w", saved.ID, err)
	}
	return nil
}

// Get returns one rubric of the actor's team.
func (s *Service) Get(ctx context.Context, a identity.Actor, id uuid.UUID) (Rubric, error) {
	row, err := store.Q.GetRubric(ctx, s.Pool, store.GetRubricParams{ID: id, TeamID: a.TeamID})
	if err != nil {
		return Rubric{}, store.NotFound(fmt.Errorf("load rubric %s: %w", id, err))
	}
	return FromRow(row)
}

// List returns the actor's team's rubrics, newest first.
func (s *Service) List(ctx context.Context, a identity.Actor) ([]Rubric, error) {
	rows, err := store.Q.ListRubrics(ctx, s.Pool, a.TeamID)
	if err != nil {
		return nil, fmt.Errorf("list rubrics of team %s: %w", a.TeamID, err)
	}
	out := make([]Rubric, len(rows))
	for i, row := range rows {
		if out[i], err = FromRow(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FromRow turns a stored rubric into its API shape.
func FromRow(row store.Rubric) (Rubric, error) {
	r := Rubric{ID: row.ID, Name: row.Name, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}
	if err := json.Unmarshal(row.Criteria, &r.Criteria); err != nil {
		return Rubric{}, fmt.Errorf("decode criteria of rubric %s: %w", row.ID, err)
	}
	if r.Criteria == nil {
		r.Criteria = []Criterion{}
	}
	for i := range r.Criteria {
		if r.Criteria[i].LevelDescriptions == nil {
			r.Criteria[i].LevelDescriptions = []string{}
		}
	}
	return r, nil
}

// Validate checks a rubric criterion by criterion, in the spec's order, and
// returns the trimmed name and the criteria as they are stored. Failures are
// Invalid errors carrying the spec's message.
func Validate(in Input) (string, json.RawMessage, error) {
	name := input.Name(in.Name)
	switch {
	case name == "":
		return "", nil, apperr.New(apperr.Invalid, MsgNameEmpty)
	case utf8.RuneCountInString(name) > MaxNameLength:
		return "", nil, apperr.New(apperr.Invalid, MsgNameTooLong)
	case len(in.Criteria) == 0:
		return "", nil, apperr.New(apperr.Invalid, MsgNoCriteria)
	case len(in.Criteria) > maxCriteria:
		return "", nil, apperr.New(apperr.Invalid, MsgTooManyCriteria)
	}
	out := make([]Criterion, len(in.Criteria))
	for i, c := range in.Criteria {
		clean, err := validateCriterion(c)
		if err != nil {
			return "", nil, err
		}
		out[i] = clean
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", nil, fmt.Errorf("encode criteria: %w", err)
	}
	return name, b, nil
}

func validateCriterion(c Criterion) (Criterion, error) {
	invalid := func(msg string) (Criterion, error) { return Criterion{}, apperr.New(apperr.Invalid, msg) }
	out := Criterion{CriterionDescription: strings.TrimSpace(c.CriterionDescription), UseRange: c.UseRange}
	if out.CriterionDescription == "" {
		return invalid(MsgCriterionEmpty)
	}
	if tooLong(out.CriterionDescription) {
		return invalid(MsgTextTooLong)
	}
	switch {
	case len(c.LevelDescriptions) == 0:
		return invalid(MsgNoLevels)
	case len(c.LevelDescriptions) > maxLevels:
		return invalid(MsgTooManyLevels)
	}
	out.LevelDescriptions = make([]string, len(c.LevelDescriptions))
	for i, l := range c.LevelDescriptions {
		l = strings.TrimSpace(l)
		if l == "" {
			return invalid(MsgLevelEmpty)
		}
		if tooLong(l) {
			return invalid(MsgTextTooLong)
		}
		out.LevelDescriptions[i] = l
	}

	// One range per level: the first range naming a level wins, ranges naming
	// no level are dropped.
	var byLevel map[int]LevelRange
	if c.LevelRanges != nil {
		byLevel = make(map[int]LevelRange, len(c.LevelRanges))
		for _, r := range c.LevelRanges {
			if _, seen := byLevel[r.LevelDescriptionsIndex]; !seen && r.LevelDescriptionsIndex >= 0 && r.LevelDescriptionsIndex < len(out.LevelDescriptions) {
				byLevel[r.LevelDescriptionsIndex] = r
			}
		}
	}
	if c.UseRange {
		if c.LevelRanges == nil {
			return invalid(MsgRangesMissing)
		}
		for i := range out.LevelDescriptions {
			if _, ok := byLevel[i]; !ok {
				return invalid(MsgLevelRangeMissing)
			}
		}
		for i := range out.LevelDescriptions {
			if r := byLevel[i]; r.Min == nil || r.Max == nil {
				return invalid(MsgRangeIncomplete)
			}
		}
		for i := range out.LevelDescriptions {
			if r := byLevel[i]; *r.Min > *r.Max {
				return invalid(MsgRangeInverted)
			}
		}
	}
	// Without UseRange the ranges are kept as they were (so switching ranges
	// back on restores them), minus those naming no level.
	if c.LevelRanges != nil {
		out.LevelRanges = make([]LevelRange, 0, len(byLevel))
		for i := range out.LevelDescriptions {
			if r, ok := byLevel[i]; ok {
				out.LevelRanges = append(out.LevelRanges, r)
			}
		}
	}
	return out, nil
}

func tooLong(s string) bool { return utf8.RuneCountInString(s) > maxDescriptionCharacters }
