package process_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/process"
)

type plain struct{ name string }

func (p plain) Name() string           { return p.name }
func (plain) Process() string          { return "PlainProcess" }
func (plain) InProgressStatus() string { return "plain-working" }
func (plain) DoneStatus() string       { return "plain-done" }

type boxed struct{ plain }

func (boxed) AnswerBoxes(handwritten bool) bool { return handwritten }
func (boxed) ImportsCSV() bool                  { return true }
func (boxed) Parts() []process.Part             { return []process.Part{process.PartQuestions} }

func TestTheRegistryAnswersWhatEachTypeCanDo(t *testing.T) {
	t.Parallel()
	process.Register(plain{name: "t-plain"})
	process.Register(boxed{plain{name: "t-boxed"}})

	got, ok := process.Lookup("t-plain")
	require.True(t, ok)
	require.Equal(t, "PlainProcess", got.Process())
	require.True(t, process.Known("t-boxed"))
	require.False(t, process.Known("t-missing"))
	require.Subset(t, process.Names(), []string{"t-plain", "t-boxed"})
	require.True(t, process.IsInProgress("plain-working"))
	require.False(t, process.IsInProgress("plain-done"))
	require.False(t, process.IsInProgress(""))

	// Optional capabilities: only where the type has them.
	require.True(t, process.AnswerBoxes("t-boxed", true))
	require.False(t, process.AnswerBoxes("t-boxed", false))
	require.False(t, process.AnswerBoxes("t-plain", true))
	require.True(t, process.ImportsCSV("t-boxed"))
	require.False(t, process.ImportsCSV("t-plain"))
	require.True(t, process.Uses("t-boxed", process.PartQuestions))
	require.False(t, process.Uses("t-boxed", process.PartRubric))
	require.False(t, process.Uses("t-missing", process.PartQuestions))

	require.Panics(t, func() { process.Register(plain{name: "t-plain"}) }, "a name twice")
	require.Panics(t, func() { process.Register(plain{}) }, "an empty name")
}
