package jobs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/agreement"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/process"
	"github.com/markwell/markwell/internal/result"
)

// lengthType is a fifth assignment type that exists only in this file: it
// asks the model for feedback on the teacher's prompt (the demo model's
// prompt_feedback task, which states the submission's word count) and
// scores one criterion, "long enough": met (level 0, 1 point) when the
// model counted at least lengthMin words. A teacher may change the level
// and the feedback. Nothing outside this file and the process registry
// knows it.
type lengthType struct{}

const (
	lengthName = "test-length"
	lengthMin  = 8
	msgLength  = "Choose met or not met for the one criterion."
)

func (lengthType) Name() string             { return lengthName }
func (lengthType) Process() string          { return "TestLengthProcess" }
func (lengthType) InProgressStatus() string { return grading.StatusGrading }
func (lengthType) DoneStatus() string       { return grading.StatusGraded }
func (lengthType) Parts() []process.Part    { return []process.Part{process.PartPrompt} }

var wordCount = regexp.MustCompile(`has (\d+) words`)

func (lengthType) Plan(in grading.Input) (*grading.Call, error) {
	schema := map[string]any{"type": "object", "additionalProperties": false,
		"required":   []any{"feedback", "injection"},
		"properties": map[string]any{"feedback": map[string]any{"type": "string"}, "injection": grading.InjectionSchema}}
	return &grading.Call{
		Task: grading.TaskPrompt, Instructions: "Give feedback following the teacher's prompt.", Schema: schema,
		Spec: map[string]string{"prompt": in.Function.Prompt}, Ask: "Write the feedback.",
		Grading: func(r grading.Result) (string, bool) {
			b, err := json.Marshal(map[string]string{"feedback": r.Feedback})
			return string(b), err == nil && len(r.CriteriaLevels) == 1
		},
		Finish: func(raw json.RawMessage) (grading.Result, grading.InjectionReport, error) {
			var a struct {
				Feedback  string                  `json:"feedback"`
				Injection grading.InjectionReport `json:"injection"`
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				return grading.Result{}, grading.InjectionReport{}, err
			}
			m := wordCount.FindStringSubmatch(a.Feedback)
			if m == nil {
				return grading.Result{}, grading.InjectionReport{}, fmt.Errorf("say how many words the submission has")
			}
			n, _ := strconv.Atoi(m[1])
			level := 1
			if n >= lengthMin {
				level = 0
			}
			return grading.Result{ResultFields: assignment.ResultFields{Feedback: a.Feedback, CriteriaLevels: []int{level}, CriteriaPoints: []float64{float64(1 - level)}}}, a.Injection, nil
		},
	}, nil
}

func (lengthType) Edit(_ assignment.Function, cur, next grading.Result) (grading.Result, error) {
	if len(next.CriteriaLevels) != 1 || next.CriteriaLevels[0] < 0 || next.CriteriaLevels[0] > 1 {
		return grading.Result{}, apperr.New(apperr.Invalid, msgLength)
	}
	out := cur
	out.Feedback = strings.TrimSpace(next.Feedback)
	out.CriteriaLevels, out.CriteriaPoints = next.CriteriaLevels, []float64{float64(1 - next.CriteriaLevels[0])}
	return out, nil
}

func (lengthType) Score(_ assignment.Function, r *grading.Result, _ grading.RetotalFunc) (float64, float64, bool) {
	if len(r.CriteriaLevels) != 1 {
		return 0, 0, false
	}
	return float64(1 - r.CriteriaLevels[0]), 1, true
}

func (lengthType) Agreement(assignment.Function) ([]agreement.Criterion, func(teacher, ai grading.Result) []agreement.Judgement) {
	met := func(r grading.Result) float64 {
		if len(r.CriteriaLevels) == 1 && r.CriteriaLevels[0] == 0 {
			return 1
		}
		return 0
	}
	return []agreement.Criterion{{Label: "Long enough", Kind: agreement.KindBoolean}}, func(teacher, ai grading.Result) []agreement.Judgement {
		return []agreement.Judgement{{CriterionIndex: 0, Teacher: met(teacher), AI: met(ai), TeacherPoints: met(teacher), AIPoints: met(ai)}}
	}
}

var registerLength sync.Once

func TestAFifthAssignmentTypeRunsThroughGradingEditingSummaryAndAgreement(t *testing.T) {
	t.Parallel()
	registerLength.Do(func() { process.Register(lengthType{}) })
	ctx := context.Background()
	g := setupGrading(t, fakellm.Options{}, llm.Config{})

	// The teacher creates it like any other type: stored as its name,
	// defined by its parts (a prompt).
	asg, err := g.asgs.Create(ctx, g.actor, assignment.Input{Name: "Length", Type: lengthName})
	require.NoError(t, err)
	_, err = g.asgs.PutFunction(ctx, g.actor, asg.ID, assignment.FunctionInput{})
	require.Equal(t, assignment.MsgPromptEmpty, apperr.From(err).Message, "its definition asks for its parts")
	_, err = g.asgs.PutFunction(ctx, g.actor, asg.ID, assignment.FunctionInput{Prompt: "Say whether it is long enough."})
	require.NoError(t, err)
	_, err = g.asgs.Create(ctx, g.actor, assignment.Input{Name: "Nope", Type: "test-unregistered"})
	require.Equal(t, assignment.MsgUnknownType, apperr.From(err).Message, "a type the registry does not know is refused")

	ids := g.submit(t, asg.ID,
		newSubmission{name: "Ada", text: "Trees cool streets because their leaves shade the ground and release water."},
		newSubmission{name: "Ben", text: "Trees are good."},
		newSubmission{name: "Cy", text: "Cities should plant more trees along every street to keep people cool in summer."})
	g.startWorker(t, g.deps, aiQueue, 2*time.Minute)

	// Grade-all queues the type's job; the worker's job asks the model
	// the type's way and saves what the type made of the answer.
	bench := g.benchmarks(t, asg.ID, ids)
	for _, fr := range bench {
		require.Contains(t, fr.Feedback, "words")
	}
	require.Equal(t, []int{0}, bench[0].CriteriaLevels)
	require.Equal(t, []int{1}, bench[1].CriteriaLevels, "three words are not long enough")

	// The class summary's page reads the results with the type's totals.
	_, results, err := g.results.GetAssignment(ctx, g.actor, asg.ID)
	require.NoError(t, err)
	totals := map[string]float64{}
	for _, r := range results {
		require.NotNil(t, r.TotalPoints)
		require.Equal(t, 1.0, *r.MaxPoints)
		totals[r.Submission.String()] = *r.TotalPoints
	}
	require.Equal(t, map[string]float64{ids[0].String(): 1, ids[1].String(): 0, ids[2].String(): 1}, totals)
	sum, err := g.results.GenerateSummary(ctx, g.actor, asg.ID, []grading.CriterionRate{{Label: "Long enough", SuccessRate: 2.0 / 3, AveragePoints: 2.0 / 3, MaxPoints: 1}})
	require.NoError(t, err)
	require.Contains(t, strings.Join(sum.CommonMistakes, " "), "Long enough", "the summary speaks of the type's criterion")
	require.False(t, sum.GeneratedAt.IsZero())

	// The teacher's edit goes through the type's rules.
	_, err = g.results.Update(ctx, g.actor, result.Edit{ResultFields: assignment.ResultFields{CriteriaLevels: []int{2}}, ResultID: bench[1].ID})
	require.Equal(t, msgLength, apperr.From(err).Message)
	edited, err := g.results.Update(ctx, g.actor, result.Edit{ResultFields: assignment.ResultFields{CriteriaLevels: []int{0}, Feedback: " Short, but it says it. "}, ResultID: bench[1].ID})
	require.NoError(t, err)
	require.Equal(t, grading.StatusReviewed, edited.Status)
	require.Equal(t, "Short, but it says it.", edited.Feedback)
	require.Equal(t, 1.0, *edited.TotalPoints)
	_, err = g.results.ToggleCriterion(ctx, g.actor, result.Toggle{ResultID: bench[1].ID, Path: []int{0}})
	require.Equal(t, result.MsgNotGrade, apperr.From(err).Message, "a type without toggles refuses them")

	// The agreement check regrades the benchmarks the type's way and
	// compares them on the type's criterion.
	status, report := g.checkAgreement(t, asg.ID)
	require.Equal(t, "done", status)
	require.Equal(t, 3, report.Benchmarks)
	require.Len(t, report.Criteria, 1)
	require.Equal(t, "Long enough", report.Criteria[0].Label)
	require.InDelta(t, 2.0/3, *report.Criteria[0].Accuracy, 1e-9)
	require.Equal(t, []agreement.Disagreement{{SubmissionID: ids[1].String(), SubmissionName: "Ben",
		Label: "Long enough", Teacher: "met", AI: "not met"}}, report.Disagreements)
}
