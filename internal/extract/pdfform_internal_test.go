package extract

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithFormFields_PutsEachAnswerWithItsLabelOnce(t *testing.T) {
	page := "1. Why does the ball slow down?\n\nFriction slows it\ndown.\n\n2. Which force pulls it down?\n\nGravity pulls it down\nName: Rick Evans"
	got := withFormFields(page, []formField{
		{label: "Name", value: "Rick Evans"},                    // shown with its label: nothing added
		{label: "Question 1", value: "Friction slows it down."}, // shown once, across lines: labelled in place
		{label: "Question 2", value: "pulls it"},                // shown twice: listed, not guessed
		{label: "Mark", value: "2"},                             // too short to place
		{label: "Agree", value: "Yes", marked: true},            // a tick: listed
	})
	require.Equal(t, "1. Why does the ball slow down?\n\nQuestion 1: Friction slows it\ndown.\n\n2. Which force pulls it down?\n\nGravity pulls it down\nName: Rick Evans"+
		"\n\nForm fields:\nQuestion 2: pulls it\nMark: 2\nAgree: Yes", got)
	require.Equal(t, "Form fields:\nAgree: Yes", withFormFields("", []formField{{label: "Agree", value: "Yes", marked: true}}))
	require.Equal(t, page, withFormFields(page, nil))
}
