package submission_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	blobs *blob.Local
	files *files.Service
	svc   *submission.Service
}

// setup serves the package database (or, isolated, a database of the test's
// own, for assertions over every job in it), a local blob store and the
// service over both.
func setup(t testing.TB, isolated bool) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	if isolated {
		pool = testdb.Isolated(t)
	}
	blobs, err := blob.NewLocal(blob.Config{Dir: t.TempDir(), PublicURL: "http://markwell.test", Secret: bytes.Repeat([]byte("k"), 32)})
	require.NoError(t, err)
	client, err := queue.NewInsertClient(pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	fs := &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}
	return &bundle{ctx: context.Background(), pool: pool, blobs: blobs, files: fs,
		svc: &submission.Service{Pool: pool, Jobs: client, Files: fs}}
}

// teacher creates a teacher with a team of their own.
func (b *bundle) teacher(t testing.TB) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

// assignment creates a prompt assignment of a's team, defined.
func (b *bundle) assignment(t testing.TB, a identity.Actor) store.Assignment {
	t.Helper()
	asgs := &assignment.Service{Pool: b.pool}
	asg, err := asgs.Create(b.ctx, a, assignment.Input{Name: "Essay", Type: assignment.TypePrompt})
	require.NoError(t, err)
	_, err = asgs.PutFunction(b.ctx, a, asg.ID, assignment.FunctionInput{Prompt: "Be kind"})
	require.NoError(t, err)
	row, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	return row
}

// upload has a teacher of a's team upload body as name to the assignment's
// submissions folder, as the browser does: a signed key, then the bytes.
func (b *bundle) upload(t *testing.T, a identity.Actor, asgID uuid.UUID, name, body string) files.Upload {
	t.Helper()
	up := b.issue(t, a, asgID, name)
	require.NoError(t, b.blobs.Put(b.ctx, up.Key, strings.NewReader(body), int64(len(body)), "text/plain"))
	return up
}

// issue signs an upload without sending the file.
func (b *bundle) issue(t *testing.T, a identity.Actor, asgID uuid.UUID, name string) files.Upload {
	t.Helper()
	up, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{
		FileName: "assignments/" + asgID.String() + "/submissions/" + name, FileType: "text/plain", UserID: a.UserID,
	})
	require.NoError(t, err)
	return up
}

func (b *bundle) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, query, args...).Scan(&n))
	return n
}

// rows counts an assignment's submissions and function results.
func (b *bundle) rows(t *testing.T, asgID uuid.UUID) (subs, results int) {
	t.Helper()
	return b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asgID),
		b.count(t, `SELECT count(*) FROM function_results WHERE assignment_id = $1`, asgID)
}

func requireInvalid(t *testing.T, err error, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, apperr.Invalid, e.Code, err.Error())
	require.Equal(t, msg, e.Message)
}

func requireNotFound(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, apperr.NotFound, apperr.From(err).Code, err.Error())
}

func TestCreateTxWritesRowsResultsAndJobsInOneTransaction(t *testing.T) {
	t.Parallel()
	b := setup(t, true)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	fn, err := store.Q.GetAssignmentFunction(b.ctx, b.pool, store.GetAssignmentFunctionParams{AssignmentID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	keys := []string{
		b.upload(t, a, asg.ID, "one.txt", "one").Key,
		b.upload(t, a, asg.ID, "two.txt", "two").Key,
		b.upload(t, a, asg.ID, "three.txt", "three").Key,
	}

	tx, err := b.pool.Begin(b.ctx)
	require.NoError(t, err)
	defer tx.Rollback(b.ctx) //nolint:errcheck
	subs, results, err := b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, []submission.NewSubmission{
		{Key: keys[0], ContentType: "text/plain", Source: submission.SourceUpload, ReaderHint: submission.ReaderTextract},
		{Name: "  Two\u202e ", Key: keys[1], ContentType: "text/plain", Source: submission.SourceUpload},
		{Name: "Three", Key: keys[2], Source: submission.SourceUpload, Role: submission.RoleStudent,
			StudentName: "Sam", StudentEmail: "Sam@School.test", IsHandWritten: true},
		{Name: "Row 2", Source: submission.SourceCSV, Text: "An answer typed into a form"},
	})
	require.NoError(t, err)
	require.Len(t, subs, 4)
	require.Len(t, results, 4)

	require.Equal(t, "one.txt", subs[0].Name, "the file's name without its random prefix")
	require.Equal(t, "Two", subs[1].Name, "names are cleaned")
	require.Equal(t, "sam@school.test", subs[2].StudentEmail)
	require.Equal(t, "student", subs[2].SubmissionRole)
	require.True(t, subs[2].IsHandWritten)
	for i, s := range subs[:3] {
		require.Equal(t, "queued", s.Status)
		require.Equal(t, keys[i], s.Location)
		require.Equal(t, "upload", s.Source)
	}
	require.Equal(t, "ready", subs[3].Status, "a CSV row has its text already")
	require.Equal(t, "An answer typed into a form", subs[3].Preview)
	for i, r := range results {
		require.Equal(t, subs[i].ID, r.Submission)
		require.Equal(t, "", r.Status)
	}
	var fnIDs []uuid.UUID
	rows, err := tx.Query(b.ctx, `SELECT function_id FROM function_results WHERE assignment_id = $1`, asg.ID)
	require.NoError(t, err)
	fnIDs, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{fn.ID, fn.ID, fn.ID, fn.ID}, fnIDs, "each result is for the assignment's function")
	var hint string
	require.NoError(t, tx.QueryRow(b.ctx, `SELECT reader_hint FROM submissions WHERE id = $1`, subs[0].ID).Scan(&hint))
	require.Equal(t, "textract", hint)

	// One extraction job per file, none for the CSV row, in the same transaction.
	inserted := rivertest.RequireManyInsertedTx[*riverpgxv5.Driver](b.ctx, t, tx, []rivertest.ExpectedJob{
		{Args: queue.ExtractTextArgs{}, Opts: &rivertest.RequireInsertedOpts{Queue: queue.QueueExtract}},
		{Args: queue.ExtractTextArgs{}, Opts: &rivertest.RequireInsertedOpts{Queue: queue.QueueExtract}},
		{Args: queue.ExtractTextArgs{}, Opts: &rivertest.RequireInsertedOpts{Queue: queue.QueueExtract}},
	})
	for i, job := range inserted {
		var args queue.ExtractTextArgs
		require.NoError(t, json.Unmarshal(job.EncodedArgs, &args))
		require.Equal(t, subs[i].ID, args.SubmissionID)
	}
	// Nothing is visible outside the transaction until it commits.
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{0, 0}, [2]int{s, r})
	require.NoError(t, tx.Commit(b.ctx))
	s, r = b.rows(t, asg.ID)
	require.Equal(t, [2]int{4, 4}, [2]int{s, r})
	require.Equal(t, 3, b.count(t, `SELECT count(*) FROM river_job WHERE kind = 'extract_text'`))
}

func TestCreateTxFailingMidwayLeavesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	hash := []byte(uuid.NewString())
	var ids []string
	err := store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		subs, _, err := b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, []submission.NewSubmission{
			{Name: "one", Key: b.upload(t, a, asg.ID, "one.txt", "1").Key, Source: submission.SourceUpload, ViewTokenHash: hash},
			{Name: "two", Key: b.upload(t, a, asg.ID, "two.txt", "2").Key, Source: submission.SourceUpload},
			// The database refuses the third (a view token is unique) after
			// two rows and their results were written.
			{Name: "three", Key: b.upload(t, a, asg.ID, "three.txt", "3").Key, Source: submission.SourceUpload, ViewTokenHash: hash},
		})
		for _, s := range subs {
			ids = append(ids, s.ID.String())
		}
		return err
	})
	require.Error(t, err)
	require.Empty(t, ids)
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{0, 0}, [2]int{s, r})

	// A check failing on the last submission also leaves nothing.
	err = store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		_, _, err := b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, []submission.NewSubmission{
			{Name: "one", Key: b.upload(t, a, asg.ID, "four.txt", "4").Key, Source: submission.SourceUpload},
			{Name: "two", Source: submission.SourceStudent, StudentEmail: "not an email"},
		})
		return err
	})
	requireInvalid(t, err, submission.MsgEmail)
	s, r = b.rows(t, asg.ID)
	require.Equal(t, [2]int{0, 0}, [2]int{s, r})
	require.Equal(t, 0, b.count(t, `SELECT count(*) FROM river_job r JOIN submissions s ON r.args->>'submission_id' = s.id::text WHERE s.assignment_id = $1`, asg.ID))

	// Another team's assignment is not found.
	err = store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
		_, _, err := b.svc.CreateTx(b.ctx, tx, b.teacher(t).TeamID, asg, []submission.NewSubmission{{Name: "x", Source: submission.SourceCSV, Text: "x"}})
		return err
	})
	requireNotFound(t, err)
}

func TestCreateTxImportsAnExternalIDOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	create := func() []submission.Submission {
		var out []submission.Submission
		require.NoError(t, store.InTx(b.ctx, b.pool, func(tx pgx.Tx) error {
			var err error
			out, _, err = b.svc.CreateTx(b.ctx, tx, a.TeamID, asg, []submission.NewSubmission{
				{Name: "Essay", Source: submission.SourceGoogle, ExternalID: "sub-1/att-1", Text: "Imported"},
				{Name: "Essay 2", Source: submission.SourceGoogle, ExternalID: "sub-2/att-1", Text: "Imported"},
			})
			return err
		}))
		return out
	}
	require.Len(t, create(), 2)
	require.Empty(t, create(), "a second import creates nothing")
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{2, 2}, [2]int{s, r})
}

func TestUpdateSubmissionsTakesUploadedFiles(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	one := b.upload(t, a, asg.ID, "essay one.pdf", "%PDF-1.7")
	two := b.upload(t, a, asg.ID, "photo.png", "png")
	three := b.upload(t, a, asg.ID, "notes.docx", "docx")

	// Every key handed out is recorded: whose, for which assignment, by whom.
	issued := func(key string, teamID, asgID uuid.UUID) bool {
		ok, err := store.Q.FilesUploadIssued(b.ctx, b.pool, store.FilesUploadIssuedParams{Key: key, TeamID: teamID, AssignmentID: uuid.NullUUID{UUID: asgID, Valid: true}})
		require.NoError(t, err)
		return ok
	}
	require.True(t, issued(one.Key, a.TeamID, asg.ID))
	require.False(t, issued(one.Key, a.TeamID, uuid.New()), "not under another assignment")
	require.False(t, issued(one.Key, b.teacher(t).TeamID, asg.ID), "not to another team")
	chat, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{FileName: "notes.pdf", FileType: "application/pdf", UserID: a.UserID})
	require.NoError(t, err)
	recs, err := store.Q.FilesUploads(b.ctx, b.pool, []string{one.Key, chat.Key})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	for _, r := range recs {
		require.Equal(t, a.TeamID, r.TeamID)
		require.Equal(t, uuid.NullUUID{UUID: a.UserID, Valid: true}, r.UserID)
		require.False(t, r.ByStudent)
		require.Equal(t, r.Key == one.Key, r.AssignmentID.Valid, "only submission folders name an assignment")
	}

	subs, results, err := b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{
		AssignmentID: asg.ID, SubmissionRole: "teacher", Type: "prompt",
		Submissions: []submission.Upload{
			{Name: "essay one.pdf", Location: one.Key},              // the key
			{Name: "", Location: two.FileURL},                       // the file URL, no name
			{Name: "Notes", Location: three.FileURL + "?X-Sig=abc"}, // the signed URL itself
		},
		Readers: submission.Readers{
			RequiresPDFRead:   []bool{true, false, false},
			RequiresImageRead: []bool{false, true, false},
			RequiresTextract:  []bool{false, false, true},
		},
	})
	require.NoError(t, err)
	require.Len(t, subs, 3)
	require.Len(t, results, 3)
	require.Equal(t, []string{"essay one.pdf", "photo.png", "Notes"}, []string{subs[0].Name, subs[1].Name, subs[2].Name})
	require.Equal(t, []string{one.Key, two.Key, three.Key}, []string{subs[0].Location, subs[1].Location, subs[2].Location})

	var hints, types []string
	rows, err := b.pool.Query(b.ctx, `SELECT reader_hint, content_type FROM submissions WHERE assignment_id = $1 ORDER BY created_at, id`, asg.ID)
	require.NoError(t, err)
	for rows.Next() {
		var h, ct string
		require.NoError(t, rows.Scan(&h, &ct))
		hints, types = append(hints, h), append(types, ct)
	}
	require.NoError(t, rows.Err())
	require.ElementsMatch(t, []string{"pdf", "image", "textract"}, hints)
	require.Equal(t, []string{"text/plain", "text/plain", "text/plain"}, types, "the type the file was stored with")

	// The same batch sent again (an answer lost on the way) adds nothing.
	_, _, err = b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{{Name: "Notes", Location: three.Key}}})
	requireInvalid(t, err, "Notes has already been added to this assignment.")

	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Len(t, listed, 3)
	require.Equal(t, []string{"essay one.pdf", "photo.png", "Notes"}, []string{listed[0].Name, listed[1].Name, listed[2].Name}, "in the order sent")
	for _, s := range listed {
		require.Equal(t, "queued", s.Status)
		require.Equal(t, "teacher", s.SubmissionRole)
	}
}

func TestUpdateSubmissionsRefusesFilesThatAreNotTheAssignments(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a, eve := b.teacher(t), b.teacher(t)
	asg := b.assignment(t, a)
	sibling := b.assignment(t, a)
	evesAsg := b.assignment(t, eve)
	good := b.upload(t, a, asg.ID, "good.txt", "good")

	evesKey := b.upload(t, eve, evesAsg.ID, "eve.txt", "eve").Key
	siblingKey := b.upload(t, a, sibling.ID, "other.txt", "other").Key
	neverIssued, err := blob.NewKey("assignments/"+asg.ID.String()+"/submissions/", "forged.txt")
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(b.ctx, neverIssued, strings.NewReader("x"), 1, "text/plain"))
	notUploaded := b.issue(t, a, asg.ID, "half.txt").Key
	chats, err := b.files.PresignUpload(b.ctx, files.Teacher, a.TeamID, files.UploadRequest{FileName: "chats/notes.txt", FileType: "text/plain"})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(b.ctx, chats.Key, strings.NewReader("x"), 1, "text/plain"))

	with := func(subs ...submission.Upload) submission.UpdateInput {
		return submission.UpdateInput{AssignmentID: asg.ID, Type: "prompt", Submissions: append([]submission.Upload{{Name: "good.txt", Location: good.Key}}, subs...)}
	}
	many := make([]submission.Upload, 201)
	for i := range many {
		many[i] = submission.Upload{Name: "f", Location: good.Key}
	}
	for _, tc := range []struct {
		name string
		in   submission.UpdateInput
		msg  string // "" is not found
	}{
		{"another team's key", with(submission.Upload{Name: "eve.txt", Location: evesKey}), ""},
		{"another team's key as its file URL", with(submission.Upload{Name: "eve.txt", Location: b.blobs.FileURL(evesKey)}), ""},
		{"another team's assignment", submission.UpdateInput{AssignmentID: evesAsg.ID, Submissions: []submission.Upload{{Name: "g", Location: good.Key}}}, ""},
		{"no such assignment", submission.UpdateInput{AssignmentID: uuid.New(), Submissions: []submission.Upload{{Name: "g", Location: good.Key}}}, ""},
		{"a key never issued", with(submission.Upload{Name: "forged.txt", Location: neverIssued}), ""},
		{"another assignment of the team", with(submission.Upload{Name: "other.txt", Location: siblingKey}), "other.txt was uploaded to another assignment."},
		{"an outside URL", with(submission.Upload{Name: "x.pdf", Location: "https://evil.example/x.pdf"}), "x.pdf is not a file uploaded to Markwell."},
		{"an outside URL, no name", with(submission.Upload{Location: "https://evil.example/x.pdf"}), "x.pdf is not a file uploaded to Markwell."},
		{"the metadata address", with(submission.Upload{Name: "m", Location: "http://169.254.169.254/latest/meta-data/"}), "m is not a file uploaded to Markwell."},
		{"another folder", with(submission.Upload{Name: "notes.txt", Location: chats.Key}), "notes.txt is not in an assignment's submissions folder."},
		{"a traversal", with(submission.Upload{Name: "t", Location: "assignments/" + asg.ID.String() + "/submissions/../../../chats/x"}), ""},
		{"a file never uploaded", with(submission.Upload{Name: "half.txt", Location: notUploaded}), "half.txt has not finished uploading. Please upload it again."},
		{"the same file twice", with(submission.Upload{Name: "again", Location: b.blobs.FileURL(good.Key)}), "again is listed twice."},
		{"no location", with(submission.Upload{Name: "x"}), submission.MsgNoLocation},
		{"no files", submission.UpdateInput{AssignmentID: asg.ID}, submission.MsgNoFiles},
		{"too many files", submission.UpdateInput{AssignmentID: asg.ID, Submissions: many}, submission.MsgTooManyFiles},
		{"a name too long", with(submission.Upload{Name: strings.Repeat("n", 201), Location: siblingKey}), "Name can be at most 200 characters"},
		{"another type", submission.UpdateInput{AssignmentID: asg.ID, Type: "grade", Submissions: []submission.Upload{{Name: "g", Location: good.Key}}}, submission.MsgTypeMismatch},
		{"the student role", submission.UpdateInput{AssignmentID: asg.ID, SubmissionRole: "student", Submissions: []submission.Upload{{Name: "g", Location: good.Key}}}, submission.MsgTeacherRole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := b.svc.UpdateSubmissions(b.ctx, a, tc.in)
			if tc.msg == "" {
				requireNotFound(t, err)
			} else {
				requireInvalid(t, err, tc.msg)
			}
		})
	}
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{0, 0}, [2]int{s, r}, "refused batches create nothing")

	// Eve cannot add Ada's upload to her own assignment either.
	_, _, err = b.svc.UpdateSubmissions(b.ctx, eve, submission.UpdateInput{AssignmentID: evesAsg.ID, Submissions: []submission.Upload{{Name: "g", Location: good.Key}}})
	requireNotFound(t, err)
}

func TestGetListAndUpdate(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a, eve := b.teacher(t), b.teacher(t)
	asg := b.assignment(t, a)
	subs, _, err := b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{
		{Name: "essay.txt", Location: b.upload(t, a, asg.ID, "essay.txt", "x").Key},
	}})
	require.NoError(t, err)
	id := subs[0].ID
	text := strings.Repeat("é", 150) + strings.Repeat("b", 100)
	_, err = b.pool.Exec(b.ctx, `UPDATE submissions SET extract_status = 'ready', extracted_text = $2, page_count = 2,
		extract_error = 'No text found on 1 of 2 pages', pages = '[{"text":"p1","source":"text-layer"},{"text":"","source":"ocr"}]' WHERE id = $1`, id, text)
	require.NoError(t, err)

	got, err := b.svc.Get(b.ctx, a, id)
	require.NoError(t, err)
	require.Equal(t, text, got.Text)
	require.Equal(t, []submission.Page{{Text: "p1", Source: "text-layer"}, {Text: "", Source: "ocr"}}, got.Pages)
	require.Equal(t, "ready", got.Status)
	require.Equal(t, 2, got.PageCount)
	require.Equal(t, "No text found on 1 of 2 pages", got.Error)
	view, err := b.svc.GetViewOnly(b.ctx, a, id)
	require.NoError(t, err)
	require.Equal(t, got, view)

	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, strings.Repeat("é", 150)+strings.Repeat("b", 50), listed[0].Preview, "200 characters, not bytes")
	require.Equal(t, got.Submission.Preview, listed[0].Preview)

	raw, err := json.Marshal(got)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(raw, &shape))
	for _, k := range []string{"_id", "assignmentId", "name", "location", "studentName", "studentEmail", "submissionRole",
		"source", "status", "error", "preview", "pageCount", "isHandWritten", "createdAt", "updatedAt", "text", "pages"} {
		require.Contains(t, shape, k)
	}
	raw, err = json.Marshal(listed[0])
	require.NoError(t, err)
	require.NotContains(t, string(raw), `"text"`, "a listing has no full text")

	str := func(s string) *string { return &s }
	up, err := b.svc.Update(b.ctx, a, id, submission.Changes{StudentEmail: str(" Ada.Student@School.test ")})
	require.NoError(t, err)
	require.Equal(t, "ada.student@school.test", up.StudentEmail)
	require.Equal(t, "essay.txt", up.Name, "other fields stay")
	for _, bad := range []string{"not-an-email", "ada@", "Ada <ada@school.test>", "ada@localhost", strings.Repeat("a", 250) + "@school.test"} {
		_, err := b.svc.Update(b.ctx, a, id, submission.Changes{StudentEmail: str(bad)})
		requireInvalid(t, err, "Please enter a valid email address")
	}
	up, err = b.svc.Update(b.ctx, a, id, submission.Changes{Name: str(" Final\u202e draft "), StudentName: str(" Ada ")})
	require.NoError(t, err)
	require.Equal(t, "Final draft", up.Name)
	require.Equal(t, "Ada", up.StudentName)
	require.Equal(t, "ada.student@school.test", up.StudentEmail)
	up, err = b.svc.Update(b.ctx, a, id, submission.Changes{StudentEmail: str("")})
	require.NoError(t, err)
	require.Equal(t, "", up.StudentEmail, "an empty email clears it")

	_, err = b.svc.Update(b.ctx, a, id, submission.Changes{Name: str("  ")})
	requireInvalid(t, err, submission.MsgNameEmpty)
	_, err = b.svc.Update(b.ctx, a, id, submission.Changes{})
	requireInvalid(t, err, submission.MsgNothingToUpdate)
	_, err = b.svc.Update(b.ctx, a, id, submission.Changes{StudentName: str(strings.Repeat("n", 201))})
	requireInvalid(t, err, "Student name can be at most 200 characters")

	// Another team sees nothing.
	_, err = b.svc.Get(b.ctx, eve, id)
	requireNotFound(t, err)
	_, err = b.svc.GetViewOnly(b.ctx, eve, id)
	requireNotFound(t, err)
	_, err = b.svc.Update(b.ctx, eve, id, submission.Changes{StudentEmail: str("eve@school.test")})
	requireNotFound(t, err)
	_, err = b.svc.List(b.ctx, eve, asg.ID)
	requireNotFound(t, err)
	got, err = b.svc.Get(b.ctx, a, id)
	require.NoError(t, err)
	require.Equal(t, "", got.StudentEmail, "Eve changed nothing")
}

func TestDeleteRemovesRowsCancelsJobsAndDeletesFiles(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a, eve := b.teacher(t), b.teacher(t)
	asg := b.assignment(t, a)
	var uploads []submission.Upload
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		uploads = append(uploads, submission.Upload{Name: n, Location: b.upload(t, a, asg.ID, n, n).Key})
	}
	subs, results, err := b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: uploads})
	require.NoError(t, err)
	jobOf := func(id uuid.UUID) (int64, rivertype.JobState) {
		var job int64
		var state rivertype.JobState
		require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT id, state FROM river_job WHERE kind = 'extract_text' AND args->>'submission_id' = $1`, id.String()).Scan(&job, &state))
		return job, state
	}
	_, state := jobOf(subs[0].ID)
	require.Equal(t, rivertype.JobStateAvailable, state)

	// Refusals delete nothing.
	for _, tc := range []struct {
		name string
		who  identity.Actor
		in   submission.DeleteInput
		msg  string
	}{
		{"another team", eve, submission.DeleteInput{AssignmentID: asg.ID, SubmissionIDs: []uuid.UUID{subs[0].ID}}, ""},
		{"one unknown id among them", a, submission.DeleteInput{AssignmentID: asg.ID, SubmissionIDs: []uuid.UUID{subs[0].ID, uuid.New()}}, ""},
		{"another assignment", a, submission.DeleteInput{AssignmentID: b.assignment(t, a).ID, SubmissionIDs: []uuid.UUID{subs[0].ID}}, ""},
		{"a result of another submission", a, submission.DeleteInput{AssignmentID: asg.ID, SubmissionIDs: []uuid.UUID{subs[0].ID}, ResultIDs: []uuid.UUID{results[1].ID}}, ""},
		{"none", a, submission.DeleteInput{AssignmentID: asg.ID}, submission.MsgNoneToDelete},
		{"another type", a, submission.DeleteInput{AssignmentID: asg.ID, SubmissionIDs: []uuid.UUID{subs[0].ID}, Type: "grade"}, submission.MsgTypeMismatch},
	} {
		_, err := b.svc.Delete(b.ctx, tc.who, tc.in)
		if tc.msg == "" {
			requireNotFound(t, err)
		} else {
			requireInvalid(t, err, tc.msg)
		}
	}
	s, r := b.rows(t, asg.ID)
	require.Equal(t, [2]int{3, 3}, [2]int{s, r}, "refusals delete nothing")

	// Page images and answer crops were made from each of them.
	derived := func(id uuid.UUID) []string {
		pages, crops := files.DerivedFolders(asg.ID, id)
		return []string{pages + "0.jpg", crops + "0.jpg"}
	}
	for _, sub := range subs {
		for _, key := range derived(sub.ID) {
			require.NoError(t, b.blobs.Put(b.ctx, key, strings.NewReader("jpeg"), 4, "image/jpeg"))
		}
	}

	// One of them is being read right now.
	running, _ := jobOf(subs[1].ID)
	_, err = b.pool.Exec(b.ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now() WHERE id = $1`, running)
	require.NoError(t, err)

	n, err := b.svc.Delete(b.ctx, a, submission.DeleteInput{AssignmentID: asg.ID, Type: "prompt",
		SubmissionIDs: []uuid.UUID{subs[0].ID, subs[1].ID, subs[0].ID}, ResultIDs: []uuid.UUID{results[0].ID}})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	s, r = b.rows(t, asg.ID)
	require.Equal(t, [2]int{1, 1}, [2]int{s, r}, "rows and their results are gone")
	_, state = jobOf(subs[0].ID)
	require.Equal(t, rivertype.JobStateCancelled, state, "a queued job is cancelled")
	var cancelAttempted bool
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT metadata ? 'cancel_attempted_at' FROM river_job WHERE id = $1`, running).Scan(&cancelAttempted))
	require.True(t, cancelAttempted, "a running job is told to stop")
	_, state = jobOf(subs[2].ID)
	require.Equal(t, rivertype.JobStateAvailable, state, "the kept submission's job stays")

	// The files go through a delete_blobs job written in the same transaction.
	var job int64
	var raw []byte
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT id, args FROM river_job WHERE kind = 'delete_blobs' AND args->'keys' ? $1`, uploads[0].Location).Scan(&job, &raw))
	var args queue.DeleteBlobsArgs
	require.NoError(t, json.Unmarshal(raw, &args))
	require.ElementsMatch(t, []string{uploads[0].Location, uploads[1].Location}, args.Keys)
	require.Empty(t, args.Prefix)

	// The worker deletes them.
	row, err := b.svc.Jobs.JobGet(b.ctx, job)
	require.NoError(t, err)
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewDeleteBlobsWorker(jobs.Deps{Blob: b.blobs}))
	tx, err := b.pool.Begin(b.ctx)
	require.NoError(t, err)
	defer tx.Rollback(b.ctx) //nolint:errcheck
	res, err := worker.WorkJob(b.ctx, t, tx, row)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	for i, u := range uploads {
		_, err := b.blobs.Stat(b.ctx, u.Location)
		if i < 2 {
			require.ErrorIs(t, err, blob.ErrNotFound, u.Name)
		} else {
			require.NoError(t, err, "the kept submission's file stays")
		}
		for _, key := range derived(subs[i].ID) {
			_, err := b.blobs.Stat(b.ctx, key)
			if i < 2 {
				require.ErrorIs(t, err, blob.ErrNotFound, "%s: its page images and crops go with it", key)
			} else {
				require.NoError(t, err, "the kept submission's page images and crops stay")
			}
		}
	}
}

// A teacher who uploads again a file that failed (the network went) gets
// one row for it: the new upload replaces the failed row of the same name,
// and a failed row of another name, or a failed read of an uploaded file,
// stays.
func TestUploadingAFailedFileAgainReplacesItsFailedRow(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	kept := b.upload(t, a, asg.ID, "ben.txt", "Ben's work.")
	first, _, err := b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{
		{Name: "ana.txt", Error: "The upload failed. Please try again."},
		{Name: "cy.txt", Error: "The upload failed. Please try again."},
		{Name: "ben.txt", Location: kept.Key},
	}})
	require.NoError(t, err)
	require.Len(t, first, 3)

	again := b.upload(t, a, asg.ID, "ana.txt", "Ana's work.")
	_, _, err = b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{
		{Name: "ana.txt", Location: again.Key},
	}})
	require.NoError(t, err)
	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	var rows []string
	for _, s := range listed {
		rows = append(rows, s.Name+" "+s.Status)
	}
	require.ElementsMatch(t, []string{"cy.txt " + submission.StatusFailed, "ben.txt " + submission.StatusQueued, "ana.txt " + submission.StatusQueued}, rows)
	require.Zero(t, b.count(t, `SELECT count(*) FROM function_results WHERE submission_id = $1`, first[0].ID), "its result went with it")
}

func TestUpdateSubmissionsKeepsAFileThatDidNotUploadAsAFailedRow(t *testing.T) {
	t.Parallel()
	b := setup(t, false)
	a := b.teacher(t)
	asg := b.assignment(t, a)
	essay := b.upload(t, a, asg.ID, "essay.txt", "Plants make food.")

	subs, results, err := b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{
		{Name: "essay.txt", Location: essay.Key},
		{Name: "maya.txt", Error: "This file is empty."},
	}})
	require.NoError(t, err)
	require.Len(t, results, 2, "the failed row has its result, so deleting it works as for any row")
	require.Equal(t, []string{submission.StatusQueued, submission.StatusFailed}, []string{subs[0].Status, subs[1].Status})
	require.Equal(t, "This file is empty.", subs[1].Error)

	listed, err := b.svc.List(b.ctx, a, asg.ID)
	require.NoError(t, err)
	require.Len(t, listed, 2)
	require.Equal(t, "maya.txt", listed[1].Name)
	require.Equal(t, submission.StatusFailed, listed[1].Status)
	require.Equal(t, "This file is empty.", listed[1].Error)
	require.Empty(t, listed[1].Location)
	require.Equal(t, 1, b.count(t, `SELECT count(*) FROM river_job WHERE kind = 'extract_text' AND args->>'submission_id' = ANY($1)`,
		[]string{subs[0].ID.String(), subs[1].ID.String()}), "only the uploaded file is read")

	// Bad input changes nothing: a reason with a file, a row with neither.
	before, _ := b.rows(t, asg.ID)
	other := b.upload(t, a, asg.ID, "other.txt", "x")
	_, _, err = b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{{Name: "other.txt", Location: other.Key, Error: "This file is empty."}}})
	requireInvalid(t, err, submission.MsgRefusedWithFile)
	_, _, err = b.svc.UpdateSubmissions(b.ctx, a, submission.UpdateInput{AssignmentID: asg.ID, Submissions: []submission.Upload{{Name: "ghost.txt"}}})
	requireInvalid(t, err, submission.MsgNoLocation)
	after, _ := b.rows(t, asg.ID)
	require.Equal(t, before, after)
}
