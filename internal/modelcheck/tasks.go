package modelcheck

import (
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/rubric"
)

// gradingTask is one of the built-in assignments with a student's work.
type gradingTask struct {
	name  string
	input grading.Input
}

// gradingTasks are the four assignment types, each with a short, realistic
// piece of student work, as a teacher would set them.
func gradingTasks() []gradingTask {
	return []gradingTask{
		{CheckGrade, grading.Input{
			Function: assignment.Function{Type: assignment.TypeGrade, Context: "Year 8 science: how plants make food",
				Questions: []assignment.Question{
					{QuestionText: "Explain how a plant makes its food.", Criteria: []assignment.Criterion{
						{Description: "Names photosynthesis", Points: 1},
						{Description: "Says chlorophyll absorbs light", Points: 2},
						{Description: "Says light energy becomes chemical energy (glucose)", Points: 2},
					}},
					{QuestionText: "Why do plants grow slowly in winter?", Criteria: []assignment.Criterion{
						{Description: "Less light", Points: 1},
						{Description: "Lower temperature slows the reactions", Points: 2},
					}},
				}},
			Text: "1. Plants make their food by photosynthesis. Chlorophyll in the leaves absorbs light and the light " +
				"energy becomes chemical energy that is stored as glucose.\n\n" +
				"2. In winter there is less light and it is colder, so plants grow slowly.",
		}},
		{CheckFeedback, grading.Input{
			Function: assignment.Function{Type: assignment.TypeFeedback, Context: "A letter to a friend about a school trip (Year 6).",
				Highlights: []assignment.Highlighter{
					{Key: "praise", Color: "green-500", Title: "Praise", Description: "What works well: vivid detail, a friendly tone."},
					{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar, spelling and punctuation mistakes."},
					{Key: "structure", Color: "blue-500", Title: "Structure", Description: "Where the letter's order or paragraphs could be clearer."},
				}},
			Text: "Dear Sam,\n\nLast week our class went to the the science museum. We seen a real rocket engine and " +
				"i touched a meteorite that was older than the earth! The best part was the planetarium, it felt like " +
				"floating in space.\n\nSee you soon,\nAlex",
		}},
		{CheckRubricFeedback, grading.Input{
			Function: assignment.Function{Type: assignment.TypeRubricFeedback, Rubric: &rubric.Rubric{
				Name: "Persuasive paragraph", Criteria: []rubric.Criterion{
					{CriterionDescription: "Claim", LevelDescriptions: []string{
						"A clear, arguable claim", "A claim that is vague", "No claim"}},
					{CriterionDescription: "Evidence", LevelDescriptions: []string{
						"Specific evidence that supports the claim", "Some evidence, loosely connected", "No evidence"}},
					{CriterionDescription: "Conventions", LevelDescriptions: []string{
						"Almost no errors", "Some errors that do not get in the way", "Errors that make it hard to read"}},
				}}},
			Text: "Our town should plant more trees along its streets. Trees cool the air in summer: a study by the " +
				"city council found that shaded streets were four degrees cooler. They also make walking to school " +
				"more pleasant, and more people would walk instead of driving.",
		}},
		{CheckPrompt, grading.Input{
			Function: assignment.Function{Type: assignment.TypePrompt,
				Prompt: "Give the student two strengths and one next step on how clearly the paragraph explains the water cycle. Be encouraging."},
			Text: "The water cycle is how water moves around the earth. The sun heats water in the sea and it " +
				"evaporates into water vapour. The vapour cools and condenses into clouds, then it falls as rain " +
				"and flows back to the sea in rivers.",
		}},
	}
}
