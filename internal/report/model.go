// Package report writes a student's printable feedback report (issue 21):
// the assignment and student, the student's work with its highlights and
// their comments, each graded question with its criteria ticked or crossed,
// each rubric criterion's level, the total and the teacher's overall
// feedback. A report is written as a flat OpenDocument text (FODT, one XML
// file) and turned into PDF by LibreOffice (package office, sandboxed):
// LibreOffice lays out Arabic and Hebrew right to left, shapes Arabic and
// sets CJK with the fonts installed beside it (docs/architecture.md,
// "Feedback reports").
//
// Student text and model text are data: everything is XML-escaped, and
// characters XML cannot carry are dropped.
package report

// Report is what one student's report shows. The loader (load.go) fills it
// from the same reads as the review screen, so the totals are the same.
type Report struct {
	Assignment string
	Student    string
	// Type is the assignment's type (grade, feedback, rubric-feedback,
	// prompt); Status the result's ("" without one).
	Type   string
	Status string
	// Work is the student's work: the highlighted spans of a feedback or
	// rubric-feedback result, or the submission's text as one plain span.
	Work []Span
	// Highlights are the comments of Work's highlighted spans, by Span.ID.
	Highlights []Highlight
	// Questions are a grade result's answers, nested like the questions.
	Questions []Question
	// Rubric is a rubric-feedback result's criteria.
	Rubric []RubricRow
	// Total and Max are the result's points (nil: no grade).
	Total, Max *float64
	// Overall is the teacher's overall feedback (grade, feedback) or overall
	// comments (rubric-feedback); Feedback a prompt result's feedback.
	Overall  string
	Feedback string
	// Handwritten says Work is a transcription of handwriting; a question
	// with Images shows them in place of its text.
	Handwritten bool
}

// Span is a run of the student's work, highlighted when ID >= 0.
type Span struct {
	Text string
	ID   int
}

// Highlight is one comment on a passage: its highlighter's title and
// colour (a highlighter colour such as "purple-500").
type Highlight struct {
	Title   string
	Color   string
	Comment string
}

// Question is a graded answer.
type Question struct {
	Label    string
	Text     string
	Criteria []Criterion
	// Points is what the ticked criteria are worth, Adjustment the part of
	// the teacher's adjustment that counts, Max what the criteria are worth.
	Points, Adjustment, Max float64
	Feedback                string
	// Images are the cropped pictures of a handwritten answer.
	Images []Image
	Subs   []Question
}

// Criterion is a grade criterion and whether the answer met it.
type Criterion struct {
	Description string
	Points      float64
	Met         bool
}

// Image is a picture to embed: its bytes and media type.
type Image struct {
	Data        []byte
	ContentType string
}

// RubricRow is a rubric criterion with the level the result gave it.
type RubricRow struct {
	Criterion string
	Level     string
	Points    float64
	Feedback  string
}
