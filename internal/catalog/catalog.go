// Package catalog is Markwell's built-in tools and workflows, defined in
// code. A tool is a ready-made assistant (kind "chat": a system prompt and a
// first message) or a one-shot generator (kind "rubric": a rubric from an
// assignment sheet, see package assist). A workflow is a short form whose
// answers compose the first message of a chat that asks for a document; the
// chat then goes on like a tool's. Their system prompts and templates stay
// on the server: the API shows titles, descriptions and fields only.
package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/markwell/markwell/internal/apperr"
)

// The kinds of tool.
const (
	KindChat   = "chat"
	KindRubric = "rubric"
)

// The kinds of workflow field.
const (
	FieldText     = "text"
	FieldTextarea = "textarea"
	FieldSelect   = "select"
)

// The ids of the built-in tools and workflows.
const (
	ToolLessonPlanner   = "lesson-planner"
	ToolQuizMaker       = "quiz-maker"
	ToolParentLetter    = "parent-letter"
	ToolRubricFromSheet = "rubric-from-sheet"

	WorkflowLessonPlan   = "lesson-plan"
	WorkflowParentLetter = "parent-letter-workflow"
	WorkflowQuizFromText = "quiz-from-text"
)

// The messages of refused requests.
const (
	MsgToolNotFound     = "Tool not found"
	MsgWorkflowNotFound = "Workflow not found"
	MsgAssistantAndTool = "Choose an assistant or a tool, not both"
	MsgToolAndWorkflow  = "Choose one tool or workflow, not both"
	MsgRequired         = "Please fill in all required fields"
)

// Tool is a built-in tool as the API shows it.
type Tool struct {
	ID             string `json:"id"`
	Title          string `json:"title"`
	Description    string `json:"description"`
	InitialMessage string `json:"initialMessage"`
	// Kind is KindChat or KindRubric.
	Kind string `json:"kind"`
	// SystemPrompt is what a chat tool's chat is asked with (before the
	// document instruction); never sent to the browser.
	SystemPrompt string `json:"-"`
}

// Field is one input of a workflow's form.
type Field struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Kind is FieldText, FieldTextarea or FieldSelect.
	Kind     string `json:"kind"`
	Required bool   `json:"required"`
	// Options are a select's choices; a value must be one of them.
	Options     []string `json:"options,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	// MaxLength caps the value, in characters (after trimming).
	MaxLength int `json:"maxLength"`
}

// Workflow is a built-in workflow as the API shows it.
type Workflow struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Fields      []Field `json:"fields"`
	// SystemPrompt is what the workflow's chat is asked with; never sent
	// to the browser.
	SystemPrompt string `json:"-"`
	// compose writes the first user message from checked, trimmed values
	// (every field present, "" when left empty).
	compose func(v map[string]string) string
}

// Tools lists the built-in tools, in the order the catalogue shows them.
func Tools() []Tool { return slices.Clone(tools) }

// Workflows lists the built-in workflows, in the order the catalogue shows
// them.
func Workflows() []Workflow {
	out := slices.Clone(workflows)
	for i := range out {
		out[i].Fields = slices.Clone(out[i].Fields)
		for j := range out[i].Fields {
			out[i].Fields[j].Options = slices.Clone(out[i].Fields[j].Options)
		}
	}
	return out
}

// FindTool returns the tool id.
func FindTool(id string) (Tool, bool) {
	for _, t := range tools {
		if t.ID == id {
			return t, true
		}
	}
	return Tool{}, false
}

// FindWorkflow returns the workflow id.
func FindWorkflow(id string) (Workflow, bool) {
	for _, w := range Workflows() {
		if w.ID == id {
			return w, true
		}
	}
	return Workflow{}, false
}

// ChatPrompt is the system prompt of a chat with id: a chat tool, or a
// workflow (whose chat a teacher continues). An id that is neither is
// NotFound 'Tool not found'; a tool that does not chat (the rubric tool) is
// Invalid.
func ChatPrompt(id string) (string, error) {
	if t, ok := FindTool(id); ok {
		if t.Kind != KindChat {
			return "", apperr.New(apperr.Invalid, fmt.Sprintf(
				"%q makes a rubric, not a chat: use it from the Tools page", t.Title))
		}
		return t.SystemPrompt, nil
	}
	if w, ok := FindWorkflow(id); ok {
		return w.SystemPrompt, nil
	}
	return "", apperr.New(apperr.NotFound, MsgToolNotFound)
}

// Compose checks a run's inputs (by field name) and writes the first user
// message of the workflow's chat. Refusals are Invalid: a name the workflow
// has no field for, a required field left empty (MsgRequired), a value
// over its field's MaxLength, a select value not among its options.
func (w Workflow) Compose(inputs map[string]string) (string, error) {
	known := make(map[string]bool, len(w.Fields))
	for _, f := range w.Fields {
		known[f.Name] = true
	}
	var unknown []string
	for name := range inputs {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return "", apperr.Invalidf("%s has no field named %q", w.Title, clipName(unknown[0]))
	}
	values := make(map[string]string, len(w.Fields))
	for _, f := range w.Fields {
		v := strings.TrimSpace(inputs[f.Name])
		if f.Required && v == "" {
			return "", apperr.New(apperr.Invalid, MsgRequired)
		}
		values[f.Name] = v
	}
	for _, f := range w.Fields {
		v := values[f.Name]
		if utf8.RuneCountInString(v) > f.MaxLength {
			return "", apperr.Invalidf("%s can be at most %s characters", f.Label, thousands(f.MaxLength))
		}
		if f.Kind == FieldSelect && v != "" && !slices.Contains(f.Options, v) {
			return "", apperr.Invalidf("%s must be one of: %s", f.Label, strings.Join(f.Options, ", "))
		}
	}
	return w.compose(values), nil
}

// clipName keeps an unknown field's name short enough to quote in a
// message.
func clipName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// thousands writes n with comma separators: 20000 → "20,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fenced puts text in a markdown code fence longer than any run of
// backticks inside it, so it stays one quoted block.
func fenced(text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + text + "\n" + fence
}
