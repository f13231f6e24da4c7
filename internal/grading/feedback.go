package grading

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/process"
)

// maxPassages caps the passages taken from one answer; more are dropped
// and counted.
const maxPassages = 200

const passageRules = `Each passage:
- "text" is copied exactly from the submission, character for character (same spelling, capitals, punctuation and spaces), so it can be found in it; it is short: the words at issue with a few around them so they are found at the right place, never more than one sentence;
- "key" is the key of the highlighter it belongs to;
- "comment" tells the student in one or two plain sentences what is wrong or good here and how to improve.
Passages must not overlap. List them in the order of the text.`

const feedbackInstructions = `You annotate a student's submission for a teacher with highlighters. The assignment lists the highlighters ("highlighters": key, title and description); each marks one kind of thing in the text, as its description says, and the assignment's context says what the submission is. Mark every passage a careful teacher would mark with each highlighter — but only real instances: an empty list is right when there are none.

` + passageRules + `

Then write overall feedback on the submission, addressed to the student (two to four sentences: its strengths and the most useful thing to improve).`

type specHighlighter struct {
	Key         string `json:"key"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

type feedbackSpec struct {
	Context      string            `json:"context,omitempty"`
	Highlighters []specHighlighter `json:"highlighters"`
}

// passageAnswer is one highlighted passage in the model's answer.
type passageAnswer struct {
	Key     string `json:"key"`
	Text    string `json:"text"`
	Comment string `json:"comment"`
}

type feedbackAnswer struct {
	Passages  []passageAnswer `json:"passages"`
	Feedback  string          `json:"feedback"`
	Injection InjectionReport `json:"injection"`
}

// passagesSchema asks for passages under one of keys.
func passagesSchema(keys []string) map[string]any {
	enum := make([]any, len(keys))
	for i, k := range keys {
		enum[i] = k
	}
	return map[string]any{
		"type": "array",
		"items": objectOrdered(map[string]any{
			"key":     map[string]any{"type": "string", "enum": enum},
			"text":    map[string]any{"type": "string", "description": "The passage, copied exactly from the submission."},
			"comment": map[string]any{"type": "string", "description": "The comment on the passage, for the student."},
		}, []string{"key", "text", "comment"}),
	}
}

func planFeedback(in Input) (*Call, error) {
	hs := in.Function.Highlights
	if len(hs) == 0 {
		return nil, &setupError{reason: "This assignment has no highlighters yet."}
	}
	spec := feedbackSpec{Context: clip(in.Function.Context, maxSpecText)}
	keys := make([]string, len(hs))
	for i, h := range hs {
		keys[i] = h.Key
		spec.Highlighters = append(spec.Highlighters, specHighlighter{Key: h.Key, Title: clip(h.Title, maxSpecText), Description: clip(h.Description, maxSpecText)})
	}
	p := &Call{
		Task:         TaskFeedback,
		Instructions: feedbackInstructions,
		Schema: objectOrdered(map[string]any{
			"passages":  passagesSchema(keys),
			"feedback":  map[string]any{"type": "string", "description": "Overall feedback on the submission."},
			"injection": InjectionSchema,
		}, []string{"passages", "feedback", "injection"}),
		Spec: spec,
		Ask:  "Annotate the submission with the highlighters, then give overall feedback.",
		Grading: func(r Result) (string, bool) {
			if strings.TrimSpace(r.HighlightedText) == "" && strings.TrimSpace(r.Feedback) == "" {
				return "", false
			}
			s, err := encode(feedbackAnswer{Passages: examplePassages(r.HighlightedText), Feedback: clip(r.Feedback, maxFeedback)})
			return s, err == nil
		},
	}
	p.Finish = func(raw json.RawMessage) (Result, InjectionReport, error) {
		var a feedbackAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return Result{}, InjectionReport{}, fmt.Errorf("the answer is not the JSON object the schema asks for (%v)", err)
		}
		tagged, dropped := place(in.Text, a.Passages, keys)
		return Result{ResultFields: assignment.ResultFields{Feedback: clip(a.Feedback, maxFeedback), HighlightedText: tagged}, DroppedHighlights: dropped}, a.Injection, nil
	}
	return p, nil
}

// place builds the highlighted text from the model's passages; passages
// beyond maxPassages count as dropped.
func place(text string, ps []passageAnswer, keys []string) (string, int) {
	extra := 0
	if len(ps) > maxPassages {
		extra, ps = len(ps)-maxPassages, ps[:maxPassages]
	}
	passages := make([]highlight.Passage, len(ps))
	for i, p := range ps {
		passages[i] = highlight.Passage{Key: p.Key, Text: p.Text, Comment: clip(p.Comment, maxFeedback)}
	}
	tagged, dropped := highlight.Build(text, passages, keys)
	return tagged, dropped + extra
}

// examplePassages are the highlights of a teacher's highlightedText, in
// the answer's form.
func examplePassages(tagged string) []passageAnswer {
	_, items := highlight.Parse(tagged)
	out := make([]passageAnswer, 0, len(items))
	for _, it := range items {
		out = append(out, passageAnswer{Key: it.Type, Text: it.Text, Comment: it.Comment})
	}
	return out
}

// FeedbackType is the feedback assignment type: FeedbackProcess,
// passages highlighted under the assignment's highlighters.
type FeedbackType struct{}

// Name implements process.Type.
func (FeedbackType) Name() string { return assignment.TypeFeedback }

// Process implements process.Type.
func (FeedbackType) Process() string { return ProcessFeedback }

// InProgressStatus implements process.Type.
func (FeedbackType) InProgressStatus() string { return StatusAnnotating }

// DoneStatus implements process.Type.
func (FeedbackType) DoneStatus() string { return StatusAnnotated }

// Plan implements Planner.
func (FeedbackType) Plan(in Input) (*Call, error) { return planFeedback(in) }

// Edit implements Editor: the feedback, and the highlights when they
// changed (same text, the assignment's highlighters).
func (FeedbackType) Edit(fn assignment.Function, cur, next Result) (Result, error) {
	out := cur
	out.Feedback = next.Feedback
	if next.HighlightedText != cur.HighlightedText {
		if err := checkHighlights(next.HighlightedText, HighlightKeys(fn), highlight.Plain(cur.HighlightedText)); err != nil {
			return Result{}, err
		}
		out.HighlightedText = next.HighlightedText
	}
	return out, nil
}

// HighlightKeys are the keys of fn's highlighters.
func HighlightKeys(fn assignment.Function) []string {
	keys := make([]string, len(fn.Highlights))
	for i, h := range fn.Highlights {
		keys[i] = h.Key
	}
	return keys
}

// Parts implements process.Definer.
func (FeedbackType) Parts() []process.Part { return []process.Part{process.PartHighlights} }
