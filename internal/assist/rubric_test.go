package assist_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
	"github.com/markwell/markwell/internal/rubric"
)

// answers gives a service whose model answers each call with the next of
// answers (an error fails that call).
func answers(t *testing.T, list ...any) *bundle {
	t.Helper()
	b := &bundle{mock: &llmtest.Mock{}}
	b.mock.CompleteJSONFunc = func(ctx context.Context, req llm.Request, out any) error {
		b.sent = append(b.sent, req)
		require.Less(t, len(b.sent)-1, len(list), "the model was asked too often")
		a := list[len(b.sent)-1]
		if err, ok := a.(error); ok {
			return err
		}
		return llmtest.Answer(a)(ctx, req, out)
	}
	b.svc = &assist.Service{LLM: b.mock}
	return b
}

func criterion(desc string, levels ...string) map[string]any {
	return map[string]any{"criterionDescription": desc, "levelDescriptions": levels}
}

var goodRubric = map[string]any{"name": " Essay rubric ", "criteria": []any{
	criterion("Thesis", "Clear and arguable", "Clear", "Vague", "Missing"),
	criterion("Evidence", "Well chosen", "Relevant", "Thin", "None"),
}}

func TestRubricSchemaIsStrict(t *testing.T) {
	t.Parallel()
	requireStrict(t, assist.RubricSchema, "rubric")
}

func TestRubricFromSheet(t *testing.T) {
	t.Parallel()
	b := answers(t, goodRubric)
	got, err := b.svc.RubricFromSheet(context.Background(), "  Essay: argue for or against school uniforms.  ")
	require.NoError(t, err)
	require.Equal(t, rubric.Input{Name: " Essay rubric ", Criteria: []rubric.Criterion{
		{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable", "Clear", "Vague", "Missing"}},
		{CriterionDescription: "Evidence", LevelDescriptions: []string{"Well chosen", "Relevant", "Thin", "None"}},
	}}, got)
	_, _, err = rubric.Validate(got)
	require.NoError(t, err, "what comes back passes the library's validation")
	require.Len(t, b.sent, 1)
	req := b.sent[0]
	require.Equal(t, "rubric_from_sheet", req.Task)
	require.Equal(t, assist.RubricSchema, req.Schema)
	require.Contains(t, req.System, "exactly 4 level descriptions ordered best first")
	require.Equal(t, "<assignment>\nEssay: argue for or against school uniforms.\n</assignment>\nWrite a rubric for this assignment.", req.Messages[0].Text)
}

func TestRubricFromSheetRetriesOnceWithTheReason(t *testing.T) {
	t.Parallel()
	bad := map[string]any{"name": "Essay", "criteria": []any{criterion("Thesis", "Clear", "  ")}}
	b := answers(t, bad, goodRubric)
	got, err := b.svc.RubricFromSheet(context.Background(), "Essay")
	require.NoError(t, err)
	require.Equal(t, " Essay rubric ", got.Name)
	require.Len(t, b.sent, 2)
	retry := b.sent[1].Messages
	require.Len(t, retry, 3, "the sheet, the refused answer, the reason")
	require.Equal(t, llm.RoleAssistant, retry[1].Role)
	require.Contains(t, retry[1].Text, `"Thesis"`)
	require.Equal(t, "The rubric library refused that rubric: Level description cannot be empty. Write the whole rubric again, fixed.", retry[2].Text)

	// Refused twice: nothing usable.
	noCriteria := map[string]any{"name": "Essay", "criteria": []any{}}
	b = answers(t, bad, noCriteria)
	_, err = b.svc.RubricFromSheet(context.Background(), "Essay")
	requireError(t, err, apperr.Upstream, "Failed to generate rubric.")
	require.Len(t, b.sent, 2)

	// A malformed answer is asked for again too; other failures are not.
	b = answers(t, fmt.Errorf("cut off: %w", llm.ErrBadOutput), goodRubric)
	_, err = b.svc.RubricFromSheet(context.Background(), "Essay")
	require.NoError(t, err)
	b = answers(t, fmt.Errorf("refused: %w", llm.ErrPermanent))
	_, err = b.svc.RubricFromSheet(context.Background(), "Essay")
	requireError(t, err, apperr.Upstream, "Failed to generate rubric.")
	require.True(t, errors.Is(err, llm.ErrPermanent))
	require.Len(t, b.sent, 1)
}

func TestRubricFromSheetRefusesEmptyAndLongSheets(t *testing.T) {
	t.Parallel()
	b := answers(t)
	_, err := b.svc.RubricFromSheet(context.Background(), " \n\t ")
	requireError(t, err, apperr.Invalid, "Please fill in all required fields")
	_, err = b.svc.RubricFromSheet(context.Background(), strings.Repeat("é", assist.MaxSheet+1))
	requireError(t, err, apperr.Invalid, "The assignment sheet can be at most 50,000 characters")
	require.Empty(t, b.sent, "the model was not asked")
	b = answers(t, goodRubric)
	_, err = b.svc.RubricFromSheet(context.Background(), strings.Repeat("é", assist.MaxSheet))
	require.NoError(t, err, "exactly at the limit")
}

func TestRubricFromSheetWithTheDemoModel(t *testing.T) {
	t.Parallel()
	svc, model := demo(t)
	got, err := svc.RubricFromSheet(context.Background(), `Persuasive letter
1. State your position clearly in the first paragraph.
2. Support your argument with at least two pieces of evidence.
3. Write a conclusion that calls the reader to act.`)
	require.NoError(t, err)
	require.Equal(t, "Persuasive letter rubric", got.Name)
	require.Len(t, got.Criteria, 4)
	require.Equal(t, "Support your argument with at least two pieces of evidence.", got.Criteria[1].CriterionDescription)
	for _, c := range got.Criteria {
		require.Len(t, c.LevelDescriptions, 4)
	}
	_, _, err = rubric.Validate(got)
	require.NoError(t, err)
	require.Equal(t, int64(1), model.Stats().Tasks["rubric_from_sheet"])
}
