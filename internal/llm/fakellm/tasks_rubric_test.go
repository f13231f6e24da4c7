package fakellm

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRubricForASheet(t *testing.T) {
	t.Parallel()
	r := rubricFor(sheet)
	require.Equal(t, "Year 9 Science — Photosynthesis worksheet rubric", r.Name)
	var crits []string
	for _, c := range r.Criteria {
		crits = append(crits, c.CriterionDescription)
		require.Len(t, c.LevelDescriptions, 4, c.CriterionDescription)
		require.True(t, strings.HasPrefix(c.LevelDescriptions[0], "Excellent: "), "best level first")
		require.True(t, strings.HasPrefix(c.LevelDescriptions[3], "Beginning: "))
	}
	require.Equal(t, []string{
		"Explain how photosynthesis converts light energy into chemical energy.",
		"Name the pigment that absorbs light in plant cells.",
		"Describe the role of stomata in gas exchange",
		"Compare aerobic respiration and photosynthesis.",
		"Why do plants grow more slowly in winter?",
		"Calculate the rate of oxygen production, in ml per minute.",
		"Clarity and organisation",
	}, crits)
	require.Equal(t, "Good: addresses “photosynthesis converts light energy” accurately, with some detail or evidence.",
		r.Criteria[0].LevelDescriptions[1])
}

func TestRubricForHeadingsAndPlainText(t *testing.T) {
	t.Parallel()
	r := rubricFor("# Persuasive letter\n\n## Audience and purpose\nWrite to your MP.\n## Use of evidence\n## Structure\n")
	require.Equal(t, "Persuasive letter rubric", r.Name)
	require.Len(t, r.Criteria, 4)
	require.Equal(t, "Audience and purpose", r.Criteria[0].CriterionDescription)
	require.Equal(t, "Structure", r.Criteria[2].CriterionDescription)

	// Without questions or headings, each line after the title is a
	// criterion; blanks to fill in are not.
	r = rubricFor("Storm story\nName: ______\nWrite a story about a storm.\nUse dialogue.")
	require.Equal(t, []string{"Write a story about a storm.", "Use dialogue.", "Clarity and organisation"},
		[]string{r.Criteria[0].CriterionDescription, r.Criteria[1].CriterionDescription, r.Criteria[2].CriterionDescription})

	// Even an empty sheet gives a rubric the library accepts.
	r = rubricFor("")
	require.Equal(t, "Assignment rubric", r.Name)
	require.Len(t, r.Criteria, 1)

	var many strings.Builder
	for i := range 12 {
		many.WriteString("Why " + strings.Repeat("x", i+1) + "?\n")
	}
	require.Len(t, rubricFor("Title\n"+many.String()).Criteria, 7, "six from the sheet and clarity")
	require.Equal(t, "Long title rubric", rubricFor("Long title").Name)
	require.Len(t, []rune(rubricFor(strings.Repeat("é", 200)).Name), 80+len(" rubric"))
}
