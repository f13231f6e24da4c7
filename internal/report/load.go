package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
)

// Limits of what a report embeds: pictures beyond them are left out (the
// answer's text is shown when none is left). The work's limits bound what
// LibreOffice lays out, whose time grows with the document's paragraphs,
// footnotes, shaded runs and tabs: at the limits a report converts in a few seconds, as a
// large ordinary one does, where a result saved with 25,000 highlights
// took more than the conversion's 60 seconds.
const (
	maxImageBytes      = 8 << 20
	maxImagesPerAnswer = 8
	maxImagesPerReport = 60
	maxWorkRunes       = 200_000 // a submission's text is cut here, with a note
	// maxWorkLines caps the paragraphs of the work (one a line): the work
	// is cut after this many lines, with the same note. A typed essay has a
	// few hundred; 3,000 is some 60 pages of short lines.
	maxWorkLines = 3_000
	// maxFootnotes caps the highlights printed with their comment as a
	// footnote; the later ones are shaded without one, and one sentence
	// (msgNotesLeftOut) says so. The AI places at most 200 highlights in a
	// result (grading's maxPassages), and a teacher's edit may hold at most
	// grading.MaxEditHighlights (1,000).
	maxFootnotes = 300
	// maxShaded caps the highlights shaded in their colour (the later ones
	// are plain text): LibreOffice's time grows faster than the shaded runs
	// of a paragraph (5,000 on one line take 6 s, 25,000 over two minutes).
	// It is the most a teacher's edit may hold.
	maxShaded = 1_000
	// maxTabs caps the tabs laid out as tabs (the later ones are spaces):
	// 66,000 tabs on one line, which a pupil's .txt can hold, took 30 s,
	// 5,000 took 4 s.
	maxTabs              = 2_000
	msgWorkCut           = "[The rest of the work is not shown: it is too long to print.]"
	msgNotesLeftOut      = "[This report prints the comments on the first %d highlighted passages only: read the comments on the other %d in Markwell.]"
	msgNoSubmissions     = "This assignment has no submissions to print."
	msgUnknownSubmission = "One of the chosen submissions is not in this assignment any more. Refresh the page and try again."
)

// Item is one student's report, with the name of its file.
type Item struct {
	SubmissionID uuid.UUID
	// FileName is the report's file name in a ZIP ("<student>.pdf"), made
	// safe and unique among the items.
	FileName string
	Report   Report
}

// Load reads the reports of an assignment's submissions (ids, or all of
// them when ids is empty), in the submissions table's order. Totals come
// from the same read as the review screen (result.Service.GetAssignment).
func (s *Service) Load(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ids []uuid.UUID) ([]Item, error) {
	asg, results, err := s.results().GetAssignment(ctx, a, assignmentID)
	if err != nil {
		return nil, err
	}
	fn, err := s.assignments().GetFunction(ctx, a, assignmentID, "")
	switch {
	case errors.Is(err, apperr.ErrNotFound):
		fn = assignment.Function{Type: asg.Type}
	case err != nil:
		return nil, err
	}
	subs, err := store.Q.ListReportSubmissions(ctx, s.Pool, store.ListReportSubmissionsParams{
		AssignmentID: assignmentID, TeamID: a.TeamID, Ids: orEmpty(ids),
	})
	if err != nil {
		return nil, fmt.Errorf("list submissions of assignment %s: %w", assignmentID, err)
	}
	if len(ids) > 0 && len(subs) < len(unique(ids)) {
		return nil, apperr.New(apperr.NotFound, msgUnknownSubmission)
	}
	byID := make(map[uuid.UUID]assignment.FunctionResult, len(results))
	for _, r := range results {
		byID[r.Submission] = r
	}
	names := fileNames{}
	items := make([]Item, 0, len(subs))
	for _, sub := range subs {
		student := strings.TrimSpace(sub.StudentName)
		if student == "" {
			// The submission's whole file name, extension and all: two
			// pupils' printed.png and printed.webp are two reports,
			// "printed.png.pdf" and "printed.webp.pdf", each titled after
			// its own file, not "printed.pdf" and "printed (2).pdf".
			student = strings.TrimSpace(sub.Name)
		}
		r := Report{Assignment: asg.Name, Student: student, Type: fn.Type, Handwritten: asg.IsHandWritten}
		fr, ok := byID[sub.ID]
		if ok && assignment.Finished(fr.Status) {
			budget := maxImagesPerReport // pictures one report may embed
			s.fill(ctx, &r, fn, fr, sub.ExtractedText, assignmentID, &budget)
		} else {
			r.Work = plainWork(sub.ExtractedText)
		}
		items = append(items, Item{SubmissionID: sub.ID, FileName: names.take(student), Report: r})
	}
	return items, nil
}

// fill sets a report's feedback from a finished result.
func (s *Service) fill(ctx context.Context, r *Report, fn assignment.Function, fr assignment.FunctionResult, text string, assignmentID uuid.UUID, budget *int) {
	r.Status, r.Total, r.Max = fr.Status, fr.TotalPoints, fr.MaxPoints
	switch fn.Type {
	case assignment.TypeGrade:
		r.Overall = fr.Feedback
		r.Work = plainWork(text)
		var tree []answerNode
		_ = json.Unmarshal(fr.Answers, &tree) // answers of another shape show no questions
		prefix := "assignments/" + assignmentID.String() + "/submissions/crops/"
		r.Questions = s.questions(ctx, fn.Questions, tree, nil, prefix, r.Handwritten, budget)
	case assignment.TypeFeedback:
		r.Overall = fr.Feedback
		keys := map[string]assignment.Highlighter{}
		for _, h := range fn.Highlights {
			keys[h.Key] = h
		}
		r.Work, r.Highlights = highlighted(fr.HighlightedText, text, func(key string, _ int) (string, string) {
			h, ok := keys[key]
			if !ok {
				return key, ""
			}
			return h.Title, h.Color
		})
	case assignment.TypeRubricFeedback:
		r.Overall = fr.OverallComments
		var criteria []rubricCriterion
		if fn.Rubric != nil {
			for _, c := range fn.Rubric.Criteria {
				criteria = append(criteria, rubricCriterion{c.CriterionDescription, c.LevelDescriptions})
			}
		}
		for i, c := range criteria {
			row := RubricRow{Criterion: c.description}
			if i < len(fr.CriteriaLevels) && fr.CriteriaLevels[i] >= 0 && fr.CriteriaLevels[i] < len(c.levels) {
				row.Level = c.levels[fr.CriteriaLevels[i]]
			}
			if i < len(fr.CriteriaPoints) {
				row.Points = fr.CriteriaPoints[i]
			}
			if i < len(fr.CriteriaFeedback) {
				row.Feedback = fr.CriteriaFeedback[i]
			}
			r.Rubric = append(r.Rubric, row)
		}
		r.Work, r.Highlights = highlighted(fr.HighlightedText, text, func(key string, _ int) (string, string) {
			// criterion1, criterion2 … (grading.RubricHighlightKeys)
			var n int
			if _, err := fmt.Sscanf(key, "criterion%d", &n); err == nil && n >= 1 && n <= len(criteria) {
				return criteria[n-1].description, ""
			}
			return key, ""
		})
	default: // prompt, and types Markwell does not know how to print
		r.Feedback = fr.Feedback
		r.Work = plainWork(text)
	}
}

type rubricCriterion struct {
	description string
	levels      []string
}

// answerNode is a node of a grade result's answers, as scored on read.
type answerNode struct {
	Grade struct {
		Points          float64 `json:"points"`
		GradeAdjustment float64 `json:"gradeAdjustment"`
		Feedback        string  `json:"feedback"`
		Criteria        []bool  `json:"criteria"`
	} `json:"grade"`
	AnswerMedia []string     `json:"answerMedia"`
	Subanswers  []answerNode `json:"subanswers"`
}

// questions pairs the questions under path with their answers, depth first,
// labelled as the answer boxes and the export label them ("1", "1b", "1b iii").
func (s *Service) questions(ctx context.Context, qs []assignment.Question, tree []answerNode, path []int, prefix string, handwritten bool, budget *int) []Question {
	out := make([]Question, 0, len(qs))
	for i, q := range qs {
		var n answerNode
		if i < len(tree) {
			n = tree[i]
		}
		at := append(append([]int(nil), path...), i)
		item := Question{Label: "Question " + assignment.QuestionLabel(at), Text: q.QuestionText, Points: n.Grade.Points,
			Adjustment: n.Grade.GradeAdjustment, Feedback: n.Grade.Feedback}
		for j, c := range q.Criteria {
			item.Max += c.Points
			item.Criteria = append(item.Criteria, Criterion{Description: c.Description, Points: c.Points,
				Met: j < len(n.Grade.Criteria) && n.Grade.Criteria[j]})
		}
		if handwritten {
			item.Images = s.images(ctx, n.AnswerMedia, prefix, budget)
		}
		item.Subs = s.questions(ctx, q.Subquestions, n.Subanswers, at, prefix, handwritten, budget)
		out = append(out, item)
	}
	return out
}

// images reads an answer's crops from the blob store: only keys in the
// assignment's crops folder (as the review screen signs them), within the
// limits above.
func (s *Service) images(ctx context.Context, keys []string, prefix string, budget *int) []Image {
	if s.Blob == nil {
		return nil
	}
	var out []Image
	for _, k := range keys {
		if len(out) >= maxImagesPerAnswer || *budget <= 0 {
			break
		}
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		rc, err := s.Blob.Get(ctx, k)
		if err != nil {
			continue // a crop gone: the answer shows without it
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxImageBytes+1))
		_ = rc.Close()
		if err != nil || len(data) > maxImageBytes {
			continue
		}
		*budget--
		out = append(out, Image{Data: data})
	}
	return out
}

// highlighted is the work of a feedback or rubric-feedback result: its
// highlightedText's spans and comments (names gives a highlight key's
// title and colour), or the submission's text when it has none.
func highlighted(tagged, text string, names func(key string, i int) (title, color string)) ([]Span, []Highlight) {
	if strings.TrimSpace(tagged) == "" {
		return plainWork(text), nil
	}
	spans, items := highlight.Parse(tagged)
	out := make([]Span, len(spans))
	for i, sp := range spans {
		out[i] = Span{Text: sp.Text, ID: sp.ID}
	}
	notes := make([]Highlight, len(items))
	for i, it := range items {
		title, color := names(it.Type, i)
		notes[i] = Highlight{Title: title, Color: color, Comment: it.Comment}
	}
	return cut(out), notes
}

// plainWork is a submission's text as one plain span.
func plainWork(text string) []Span {
	return cut([]Span{{Text: text, ID: -1}})
}

// cut keeps the first maxWorkRunes characters and maxWorkLines lines of
// the work, and says so after them when it cut.
func cut(spans []Span) []Span {
	runes, breaks := maxWorkRunes, maxWorkLines-1 // characters and line breaks left
	for i, sp := range spans {
		for j, r := range sp.Text {
			if runes == 0 || r == '\n' && breaks == 0 {
				spans[i].Text = sp.Text[:j]
				return append(spans[:i+1], Span{Text: "\n" + msgWorkCut, ID: -1})
			}
			runes--
			if r == '\n' {
				breaks--
			}
		}
	}
	return spans
}

func orEmpty(ids []uuid.UUID) []uuid.UUID {
	if ids == nil {
		return []uuid.UUID{}
	}
	return ids
}

func unique(ids []uuid.UUID) map[uuid.UUID]bool {
	m := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// fileNames makes report file names: the student's name without the
// characters file systems and ZIP tools refuse, at most 80 characters,
// "Student" when nothing is left, and " (2)", " (3)" … after a name
// already taken (case-insensitively).
type fileNames map[string]bool

func (f fileNames) take(student string) string {
	base := SafeName(student)
	name := base + ".pdf"
	for n := 2; f[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s (%d).pdf", base, n)
	}
	f[strings.ToLower(name)] = true
	return name
}

// SafeName is a name usable as a file name on every common system.
func SafeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	out := strings.Trim(strings.TrimSpace(b.String()), ".")
	if r := []rune(out); len(r) > 80 {
		out = strings.TrimSpace(string(r[:80]))
	}
	if out == "" {
		return "Student"
	}
	return out
}
