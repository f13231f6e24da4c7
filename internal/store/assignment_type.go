package store

import "fmt"

// AssignmentType is the name of an assignment's process (assignments.type,
// functions.type): a text column, validated in Go by the process registry
// (internal/process), so that a type is added without a migration.
type AssignmentType string

// The built-in assignment types (internal/grading registers them).
const (
	AssignmentTypeGrade          AssignmentType = "grade"
	AssignmentTypeFeedback       AssignmentType = "feedback"
	AssignmentTypeRubricFeedback AssignmentType = "rubric-feedback"
	AssignmentTypePrompt         AssignmentType = "prompt"
)

// Scan reads a type; NULL (the missing side of an outer join) reads as "".
func (e *AssignmentType) Scan(src any) error {
	switch s := src.(type) {
	case nil:
		*e = ""
	case []byte:
		*e = AssignmentType(s)
	case string:
		*e = AssignmentType(s)
	default:
		return fmt.Errorf("unsupported scan type for AssignmentType: %T", src)
	}
	return nil
}
