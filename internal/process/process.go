// Package process is the registry of assignment types. Each type (grade,
// feedback, rubric-feedback, prompt, …) is one value implementing [Type],
// registered once at start-up (internal/grading registers the built-in
// ones in its registry table, registry.go). Code that used to switch on the
// type asks the registry instead: [Lookup] the type, then check for the
// optional capability it needs with a type assertion, the way net/http
// checks a ResponseWriter for http.Flusher. Capabilities that speak of
// grading's types (planning a model call, a teacher's edit, totals, the
// agreement check) are declared in internal/grading; the ones below need
// nothing but the standard library, so any package can ask them.
//
// This package imports nothing of Markwell's, so every package may use it.
package process

import (
	"fmt"
	"slices"
	"sync"
)

// Type is one assignment type.
type Type interface {
	// Name is the assignment type as stored (assignments.type) and sent by
	// the API: "grade", "feedback", ….
	Name() string
	// Process is the name of its AI process (the spec's processName):
	// "GradeProcessV2", ….
	Process() string
	// InProgressStatus is a result's status while the AI works on it.
	InProgressStatus() string
	// DoneStatus is a result's status once the AI has finished.
	DoneStatus() string
}

// AnswerBoxer is a type whose handwritten assignments have answer boxes (a
// template of where each answer sits on the page, cropped for the model).
type AnswerBoxer interface {
	// AnswerBoxes reports whether an assignment of this type has answer
	// boxes, handwritten or not.
	AnswerBoxes(handwritten bool) bool
}

// CSVImporter is a type whose results can be imported from a CSV file of
// students' answers (submission.Service's CSV import).
type CSVImporter interface {
	// ImportsCSV reports whether the CSV import applies.
	ImportsCSV() bool
}

var (
	mu    sync.RWMutex
	types = map[string]Type{}
	order []string
)

// Register adds t to the registry. It panics on an empty or repeated name:
// both are programming errors found at start-up.
func Register(t Type) {
	mu.Lock()
	defer mu.Unlock()
	name := t.Name()
	if name == "" {
		panic("process: Register with an empty name")
	}
	if _, dup := types[name]; dup {
		panic(fmt.Sprintf("process: type %q registered twice", name))
	}
	types[name] = t
	order = append(order, name)
}

// Lookup is the registered type named name.
func Lookup(name string) (Type, bool) {
	mu.RLock()
	defer mu.RUnlock()
	t, ok := types[name]
	return t, ok
}

// Known reports whether name is a registered type.
func Known(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// Names lists the registered types in the order they were registered.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Clone(order)
}

// IsInProgress reports whether status is some type's in-progress status:
// the AI is working on the result.
func IsInProgress(status string) bool {
	if status == "" {
		return false
	}
	mu.RLock()
	defer mu.RUnlock()
	for _, t := range types {
		if t.InProgressStatus() == status {
			return true
		}
	}
	return false
}

// AnswerBoxes reports whether an assignment of type name has answer boxes.
func AnswerBoxes(name string, handwritten bool) bool {
	t, ok := Lookup(name)
	if !ok {
		return false
	}
	b, ok := t.(AnswerBoxer)
	return ok && b.AnswerBoxes(handwritten)
}

// ImportsCSV reports whether results of type name can be imported from a
// CSV file.
func ImportsCSV(name string) bool {
	t, ok := Lookup(name)
	if !ok {
		return false
	}
	c, ok := t.(CSVImporter)
	return ok && c.ImportsCSV()
}

// Part is a part of an assignment's definition (its function) beyond the
// context, which every type may use.
type Part string

// The parts a definition may have.
const (
	// PartHighlights is the highlighters (key, colour, title, description).
	PartHighlights Part = "highlights"
	// PartQuestions is the question tree with its criteria.
	PartQuestions Part = "questions"
	// PartRubric is a rubric of the team, by id.
	PartRubric Part = "rubric"
	// PartPrompt is the teacher's prompt (required).
	PartPrompt Part = "prompt"
)

// Definer is a type whose definition has parts beyond the context: the
// assignment package validates, stores and shows (to a student) those
// parts and no others.
type Definer interface {
	Parts() []Part
}

// Uses reports whether the definition of an assignment of type name has
// part p.
func Uses(name string, p Part) bool {
	t, ok := Lookup(name)
	if !ok {
		return false
	}
	d, ok := t.(Definer)
	return ok && slices.Contains(d.Parts(), p)
}
