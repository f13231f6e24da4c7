package submission_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// gradeQuestions are the questions of the grade assignments below.
var gradeQuestions = []string{"What caused the First World War?", "Name one consequence of the war."}

// gradeAssignment creates a grade assignment of a's team with
// gradeQuestions (the second with a subquestion, which a CSV does not map).
func (b *bundle) gradeAssignment(t testing.TB, a identity.Actor) store.Assignment {
	t.Helper()
	asgs := &assignment.Service{Pool: b.pool}
	asg, err := asgs.Create(b.ctx, a, assignment.Input{Name: "WW1 quiz", Type: assignment.TypeGrade})
	require.NoError(t, err)
	_, err = asgs.PutFunction(b.ctx, a, asg.ID, assignment.FunctionInput{Questions: []assignment.Question{
		{QuestionText: gradeQuestions[0], Criteria: []assignment.Criterion{{Description: "Names a cause", Points: 2}}},
		{QuestionText: gradeQuestions[1], Subquestions: []assignment.Question{{QuestionText: "Explain it."}}},
	}})
	require.NoError(t, err)
	row, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	return row
}

// uploadAs uploads body to the assignment's submissions folder as a teacher
// of a's team, stored with contentType; it returns the file URL the
// browser would send.
func (b *bundle) uploadAs(t *testing.T, a identity.Actor, asgID uuid.UUID, name, contentType, body string) string {
	t.Helper()
	up, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{
		FileName: "assignments/" + asgID.String() + "/submissions/" + name, FileType: contentType, UserID: a.UserID,
	})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(b.ctx, up.Key, strings.NewReader(body), int64(len(body)), contentType))
	return up.FileURL
}

// googleForms is a Google Forms export as Sheets downloads it: a byte-order
// mark, CRLF line ends, a timestamp and score, an answer over two lines, an
// email cell that is not an address, and a blank row.
const googleForms = "\ufeffTimestamp,Email Address,Score,Name,What caused the war?,One consequence?\r\n" +
	"2024/03/01 9:14:02 AM GMT,Ann.Lee@School.test,,Ann Lee,\"Alliances, militarism\r\nand nationalism.\",The Treaty of Versailles.\r\n" +
	"2024/03/01 9:20:45 AM GMT,not an email,,Bo Chen,The assassination of Franz Ferdinand.,\r\n" +
	",,,,,\r\n" +
	"2024/03/01 9:31:10 AM GMT,cy@school.test,,Cy Diaz,\"He said \"\"war\"\" was inevitable.\",The League of Nations.\r\n"

func TestPreviewAndImportAGoogleFormsExport(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	loc := b.uploadAs(t, a, asg.ID, "responses.csv", "text/csv", googleForms)

	p, err := b.svc.PreviewCSV(b.ctx, a, asg.ID, loc)
	require.NoError(t, err)
	require.Equal(t, []string{"Timestamp", "Email Address", "Score", "Name", "What caused the war?", "One consequence?"}, p.Headers)
	require.Equal(t, 3, p.RowCount, "the blank row is not counted")
	require.Len(t, p.Rows, 3)
	require.Equal(t, "Alliances, militarism\nand nationalism.", p.Rows[0][4], "a quoted answer keeps its line break")
	require.Equal(t, ",", p.Delimiter)
	require.Equal(t, csvimport.Mapping{NameColumn: 3, EmailColumn: 1, Questions: []csvimport.QuestionColumn{
		{Question: 0, Column: 4}, {Question: 1, Column: 5},
	}}, p.Mapping)
	require.Equal(t, []submission.CSVQuestion{{Index: 0, Text: gradeQuestions[0]}, {Index: 1, Text: gradeQuestions[1]}}, p.Questions)
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{0, 0}, [2]int{s, r}, "a preview creates nothing")

	subs, results, err := b.svc.ImportCSV(b.ctx, a, submission.CSVInput{
		AssignmentID: asg.ID, SubmissionRole: "teacher", Type: "grade", Location: loc, Mapping: &p.Mapping,
	})
	require.NoError(t, err)
	require.Len(t, subs, 3)
	require.Len(t, results, 3)
	type seen struct{ Name, StudentName, StudentEmail, Source, Status, Role string }
	var got []seen
	for i, s := range subs {
		got = append(got, seen{s.Name, s.StudentName, s.StudentEmail, s.Source, s.Status, s.SubmissionRole})
		require.Equal(t, s.ID, results[i].Submission)
		require.Regexp(t, `^assignments/`+asg.ID.String()+`/submissions/[0-9a-f]{16}-responses\.csv$`, s.Location, "the CSV's key")
	}
	require.Equal(t, []seen{
		{"Ann Lee", "Ann Lee", "ann.lee@school.test", "csv", "ready", "teacher"},
		{"Bo Chen", "Bo Chen", "", "csv", "ready", "teacher"},
		{"Cy Diaz", "Cy Diaz", "cy@school.test", "csv", "ready", "teacher"},
	}, got)

	ann, err := b.svc.Get(b.ctx, a, subs[0].ID)
	require.NoError(t, err)
	require.Equal(t, "Question 1: What caused the First World War?\nAlliances, militarism\nand nationalism.\n\n"+
		"Question 2: Name one consequence of the war.\nThe Treaty of Versailles.", ann.Text)
	bo, err := b.svc.Get(b.ctx, a, subs[1].ID)
	require.NoError(t, err)
	require.Equal(t, "Question 1: What caused the First World War?\nThe assassination of Franz Ferdinand.\n\n"+
		"Question 2: Name one consequence of the war.\n(no answer)", bo.Text)
	cy, err := b.svc.Get(b.ctx, a, subs[2].ID)
	require.NoError(t, err)
	require.Contains(t, cy.Text, `He said "war" was inevitable.`)

	var answers []csvimport.Answer
	var raw []byte
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT csv_answers FROM submissions WHERE id = $1`, subs[0].ID).Scan(&raw))
	require.NoError(t, json.Unmarshal(raw, &answers))
	require.Equal(t, []csvimport.Answer{{Question: 0, Text: "Alliances, militarism\nand nationalism."}, {Question: 1, Text: "The Treaty of Versailles."}}, answers)

	// The assignment's table lists them in the file's order, and no job
	// reads a CSV row.
	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Equal(t, []string{"Ann Lee", "Bo Chen", "Cy Diaz"}, []string{listed[0].Name, listed[1].Name, listed[2].Name})
	require.Equal(t, "Question 1: What caused the First World War?\nAlliances, militarism\nand nationalism.\n\nQuestion 2: Name one consequence of the war.\nThe Treaty of Versailles.", listed[0].Preview)
	require.Equal(t, 0, b.count(t, `SELECT count(*) FROM river_job`))
	var fnIDs int
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT count(*) FROM function_results fr JOIN functions f ON f.id = fr.function_id
		WHERE fr.assignment_id = $1`, asg.ID).Scan(&fnIDs))
	require.Equal(t, 3, fnIDs, "each result is for the assignment's function")
}

func TestImportASemicolonFileWithTheSuggestedMapping(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	// Excel in a comma-decimal locale: semicolons; three answer columns for
	// an assignment of two questions, the third stays unmapped.
	body := "Student;E-mail;Q1;Q2;Q3\nAnn Lee;ann@school.test;\"Alliances; militarism\";Empires;UNMAPPED\nBo Chen;;\"Nationalism; empire\";Versailles;UNMAPPED\n"
	loc := b.uploadAs(t, a, asg.ID, "class.csv", "application/vnd.ms-excel", body)

	p, err := b.svc.PreviewCSV(b.ctx, a, asg.ID, loc)
	require.NoError(t, err)
	require.Equal(t, ";", p.Delimiter)
	require.Equal(t, []string{"Student", "E-mail", "Q1", "Q2", "Q3"}, p.Headers)
	require.Equal(t, csvimport.Mapping{NameColumn: 0, EmailColumn: 1, Questions: []csvimport.QuestionColumn{
		{Question: 0, Column: 2}, {Question: 1, Column: 3},
	}}, p.Mapping, "Q3 has no question to go to")

	// No mapping sent: the suggested one.
	subs, _, err := b.svc.ImportCSV(b.ctx, a, submission.CSVInput{AssignmentID: asg.ID, Location: loc})
	require.NoError(t, err)
	require.Len(t, subs, 2)
	bo, err := b.svc.Get(b.ctx, a, subs[1].ID)
	require.NoError(t, err)
	require.Equal(t, "Bo Chen", bo.StudentName)
	require.Equal(t, "Question 1: What caused the First World War?\nNationalism; empire\n\nQuestion 2: Name one consequence of the war.\nVersailles", bo.Text)
	require.NotContains(t, bo.Text, "UNMAPPED")
}

func TestFormulaCellsAreStoredAsWritten(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	body := "Name,Q1,Q2\n\"=HYPERLINK(\"\"http://x\"\")\",\"=HYPERLINK(\"\"http://x\"\")\",+1-2\n"
	loc := b.uploadAs(t, a, asg.ID, "formulas.csv", "text/csv", body)

	p, err := b.svc.PreviewCSV(b.ctx, a, asg.ID, loc)
	require.NoError(t, err)
	require.Equal(t, []string{`=HYPERLINK("http://x")`, `=HYPERLINK("http://x")`, "+1-2"}, p.Rows[0])
	subs, _, err := b.svc.ImportCSV(b.ctx, a, submission.CSVInput{AssignmentID: asg.ID, Location: loc, Mapping: &p.Mapping})
	require.NoError(t, err)
	got, err := b.svc.Get(b.ctx, a, subs[0].ID)
	require.NoError(t, err)
	require.Equal(t, `=HYPERLINK("http://x")`, got.Name, "never evaluated, never escaped in storage")
	require.Equal(t, `=HYPERLINK("http://x")`, got.StudentName)
	require.Equal(t, "Question 1: What caused the First World War?\n=HYPERLINK(\"http://x\")\n\nQuestion 2: Name one consequence of the war.\n+1-2", got.Text)
	var raw string
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT csv_answers->0->>'text' FROM submissions WHERE id = $1`, subs[0].ID).Scan(&raw))
	require.Equal(t, `=HYPERLINK("http://x")`, raw)
}

func TestCSVImportMessagesAndNothingCreatedOnError(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	good := "Name,Q1\nAnn,Yes\n"
	mapping := &csvimport.Mapping{NameColumn: 0, EmailColumn: -1, Questions: []csvimport.QuestionColumn{{Question: 0, Column: 1}}}

	feedback, err := (&assignment.Service{Pool: b.pool}).Create(b.ctx, a, assignment.Input{Name: "Essay", Type: assignment.TypeFeedback})
	require.NoError(t, err)
	undefined, err := (&assignment.Service{Pool: b.pool}).Create(b.ctx, a, assignment.Input{Name: "Not yet", Type: assignment.TypeGrade})
	require.NoError(t, err)
	other := b.gradeAssignment(t, a)
	bigBody := "Name,Q1\n" + strings.Repeat("Ann,"+strings.Repeat("x", 1000)+"\n", csvimport.MaxBytes/1000)

	cases := []struct {
		name string
		in   submission.CSVInput
		msg  string
	}{
		{"not a grade assignment", submission.CSVInput{AssignmentID: feedback.ID, Location: b.uploadAs(t, a, feedback.ID, "a.csv", "text/csv", good)},
			"This assignment type does not support CSV uploads"},
		{"no file", submission.CSVInput{AssignmentID: asg.ID, Location: "  "}, "No file uploaded."},
		{"a PDF", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "a.pdf", "application/pdf", good)},
			"Uploaded file is not a CSV file."},
		{"a workbook saved as csv", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "book.csv", "text/csv", "PK\x03\x04\x14\x00\x06\x00")},
			"Uploaded file is not a CSV file."},
		{"a quote never closed", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "q.csv", "text/csv", "Name,Q1\nAnn,Yes\nBo,\"No\nCy,Maybe\n")},
			"Error reading CSV file: line 3: a quoted cell is never closed, or has text after its closing quotation mark"},
		{"an empty file", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "e.csv", "text/csv", "\ufeff\r\n")},
			"Error reading CSV file: the file is empty"},
		{"too large", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "big.csv", "text/csv", bigBody)},
			"Error reading CSV file: the file is too large: the limit is 5 MB"},
		{"a row without a name", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "n.csv", "text/csv", "Name,Q1\nAnn,Yes\n ,No\n"), Mapping: mapping},
			`Error reading CSV file: line 3: no student name in column "Name"`},
		{"a mapping to a missing column", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "m.csv", "text/csv", good),
			Mapping: &csvimport.Mapping{NameColumn: 0, EmailColumn: -1, Questions: []csvimport.QuestionColumn{{Question: 0, Column: 7}}}},
			"Error reading CSV file: invalid column mapping: question 1: column 8 does not exist (the file has 2 columns)"},
		{"a question the assignment lacks", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, asg.ID, "x.csv", "text/csv", good),
			Mapping: &csvimport.Mapping{NameColumn: 0, EmailColumn: -1, Questions: []csvimport.QuestionColumn{{Question: 2, Column: 1}}}},
			"Error reading CSV file: invalid column mapping: question 3 does not exist (this assignment has 2 questions)"},
		{"an assignment without questions", submission.CSVInput{AssignmentID: undefined.ID, Location: b.uploadAs(t, a, undefined.ID, "u.csv", "text/csv", good), Mapping: mapping},
			"Error reading CSV file: invalid column mapping: this assignment has no questions yet; add them before importing answers"},
		{"a student role", submission.CSVInput{AssignmentID: asg.ID, SubmissionRole: "student", Location: b.uploadAs(t, a, asg.ID, "s.csv", "text/csv", good)},
			submission.MsgTeacherRole},
		{"another type", submission.CSVInput{AssignmentID: asg.ID, Type: "prompt", Location: b.uploadAs(t, a, asg.ID, "t.csv", "text/csv", good)},
			submission.MsgTypeMismatch},
		{"a file from elsewhere", submission.CSVInput{AssignmentID: asg.ID, Location: "https://evil.example/x.csv"},
			"x.csv is not a file uploaded to Markwell."},
		{"a file of another assignment", submission.CSVInput{AssignmentID: asg.ID, Location: b.uploadAs(t, a, other.ID, "o.csv", "text/csv", good)},
			"o.csv was uploaded to another assignment."},
		{"a file never uploaded", submission.CSVInput{AssignmentID: asg.ID, Location: b.issue(t, a, asg.ID, "late.csv").FileURL},
			"late.csv has not finished uploading. Please upload it again."},
	}
	for _, c := range cases {
		_, _, err := b.svc.ImportCSV(b.ctx, a, c.in)
		requireInvalid(t, err, c.msg)
		if c.in.SubmissionRole == "" && c.in.Mapping == nil && c.in.Type == "" {
			_, err = b.svc.PreviewCSV(b.ctx, a, c.in.AssignmentID, c.in.Location)
			requireInvalid(t, err, c.msg)
		}
	}
	for _, id := range []uuid.UUID{asg.ID, feedback.ID, undefined.ID, other.ID} {
		s, r := b.rows(t, id)
		require.Equal(t, [2]int{0, 0}, [2]int{s, r}, "nothing was created")
	}
}

func TestTheSameUploadIsImportedOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	body := "Name,Q1\nAnn,Yes\nBo,No\n"
	loc := b.uploadAs(t, a, asg.ID, "class.csv", "text/csv", body)

	// Two imports at once (a double click): one imports, the other is told.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = b.svc.ImportCSV(b.ctx, a, submission.CSVInput{AssignmentID: asg.ID, Location: loc})
		}()
	}
	wg.Wait()
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	require.Len(t, failed, 1, "%v", errs)
	requireInvalid(t, failed[0], "This CSV file has already been imported into this assignment.")
	s, _ := b.rows(t, asg.ID)
	require.Equal(t, 2, s)

	// The same file uploaded again is a new import: the teacher meant it.
	again := b.uploadAs(t, a, asg.ID, "class.csv", "text/csv", body)
	subs, _, err := b.svc.ImportCSV(b.ctx, a, submission.CSVInput{AssignmentID: asg.ID, Location: again})
	require.NoError(t, err)
	require.Len(t, subs, 2)
	s, _ = b.rows(t, asg.ID)
	require.Equal(t, 4, s)
}

func TestCSVOfAnotherTeamIsNotFound(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	ada, eve := b.teacher(t), b.teacher(t)
	adas := b.gradeAssignment(t, ada)
	eves := b.gradeAssignment(t, eve)
	loc := b.uploadAs(t, ada, adas.ID, "class.csv", "text/csv", "Name,Q1\nAnn,Yes\n")
	key := b.uploadAs(t, ada, adas.ID, "key.csv", "text/csv", "Name,Q1\nAnn,Yes\n")
	key = key[strings.Index(key, "assignments/"):]

	for _, in := range []submission.CSVInput{
		{AssignmentID: adas.ID, Location: loc},    // Ada's assignment
		{AssignmentID: eves.ID, Location: loc},    // Ada's file into Eve's own assignment
		{AssignmentID: eves.ID, Location: key},    // the same, by key
		{AssignmentID: uuid.New(), Location: loc}, // nobody's
	} {
		_, err := b.svc.PreviewCSV(b.ctx, eve, in.AssignmentID, in.Location)
		requireNotFound(t, err)
		_, _, err = b.svc.ImportCSV(b.ctx, eve, in)
		requireNotFound(t, err)
		require.Equal(t, apperr.ErrNotFound.Message, apperr.From(err).Message)
	}
	s, _ := b.rows(t, adas.ID)
	require.Zero(t, s)
	s, _ = b.rows(t, eves.ID)
	require.Zero(t, s)

	// Ada herself imports by key as well as by URL.
	subs, _, err := b.svc.ImportCSV(b.ctx, ada, submission.CSVInput{AssignmentID: adas.ID, Location: key})
	require.NoError(t, err)
	require.Len(t, subs, 1)
}
