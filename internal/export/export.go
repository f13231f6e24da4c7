// Package export writes an assignment's results as a spreadsheet (CSV or
// XLSX) for a gradebook: one row per submission with who it is from, the
// picks and points of every criterion (rubric levels, highlight counts for
// the other types), the totals, the status and, when asked, the feedback.
// Totals and points come from result.Service's read, the one the review
// screen shows, never from a computation of this package's own.
package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/mdtext"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/store"
)

// The formats, as a request names them.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
)

// MsgFormat answers a format other than CSV or XLSX.
const MsgFormat = "Choose CSV or Excel (XLSX)."

// Media types of the files.
const (
	TypeCSV  = "text/csv; charset=utf-8"
	TypeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// Service builds exports.
type Service struct {
	// Results reads the assignment with its results and their totals; its
	// pool reads the submissions.
	Results *result.Service
}

// Request is what a teacher asks to export.
type Request struct {
	AssignmentID uuid.UUID
	Format       string
	// SubmissionIDs are the rows to export; none is every submission.
	SubmissionIDs []uuid.UUID
	// IncludeFeedback adds the feedback text: the overall feedback and
	// every question's (criterion's, highlighter's) comments.
	IncludeFeedback bool
}

// File is an export, ready to send.
type File struct {
	Name        string
	ContentType string
	Body        []byte
}

// Cell is one cell: a number when Num is set, else the text. Text is as
// the data says; the writers escape it (csvimport.EscapeCell).
type Cell struct {
	Text string
	Num  *float64
}

// Table is an export before it is written: the header row and one row per
// submission, each as long as the header.
type Table struct {
	Header []string
	Rows   [][]Cell
}

// Export builds the file a teacher asked for. A format other than csv or
// xlsx is apperr.Invalid; an assignment or a submission id not of the
// actor's team (or not of the assignment) is not found.
func (s *Service) Export(ctx context.Context, a identity.Actor, req Request) (File, error) {
	format := strings.ToLower(strings.TrimSpace(req.Format))
	if format != FormatCSV && format != FormatXLSX {
		return File{}, apperr.New(apperr.Invalid, MsgFormat)
	}
	name, table, err := s.Table(ctx, a, req)
	if err != nil {
		return File{}, err
	}
	base := FileName(name)
	if format == FormatCSV {
		body, err := WriteCSV(table)
		return File{Name: base + ".csv", ContentType: TypeCSV, Body: body}, err
	}
	body, err := WriteXLSX(table)
	return File{Name: base + ".xlsx", ContentType: TypeXLSX, Body: body}, err
}

// FileName is the file's name without extension: "<assignment> - results",
// the assignment's name kept to characters every file system and the
// Content-Disposition header take.
func FileName(assignmentName string) string {
	var b strings.Builder
	for _, r := range assignmentName {
		switch {
		case r < 0x20 || r == 0x7f || strings.ContainsRune(`"\/:*?<>|`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	name := strings.TrimSpace(b.String())
	if utf8.RuneCountInString(name) > 100 {
		name = string([]rune(name)[:100])
	}
	if name == "" {
		name = "Assignment"
	}
	return name + " - results"
}

// Table reads the assignment, its submissions and results and lays them
// out; it answers the assignment's name too.
func (s *Service) Table(ctx context.Context, a identity.Actor, req Request) (string, Table, error) {
	asg, results, err := s.Results.GetAssignment(ctx, a, req.AssignmentID)
	if err != nil {
		return "", Table{}, err
	}
	var fn *assignment.Function
	if f, err := s.Results.Assignments.GetFunction(ctx, a, req.AssignmentID, ""); err == nil {
		fn = &f
	} else if !errors.Is(err, apperr.ErrNotFound) {
		return "", Table{}, err
	}
	subs, err := store.Q.ListExportSubmissions(ctx, s.Results.Pool, store.ListExportSubmissionsParams{AssignmentID: req.AssignmentID, TeamID: a.TeamID})
	if err != nil {
		return "", Table{}, fmt.Errorf("list submissions of assignment %s: %w", req.AssignmentID, err)
	}
	subs = byName(subs)
	all := subs
	if len(req.SubmissionIDs) > 0 {
		// Every id asked must be a row: another team's or a made-up id is
		// answered 404 rather than dropped, so nobody mistakes a partial
		// export for the one asked.
		have := make(map[uuid.UUID]bool, len(subs))
		for _, sub := range subs {
			have[sub.ID] = true
		}
		want := make(map[uuid.UUID]bool, len(req.SubmissionIDs))
		for _, id := range req.SubmissionIDs {
			if !have[id] {
				return "", Table{}, apperr.ErrNotFound
			}
			want[id] = true
		}
		// In the table's order, whatever order the ids came in.
		picked := subs[:0:0]
		for _, sub := range subs {
			if want[sub.ID] {
				picked = append(picked, sub)
			}
		}
		subs = picked
	}
	bySub := make(map[uuid.UUID]*result.FunctionResult, len(results))
	for i := range results {
		bySub[results[i].Submission] = &results[i]
	}
	typ := asg.Type
	if fn != nil {
		typ = fn.Type
	}
	return asg.Name, layout(typ, fn, all, subs, bySub, req.IncludeFeedback), nil
}

// byName orders the rows as the submissions table first shows them (and
// the review screen steps through them): by file name, numbers as numbers
// ("Essay 2" before "Essay 10"), case and accents aside; rows that tie keep
// upload order.
func byName(subs []store.ListExportSubmissionsRow) []store.ListExportSubmissionsRow {
	key := result.NameKeys()
	keys := make(map[uuid.UUID][]byte, len(subs))
	for _, sub := range subs {
		keys[sub.ID] = key(sub.Name)
	}
	out := slices.Clone(subs)
	slices.SortStableFunc(out, func(a, b store.ListExportSubmissionsRow) int { return bytes.Compare(keys[a.ID], keys[b.ID]) })
	return out
}

// column is one column: its header and how a row fills it.
type column struct {
	header string
	cell   func(r row) Cell
}

// row is what a column reads: the submission and its result (nil when it
// has none), with the result's answers tree read once.
type row struct {
	sub     store.ListExportSubmissionsRow
	fr      *result.FunctionResult
	answers map[string]answer // grade: by question path key ("0", "0/1")
	items   []highlight.Item  // feedback: the highlights
}

// answer is one node of a grade answers tree as the read shaped it.
type answer struct {
	grade answerbox.Grade
}

func text(s string) Cell { return Cell{Text: s} }
func num(x float64) Cell { return Cell{Num: &x} }
func yesNo(b bool) Cell  { return text(map[bool]string{true: "yes", false: "no"}[b]) }
func blank() Cell        { return Cell{} }
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n-1])) + "…"
}

// StatusNotGraded is the Status of a submission not graded yet (no result,
// or one the AI has not worked on).
const StatusNotGraded = "not graded"

// layout makes the table: the student columns, the type's own, then the
// totals and status.
// The id columns follow all the assignment's submissions, not only those
// exported, so a selection has the columns of the whole class.
func layout(typ string, fn *assignment.Function, all, subs []store.ListExportSubmissionsRow, bySub map[uuid.UUID]*result.FunctionResult, feedback bool) Table {
	cols := studentColumns(all)
	graded := typ != assignment.TypePrompt
	switch {
	case fn == nil:
	case typ == assignment.TypeGrade:
		cols = append(cols, gradeColumns(fn.Questions, feedback)...)
	case typ == assignment.TypeRubricFeedback:
		cols = append(cols, rubricColumns(fn, feedback)...)
	case typ == assignment.TypeFeedback:
		cols = append(cols, feedbackColumns(fn.Highlights, feedback)...)
	}
	if typ == assignment.TypeGrade || typ == assignment.TypeRubricFeedback {
		cols = append(cols, totalColumns()...)
	}
	cols = append(cols,
		column{"Status", func(r row) Cell {
			if r.fr == nil || r.fr.Status == "" {
				return text(StatusNotGraded)
			}
			return text(r.fr.Status)
		}},
		column{"Reviewed", func(r row) Cell { return yesNo(r.fr != nil && r.fr.Status == grading.StatusReviewed) }},
	)
	if graded {
		cols = append(cols, column{"Graded against an earlier version", func(r row) Cell { return yesNo(r.fr != nil && r.fr.Outdated) }})
	}
	// A rubric-feedback result's overall text is its overall comments.
	if typ == assignment.TypePrompt || feedback && typ != assignment.TypeRubricFeedback {
		cols = append(cols, column{"Feedback", func(r row) Cell {
			if r.fr == nil {
				return blank()
			}
			if typ == assignment.TypePrompt {
				// The rich editor's (and the model's) Markdown: the cell shows
				// the text typed, decoded once ("&amp;" is "&"), its Markdown
				// markers kept. The other types' feedback is plain text.
				return text(mdtext.Text(r.fr.Feedback))
			}
			return text(r.fr.Feedback)
		}})
	}
	if typ == assignment.TypeRubricFeedback && feedback {
		cols = append(cols, column{"Overall comments", func(r row) Cell {
			if r.fr == nil {
				return blank()
			}
			return text(r.fr.OverallComments)
		}})
	}

	t := Table{Header: make([]string, len(cols)), Rows: make([][]Cell, 0, len(subs))}
	for i, c := range cols {
		t.Header[i] = c.header
	}
	for _, sub := range subs {
		r := row{sub: sub, fr: bySub[sub.ID]}
		if r.fr != nil {
			r.answers = readAnswers(r.fr.Answers)
			if typ == assignment.TypeFeedback {
				_, r.items = highlight.Parse(r.fr.HighlightedText)
			}
		}
		cells := make([]Cell, len(cols))
		for i, c := range cols {
			cells[i] = c.cell(r)
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// studentColumns are who a submission is from: name, email, file, and the
// ids other systems know it by, each only when some row has one.
func studentColumns(subs []store.ListExportSubmissionsRow) []column {
	cols := []column{
		{"Student", func(r row) Cell { return text(r.sub.StudentName) }},
		{"Email", func(r row) Cell { return text(r.sub.StudentEmail) }},
		{"File", func(r row) Cell { return text(r.sub.Name) }},
		{"Source", func(r row) Cell { return text(sourceLabel(r.sub.Source)) }},
		{"Attempt", func(r row) Cell { return num(float64(r.sub.Attempt)) }},
	}
	var google, lti bool
	for _, s := range subs {
		google = google || s.ExternalID != ""
		lti = lti || s.LtiUserID != ""
	}
	if google {
		cols = append(cols, column{"Google Classroom submission id", func(r row) Cell {
			// external_id is "<submission>/<attachment>" for Classroom imports.
			id, _, _ := strings.Cut(r.sub.ExternalID, "/")
			return text(id)
		}})
	}
	if lti {
		cols = append(cols, column{"LTI user id", func(r row) Cell { return text(r.sub.LtiUserID) }})
	}
	return cols
}

func sourceLabel(s string) string {
	switch s {
	case "upload":
		return "Upload"
	case "csv":
		return "CSV import"
	case "student":
		return "Student link"
	case "google":
		return "Google Classroom"
	}
	return s
}

// gradeColumns are, per question (depth first, labelled as the answer
// boxes label them: "1", "1b", "1b iii") and per criterion, the pick (1/0)
// and its points, then the question's adjustment (the part that counts, as
// the review screen shows it) and, with feedback, its feedback.
func gradeColumns(qs []assignment.Question, feedback bool) []column {
	var cols []column
	var walk func(qs []assignment.Question, path []int)
	walk = func(qs []assignment.Question, path []int) {
		for i, q := range qs {
			p := append(append([]int(nil), path...), i)
			label, key := assignment.QuestionLabel(p), pathKey(p)
			for j, c := range q.Criteria {
				j, pts := j, c.Points
				head := fmt.Sprintf("Q%s C%d %s", label, j+1, clip(c.Description, 40))
				cols = append(cols,
					column{head + " (met)", func(r row) Cell {
						met, ok := pick(r, key, j)
						if !ok {
							return blank()
						}
						if met {
							return num(1)
						}
						return num(0)
					}},
					column{head + " (points)", func(r row) Cell {
						met, ok := pick(r, key, j)
						if !ok {
							return blank()
						}
						if met {
							return num(pts)
						}
						return num(0)
					}},
				)
			}
			cols = append(cols, column{"Q" + label + " adjustment", func(r row) Cell {
				a, ok := r.answers[key]
				if !ok {
					return blank()
				}
				return num(a.grade.GradeAdjustment)
			}})
			if feedback {
				cols = append(cols, column{"Q" + label + " feedback", func(r row) Cell {
					return text(r.answers[key].grade.Feedback)
				}})
			}
			walk(q.Subquestions, p)
		}
	}
	walk(qs, nil)
	return cols
}

func pick(r row, key string, j int) (met, ok bool) {
	a, found := r.answers[key]
	if !found || j >= len(a.grade.Criteria) {
		return false, false
	}
	return a.grade.Criteria[j], true
}

func pathKey(p []int) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, "/")
}

// readAnswers indexes a grade answers tree (as the read shaped it to the
// current questions) by path; answers of another shape read as none.
func readAnswers(raw json.RawMessage) map[string]answer {
	type node struct {
		Grade      *answerbox.Grade `json:"grade"`
		Subanswers []node           `json:"subanswers"`
	}
	var tree []node
	if len(raw) == 0 || json.Unmarshal(raw, &tree) != nil {
		return nil
	}
	out := map[string]answer{}
	var walk func(ns []node, path []int)
	walk = func(ns []node, path []int) {
		for i, n := range ns {
			p := append(append([]int(nil), path...), i)
			if n.Grade != nil {
				out[pathKey(p)] = answer{grade: *n.Grade}
			}
			walk(n.Subanswers, p)
		}
	}
	walk(tree, nil)
	return out
}

// rubricColumns are, per rubric criterion, the level chosen (its
// description) and its points as the total counts them, and with feedback
// the criterion's feedback.
func rubricColumns(fn *assignment.Function, feedback bool) []column {
	if fn.Rubric == nil {
		return nil
	}
	var cols []column
	for i, c := range fn.Rubric.Criteria {
		i, c := i, c
		head := fmt.Sprintf("C%d %s", i+1, clip(c.CriterionDescription, 40))
		cols = append(cols,
			column{head + " (level)", func(r row) Cell {
				if r.fr == nil || i >= len(r.fr.CriteriaLevels) {
					return blank()
				}
				l := r.fr.CriteriaLevels[i]
				if l < 0 || l >= len(c.LevelDescriptions) {
					return blank()
				}
				return text(c.LevelDescriptions[l])
			}},
			column{head + " (points)", func(r row) Cell {
				if r.fr == nil {
					return blank()
				}
				p, ok := grading.RubricCriterionPoints(c, i, r.fr.CriteriaLevels, r.fr.CriteriaPoints)
				if !ok {
					return blank()
				}
				return num(p)
			}},
		)
		if feedback {
			cols = append(cols, column{head + " (feedback)", func(r row) Cell {
				if r.fr == nil || i >= len(r.fr.CriteriaFeedback) {
					return blank()
				}
				return text(r.fr.CriteriaFeedback[i])
			}})
		}
	}
	return cols
}

// feedbackColumns are, per highlighter, the number of its highlights and,
// with feedback, its comments (one line each: the passage, then the
// comment).
func feedbackColumns(hs []assignment.Highlighter, feedback bool) []column {
	var cols []column
	for _, h := range hs {
		key := h.Key
		cols = append(cols, column{h.Title + " (highlights)", func(r row) Cell {
			if r.fr == nil {
				return blank()
			}
			n := 0
			for _, it := range r.items {
				if it.Type == key {
					n++
				}
			}
			return num(float64(n))
		}})
		if feedback {
			cols = append(cols, column{h.Title + " (comments)", func(r row) Cell {
				var lines []string
				for _, it := range r.items {
					if it.Type == key {
						lines = append(lines, "“"+clip(it.Text, 80)+"”: "+it.Comment)
					}
				}
				return text(strings.Join(lines, "\n"))
			}})
		}
	}
	return cols
}

// totalColumns are the totals the review screen shows, and the percentage.
func totalColumns() []column {
	points := func(get func(fr *result.FunctionResult) *float64) func(r row) Cell {
		return func(r row) Cell {
			if r.fr == nil || get(r.fr) == nil {
				return blank()
			}
			return num(*get(r.fr))
		}
	}
	return []column{
		{"Total", points(func(fr *result.FunctionResult) *float64 { return fr.TotalPoints })},
		{"Maximum", points(func(fr *result.FunctionResult) *float64 { return fr.MaxPoints })},
		{"Percentage", func(r row) Cell {
			if r.fr == nil || r.fr.TotalPoints == nil || r.fr.MaxPoints == nil || *r.fr.MaxPoints <= 0 {
				return blank()
			}
			return num(Percentage(*r.fr.TotalPoints, *r.fr.MaxPoints))
		}},
	}
}

// Percentage is total of most in percent, to two decimals.
func Percentage(total, most float64) float64 {
	return math.Round(total/most*100*100) / 100
}

// escape is what a writer puts in a text cell: formula-like text gets
// csvimport.EscapeCell's apostrophe.
func escape(s string) string { return csvimport.EscapeCell(s) }
