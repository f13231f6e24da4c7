package grading

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/process"
)

const promptInstructions = `You give a student feedback on their submission for a teacher. The assignment holds the teacher's prompt ("prompt"), which says what feedback to give and how, and sometimes context about the task ("context"). Follow the teacher's prompt as closely as you can for this submission: its focus, length, tone and format. Address the student. Markdown is allowed (short paragraphs, lists, bold). Quote the submission where that helps.`

type promptSpec struct {
	Prompt  string `json:"prompt"`
	Context string `json:"context,omitempty"`
}

type promptAnswer struct {
	Feedback  string          `json:"feedback"`
	Injection InjectionReport `json:"injection"`
}

func planPrompt(in Input) (*Call, error) {
	prompt := strings.TrimSpace(in.Function.Prompt)
	if prompt == "" {
		return nil, &setupError{reason: "This assignment has no prompt yet."}
	}
	p := &Call{
		Task:         TaskPrompt,
		Instructions: promptInstructions,
		Schema: objectOrdered(map[string]any{
			"feedback":  map[string]any{"type": "string", "description": "The feedback, following the teacher's prompt (Markdown allowed)."},
			"injection": InjectionSchema,
		}, []string{"feedback", "injection"}),
		Spec: promptSpec{Prompt: clip(prompt, maxSpecText), Context: clip(in.Function.Context, maxSpecText)},
		Ask:  "Write the feedback on the submission that the teacher's prompt asks for.",
		Grading: func(r Result) (string, bool) {
			if strings.TrimSpace(r.Feedback) == "" {
				return "", false
			}
			s, err := encode(promptAnswer{Feedback: clip(r.Feedback, maxFeedback)})
			return s, err == nil
		},
	}
	p.Finish = func(raw json.RawMessage) (Result, InjectionReport, error) {
		var a promptAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, InjectionReport{}, fmt.Errorf("the answer is not the JSON object the schema asks for (%v)", err)
		}
		if strings.TrimSpace(a.Feedback) == "" {
			return Result{}, InjectionReport{}, fmt.Errorf("feedback is empty")
		}
		return Result{ResultFields: assignment.ResultFields{Feedback: clip(a.Feedback, input.MaxLongText)}}, a.Injection, nil
	}
	return p, nil
}

// PromptType is the prompt assignment type: PromptProcess, free-form
// feedback following the teacher's prompt.
type PromptType struct{}

// Name implements process.Type.
func (PromptType) Name() string { return assignment.TypePrompt }

// Process implements process.Type.
func (PromptType) Process() string { return ProcessPrompt }

// InProgressStatus implements process.Type.
func (PromptType) InProgressStatus() string { return StatusGrading }

// DoneStatus implements process.Type.
func (PromptType) DoneStatus() string { return StatusGraded }

// Plan implements Planner.
func (PromptType) Plan(in Input) (*Call, error) { return planPrompt(in) }

// Edit implements Editor: the feedback.
func (PromptType) Edit(_ assignment.Function, cur, next Result) (Result, error) {
	out := cur
	out.Feedback = next.Feedback
	return out, nil
}

// Parts implements process.Definer.
func (PromptType) Parts() []process.Part { return []process.Part{process.PartPrompt} }
