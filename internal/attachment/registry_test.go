package attachment_test

// The assignment types are the process registry's (internal/process); the
// built-in ones register with internal/grading, which the application
// always links. These tests create assignments, so they link it too.
import _ "github.com/markwell/markwell/internal/grading"
