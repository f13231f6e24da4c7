package report_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	pngenc "image/png"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/report"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// needTools skips a test on a machine without LibreOffice or poppler.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"soffice", "pdftotext", "pdffonts", "pdfinfo", "pdfunite"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
}

type bundle struct {
	ctx    context.Context
	pool   *pgxpool.Pool
	insert *queue.Client
	asgs   *assignment.Service
	subs   *submission.Service
	blobs  blob.Blob
	svc    *report.Service
}

func setup(t testing.TB) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	insert, err := queue.NewInsertClient(pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	blobs, _, err := blob.New(context.Background(), blob.Config{
		Dir: t.TempDir(), PublicURL: "http://files.test", Secret: bytes.Repeat([]byte("k"), 32), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	return &bundle{ctx: context.Background(), pool: pool, insert: insert,
		asgs: &assignment.Service{Pool: pool}, subs: &submission.Service{Pool: pool, Jobs: insert}, blobs: blobs,
		svc: &report.Service{Pool: pool, Blob: blobs, TTL: time.Minute, Jobs: insert}}
}

func (b *bundle) teacher(t testing.TB) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

func (b *bundle) define(t testing.TB, a identity.Actor, name, typ string, in assignment.FunctionInput) uuid.UUID {
	t.Helper()
	asg, err := b.asgs.Create(b.ctx, a, assignment.Input{Name: name, Type: typ})
	require.NoError(t, err)
	_, err = b.asgs.PutFunction(b.ctx, a, asg.ID, in)
	require.NoError(t, err)
	return asg.ID
}

// submit adds one submission per student name with its text.
func (b *bundle) submit(t testing.TB, a identity.Actor, asgID uuid.UUID, students []string, text func(i int) string) []uuid.UUID {
	t.Helper()
	asg, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asgID, TeamID: a.TeamID})
	require.NoError(t, err)
	subs := make([]submission.NewSubmission, len(students))
	for i, s := range students {
		subs[i] = submission.NewSubmission{Name: "work-" + strconv.Itoa(i) + ".txt", StudentName: s, Source: submission.SourceCSV, Text: text(i)}
	}
	var ids []uuid.UUID
	require.NoError(t, store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		created, _, err := b.subs.CreateTx(b.ctx, tx, a.TeamID, asg, subs)
		for _, s := range created {
			ids = append(ids, s.ID)
		}
		return err
	}))
	return ids
}

// review stores a reviewed result's fields as the review screen would.
func (b *bundle) review(t testing.TB, sub uuid.UUID, set string, args ...any) {
	t.Helper()
	tag, err := b.pool.Exec(b.ctx, `UPDATE function_results SET status = 'reviewed', `+set+` WHERE submission_id = $1`,
		append([]any{sub}, args...)...)
	require.NoError(t, err)
	require.EqualValues(t, 1, tag.RowsAffected())
}

// text is pdftotext's reading of a PDF, without the direction marks it
// adds around right-to-left runs.
func text(t *testing.T, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "r.pdf")
	require.NoError(t, os.WriteFile(f, pdf, 0o600))
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", f, "-").Output()
	require.NoError(t, err)
	plain := strings.NewReplacer("\u202a", "", "\u202b", "", "\u202c", "", "\u200e", "", "\u200f", "").Replace(string(out))
	return strings.Join(strings.Fields(plain), " ") // lines wrap where the layout says
}

// compact is s without spaces: pdftotext reads "2 / 2" in a narrow table
// cell as "2/2".
func compact(s string) string { return strings.ReplaceAll(s, " ", "") }

func fonts(t *testing.T, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "r.pdf")
	require.NoError(t, os.WriteFile(f, pdf, 0o600))
	out, err := exec.Command("pdffonts", f).Output()
	require.NoError(t, err)
	return string(out)
}

func pages(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", path).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindStringSubmatch(string(out))
	require.NotNil(t, m, string(out))
	n, _ := strconv.Atoi(m[1])
	return n
}

func gradeInput() assignment.FunctionInput {
	return assignment.FunctionInput{Questions: []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}, Subquestions: []assignment.Question{
			{QuestionText: "Where does it happen?", Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}}},
		}},
		{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 1},
		}},
	}}
}

// gradeAnswers ticks 1.1, 1.1.1 and 2.1, with an adjustment of +1 on
// question 2 and feedback in Cyrillic and Arabic: 2 + 1 + 2 + 1 = 6 of 9.
const gradeAnswers = `[
 {"grade": {"criteria": [true, false], "gradeAdjustment": 0, "feedback": "Хорошо, но упомяните глюкозу."},
  "subanswers": [{"grade": {"criteria": [true], "gradeAdjustment": 0, "feedback": ""}, "subanswers": []}]},
 {"grade": {"criteria": [true, false], "gradeAdjustment": 1, "feedback": "عمل جيد جدا"}, "subanswers": []}
]`

func TestGradeReport(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	asg := b.define(t, ada, "Biology <test> & quiz", assignment.TypeGrade, gradeInput())
	subs := b.submit(t, ada, asg, []string{"Ярослава Ковальчук"}, func(int) string {
		return "Chlorophyll traps light.\n光合作用发生在叶绿体中。\nWater evaporates <script>alert(1)</script>."
	})
	b.review(t, subs[0], `answers = $2::jsonb, feedback = $3`, gradeAnswers, "Overall: молодец! Keep going.")

	pdf, name, err := b.svc.Student(b.ctx, ada, asg, subs[0])
	require.NoError(t, err)
	require.Equal(t, "Ярослава Ковальчук.pdf", name)
	got := text(t, pdf)
	for _, want := range []string{
		"Biology <test> & quiz", "Ярослава Ковальчук",
		"Names chlorophyll pigment", "Mentions glucose sugar", "Chloroplasts in leaf cells",
		"Evaporation from oceans", "Condensation forms clouds",
		"✓", "✗", "Adjustment: +1", "Points: 3 / 3", "Points: 2 / 5",
		"Total: 6 / 9 (66.7%)",
		// labelled as the answer boxes and the export label them
		"Question 1. Explain photosynthesis.", "Question 1a. Where does it happen?", "Question 2. Describe the water cycle.",
		"Хорошо, но упомяните глюкозу.", "عمل جيد جدا", "молодец",
		"光合作用发生在叶绿体中。", "<script>alert(1)</script>",
	} {
		require.Contains(t, got, want)
	}
	for _, want := range []string{"2/2", "0/3", "1/1", "0/1"} {
		require.Contains(t, compact(got), want)
	}
	f := fonts(t, pdf)
	require.NotContains(t, f, " no ", "every font is embedded:\n"+f)
	require.Contains(t, f, "NotoSans")
	require.Contains(t, f, "Arabic")
	require.Contains(t, f, "CJK")

	// Another team's teacher finds nothing.
	bea := b.teacher(t)
	_, _, err = b.svc.Student(b.ctx, bea, asg, subs[0])
	require.ErrorIs(t, err, apperr.ErrNotFound)
}

func TestRubricAndFeedbackReports(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	r, err := (&rubric.Service{Pool: b.pool}).Create(b.ctx, ada, rubric.Input{Name: "Essay", Criteria: []rubric.Criterion{
		{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
		{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong evidence", "Some evidence", "No evidence"}},
	}})
	require.NoError(t, err)
	rf := b.define(t, ada, "Essay", assignment.TypeRubricFeedback, assignment.FunctionInput{RubricID: r.ID.String()})
	subs := b.submit(t, ada, rf, []string{"Sam"}, func(int) string { return "Rivers shape valleys. They carve rock." })
	b.review(t, subs[0], `criteria_levels = '[0, 1]', criteria_points = '[3, 2]', criteria_feedback = $2::jsonb,
		overall_comments = 'A fine essay overall.', highlighted_text = $3`,
		`["The thesis is clear.", "Cite a source."]`,
		`<criterion1 comment="Strong opening &amp; clear">Rivers shape valleys.</criterion1> They carve rock.`)
	pdf, _, err := b.svc.Student(b.ctx, ada, rf, subs[0])
	require.NoError(t, err)
	got := text(t, pdf)
	for _, want := range []string{"Thesis", "Clear and arguable", "Evidence", "Some evidence", "Cite a source.",
		"The thesis is clear.", "A fine essay overall.", "Total: 5 / 6", "Rivers shape valleys.", "Strong opening & clear"} {
		require.Contains(t, got, want)
	}

	fb := b.define(t, ada, "Letter", assignment.TypeFeedback, assignment.FunctionInput{Highlights: []assignment.Highlighter{
		{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar mistakes."}}, Context: "A letter."})
	subs = b.submit(t, ada, fb, []string{"Kim"}, func(int) string { return "He went to there house." })
	b.review(t, subs[0], `feedback = 'Nice letter.', highlighted_text = $2`,
		`He went to <grammar comment="Use &quot;their&quot; here">there</grammar> house.`)
	pdf, _, err = b.svc.Student(b.ctx, ada, fb, subs[0])
	require.NoError(t, err)
	got = text(t, pdf)
	for _, want := range []string{"Letter", "Kim", "Nice letter.", "He went to there", "Grammar:", `Use "their" here`} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "This report prints the comments")

	// A result saved with 25,000 highlights (LibreOffice took over a minute
	// on their footnotes) prints the first 300 and says where the rest are.
	var many, plain strings.Builder
	for i := range 25_000 {
		many.WriteString(`<grammar comment="Note ` + strconv.Itoa(i) + `">ab</grammar> `)
		plain.WriteString("ab ")
	}
	subs = b.submit(t, ada, fb, []string{"Max"}, func(int) string { return plain.String() })
	b.review(t, subs[0], `highlighted_text = $2`, many.String())
	pdf, _, err = b.svc.Student(b.ctx, ada, fb, subs[0])
	require.NoError(t, err)
	got = text(t, pdf)
	require.Contains(t, got, "This report prints the comments on the first 300 highlighted passages only: "+
		"read the comments on the other 24700 in Markwell.")
	require.Contains(t, got, "Grammar: Note 299")
	require.NotContains(t, got, "Note 300")

	pr := b.define(t, ada, "Reflection", assignment.TypePrompt, assignment.FunctionInput{Prompt: "Be kind."})
	subs = b.submit(t, ada, pr, []string{"Lee"}, func(int) string { return "I learnt a lot." })
	b.review(t, subs[0], `feedback = $2`, "## Strengths\n- **Clear** reflection\n- Honest")
	pdf, _, err = b.svc.Student(b.ctx, ada, pr, subs[0])
	require.NoError(t, err)
	got = text(t, pdf)
	for _, want := range []string{"Reflection", "Lee", "Feedback", "Strengths", "• Clear reflection", "• Honest", "I learnt a lot."} {
		require.Contains(t, got, want)
	}
	require.NotContains(t, got, "**")
}

// TestPromptReportShowsWhatTheTeacherTyped prints a prompt result whose
// feedback the teacher edited: the editor saves Markdown source, with "&"
// and "<" as entity references and a blank line typed as four newlines. The
// PDF's text, read back by the extractor Markwell reads uploads with, is what
// the teacher typed, and the blank lines are one paragraph break.
func TestPromptReportShowsWhatTheTeacherTyped(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	pr := b.define(t, ada, "Reflection", assignment.TypePrompt, assignment.FunctionInput{Prompt: "Be kind."})
	subs := b.submit(t, ada, pr, []string{"Amara"}, func(int) string { return "Why did Rome build roads?" })
	b.review(t, subs[0], `feedback = $2`, "Amara, your opening question frames the essay well.\n\n\n\n"+
		"Next step: add a second example &amp; explain it. &lt;script&gt;x&lt;/script&gt;\n\n"+
		"- Compare &quot;both&quot; &lt;notes&gt;, it&#39;s \\*not\\* bold  \nsecond line")
	pdf, _, err := b.svc.Student(b.ctx, ada, pr, subs[0])
	require.NoError(t, err)
	res, err := extract.New(extract.Options{}).ExtractBytes(b.ctx, pdf, "report.pdf", "application/pdf")
	require.NoError(t, err)
	got := strings.Join(strings.Fields(res.Text), " ")
	for _, want := range []string{
		"Amara, your opening question frames the essay well. Next step: add a second example & explain it. <script>x</script>",
		`• Compare "both" <notes>, it's *not* bold second line`,
	} {
		require.Contains(t, got, want)
	}
	for _, never := range []string{"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", `\*`} {
		require.NotContains(t, got, never)
	}
	// One paragraph break: no empty lines printed between the paragraphs
	// (pdftotext reads the gap of three empty paragraphs as a new block).
	require.Contains(t, res.Text, "well.\nNext step")
}

func TestBuildReportsJob(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	asg := b.define(t, ada, "Quiz", assignment.TypeGrade, gradeInput())
	names := make([]string, 12)
	for i := range names {
		names[i] = "Student " + strconv.Itoa(i+1)
	}
	names[11] = "Student 1" // a name twice: the ZIP keeps both
	subs := b.submit(t, ada, asg, names, func(i int) string { return "Answer of student " + strconv.Itoa(i+1) })
	for _, s := range subs {
		b.review(t, s, `answers = $2::jsonb`, gradeAnswers)
	}

	run, err := b.svc.Start(b.ctx, ada, asg, nil)
	require.NoError(t, err)
	require.Equal(t, "queued", run.Status)
	require.Equal(t, 12, run.Total)
	_, err = b.svc.Start(b.ctx, ada, asg, nil)
	require.Equal(t, apperr.Conflict, apperr.From(err).Code, "one run at a time")
	bea := b.teacher(t)
	_, err = b.svc.Start(b.ctx, bea, asg, nil)
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = b.svc.Get(b.ctx, bea, asg)
	require.ErrorIs(t, err, apperr.ErrNotFound)

	work := func(id uuid.UUID) {
		worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{},
			jobs.NewBuildReportsWorker(jobs.Deps{Pool: b.pool, Blob: b.blobs}))
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		defer tx.Rollback(b.ctx) //nolint:errcheck
		start := time.Now()
		res, err := worker.Work(b.ctx, t, tx, queue.BuildReportsArgs{ReportID: id, TeamID: ada.TeamID}, nil)
		require.NoError(t, err)
		require.Equal(t, river.EventKindJobCompleted, res.EventKind)
		require.NoError(t, tx.Commit(b.ctx))
		t.Logf("%d reports built in %s", len(subs), time.Since(start).Round(time.Millisecond))
	}
	work(run.ID)

	got, err := b.svc.Get(b.ctx, ada, asg)
	require.NoError(t, err)
	require.Equal(t, "done", got.Status)
	require.Equal(t, 12, got.Done)
	require.Equal(t, 12, got.Total)
	require.NotEmpty(t, got.ZipURL)
	require.NotEmpty(t, got.PdfURL)

	row, err := store.Q.GetReport(b.ctx, b.pool, store.GetReportParams{ID: run.ID, TeamID: ada.TeamID})
	require.NoError(t, err)
	dir := t.TempDir()
	read := func(key string) []byte {
		rc, err := b.blobs.Get(b.ctx, key)
		require.NoError(t, err)
		defer rc.Close()
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		return data
	}
	zipData := read(row.ZipKey)
	zr, err := zip.NewReader(bytes.NewReader(zipData), int64(len(zipData)))
	require.NoError(t, err)
	require.Len(t, zr.File, 12)
	sum := 0
	seen := map[string]bool{}
	for i, f := range zr.File {
		seen[f.Name] = true
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		p := filepath.Join(dir, strconv.Itoa(i)+".pdf")
		require.NoError(t, os.WriteFile(p, data, 0o600))
		sum += pages(t, p)
	}
	require.True(t, seen["Student 1.pdf"] && seen["Student 1 (2).pdf"] && seen["Student 11.pdf"], "%v", seen)
	combined := filepath.Join(dir, "all.pdf")
	require.NoError(t, os.WriteFile(combined, read(row.PdfKey), 0o600))
	require.Equal(t, sum, pages(t, combined), "the combined PDF is every report's pages")
	require.Contains(t, text(t, read(row.PdfKey)), "Answer of student 12")

	// A second run of two chosen students replaces the first: the first
	// run's files are queued for deletion once the second is done.
	run2, err := b.svc.Start(b.ctx, ada, asg, subs[:2])
	require.NoError(t, err)
	require.Equal(t, 2, run2.Total)
	work(run2.ID)
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT count(*) FROM river_job WHERE kind = 'delete_blobs' AND args->'prefixes' ? $1`,
		"assignments/"+asg.String()+"/reports/"+run.ID.String()+"/").Scan(&n))
	require.Equal(t, 1, n)
	old, err := store.Q.GetReport(b.ctx, b.pool, store.GetReportParams{ID: run.ID, TeamID: ada.TeamID})
	require.NoError(t, err)
	require.Empty(t, old.ZipKey)

	// A run of submissions that are not the assignment's is not found.
	_, err = b.svc.Start(b.ctx, ada, asg, []uuid.UUID{uuid.New()})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_ = json.Valid
}

// TestHandwrittenAnswersShowTheirCrops embeds an answer's cropped picture
// from the blob store, and leaves out a key outside the assignment's crops.
func TestHandwrittenAnswersShowTheirCrops(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	asg := b.define(t, ada, "Handwritten quiz", assignment.TypeGrade, gradeInput())
	_, err := b.pool.Exec(b.ctx, `UPDATE assignments SET is_hand_written = true WHERE id = $1`, asg)
	require.NoError(t, err)
	subs := b.submit(t, ada, asg, []string{"Hana"}, func(int) string { return "transcribed text" })
	img := image.NewRGBA(image.Rect(0, 0, 120, 40))
	for x := range 120 {
		img.Set(x, 20, color.Black)
	}
	var png bytes.Buffer
	require.NoError(t, pngenc.Encode(&png, img))
	crop := "assignments/" + asg.String() + "/submissions/crops/" + subs[0].String() + "-q1.png"
	other := "assignments/" + uuid.NewString() + "/submissions/crops/x.png"
	for _, k := range []string{crop, other} {
		require.NoError(t, b.blobs.Put(b.ctx, k, bytes.NewReader(png.Bytes()), int64(png.Len()), "image/png"))
	}
	answers := `[{"grade": {"criteria": [true, true]}, "answerMedia": ["` + crop + `", "` + other + `"], "subanswers": [{"grade": {"criteria": [false]}}]},
		{"grade": {"criteria": [false, false]}}]`
	b.review(t, subs[0], `answers = $2::jsonb`, answers)
	pdf, _, err := b.svc.Student(b.ctx, ada, asg, subs[0])
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "r.pdf")
	require.NoError(t, os.WriteFile(f, pdf, 0o600))
	out, err := exec.Command("pdfimages", "-list", f).Output()
	require.NoError(t, err)
	require.Len(t, regexp.MustCompile(`(?m)^\s*\d+\s+\d+\s+image\s`).FindAllString(string(out), -1), 1, "one picture (its transparency is an smask):\n%s", out)
	require.Contains(t, text(t, pdf), "Total: 5 / 9")
}

// TestBuildFailsWithASentence marks a run failed, for the teacher to read,
// when the worker has no LibreOffice; a run left running by a dead worker
// starts again from 0 and finishes.
func TestBuildFailsWithASentence(t *testing.T) {
	needTools(t)
	b := setup(t)
	ada := b.teacher(t)
	asg := b.define(t, ada, "Quiz", assignment.TypeGrade, gradeInput())
	b.submit(t, ada, asg, []string{"Ana", "Ben"}, func(i int) string { return "work" })
	run, err := b.svc.Start(b.ctx, ada, asg, nil)
	require.NoError(t, err)

	work := func(soffice string) *rivertest.WorkResult {
		worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{},
			jobs.NewBuildReportsWorker(jobs.Deps{Pool: b.pool, Blob: b.blobs, ReadOptions: extract.Options{SofficePath: soffice}}))
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		defer tx.Rollback(b.ctx) //nolint:errcheck
		res, _ := worker.Work(b.ctx, t, tx, queue.BuildReportsArgs{ReportID: run.ID, TeamID: ada.TeamID}, nil)
		require.NoError(t, tx.Commit(b.ctx))
		return res
	}
	// A worker died mid-way: the row is running with some done.
	_, err = b.pool.Exec(b.ctx, `UPDATE reports SET status = 'running', done = 1 WHERE id = $1`, run.ID)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, work("").EventKind)
	got, err := b.svc.Get(b.ctx, ada, asg)
	require.NoError(t, err)
	require.Equal(t, "done", got.Status)
	require.Equal(t, 2, got.Done)

	run, err = b.svc.Start(b.ctx, ada, asg, nil)
	require.NoError(t, err)
	res := work(filepath.Join(t.TempDir(), "no-soffice"))
	require.Equal(t, river.EventKindJobCancelled, res.EventKind)
	got, err = b.svc.Get(b.ctx, ada, asg)
	require.NoError(t, err)
	require.Equal(t, "failed", got.Status)
	require.Equal(t, report.MsgNoOffice, got.Error)
	require.Empty(t, got.ZipURL)
	// The next run may start.
	run, err = b.svc.Start(b.ctx, ada, asg, nil)
	require.NoError(t, err)

	// A run whose job died for good stops blocking the next one once it
	// has not moved for report.StaleAfter.
	_, err = b.pool.Exec(b.ctx, `UPDATE reports SET status = 'running', updated_at = now() - interval '3 hours' WHERE id = $1`, run.ID)
	require.NoError(t, err)
	got, err = b.svc.Get(b.ctx, ada, asg)
	require.NoError(t, err)
	require.Equal(t, "failed", got.Status)
	require.Equal(t, report.MsgStale, got.Error)
	_, err = b.svc.Start(b.ctx, ada, asg, nil)
	require.NoError(t, err)
}

// BenchmarkBuildReports builds the reports of a class of REPORT_BENCH_CLASS
// students (30 unless set) once per iteration: go test ./internal/report/
// -run '^$' -bench BuildReports -benchtime 1x.
func BenchmarkBuildReports(b *testing.B) {
	if _, err := exec.LookPath("soffice"); err != nil {
		b.Skip("LibreOffice is not installed")
	}
	size := 30
	if v, err := strconv.Atoi(os.Getenv("REPORT_BENCH_CLASS")); err == nil && v > 0 {
		size = v
	}
	bb := setup(b)
	ada := bb.teacher(b)
	asg := bb.define(b, ada, "Quiz", assignment.TypeGrade, gradeInput())
	names := make([]string, size)
	for i := range names {
		names[i] = "Student " + strconv.Itoa(i+1)
	}
	subs := bb.submit(b, ada, asg, names, func(i int) string { return "Answer of student " + strconv.Itoa(i+1) })
	for _, s := range subs {
		_, err := bb.pool.Exec(bb.ctx, `UPDATE function_results SET status = 'reviewed', answers = $2::jsonb WHERE submission_id = $1`, s, gradeAnswers)
		require.NoError(b, err)
	}
	b.ResetTimer()
	for range b.N {
		run, err := bb.svc.Start(bb.ctx, ada, asg, nil)
		require.NoError(b, err)
		require.NoError(b, bb.svc.Build(bb.ctx, ada.TeamID, run.ID, b.TempDir()))
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(size), "ms/report")
}

// A report is named and titled after its pupil when the name is known,
// else after the submission's whole file name: two pupils' printed.png and
// printed.webp are two reports that say which file each is, not
// "printed.pdf" and "printed (2).pdf" both titled "printed".
func TestReportsAreNamedAfterThePupilElseTheWholeFileName(t *testing.T) {
	b := setup(t)
	ada := b.teacher(t)
	asgID := b.define(t, ada, "Photosynthesis quiz", assignment.TypeGrade, gradeInput())
	asg, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asgID, TeamID: ada.TeamID})
	require.NoError(t, err)
	subs := []submission.NewSubmission{
		{Name: "printed.png", Source: submission.SourceCSV, Text: "Chlorophyll."},
		{Name: "printed.webp", Source: submission.SourceCSV, Text: "Chloroplasts."},
		{Name: "printed.png", StudentName: "Zoë Pupil", Source: submission.SourceCSV, Text: "Light."},
		{Name: "printed.png", Source: submission.SourceCSV, Text: "Glucose."},
	}
	require.NoError(t, store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		_, _, err := b.subs.CreateTx(b.ctx, tx, ada.TeamID, asg, subs)
		return err
	}))

	items, err := b.svc.Load(b.ctx, ada, asgID, nil)
	require.NoError(t, err)
	var files, titles []string
	for _, it := range items {
		files = append(files, it.FileName)
		titles = append(titles, it.Report.Student)
	}
	require.ElementsMatch(t, []string{"printed.png.pdf", "printed.webp.pdf", "Zoë Pupil.pdf", "printed.png (2).pdf"}, files)
	require.ElementsMatch(t, []string{"printed.png", "printed.webp", "Zoë Pupil", "printed.png"}, titles)
	for _, it := range items {
		require.Equal(t, it.Report.Student, strings.TrimSuffix(strings.TrimSuffix(it.FileName, " (2).pdf"), ".pdf"), "titled as it is named")
	}
}
