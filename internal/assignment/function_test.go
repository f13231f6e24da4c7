package assignment_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
)

// fnInput reads a function body written as the frontend sends it.
func fnInput(t *testing.T, body string) assignment.FunctionInput {
	t.Helper()
	var in assignment.FunctionInput
	require.NoError(t, json.Unmarshal([]byte(body), &in))
	return in
}

func TestFunctionValidationMessages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	r := b.rubric(t, a)
	cases := []struct {
		name, typ, body, msg string
	}{
		// feedback
		{"title empty", "feedback", `{"highlights":[{"key":"grammar","color":"purple-500","title":"  ","description":""}]}`, "Highlighter title cannot be empty"},
		{"key not camel", "feedback", `{"highlights":[{"key":"Grammar","color":"purple-500","title":"Grammar"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"key with space", "feedback", `{"highlights":[{"key":"gram mar","color":"purple-500","title":"Grammar"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"key with punctuation", "feedback", `{"highlights":[{"key":"gram-mar","color":"purple-500","title":"Grammar"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"key starts with digit", "feedback", `{"highlights":[{"key":"2nd","color":"purple-500","title":"Grammar"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"key too long", "feedback", `{"highlights":[{"key":"` + strings.Repeat("k", 26) + `","color":"purple-500","title":"Grammar"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"derived key unusable", "feedback", `{"highlights":[{"key":"","color":"purple-500","title":"!!!"}]}`, "Highlighter key must be camel case, at most 25 characters"},
		{"keys repeat", "feedback", `{"highlights":[{"key":"grammar","color":"purple-500","title":"Grammar"},{"key":"grammar","color":"red-300","title":"Grammar again"}]}`, "Highlighter keys must be unique"},
		{"derived key repeats", "feedback", `{"highlights":[{"key":"grammar","color":"purple-500","title":"Grammar"},{"key":"","color":"red-300","title":"Grammar!"}]}`, "Highlighter keys must be unique"},
		{"colour unknown hue", "feedback", `{"highlights":[{"key":"grammar","color":"magenta-500","title":"Grammar"}]}`, "Unknown highlighter colour"},
		{"colour unknown shade", "feedback", `{"highlights":[{"key":"grammar","color":"purple-550","title":"Grammar"}]}`, "Unknown highlighter colour"},
		{"colour css", "feedback", `{"highlights":[{"key":"grammar","color":"#ff00ff","title":"Grammar"}]}`, "Unknown highlighter colour"},
		{"colour missing", "feedback", `{"highlights":[{"key":"grammar","title":"Grammar"}]}`, "Unknown highlighter colour"},
		{"highlighter by highlighter", "feedback", `{"highlights":[{"key":"grammar","color":"nope","title":"Grammar"},{"key":"x","color":"red-300","title":""}]}`, "Unknown highlighter colour"},
		// grade
		{"four levels", "grade", `{"questions":[{"questionText":"1","subquestions":[{"questionText":"1a","subquestions":[{"questionText":"1ai","subquestions":[{"questionText":"too deep"}]}]}]}]}`, "Grade questions nest at most 3 levels"},
		{"depth before text", "grade", `{"questions":[{"questionText":"","subquestions":[{"questionText":"1a","subquestions":[{"questionText":"1ai","subquestions":[{"questionText":"too deep"}]}]}]}]}`, "Grade questions nest at most 3 levels"},
		{"question text empty", "grade", `{"questions":[{"questionText":" ","criteria":[{"description":"","points":1}]}]}`, "Each question needs question text"},
		{"subquestion text empty", "grade", `{"questions":[{"questionText":"Q","subquestions":[{"questionText":""}]}]}`, "Each question needs question text"},
		{"points negative", "grade", `{"questions":[{"questionText":"Q","criteria":[{"description":"d","points":-1}]}]}`, "Criterion points must be a number from 0 to 1000"},
		{"points too many", "grade", `{"questions":[{"questionText":"Q","criteria":[{"description":"d","points":1000.5}]}]}`, "Criterion points must be a number from 0 to 1000"},
		{"subquestion points", "grade", `{"questions":[{"questionText":"Q","subquestions":[{"questionText":"Q2","subquestions":[{"questionText":"Q3","criteria":[{"description":"d","points":5000}]}]}]}]}`, "Criterion points must be a number from 0 to 1000"},
		// rubric-feedback
		{"no rubric", "rubric-feedback", `{}`, "Please choose a rubric"},
		{"rubric null", "rubric-feedback", `{"rubricId":null}`, "Please choose a rubric"},
		{"rubric blank", "rubric-feedback", `{"rubricId":" "}`, "Please choose a rubric"},
		// prompt
		{"no prompt", "prompt", `{}`, "Prompt cannot be empty"},
		{"prompt blank", "prompt", `{"prompt":"\n\t "}`, "Prompt cannot be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			asg := b.assignment(t, a, tc.typ)
			_, err := b.svc.PutFunction(ctx, a, asg.ID, fnInput(t, tc.body))
			requireInvalid(t, err, tc.msg)
			_, err = b.svc.GetFunction(ctx, a, asg.ID, tc.typ)
			requireNotFound(t, err) // nothing was saved

			// The same checks apply to an update.
			fn, err := b.svc.PutFunction(ctx, a, asg.ID, validInput(tc.typ, r.ID))
			require.NoError(t, err)
			_, err = b.svc.UpdateFunction(ctx, a, fn.ID, asg.ID, fnInput(t, tc.body))
			requireInvalid(t, err, tc.msg)
			got, err := b.svc.GetFunction(ctx, a, asg.ID, tc.typ)
			require.NoError(t, err)
			got.Rubric = nil
			require.Equal(t, fn, got, "a refused update changes nothing")
		})
	}
}

func validInput(typ string, rubricID uuid.UUID) assignment.FunctionInput {
	switch typ {
	case "feedback":
		return assignment.FunctionInput{Highlights: []assignment.Highlighter{assignment.DefaultHighlighter}, Context: "An essay"}
	case "grade":
		return assignment.FunctionInput{Questions: []assignment.Question{{QuestionText: "Q1", Criteria: []assignment.Criterion{{Description: "", Points: 1}}}}}
	case "rubric-feedback":
		return assignment.FunctionInput{RubricID: rubricID.String()}
	default:
		return assignment.FunctionInput{Prompt: "Give feedback."}
	}
}

func TestFeedbackFunction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	asg := b.assignment(t, a, "feedback")

	fn, err := b.svc.PutFunction(ctx, a, asg.ID, fnInput(t, `{
		"assignmentId": "ignored here",
		"highlights": [
			{"key":"grammar","color":"purple-500","title":"Grammar","description":"This highlighter should point out any grammar mistakes."},
			{"key":"","color":"blueGrey-50","title":" Grammar & spelling! ","description":" typos "},
			{"key":"évidence2","color":"deepOrange-900","title":"Évidence","description":""}
		],
		"context": " Year 9 persuasive essay ",
		"questions": [{"questionText":"not for feedback"}],
		"rubricId": "not for feedback",
		"prompt": "not for feedback"}`))
	require.NoError(t, err)
	require.Equal(t, asg.ID, fn.AssignmentID)
	require.Equal(t, "feedback", fn.Type)
	require.Equal(t, []assignment.Highlighter{
		assignment.DefaultHighlighter,
		{Key: "grammarSpelling", Color: "blueGrey-50", Title: "Grammar & spelling!", Description: "typos"},
		{Key: "évidence2", Color: "deepOrange-900", Title: "Évidence", Description: ""},
	}, fn.Highlights)
	require.Equal(t, "Year 9 persuasive essay", fn.Context)
	require.Empty(t, fn.Questions)
	require.Nil(t, fn.RubricID)
	require.Empty(t, fn.Prompt)

	raw, err := json.Marshal(fn)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(raw, &shape))
	require.ElementsMatch(t, []string{"_id", "assignmentId", "type", "highlights", "context", "questions", "rubricId", "prompt"}, keys(shape))
	require.Equal(t, []any{}, shape["questions"])

	got, err := b.svc.GetFunction(ctx, a, asg.ID, "feedback")
	require.NoError(t, err)
	require.Equal(t, fn, got)
	got, err = b.svc.GetFunction(ctx, a, asg.ID, "")
	require.NoError(t, err)
	require.Equal(t, fn, got)

	up, err := b.svc.UpdateFunction(ctx, a, fn.ID, asg.ID, assignment.FunctionInput{Highlights: []assignment.Highlighter{}, Context: "new"})
	require.NoError(t, err)
	require.Equal(t, fn.ID, up.ID)
	require.Empty(t, up.Highlights)
	require.NotNil(t, up.Highlights)
	require.Equal(t, "new", up.Context)

	// Defining or redefining touches the assignment.
	after, err := b.svc.GetViewOnly(ctx, a, asg.ID)
	require.NoError(t, err)
	require.True(t, after.UpdatedAt.After(asg.UpdatedAt))
}

func TestGradeFunction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	r := b.rubric(t, a)
	asg := b.assignment(t, a, "grade")

	in := fnInput(t, `{"questions":[
		{"questionText":" Explain photosynthesis. ","context":" Biology ","rubricId":"`+strings.ToUpper(r.ID.String())+`",
		 "criteria":[{"description":" Mentions light ","points":2},{"description":"","points":1}],
		 "subquestions":[
			{"questionText":"1a","rubricId":"","criteria":[{"description":"d","points":0}],
			 "subquestions":[{"questionText":"1a(i)","rubricId":null,"criteria":[{"description":"d","points":1000}]}]}]},
		{"questionText":"Two","criteria":[{"description":"half","points":0.5}]}]}`)
	fn, err := b.svc.PutFunction(ctx, a, asg.ID, in)
	require.NoError(t, err)
	rid := r.ID.String()
	want := []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Context: "Biology", RubricID: &rid,
			Criteria: []assignment.Criterion{{Description: "Mentions light", Points: 2}, {Description: "", Points: 1}},
			Subquestions: []assignment.Question{{QuestionText: "1a", Criteria: []assignment.Criterion{{Description: "d", Points: 0}},
				Subquestions: []assignment.Question{{QuestionText: "1a(i)", Criteria: []assignment.Criterion{{Description: "d", Points: 1000}}, Subquestions: []assignment.Question{}}}}}},
		{QuestionText: "Two", Criteria: []assignment.Criterion{{Description: "half", Points: 0.5}}, Subquestions: []assignment.Question{}},
	}
	require.Equal(t, want, withoutIDs(fn.Questions), "ids aside")
	requireIDs(t, fn.Questions)
	require.Empty(t, fn.Highlights)

	got, err := b.svc.GetFunction(ctx, a, asg.ID, "grade")
	require.NoError(t, err)
	require.Equal(t, fn, got)
	require.Nil(t, got.Rubric, "only rubric-feedback embeds a rubric")

	raw, err := json.Marshal(got.Questions[1])
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"`+got.Questions[1].ID+`","questionText":"Two","context":"","rubricId":null,"criteria":[{"id":"`+
		got.Questions[1].Criteria[0].ID+`","description":"half","points":0.5}],"subquestions":[]}`, string(raw))

	// No questions at all is allowed (the wizard saves as it goes).
	up, err := b.svc.UpdateFunction(ctx, a, fn.ID, uuid.Nil, assignment.FunctionInput{})
	require.NoError(t, err)
	require.Equal(t, []assignment.Question{}, up.Questions)
}

func TestRubricFeedbackFunction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	r1, r2 := b.rubric(t, a), b.rubric(t, a)
	asg := b.assignment(t, a, "rubric-feedback")

	fn, err := b.svc.PutFunction(ctx, a, asg.ID, assignment.FunctionInput{RubricID: r1.ID.String(), Highlights: []assignment.Highlighter{assignment.DefaultHighlighter}})
	require.NoError(t, err)
	require.Equal(t, &r1.ID, fn.RubricID)
	require.Nil(t, fn.Rubric, "put returns the function; get embeds the rubric")
	require.Empty(t, fn.Highlights)

	got, err := b.svc.GetFunction(ctx, a, asg.ID, "rubric-feedback")
	require.NoError(t, err)
	require.NotNil(t, got.Rubric)
	require.Equal(t, r1, *got.Rubric)
	raw, err := json.Marshal(got)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(raw, &shape))
	require.Equal(t, r1.ID.String(), shape["rubric"].(map[string]any)["_id"])

	up, err := b.svc.UpdateFunction(ctx, a, fn.ID, asg.ID, assignment.FunctionInput{RubricID: r2.ID.String()})
	require.NoError(t, err)
	require.Equal(t, &r2.ID, up.RubricID)

	// A deleted rubric leaves the function without one.
	_, err = b.svc.Pool.Exec(ctx, `DELETE FROM rubrics WHERE id = $1`, r2.ID)
	require.NoError(t, err)
	got, err = b.svc.GetFunction(ctx, a, asg.ID, "rubric-feedback")
	require.NoError(t, err)
	require.Nil(t, got.RubricID)
	require.Nil(t, got.Rubric)
}

func TestPromptFunction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	asg := b.assignment(t, a, "prompt")

	fn, err := b.svc.PutFunction(ctx, a, asg.ID, assignment.FunctionInput{Prompt: "  Comment on structure.\n"})
	require.NoError(t, err)
	require.Equal(t, "Comment on structure.", fn.Prompt)
	got, err := b.svc.GetFunction(ctx, a, asg.ID, "prompt")
	require.NoError(t, err)
	require.Equal(t, fn, got)
}

func TestOneFunctionPerAssignment(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	asg := b.assignment(t, a, "prompt")

	_, err := b.svc.PutFunction(ctx, a, asg.ID, assignment.FunctionInput{Prompt: "First"})
	require.NoError(t, err)
	_, err = b.svc.PutFunction(ctx, a, asg.ID, assignment.FunctionInput{Prompt: "Second"})
	requireInvalid(t, err, "This assignment already has a definition")
	got, err := b.svc.GetFunction(ctx, a, asg.ID, "prompt")
	require.NoError(t, err)
	require.Equal(t, "First", got.Prompt)

	// Racing puts: exactly one wins.
	race := b.assignment(t, a, "prompt")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = b.svc.PutFunction(ctx, a, race.ID, assignment.FunctionInput{Prompt: "P"})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		requireInvalid(t, err, "This assignment already has a definition")
	}
	require.Equal(t, 1, won)
}

func TestFunctionTypeFollowsTheAssignment(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	a := b.teacher(t)
	asg := b.assignment(t, a, "prompt")
	fn, err := b.svc.PutFunction(ctx, a, asg.ID, assignment.FunctionInput{Prompt: "P"})
	require.NoError(t, err)
	require.Equal(t, "prompt", fn.Type)

	// Asking for another type finds nothing; the assignment keeps its type.
	_, err = b.svc.GetFunction(ctx, a, asg.ID, "grade")
	requireNotFound(t, err)
	_, err = b.svc.Update(ctx, a, asg.ID, assignment.Input{Name: "A", Type: "grade"})
	requireInvalid(t, err, "The assignment type cannot be changed")
	// An update is checked as the function's own type: grade fields do not
	// define a prompt assignment.
	_, err = b.svc.UpdateFunction(ctx, a, fn.ID, asg.ID, assignment.FunctionInput{Questions: []assignment.Question{{QuestionText: "Q"}}})
	requireInvalid(t, err, "Prompt cannot be empty")
}

func TestFunctionsOfOtherTeamsAreNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada, bob := b.teacher(t), b.teacher(t)
	adaRubric, bobRubric := b.rubric(t, ada), b.rubric(t, bob)
	adaGrade := b.assignment(t, ada, "grade")
	adaRF := b.assignment(t, ada, "rubric-feedback")
	adaFn, err := b.svc.PutFunction(ctx, ada, adaGrade.ID, validInput("grade", uuid.Nil))
	require.NoError(t, err)
	bobAsg := b.assignment(t, bob, "grade")
	bobFn, err := b.svc.PutFunction(ctx, bob, bobAsg.ID, validInput("grade", uuid.Nil))
	require.NoError(t, err)

	withRubric := func(id string) assignment.FunctionInput {
		return assignment.FunctionInput{Questions: []assignment.Question{{QuestionText: "Q", Subquestions: []assignment.Question{{QuestionText: "Q1", RubricID: &id}}}}}
	}
	checks := map[string]func() error{
		"put on another team's assignment": func() error {
			_, err := b.svc.PutFunction(ctx, bob, adaRF.ID, assignment.FunctionInput{RubricID: bobRubric.ID.String()})
			return err
		},
		"put on a missing assignment": func() error {
			_, err := b.svc.PutFunction(ctx, ada, uuid.New(), validInput("grade", uuid.Nil))
			return err
		},
		"get another team's function": func() error { _, err := b.svc.GetFunction(ctx, bob, adaGrade.ID, "grade"); return err },
		"get before it is defined":    func() error { _, err := b.svc.GetFunction(ctx, ada, adaRF.ID, "rubric-feedback"); return err },
		"update another team's function": func() error {
			_, err := b.svc.UpdateFunction(ctx, bob, adaFn.ID, uuid.Nil, validInput("grade", uuid.Nil))
			return err
		},
		"update through another team's assignment": func() error {
			_, err := b.svc.UpdateFunction(ctx, bob, bobFn.ID, adaGrade.ID, validInput("grade", uuid.Nil))
			return err
		},
		"update naming another of the team's assignments": func() error {
			_, err := b.svc.UpdateFunction(ctx, ada, adaFn.ID, adaRF.ID, validInput("grade", uuid.Nil))
			return err
		},
		"rubric-feedback with another team's rubric": func() error {
			_, err := b.svc.PutFunction(ctx, ada, adaRF.ID, assignment.FunctionInput{RubricID: bobRubric.ID.String()})
			return err
		},
		"rubric-feedback with a malformed rubric id": func() error {
			_, err := b.svc.PutFunction(ctx, ada, adaRF.ID, assignment.FunctionInput{RubricID: "not-a-uuid"})
			return err
		},
		"rubric-feedback with a missing rubric": func() error {
			_, err := b.svc.PutFunction(ctx, ada, adaRF.ID, assignment.FunctionInput{RubricID: uuid.NewString()})
			return err
		},
		"question with another team's rubric": func() error {
			_, err := b.svc.UpdateFunction(ctx, ada, adaFn.ID, adaGrade.ID, withRubric(bobRubric.ID.String()))
			return err
		},
		"question with a malformed rubric id": func() error {
			_, err := b.svc.UpdateFunction(ctx, ada, adaFn.ID, adaGrade.ID, withRubric("nope"))
			return err
		},
	}
	for name, check := range checks {
		require.Equal(t, apperr.NotFound, apperr.From(check()).Code, name)
	}

	// The team's own rubric works where another team's did not.
	_, err = b.svc.UpdateFunction(ctx, ada, adaFn.ID, adaGrade.ID, withRubric(adaRubric.ID.String()))
	require.NoError(t, err)
	_, err = b.svc.PutFunction(ctx, ada, adaRF.ID, assignment.FunctionInput{RubricID: adaRubric.ID.String()})
	require.NoError(t, err)
	// And nothing of Bob's changed.
	got, err := b.svc.GetFunction(ctx, bob, bobAsg.ID, "grade")
	require.NoError(t, err)
	require.Equal(t, bobFn, got)
}

func TestKeyFromTitle(t *testing.T) {
	t.Parallel()
	for title, key := range map[string]string{
		"Grammar":                               "grammar",
		"Grammar & spelling!":                   "grammarSpelling",
		"  use of   EVIDENCE ":                  "useOfEvidence",
		"Teacher's note":                        "teachersNote",
		"Paragraph structure and flow of ideas": "paragraphStructureAndFlow",
		"Sentence-level clarity, tone.":         "sentenceLevelClarityTone",
		"2nd draft":                             "ndDraft",
		"Cause/effect":                          "causeEffect",
		"!!!":                                   "",
		"Ортография":                            "ортография",
	} {
		require.Equal(t, key, assignment.KeyFromTitle(title), title)
		require.LessOrEqual(t, len([]rune(assignment.KeyFromTitle(title))), 25)
	}
	require.True(t, assignment.KnownColour("purple-500"))
	require.True(t, assignment.KnownColour("blueGrey-50"))
	require.False(t, assignment.KnownColour("purple-1000"))
	require.False(t, assignment.KnownColour("Purple-500"))
}

// withoutIDs is qs with the ids of its questions and criteria left out.
func withoutIDs(qs []assignment.Question) []assignment.Question {
	out := make([]assignment.Question, len(qs))
	for i, q := range qs {
		q.ID = ""
		cs := make([]assignment.Criterion, len(q.Criteria))
		for j, c := range q.Criteria {
			c.ID = ""
			cs[j] = c
		}
		q.Criteria, q.Subquestions = cs, withoutIDs(q.Subquestions)
		out[i] = q
	}
	return out
}

// requireIDs checks that every question has an id of its own in the
// definition and every criterion one of its own in its question.
func requireIDs(t *testing.T, qs []assignment.Question) {
	t.Helper()
	seen := map[string]bool{}
	var walk func(qs []assignment.Question)
	walk = func(qs []assignment.Question) {
		for _, q := range qs {
			require.NotEmpty(t, q.ID)
			require.False(t, seen[q.ID], "question id %s twice", q.ID)
			seen[q.ID] = true
			crit := map[string]bool{}
			for _, c := range q.Criteria {
				require.NotEmpty(t, c.ID)
				require.False(t, crit[c.ID])
				crit[c.ID] = true
			}
			walk(q.Subquestions)
		}
	}
	walk(qs)
}
