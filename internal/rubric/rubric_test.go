package rubric_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc *rubric.Service
}

func setup(t *testing.T) *bundle {
	t.Helper()
	return &bundle{svc: &rubric.Service{Pool: testdb.Pool(t)}}
}

// teacher creates a teacher with a team of their own.
func (b *bundle) teacher(t *testing.T) identity.Actor {
	t.Helper()
	ctx := context.Background()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, b.svc.Pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

func num(f float64) *float64 { return &f }

func requireInvalid(t *testing.T, err error, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, apperr.Invalid, e.Code, err.Error())
	require.Equal(t, msg, e.Message)
}

// decode reads a rubric input written as the frontend sends it.
func decode(t *testing.T, body string) rubric.Input {
	t.Helper()
	var in rubric.Input
	require.NoError(t, json.Unmarshal([]byte(body), &in))
	return in
}

func TestValidationMessages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	long := strings.Repeat("x", 201)
	cases := []struct {
		name, body, msg string
	}{
		{"name empty", `{"name":"  ","criteria":[{"criterionDescription":"C","levelDescriptions":["L"]}]}`, "Rubric name cannot be empty"},
		{"name too long", `{"name":"` + long + `","criteria":[{"criterionDescription":"C","levelDescriptions":["L"]}]}`, "Rubric name can be at most 200 characters"},
		{"no criteria", `{"name":"R","criteria":[]}`, "A rubric needs at least one criterion"},
		{"criteria missing", `{"name":"R"}`, "A rubric needs at least one criterion"},
		{"criterion empty", `{"name":"R","criteria":[{"criterionDescription":"","levelDescriptions":["L"]}]}`, "Criterion description cannot be empty"},
		{"criterion whitespace", `{"name":"R","criteria":[{"criterionDescription":" \t\n","levelDescriptions":["L"]}]}`, "Criterion description cannot be empty"},
		{"no levels", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":[]}]}`, "Each criterion needs at least one level"},
		{"level empty", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["L",""]}]}`, "Level description cannot be empty"},
		{"level whitespace", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["   "]}]}`, "Level description cannot be empty"},
		{"ranges absent", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["L"],"useRange":true}]}`,
			"If point ranges are enabled, min and max must be set for each level description"},
		{"ranges null", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["L"],"useRange":true,"levelRanges":null}]}`,
			"If point ranges are enabled, min and max must be set for each level description"},
		{"ranges empty", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["L"],"useRange":true,"levelRanges":[]}]}`,
			"Level range must be set for each level description"},
		{"a level without range", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A","B"],"useRange":true,"levelRanges":[{"levelDescriptionsIndex":0,"min":0,"max":1}]}]}`,
			"Level range must be set for each level description"},
		{"range for a missing level does not count", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A"],"useRange":true,"levelRanges":[{"levelDescriptionsIndex":1,"min":0,"max":1}]}]}`,
			"Level range must be set for each level description"},
		{"min missing", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A"],"useRange":true,"levelRanges":[{"levelDescriptionsIndex":0,"max":1}]}]}`,
			"Level range must have both min and max values"},
		{"max null", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A"],"useRange":true,"levelRanges":[{"levelDescriptionsIndex":0,"min":0,"max":null}]}]}`,
			"Level range must have both min and max values"},
		{"min above max", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A"],"useRange":true,"levelRanges":[{"levelDescriptionsIndex":0,"min":5,"max":4}]}]}`,
			"Level range minimum cannot be greater than its maximum"},
		{"description too long", `{"name":"R","criteria":[{"criterionDescription":"` + strings.Repeat("d", 10_001) + `","levelDescriptions":["A"]}]}`,
			"Descriptions can be at most 10000 characters"},
		// Criterion by criterion: the first criterion's problem wins over a
		// later criterion's earlier-listed one.
		{"first criterion first", `{"name":"R","criteria":[
			{"criterionDescription":"C","levelDescriptions":[" "]},
			{"criterionDescription":"","levelDescriptions":["A"]}]}`, "Level description cannot be empty"},
		{"in order within a criterion", `{"name":"R","criteria":[{"criterionDescription":"","levelDescriptions":[""],"useRange":true}]}`,
			"Criterion description cannot be empty"},
		{"level text before ranges", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":[""],"useRange":true}]}`,
			"Level description cannot be empty"},
		{"missing range before incomplete range", `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["A","B"],"useRange":true,
			"levelRanges":[{"levelDescriptionsIndex":0,"min":1}]}]}`, "Level range must be set for each level description"},
	}
	existing, err := b.svc.Create(context.Background(), a, decode(t, `{"name":"R","criteria":[{"criterionDescription":"C","levelDescriptions":["L"]}]}`))
	require.NoError(t, err)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			_, err := b.svc.Create(ctx, a, decode(t, tc.body))
			requireInvalid(t, err, tc.msg)
			_, err = b.svc.Update(ctx, a, existing.ID, decode(t, tc.body))
			requireInvalid(t, err, tc.msg)
		})
	}
	got, err := b.svc.Get(context.Background(), a, existing.ID)
	require.NoError(t, err)
	require.Equal(t, existing, got, "failed updates change nothing")
	list, err := b.svc.List(context.Background(), a)
	require.NoError(t, err)
	require.Len(t, list, 1, "failed creates save nothing")
}

func TestCreateGetUpdateList(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)

	r, err := b.svc.Create(ctx, a, rubric.Input{
		Name: "  Essay rubric ",
		Criteria: []rubric.Criterion{
			{CriterionDescription: " Argument ", LevelDescriptions: []string{" Weak", "Strong "}, UseRange: true,
				LevelRanges: []rubric.LevelRange{
					{LevelDescriptionsIndex: 1, Min: num(3), Max: num(5)},
					{LevelDescriptionsIndex: 0, Min: num(0), Max: num(2.5)},
					{LevelDescriptionsIndex: 0, Min: num(9), Max: num(9)}, // a duplicate: the first wins
					{LevelDescriptionsIndex: 7, Min: num(0), Max: num(1)}, // no such level: dropped
				}},
			{CriterionDescription: "Spelling", LevelDescriptions: []string{"Level Description"}},
		},
	})
	require.NoError(t, err)
	require.NotEqual(t, uuid.Nil, r.ID)
	require.Equal(t, "Essay rubric", r.Name)
	require.Equal(t, []rubric.Criterion{
		{CriterionDescription: "Argument", LevelDescriptions: []string{"Weak", "Strong"}, UseRange: true,
			LevelRanges: []rubric.LevelRange{{LevelDescriptionsIndex: 0, Min: num(0), Max: num(2.5)}, {LevelDescriptionsIndex: 1, Min: num(3), Max: num(5)}}},
		{CriterionDescription: "Spelling", LevelDescriptions: []string{"Level Description"}},
	}, r.Criteria)

	got, err := b.svc.Get(ctx, a, r.ID)
	require.NoError(t, err)
	require.Equal(t, r.Criteria, got.Criteria)
	require.Equal(t, r.Name, got.Name)

	// The JSON shape is the contract's.
	raw, err := json.Marshal(got)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(raw, &shape))
	require.ElementsMatch(t, []string{"_id", "name", "criteria", "createdAt", "updatedAt"}, keys(shape))
	c0 := shape["criteria"].([]any)[0].(map[string]any)
	require.ElementsMatch(t, []string{"criterionDescription", "levelDescriptions", "useRange", "levelRanges"}, keys(c0))
	require.Equal(t, map[string]any{"levelDescriptionsIndex": 0.0, "min": 0.0, "max": 2.5}, c0["levelRanges"].([]any)[0])
	c1 := shape["criteria"].([]any)[1].(map[string]any)
	require.ElementsMatch(t, []string{"criterionDescription", "levelDescriptions", "useRange"}, keys(c1))

	// Ranges switched off are kept, unchecked, for when they come back on.
	up, err := b.svc.Update(ctx, a, r.ID, rubric.Input{Name: "Renamed", Criteria: []rubric.Criterion{
		{CriterionDescription: "Argument", LevelDescriptions: []string{"Weak"}, UseRange: false,
			LevelRanges: []rubric.LevelRange{{LevelDescriptionsIndex: 0, Min: num(4)}}},
	}})
	require.NoError(t, err)
	require.Equal(t, "Renamed", up.Name)
	require.Equal(t, r.CreatedAt, up.CreatedAt)
	require.False(t, up.UpdatedAt.Before(r.UpdatedAt))
	require.Equal(t, []rubric.LevelRange{{LevelDescriptionsIndex: 0, Min: num(4)}}, up.Criteria[0].LevelRanges)

	second, err := b.svc.Create(ctx, a, rubric.Input{Name: "Second", Criteria: []rubric.Criterion{{CriterionDescription: "C", LevelDescriptions: []string{"L"}}}})
	require.NoError(t, err)
	list, err := b.svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, second.ID, list[0].ID, "newest first")
	require.Equal(t, r.ID, list[1].ID)
	require.Equal(t, "Renamed", list[1].Name)
}

func TestOtherTeamsRubricsAreNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob := b.teacher(t), b.teacher(t)
	in := rubric.Input{Name: "Ada's", Criteria: []rubric.Criterion{{CriterionDescription: "C", LevelDescriptions: []string{"L"}}}}
	r, err := b.svc.Create(ctx, ada, in)
	require.NoError(t, err)

	_, err = b.svc.Get(ctx, bob, r.ID)
	require.Equal(t, apperr.NotFound, apperr.From(err).Code)
	_, err = b.svc.Update(ctx, bob, r.ID, rubric.Input{Name: "Bob's now", Criteria: in.Criteria})
	require.Equal(t, apperr.NotFound, apperr.From(err).Code)
	_, err = b.svc.Get(ctx, ada, uuid.New())
	require.Equal(t, apperr.NotFound, apperr.From(err).Code)
	list, err := b.svc.List(ctx, bob)
	require.NoError(t, err)
	require.Empty(t, list)
	require.NotNil(t, list)

	got, err := b.svc.Get(ctx, ada, r.ID)
	require.NoError(t, err)
	require.Equal(t, "Ada's", got.Name)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
