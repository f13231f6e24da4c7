package grading

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/markwell/markwell/internal/input"
)

const promptInstructions = `You give a student feedback on their submission for a teacher. The assignment holds the teacher's prompt ("prompt"), which says what feedback to give and how, and sometimes context about the task ("context"). Follow the teacher's prompt as closely as you can for this submission: its focus, length, tone and format. Address the student. Markdown is allowed (short paragraphs, lists, bold). Quote the submission where that helps.`

type promptSpec struct {
	Prompt  string `json:"prompt"`
	Context string `json:"context,omitempty"`
}

type promptAnswer struct {
	Feedback  string          `json:"feedback"`
	Injection injectionReport `json:"injection"`
}

func planPrompt(in Input) (*proc, error) {
	prompt := strings.TrimSpace(in.Function.Prompt)
	if prompt == "" {
		return nil, &setupError{reason: "This assignment has no prompt yet."}
	}
	p := &proc{
		task:         TaskPrompt,
		instructions: promptInstructions,
		schema: objectOrdered(map[string]any{
			"feedback":  map[string]any{"type": "string", "description": "The feedback, following the teacher's prompt (Markdown allowed)."},
			"injection": injectionSchema,
		}, []string{"feedback", "injection"}),
		spec: promptSpec{Prompt: clip(prompt, maxSpecText), Context: clip(in.Function.Context, maxSpecText)},
		ask:  "Write the feedback on the submission that the teacher's prompt asks for.",
		grading: func(r Result) (string, bool) {
			if strings.TrimSpace(r.Feedback) == "" {
				return "", false
			}
			s, err := encode(promptAnswer{Feedback: clip(r.Feedback, maxFeedback)})
			return s, err == nil
		},
	}
	p.finish = func(raw json.RawMessage) (Result, injectionReport, error) {
		var a promptAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, injectionReport{}, fmt.Errorf("the answer is not the JSON object the schema asks for (%v)", err)
		}
		if strings.TrimSpace(a.Feedback) == "" {
			return Result{}, injectionReport{}, fmt.Errorf("feedback is empty")
		}
		return Result{Feedback: clip(a.Feedback, input.MaxLongText)}, a.Injection, nil
	}
	return p, nil
}
