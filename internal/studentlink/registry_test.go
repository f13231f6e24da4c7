package studentlink_test

// The tests create assignments, whose types the registry knows once the
// built-in types are linked (docs/architecture.md, "Adding a type").
import _ "github.com/markwell/markwell/internal/grading"
