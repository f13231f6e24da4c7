package submission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// requireResultsInOrder checks that results are one per submission, in the
// same order, each for fn, and that the assignment's results list in that
// order too (the order of the grading table).
func (b *bundle) requireResultsInOrder(t *testing.T, asg store.Assignment, fn uuid.UUID, subs []submission.Submission, results []assignment.FunctionResult) {
	t.Helper()
	require.Len(t, results, len(subs))
	for i, r := range results {
		if r.Submission != subs[i].ID || r.Status != "" {
			t.Fatalf("result %d is for submission %s with status %q, want an empty result for %s", i, r.Submission, r.Status, subs[i].ID)
		}
	}
	require.Equal(t, len(subs), b.count(t, `SELECT count(DISTINCT fr.submission_id) FROM function_results fr
		JOIN submissions s ON s.id = fr.submission_id AND s.assignment_id = fr.assignment_id
		WHERE fr.assignment_id = $1 AND fr.function_id = $2`, asg.ID, fn), "one result per submission, for the assignment's function")
	listed, err := store.Q.ListAssignmentFunctionResults(b.ctx, b.pool, store.ListAssignmentFunctionResultsParams{AssignmentID: asg.ID, TeamID: asg.TeamID})
	require.NoError(t, err)
	require.Len(t, listed, len(subs))
	for i, r := range listed {
		if r.SubmissionID != subs[i].ID {
			t.Fatalf("result %d lists for submission %s, want %s: results list in the order sent", i, r.SubmissionID, subs[i].ID)
		}
	}
}

// extractJobs are the submission ids named by the extract_text jobs in the
// database, and how many jobs of any kind it holds.
func (b *bundle) extractJobs(t *testing.T) (ids []uuid.UUID, all int) {
	t.Helper()
	rows, err := b.pool.Query(b.ctx, `SELECT args FROM river_job WHERE kind = 'extract_text' ORDER BY id`)
	require.NoError(t, err)
	raws, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	require.NoError(t, err)
	for _, raw := range raws {
		var args queue.ExtractTextArgs
		require.NoError(t, json.Unmarshal(raw, &args))
		ids = append(ids, args.SubmissionID)
	}
	return ids, b.count(t, `SELECT count(*) FROM river_job`)
}

func TestImportOfTenThousandCSVRowsCreatesEachRowAndResultAndNoJob(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.gradeAssignment(t, a)
	fn, err := store.Q.GetAssignmentFunction(b.ctx, b.pool, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	var body strings.Builder
	body.WriteString("Name,Email,Answer 1,Answer 2\n")
	for i := range csvimport.MaxRows {
		email := fmt.Sprintf("S%d@School.test", i)
		if i%1000 == 7 {
			email = "no address" // not an email: imported without one
		}
		fmt.Fprintf(&body, "Student %05d,%s,Answer %d to one,Answer %d to two\n", i, email, i, i)
	}
	loc := b.uploadAs(t, a, asg.ID, "big.csv", "text/csv", body.String())
	key := loc[strings.Index(loc, "assignments/"):]
	mapping := csvimport.Mapping{NameColumn: 0, EmailColumn: 1, Questions: []csvimport.QuestionColumn{{Question: 0, Column: 2}, {Question: 1, Column: 3}}}

	subs, results, err := b.svc.ImportCSV(b.ctx, a, submission.CSVInput{AssignmentID: asg.ID, Location: loc, Mapping: &mapping})
	require.NoError(t, err)
	require.Len(t, subs, csvimport.MaxRows)
	for i, s := range subs {
		wantEmail := fmt.Sprintf("s%d@school.test", i)
		if i%1000 == 7 {
			wantEmail = ""
		}
		if s.Name != fmt.Sprintf("Student %05d", i) || s.StudentName != s.Name || s.StudentEmail != wantEmail ||
			s.Status != "ready" || s.Source != "csv" || s.SubmissionRole != "teacher" || s.Location != key ||
			!strings.HasPrefix(s.Preview, "Question 1: What caused the First World War?\nAnswer "+fmt.Sprint(i)+" to one") {
			t.Fatalf("row %d came back as %+v", i, s)
		}
	}
	b.requireResultsInOrder(t, asg, fn.ID, subs, results)
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{csvimport.MaxRows, csvimport.MaxRows}, [2]int{s, r}, "no row or result more or less than the file's")
	require.Equal(t, csvimport.MaxRows, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1
		AND extract_status = 'ready' AND extracted_at IS NOT NULL AND extracted_text LIKE 'Question 1: %'
		AND jsonb_array_length(csv_answers) = 2 AND file_key = $2 AND content_type = 'text/csv'`, asg.ID, key))
	ids, all := b.extractJobs(t)
	require.Empty(t, ids, "a CSV row has its text: nothing to extract")
	require.Zero(t, all, "no job of any kind")

	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Len(t, listed, csvimport.MaxRows)
	for i, l := range listed {
		if l.ID != subs[i].ID {
			t.Fatalf("row %d is listed as %q, want %q: the file's order is kept", i, l.Name, subs[i].Name)
		}
	}
	last, err := b.svc.Get(b.ctx, a, subs[len(subs)-1].ID)
	require.NoError(t, err)
	require.Equal(t, "s9999@school.test", last.StudentEmail)
	require.Contains(t, last.Text, "Answer 9999 to two")
}

func TestUploadOfTwoHundredFilesCreatesEachRowResultAndJob(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	fn, err := store.Q.GetAssignmentFunction(b.ctx, b.pool, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	in := submission.UpdateInput{AssignmentID: asg.ID, SubmissionRole: "teacher", Type: "prompt", IsHandWritten: true,
		Readers: submission.Readers{RequiresPDFRead: make([]bool, submission.MaxPerUpload)}}
	for i := range submission.MaxPerUpload {
		name := fmt.Sprintf("essay %03d.pdf", i)
		in.Submissions = append(in.Submissions, submission.Upload{Name: name, Location: b.upload(t, a, asg.ID, name, "%PDF").Key})
		in.RequiresPDFRead[i] = i%2 == 0
	}

	subs, results, err := b.svc.UpdateSubmissions(b.ctx, a, in)
	require.NoError(t, err)
	require.Len(t, subs, submission.MaxPerUpload)
	for i, s := range subs {
		if s.Name != in.Submissions[i].Name || s.Location != in.Submissions[i].Location || s.Status != "queued" ||
			s.Source != "upload" || s.SubmissionRole != "teacher" || !s.IsHandWritten || s.Preview != "" {
			t.Fatalf("file %d came back as %+v", i, s)
		}
	}
	b.requireResultsInOrder(t, asg, fn.ID, subs, results)
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{submission.MaxPerUpload, submission.MaxPerUpload}, [2]int{s, r})

	// Each file has its own reader hint.
	rows, err := b.pool.Query(b.ctx, `SELECT id, reader_hint FROM submissions WHERE assignment_id = $1`, asg.ID)
	require.NoError(t, err)
	hints := map[uuid.UUID]string{}
	for rows.Next() {
		var id uuid.UUID
		var hint string
		require.NoError(t, rows.Scan(&id, &hint))
		hints[id] = hint
	}
	require.NoError(t, rows.Err())
	for i, s := range subs {
		want := ""
		if i%2 == 0 {
			want = "pdf"
		}
		require.Equal(t, want, hints[s.ID], "file %d", i)
	}

	// Exactly one extraction job per file, and no other job.
	ids, all := b.extractJobs(t)
	want := make([]uuid.UUID, len(subs))
	for i, s := range subs {
		want[i] = s.ID
	}
	require.ElementsMatch(t, want, ids)
	require.Equal(t, submission.MaxPerUpload, all)

	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Len(t, listed, len(subs))
	for i, l := range listed {
		require.Equal(t, subs[i].ID, l.ID, "listed in the order sent")
	}
}

func TestCreateTxSkipsImportedExternalIDsWithinABatch(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	fn, err := store.Q.GetAssignmentFunction(b.ctx, b.pool, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	create := func(subs ...submission.NewSubmission) ([]submission.Submission, []assignment.FunctionResult) {
		var out []submission.Submission
		var results []assignment.FunctionResult
		require.NoError(t, store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
			var err error
			out, results, err = b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, subs)
			return err
		}))
		return out, results
	}
	key := func(name string) string {
		return "assignments/" + asg.ID.String() + "/submissions/0123456789abcdef-" + name
	}
	before, _ := create(submission.NewSubmission{Name: "Imported", Source: submission.SourceGoogle, ExternalID: "s1/a1", Key: key("imported.pdf")})
	require.Len(t, before, 1)

	subs, results := create(
		submission.NewSubmission{Key: key("a.pdf"), Source: submission.SourceGoogle, ExternalID: "s2/a1", StudentName: "Ann"},
		submission.NewSubmission{Key: key("again.pdf"), Source: submission.SourceGoogle, ExternalID: "s1/a1"}, // imported before
		submission.NewSubmission{Name: "A typed answer", Source: submission.SourceCSV, Text: "My answer"},
		submission.NewSubmission{Key: key("twice.pdf"), Source: submission.SourceGoogle, ExternalID: "s2/a1"}, // earlier in the batch
		submission.NewSubmission{Key: key("c.pdf"), Source: submission.SourceGoogle, ExternalID: "s3/a1", StudentName: "Cy"},
	)
	require.Equal(t, []string{"a.pdf", "A typed answer", "c.pdf"}, []string{subs[0].Name, subs[1].Name, subs[2].Name})
	require.Len(t, subs, 3)
	require.Equal(t, []string{"queued", "ready", "queued"}, []string{subs[0].Status, subs[1].Status, subs[2].Status})
	require.Equal(t, "Ann", subs[0].StudentName)
	require.Equal(t, "Cy", subs[2].StudentName)
	b.requireResultsInOrder(t, asg, fn.ID, append(before, subs...), append([]assignment.FunctionResult{{Submission: before[0].ID}}, results...))

	// The files created are read, each once; the skipped ones are not.
	ids, all := b.extractJobs(t)
	require.ElementsMatch(t, []uuid.UUID{before[0].ID, subs[0].ID, subs[2].ID}, ids)
	require.Equal(t, 3, all)

	// A batch of nothing but imported ids creates nothing.
	subs, results = create(submission.NewSubmission{Key: key("again.pdf"), Source: submission.SourceGoogle, ExternalID: "s3/a1"})
	require.Empty(t, subs)
	require.Empty(t, results)
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{4, 4}, [2]int{s, r})
}

func TestCreateTxOfAnEmptyBatchCreatesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	tx, err := b.pool.Begin(b.ctx)
	require.NoError(t, err)
	defer tx.Rollback(b.ctx) //nolint:errcheck
	subs, results, err := b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, nil)
	require.NoError(t, err)
	require.NotNil(t, subs, "an empty list, not null, in JSON")
	require.NotNil(t, results)
	require.Empty(t, subs)
	require.Empty(t, results)
	rivertest.RequireNotInsertedTx[*riverpgxv5.Driver](b.ctx, t, tx, queue.ExtractTextArgs{}, nil)
}

// BenchmarkCreateTx creates batches of 1, 30 and 10,000 submissions in a
// transaction that is then rolled back: files (a row, a result and an
// extraction job each, as uploads, student links and Google Classroom
// create them) and CSV rows (a row and a result each). It reports rows/s.
func BenchmarkCreateTx(b *testing.B) {
	bb := setup(b, false)
	a := bb.teacher(b)
	asg := bb.assignment(b, a)
	for _, kind := range []string{"files", "csv"} {
		for _, n := range []int{1, 30, 10_000} {
			subs := make([]submission.NewSubmission, n)
			for i := range subs {
				if kind == "files" {
					subs[i] = submission.NewSubmission{
						Key:    fmt.Sprintf("assignments/%s/submissions/%016x-essay %05d.pdf", asg.ID, i, i),
						Source: submission.SourceUpload, ContentType: "application/pdf", ReaderHint: submission.ReaderPDF,
					}
				} else {
					subs[i] = submission.NewSubmission{
						Name: fmt.Sprintf("Student %05d", i), StudentName: fmt.Sprintf("Student %05d", i),
						StudentEmail: fmt.Sprintf("s%d@school.test", i), Source: submission.SourceCSV,
						Text:       fmt.Sprintf("Question 1: What caused the war?\nAnswer %d", i),
						CSVAnswers: json.RawMessage(fmt.Sprintf(`[{"question":0,"text":"Answer %d"}]`, i)),
					}
				}
			}
			b.Run(fmt.Sprintf("%s/rows=%d", kind, n), func(b *testing.B) {
				ctx := context.Background()
				for b.Loop() {
					b.StopTimer()
					tx, err := bb.pool.Begin(ctx)
					require.NoError(b, err)
					b.StartTimer()
					created, _, err := bb.svc.CreateTx(ctx, tx, a.TeamID, asg, subs)
					b.StopTimer()
					require.NoError(b, err)
					require.Len(b, created, n)
					require.NoError(b, tx.Rollback(ctx))
					b.StartTimer()
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
			})
		}
	}
}
