package export_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/export"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/highlight"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/mdtext"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	ctx     context.Context
	pool    *pgxpool.Pool
	asgs    *assignment.Service
	rubrics *rubric.Service
	subs    *submission.Service
	results *result.Service
	svc     *export.Service
	deps    jobs.Deps
}

func setup(t *testing.T) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	insert, err := queue.NewInsertClient(pool, log)
	require.NoError(t, err)
	srv := fakellm.New(fakellm.Options{})
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)
	asgs := &assignment.Service{Pool: pool}
	results := &result.Service{Pool: pool, Assignments: asgs, Model: model, Jobs: insert}
	return &bundle{
		ctx: context.Background(), pool: pool, asgs: asgs, rubrics: &rubric.Service{Pool: pool},
		subs: &submission.Service{Pool: pool, Jobs: insert}, results: results,
		svc: &export.Service{Results: results}, deps: jobs.Deps{Pool: pool, LLM: model, Log: log},
	}
}

func (b *bundle) teacher(t *testing.T) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

func pts(f float64) *float64 { return &f }

// define makes an assignment of typ with its definition; grade questions
// nest three deep.
func (b *bundle) define(t *testing.T, a identity.Actor, typ string) uuid.UUID {
	t.Helper()
	asg, err := b.asgs.Create(b.ctx, a, assignment.Input{Name: "Homework: " + typ, Type: typ})
	require.NoError(t, err)
	var in assignment.FunctionInput
	switch typ {
	case assignment.TypeGrade:
		in.Questions = []assignment.Question{
			{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
				{Description: "Names chlorophyll pigment", Points: 2},
				{Description: "Mentions glucose sugar", Points: 3},
			}, Subquestions: []assignment.Question{
				{QuestionText: "Where does it happen?", Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}},
					Subquestions: []assignment.Question{
						{QuestionText: "Which layer has most?", Criteria: []assignment.Criterion{{Description: "Palisade mesophyll layer", Points: 1.5}}},
					}},
			}},
			{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
				{Description: "Evaporation from oceans", Points: 2},
				{Description: "=Condensation forms clouds", Points: 1},
			}},
		}
	case assignment.TypeFeedback:
		in.Highlights = []assignment.Highlighter{
			{Key: "praise", Color: "green-500", Title: "Praise", Description: "What works well."},
			{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar mistakes."},
		}
		in.Context = "A letter to a friend."
	case assignment.TypeRubricFeedback:
		r, err := b.rubrics.Create(b.ctx, a, rubric.Input{Name: "Essay", Criteria: []rubric.Criterion{
			{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
			{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong, cited evidence", "Some evidence", "No evidence"}, UseRange: true,
				LevelRanges: []rubric.LevelRange{
					{LevelDescriptionsIndex: 0, Min: pts(4), Max: pts(5)},
					{LevelDescriptionsIndex: 1, Min: pts(2), Max: pts(3)},
					{LevelDescriptionsIndex: 2, Min: pts(0), Max: pts(1)},
				}},
		}})
		require.NoError(t, err)
		in.RubricID = r.ID.String()
	case assignment.TypePrompt:
		in.Prompt = "Say how well the argument flows."
	}
	_, err = b.asgs.PutFunction(b.ctx, a, asg.ID, in)
	require.NoError(t, err)
	return asg.ID
}

// students are the class: a plain name, two formula-like ones, one with
// an accent; the last was imported from Google Classroom.
var students = []struct{ name, email, externalID string }{
	{"Ana Lima", "ana@pupils.test", ""},
	{`=HYPERLINK("http://x","y")`, "x@pupils.test", ""},
	{"+1+1", "plus@pupils.test", ""},
	{"Zoë Ångström", "zoe@pupils.test", "gsub-9/att-1"},
}

const essay = "Chlorophyll is the green pigment that traps light. The plant makes glucose, a sugar. " +
	"It happens in the the chloroplasts of leaf cells. Evaporation from oceans makes clouds and and rain."

// class submits one essay per student and grades them all with the demo
// model, as a worker would.
func (b *bundle) class(t *testing.T, a identity.Actor, asgID uuid.UUID) []uuid.UUID {
	t.Helper()
	asg, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asgID, TeamID: a.TeamID})
	require.NoError(t, err)
	news := make([]submission.NewSubmission, len(students))
	for i, s := range students {
		text := essay
		if i == 2 {
			text = "Plants are green." // meets fewer criteria
		}
		news[i] = submission.NewSubmission{Name: fmt.Sprintf("essay-%d.txt", i), Source: submission.SourceCSV, Text: text,
			StudentName: s.name, StudentEmail: s.email, ExternalID: s.externalID}
	}
	var ids []uuid.UUID
	require.NoError(t, store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		created, _, err := b.subs.CreateTx(b.ctx, tx, a.TeamID, asg, news)
		for _, s := range created {
			ids = append(ids, s.ID)
		}
		return err
	}))
	require.Len(t, ids, len(students))
	// The last student's work is left ungraded.
	graded := ids[:len(ids)-1]
	_, err = b.results.RunMany(b.ctx, a, asgID, graded)
	require.NoError(t, err)
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewGradeSubmissionWorker(b.deps))
	for _, id := range graded {
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		res, err := worker.Work(b.ctx, t, tx, queue.GradeSubmissionArgs{SubmissionID: id}, nil)
		_ = tx.Rollback(b.ctx)
		require.NoError(t, err)
		require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	}
	return ids
}

// review edits the first result as a teacher: an adjustment and feedback
// on a grade question, a level and points on a rubric, overall feedback.
func (b *bundle) review(t *testing.T, a identity.Actor, asgID, subID uuid.UUID, typ string) {
	t.Helper()
	fr, err := b.results.Get(b.ctx, a, subID, asgID)
	require.NoError(t, err)
	e := result.Edit{ResultID: fr.ID, SubmissionID: subID, ResultFields: fr.ResultFields}
	switch typ {
	case assignment.TypeGrade:
		var tree []map[string]any
		require.NoError(t, json.Unmarshal(fr.Answers, &tree))
		g := tree[0]["grade"].(map[string]any)
		g["gradeAdjustment"], g["feedback"] = -1.5, "-Careful with the sugar."
		sub := tree[0]["subanswers"].([]any)[0].(map[string]any)["grade"].(map[string]any)
		sub["feedback"] = "Nice, see \"leaf\"\nsecond line"
		e.Answers, err = json.Marshal(tree)
		require.NoError(t, err)
		e.Feedback = "Well done overall."
	case assignment.TypeRubricFeedback:
		e.CriteriaLevels = []int{1, 0}
		e.CriteriaPoints = []float64{0, 4.5}
		e.CriteriaFeedback = []string{"Sharpen it, please.", "@Good sources"}
		e.OverallComments = "Solid work."
	default:
		e.Feedback = "+ Good start; keep going."
	}
	_, err = b.results.Update(b.ctx, a, e)
	require.NoError(t, err)
}

// expected is the table the results say, cell by cell, as text: what the
// review screen's read (result.Service.GetAssignment) holds, laid out as
// docs/api-results.md describes. Numbers are formatted plainly.
func (b *bundle) expected(t *testing.T, a identity.Actor, asgID uuid.UUID, ids []uuid.UUID, feedback bool) [][]string {
	t.Helper()
	_, results, err := b.results.GetAssignment(b.ctx, a, asgID)
	require.NoError(t, err)
	fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
	require.NoError(t, err)
	byID := map[uuid.UUID]result.FunctionResult{}
	for _, r := range results {
		byID[r.Submission] = r
	}
	n := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	esc := func(s string) string {
		if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
			return "'" + s
		}
		return s
	}
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	header := []string{"Student", "Email", "File", "Source", "Attempt", "Google Classroom submission id"}
	type cellFn func(i int, sub uuid.UUID, fr *result.FunctionResult) string
	var cols []cellFn
	cols = append(cols,
		func(i int, _ uuid.UUID, _ *result.FunctionResult) string { return esc(students[i].name) },
		func(i int, _ uuid.UUID, _ *result.FunctionResult) string { return esc(students[i].email) },
		func(i int, _ uuid.UUID, _ *result.FunctionResult) string { return fmt.Sprintf("essay-%d.txt", i) },
		func(int, uuid.UUID, *result.FunctionResult) string { return "CSV import" },
		func(int, uuid.UUID, *result.FunctionResult) string { return "1" },
		func(i int, _ uuid.UUID, _ *result.FunctionResult) string {
			id, _, _ := strings.Cut(students[i].externalID, "/")
			return id
		},
	)
	graded := func(fr *result.FunctionResult) bool { return fr.GradedAt != nil }
	switch fn.Type {
	case assignment.TypeGrade:
		type node struct {
			Grade struct {
				Points, GradeAdjustment float64
				Feedback                string
				Criteria                []bool
			}
			Subanswers []node
		}
		at := func(fr *result.FunctionResult, path []int) *node {
			var tree []node
			if json.Unmarshal(fr.Answers, &tree) != nil || len(tree) == 0 {
				return nil
			}
			var cur *node
			for _, p := range path {
				if p >= len(tree) {
					return nil
				}
				cur = &tree[p]
				tree = cur.Subanswers
			}
			return cur
		}
		var walk func(qs []assignment.Question, path []int)
		walk = func(qs []assignment.Question, path []int) {
			for i, q := range qs {
				p := append(append([]int(nil), path...), i)
				label := assignment.QuestionLabel(p)
				for j, c := range q.Criteria {
					j, c := j, c
					head := fmt.Sprintf("Q%s C%d %s", label, j+1, c.Description)
					header = append(header, esc(head+" (met)"), esc(head+" (points)"))
					cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
						if nd := at(fr, p); nd != nil {
							return map[bool]string{true: "1", false: "0"}[nd.Grade.Criteria[j]]
						}
						return ""
					}, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
						if nd := at(fr, p); nd != nil {
							if nd.Grade.Criteria[j] {
								return n(c.Points)
							}
							return "0"
						}
						return ""
					})
				}
				header = append(header, "Q"+label+" adjustment")
				cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
					if nd := at(fr, p); nd != nil {
						return n(nd.Grade.GradeAdjustment)
					}
					return ""
				})
				if feedback {
					header = append(header, "Q"+label+" feedback")
					cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
						if nd := at(fr, p); nd != nil {
							return esc(nd.Grade.Feedback)
						}
						return ""
					})
				}
				walk(q.Subquestions, p)
			}
		}
		walk(fn.Questions, nil)
	case assignment.TypeRubricFeedback:
		for i, c := range fn.Rubric.Criteria {
			i, c := i, c
			head := fmt.Sprintf("C%d %s", i+1, c.CriterionDescription)
			header = append(header, head+" (level)", head+" (points)")
			cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
				if !graded(fr) {
					return ""
				}
				return esc(c.LevelDescriptions[fr.CriteriaLevels[i]])
			}, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
				if !graded(fr) {
					return ""
				}
				p, ok := grading.RubricCriterionPoints(c, i, fr.CriteriaLevels, fr.CriteriaPoints)
				require.True(t, ok)
				return n(p)
			})
			if feedback {
				header = append(header, head+" (feedback)")
				cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
					if i >= len(fr.CriteriaFeedback) {
						return ""
					}
					return esc(fr.CriteriaFeedback[i])
				})
			}
		}
	case assignment.TypeFeedback:
		for _, h := range fn.Highlights {
			h := h
			header = append(header, h.Title+" (highlights)")
			cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
				_, items := highlight.Parse(fr.HighlightedText)
				c := 0
				for _, it := range items {
					if it.Type == h.Key {
						c++
					}
				}
				return strconv.Itoa(c)
			})
			if feedback {
				header = append(header, h.Title+" (comments)")
				cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
					_, items := highlight.Parse(fr.HighlightedText)
					var lines []string
					for _, it := range items {
						if it.Type == h.Key {
							lines = append(lines, "“"+it.Text+"”: "+it.Comment)
						}
					}
					return esc(strings.Join(lines, "\n"))
				})
			}
		}
	}
	if fn.Type == assignment.TypeGrade || fn.Type == assignment.TypeRubricFeedback {
		header = append(header, "Total", "Maximum", "Percentage")
		num := func(get func(fr *result.FunctionResult) *float64) cellFn {
			return func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
				if v := get(fr); v != nil {
					return n(*v)
				}
				return ""
			}
		}
		cols = append(cols, num(func(fr *result.FunctionResult) *float64 { return fr.TotalPoints }),
			num(func(fr *result.FunctionResult) *float64 { return fr.MaxPoints }),
			func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
				if fr.TotalPoints == nil || fr.MaxPoints == nil {
					return ""
				}
				return n(export.Percentage(*fr.TotalPoints, *fr.MaxPoints))
			})
	}
	header = append(header, "Status", "Reviewed")
	cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
		if fr.Status == "" {
			return export.StatusNotGraded // the last student's work, left ungraded
		}
		return fr.Status
	},
		func(_ int, _ uuid.UUID, fr *result.FunctionResult) string { return yes(fr.Status == "reviewed") })
	if fn.Type != assignment.TypePrompt {
		header = append(header, "Graded against an earlier version")
		cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string { return yes(fr.Outdated) })
	}
	if fn.Type == assignment.TypePrompt || feedback && fn.Type != assignment.TypeRubricFeedback {
		header = append(header, "Feedback")
		cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string {
			if fn.Type == assignment.TypePrompt {
				return esc(mdtext.Text(fr.Feedback)) // the editor's Markdown, decoded once
			}
			return esc(fr.Feedback)
		})
	}
	if fn.Type == assignment.TypeRubricFeedback && feedback {
		header = append(header, "Overall comments")
		cols = append(cols, func(_ int, _ uuid.UUID, fr *result.FunctionResult) string { return esc(fr.OverallComments) })
	}
	out := [][]string{header}
	for i, id := range ids {
		fr := byID[id]
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c(i, id, &fr)
		}
		out = append(out, row)
	}
	return out
}

// readCSV reads an export: UTF-8 with a BOM, RFC 4180.
func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	require.True(t, bytes.HasPrefix(body, []byte("\ufeff")), "no BOM")
	r := csv.NewReader(bytes.NewReader(body[3:]))
	rows, err := r.ReadAll()
	require.NoError(t, err)
	return rows
}

// sameTable compares a read-back table with the expected one cell by
// cell; numbers compare as numbers (LibreOffice may write 3 as 3 and 1.5
// as 1.5, but never differently valued).
func sameTable(t *testing.T, want, got [][]string, what string) {
	t.Helper()
	require.Len(t, got, len(want), "%s: rows", what)
	for i := range want {
		require.Len(t, got[i], len(want[i]), "%s: row %d: %q", what, i, got[i])
		for j := range want[i] {
			w, g := want[i][j], strings.ReplaceAll(got[i][j], "\r\n", "\n")
			if wf, err := strconv.ParseFloat(w, 64); err == nil && i > 0 {
				gf, err := strconv.ParseFloat(g, 64)
				require.NoError(t, err, "%s: row %d column %q: %q is not a number", what, i, want[0][j], g)
				require.InDelta(t, wf, gf, 1e-9, "%s: row %d column %q", what, i, want[0][j])
				continue
			}
			require.Equal(t, w, g, "%s: row %d column %q", what, i, want[0][j])
		}
	}
}

// xlsxToCSV converts XLSX files to CSV (UTF-8, comma, quote) with
// LibreOffice, under a profile of the test's own, in one run: starting
// soffice is most of the cost (four runs took most of this package's 350 s
// on the loaded 2-core machine). It answers each file's rows, in order.
func xlsxToCSV(t *testing.T, profile string, bodies ...[]byte) [][][]string {
	t.Helper()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("soffice (LibreOffice) is not installed: the XLSX is not read back")
	}
	if !calcInstalled(soffice) {
		t.Skip("LibreOffice Calc is not installed (Debian package libreoffice-calc-nogui): soffice cannot open the XLSX; it was read back with excelize only")
	}
	dir := t.TempDir()
	args := []string{"-env:UserInstallation=file://" + profile, "--headless", "--norestore",
		"--convert-to", `csv:Text - txt - csv (StarCalc):44,34,76,1`, "--outdir", dir}
	for i, body := range bodies {
		in := filepath.Join(dir, fmt.Sprintf("export-%d.xlsx", i))
		require.NoError(t, os.WriteFile(in, body, 0o600))
		args = append(args, in)
	}
	out, err := exec.Command(soffice, args...).CombinedOutput()
	require.NoError(t, err, string(out))
	tables := make([][][]string, len(bodies))
	for i := range bodies {
		csvBody, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("export-%d.csv", i)))
		require.NoError(t, err, string(out))
		csvBody = bytes.TrimPrefix(csvBody, []byte("\ufeff"))
		tables[i], err = csv.NewReader(bytes.NewReader(csvBody)).ReadAll()
		require.NoError(t, err, string(csvBody))
	}
	return tables
}

// calcInstalled reports whether LibreOffice has its spreadsheet part: the
// -nogui Writer and Impress packages alone open no spreadsheet.
func calcInstalled(soffice string) bool {
	real, err := filepath.EvalSymlinks(soffice)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(filepath.Dir(real), "libsclo.so"))
	return err == nil
}

// readXLSX reads an export's only sheet with excelize, checking that every
// cell is a plain value (no formula) and that the header is frozen: numbers
// as numbers, the rest as text.
func readXLSX(t *testing.T, body []byte) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, []string{"Results"}, f.GetSheetList())
	panes, err := f.GetPanes("Results")
	require.NoError(t, err)
	require.True(t, panes.Freeze)
	require.Equal(t, 1, panes.YSplit)
	rows, err := f.GetRows("Results", excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	width := len(rows[0])
	for i := range rows {
		for len(rows[i]) < width { // GetRows leaves trailing empty cells out
			rows[i] = append(rows[i], "")
		}
		for j := range rows[i] {
			cell, err := excelize.CoordinatesToCellName(j+1, i+1)
			require.NoError(t, err)
			formula, err := f.GetCellFormula("Results", cell)
			require.NoError(t, err)
			require.Empty(t, formula, cell)
			typ, err := f.GetCellType("Results", cell)
			require.NoError(t, err)
			if _, isNum := strconv.ParseFloat(rows[i][j], 64); isNum == nil && i > 0 {
				require.Contains(t, []excelize.CellType{excelize.CellTypeNumber, excelize.CellTypeUnset}, typ, "%s %q", cell, rows[i][j])
			} else if rows[i][j] != "" {
				require.Contains(t, []excelize.CellType{excelize.CellTypeInlineString, excelize.CellTypeSharedString}, typ, "%s %q", cell, rows[i][j])
			}
		}
	}
	{
		style, err := f.GetCellStyle("Results", "A1")
		require.NoError(t, err)
		st, err := f.GetStyle(style)
		require.NoError(t, err)
		require.True(t, st.Font != nil && st.Font.Bold, "the header is bold")
	}
	return rows
}

func TestExportEachType(t *testing.T) {
	b := setup(t)
	a := b.teacher(t)
	profile := t.TempDir()
	// What LibreOffice reads back at the end: each type's XLSX with feedback.
	var types []string
	var xlsxs [][]byte
	var wants [][][]string
	for _, typ := range []string{assignment.TypeGrade, assignment.TypeRubricFeedback, assignment.TypeFeedback, assignment.TypePrompt} {
		t.Run(typ, func(t *testing.T) {
			asgID := b.define(t, a, typ)
			ids := b.class(t, a, asgID)
			b.review(t, a, asgID, ids[0], typ)
			if typ == assignment.TypeGrade {
				// A changed criterion after grading: every graded result is
				// now graded against an earlier version.
				fn, err := b.asgs.GetFunction(b.ctx, a, asgID, "")
				require.NoError(t, err)
				fn.Questions[1].Criteria[0].Description = "Evaporation from seas and oceans"
				_, err = b.asgs.UpdateFunction(b.ctx, a, fn.ID, asgID, assignment.FunctionInput{Questions: fn.Questions})
				require.NoError(t, err)
			}
			var lastXLSX []byte
			var lastWant [][]string
			for _, feedback := range []bool{false, true} {
				want := b.expected(t, a, asgID, ids, feedback)
				f, err := b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "csv", IncludeFeedback: feedback})
				require.NoError(t, err)
				require.Equal(t, "Homework_ "+typ+" - results.csv", f.Name)
				require.Equal(t, "text/csv; charset=utf-8", f.ContentType)
				require.Contains(t, string(f.Body), "\r\n", "RFC 4180 line ends")
				sameTable(t, want, readCSV(t, f.Body), "csv")
				if dir := os.Getenv("EXPORT_DUMP"); dir != "" {
					require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Body, 0o600))
				}

				x, err := b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "XLSX", IncludeFeedback: feedback})
				require.NoError(t, err)
				require.Equal(t, "Homework_ "+typ+" - results.xlsx", x.Name)
				require.Equal(t, export.TypeXLSX, x.ContentType)
				sameTable(t, want, readXLSX(t, x.Body), "xlsx (excelize)")
				if feedback {
					lastXLSX, lastWant = x.Body, want
				}
			}
			// The formula-like names stay text: escaped, never evaluated.
			got := readCSV(t, must(b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "csv"})).Body)
			require.Equal(t, `'=HYPERLINK("http://x","y")`, got[2][0])
			require.Equal(t, "'+1+1", got[3][0])

			// Selected rows only, in the table's order.
			sel, err := b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "csv", SubmissionIDs: []uuid.UUID{ids[2], ids[0]}})
			require.NoError(t, err)
			all := b.expected(t, a, asgID, ids, false)
			sameTable(t, [][]string{all[0], all[1], all[3]}, readCSV(t, sel.Body), "selected")

			types, xlsxs, wants = append(types, typ), append(xlsxs, lastXLSX), append(wants, lastWant)
		})
	}
	// Last, as it may skip: LibreOffice opens each type's XLSX (one file
	// per type is enough) and reads the same cells.
	t.Run("LibreOffice reads each XLSX", func(t *testing.T) {
		require.Len(t, xlsxs, 4, "every type exported")
		for i, got := range xlsxToCSV(t, profile, xlsxs...) {
			sameTable(t, wants[i], got, "xlsx (LibreOffice) of "+types[i])
		}
	})
}

func must(f export.File, err error) export.File {
	if err != nil {
		panic(err)
	}
	return f
}

// TestExportPromptFeedbackIsTheTypedText: prompt feedback is the rich
// editor's Markdown ("&" saved as "&amp;", "*" as "\\*", a line break in a
// table cell as "<br>"); the Feedback cell shows what the teacher typed,
// decoded once, and a formula the decoding makes is escaped as any other.
func TestExportPromptFeedbackIsTheTypedText(t *testing.T) {
	b := setup(t)
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypePrompt)
	ids := b.class(t, a, asgID)
	edited := []struct{ saved, cell string }{
		{
			"add a second example &amp; explain it. &lt;script&gt;x&lt;/script&gt;\n\n\\*not bold\\* &amp;amp; `a &amp; b`\n\n| Step | Note |\n| --- | --- |\n| one<br>two | &lt;br&gt; |",
			"add a second example & explain it. <script>x</script>\n\n*not bold* &amp; `a &amp; b`\n\n| Step | Note |\n| --- | --- |\n| one\ntwo | <br> |",
		},
		{"&#61;SUM(A1:A9) &amp; more", "'=SUM(A1:A9) & more"},
		{"\\+1 is &lt;fine&gt;", "'+1 is <fine>"},
	}
	for i, e := range edited {
		fr, err := b.results.Get(b.ctx, a, ids[i], asgID)
		require.NoError(t, err)
		edit := result.Edit{ResultID: fr.ID, SubmissionID: ids[i], ResultFields: fr.ResultFields}
		edit.Feedback = e.saved
		_, err = b.results.Update(b.ctx, a, edit)
		require.NoError(t, err)
	}
	csvRows := readCSV(t, must(b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "csv"})).Body)
	xlsxRows := readXLSX(t, must(b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "xlsx", IncludeFeedback: true})).Body)
	for what, rows := range map[string][][]string{"csv": csvRows, "xlsx": xlsxRows} {
		col := slices.Index(rows[0], "Feedback")
		require.GreaterOrEqual(t, col, 0, what)
		for i, e := range edited {
			require.Equal(t, e.cell, strings.ReplaceAll(rows[i+1][col], "\r\n", "\n"), "%s: row %d", what, i+1)
		}
	}
}

func TestExportRefusals(t *testing.T) {
	b := setup(t)
	a, other := b.teacher(t), b.teacher(t)
	asgID := b.define(t, a, assignment.TypePrompt)
	mine := b.define(t, other, assignment.TypePrompt)
	ids := b.class(t, a, asgID)
	theirs := b.class(t, other, mine)

	_, err := b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "pdf"})
	require.Equal(t, apperr.Invalid, apperr.From(err).Code)
	require.Equal(t, export.MsgFormat, apperr.From(err).Message)

	// Another team's assignment, or a submission of another team's (or
	// nobody's) among the selected: not found, not dropped.
	for _, req := range []export.Request{
		{AssignmentID: asgID, Format: "csv", SubmissionIDs: []uuid.UUID{ids[0], theirs[0]}},
		{AssignmentID: asgID, Format: "xlsx", SubmissionIDs: []uuid.UUID{uuid.New()}},
		{AssignmentID: mine, Format: "csv"},
		{AssignmentID: uuid.New(), Format: "csv"},
	} {
		_, err := b.svc.Export(b.ctx, a, req)
		require.ErrorIs(t, err, apperr.ErrNotFound, "%+v", req)
	}
}

// The export lists the rows as the submissions table first shows them: by
// file name, numbers as numbers, whatever order they were uploaded in.
func TestExportRowsFollowTheTablesNameOrder(t *testing.T) {
	b := setup(t)
	a := b.teacher(t)
	asgID := b.define(t, a, assignment.TypePrompt)
	ids := b.class(t, a, asgID)
	for i, name := range []string{"pupil 10.txt", "Pupil 2.txt", "pupil 0.txt", "anna.txt"} {
		_, err := b.pool.Exec(b.ctx, `UPDATE submissions SET name = $1 WHERE id = $2`, name, ids[i])
		require.NoError(t, err)
	}
	rows := readCSV(t, must(b.svc.Export(b.ctx, a, export.Request{AssignmentID: asgID, Format: "csv"})).Body)
	col := slices.Index(rows[0], "File")
	require.GreaterOrEqual(t, col, 0)
	var files []string
	for _, r := range rows[1:] {
		files = append(files, r[col])
	}
	require.Equal(t, []string{"anna.txt", "pupil 0.txt", "Pupil 2.txt", "pupil 10.txt"}, files)
}
