package studentlink_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type bundle struct {
	svc   *studentlink.Service
	blobs blob.Blob
}

// setup serves the service over the package's database and a local store,
// with the given limits (none when zero).
func setup(t *testing.T, perLink, perAddr ratelimit.Rule) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	blobs, _, err := blob.New(context.Background(), blob.Config{
		Dir: t.TempDir(), PublicURL: "http://markwell.test", Secret: []byte(strings.Repeat("k", 32)), MaxUploadBytes: 1 << 20,
	})
	require.NoError(t, err)
	fs := &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}
	jobClient, err := queue.NewInsertClient(pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return &bundle{blobs: blobs, svc: &studentlink.Service{
		Pool: pool, Files: fs,
		Submissions: &submission.Service{Pool: pool, Jobs: jobClient, Files: fs},
		Limits:      studentlink.Limits{Limiter: &ratelimit.Limiter{Pool: pool}, PerLink: perLink, PerAddr: perAddr},
	}}
}

// teacher makes a teacher with a team of their own and an assignment.
func (b *bundle) teacher(t *testing.T) (identity.Actor, store.Assignment) {
	t.Helper()
	ctx := context.Background()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, b.svc.Pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, b.svc.Pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	a := identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
	return a, b.assignment(t, a)
}

func (b *bundle) assignment(t *testing.T, a identity.Actor) store.Assignment {
	t.Helper()
	asg, err := store.Q.CreateAssignment(context.Background(), b.svc.Pool, store.CreateAssignmentParams{
		TeamID: a.TeamID, Name: "Essay", Type: store.AssignmentTypeFeedback, ProvideInstantFeedback: true,
	})
	require.NoError(t, err)
	return asg
}

// link returns the assignment's link token, turned on.
func (b *bundle) link(t *testing.T, a identity.Actor, asg store.Assignment) string {
	t.Helper()
	l, err := b.svc.Get(context.Background(), a, asg.ID)
	require.NoError(t, err)
	require.True(t, l.Enabled)
	return l.Token
}

// upload asks for a signed upload through the link and stores the bytes,
// as the student's browser does; it returns the file URL.
func (b *bundle) upload(t *testing.T, token, name, body string) string {
	t.Helper()
	size := int64(len(body))
	up, err := b.svc.Upload(context.Background(), "10.0.0.1", token, files.UploadRequest{FileName: name, FileType: "text/plain", FileSize: &size})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(context.Background(), up.Key, strings.NewReader(body), size, "text/plain"))
	return up.FileURL
}

func submitInput(token string, asg uuid.UUID, location string) studentlink.SubmitInput {
	return studentlink.SubmitInput{
		LinkToken: token, AssignmentID: asg, Role: "student", Type: "feedback",
		Files:       []submission.Upload{{Name: "essay.txt", Location: location}},
		StudentName: "Sam Student", StudentEmail: "sam@pupils.test",
	}
}

func requireCode(t *testing.T, err error, code apperr.Code, message string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	require.Equal(t, message, e.Message)
}

func requireLinkOff(t *testing.T, err error) {
	t.Helper()
	requireCode(t, err, apperr.NotFound, studentlink.MsgLinkOff)
}

func TestLinkIsMadeOnceAndTurnsOffAndRotates(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)

	first, err := b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	require.True(t, first.Enabled, "a new link starts on")
	require.Len(t, first.Token, 43, "32 random bytes, base64url")
	again, err := b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	require.Equal(t, first, again, "the link is made once")

	opened, err := b.svc.Open(ctx, first.Token)
	require.NoError(t, err)
	require.Equal(t, studentlink.LinkAssignment{
		Assignment: studentlink.Assignment{ID: asg.ID, Name: "Essay", Type: "feedback", ProvideInstantFeedback: true},
	}, opened, "resubmission is off by default")

	off := false
	l, err := b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &off})
	require.NoError(t, err)
	require.Equal(t, studentlink.Link{Enabled: false, Token: first.Token}, l, "off keeps the token")
	_, err = b.svc.Open(ctx, first.Token)
	requireLinkOff(t, err)

	on := true
	l, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &on})
	require.NoError(t, err)
	require.Equal(t, studentlink.Link{Enabled: true, Token: first.Token}, l, "on again restores the same link")
	_, err = b.svc.Open(ctx, first.Token)
	require.NoError(t, err)

	rotated, err := b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Rotate: true})
	require.NoError(t, err)
	require.True(t, rotated.Enabled)
	require.NotEqual(t, first.Token, rotated.Token)
	_, err = b.svc.Open(ctx, first.Token)
	requireLinkOff(t, err)
	_, err = b.svc.Open(ctx, rotated.Token)
	require.NoError(t, err)

	// Rotating while off makes a new link that stays off.
	l, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &off, Rotate: true})
	require.NoError(t, err)
	require.False(t, l.Enabled)
	require.NotEqual(t, rotated.Token, l.Token)
	_, err = b.svc.Open(ctx, l.Token)
	requireLinkOff(t, err)

	// Each change is in the assignment's history, newest first; making the
	// link is not a change.
	history, err := (&assignment.Service{Pool: b.svc.Pool}).History(ctx, ada, asg.ID)
	require.NoError(t, err)
	var said [][]string
	for _, h := range history {
		said = append(said, h.Changes)
	}
	require.Equal(t, [][]string{
		{"turned the student link off", "made a new student link (the old one stopped working)"},
		{"made a new student link (the old one stopped working)"},
		{"turned the student link on"},
		{"turned the student link off"},
	}, said)

	// Updating an assignment that never had a link makes one.
	fresh := b.assignment(t, ada)
	l, err = b.svc.Update(ctx, ada, fresh.ID, studentlink.Change{})
	require.NoError(t, err)
	require.True(t, l.Enabled)
	require.Len(t, l.Token, 43)

	for _, token := range []string{"", "nonsense", strings.Repeat("A", 43), first.Token + "x"} {
		_, err = b.svc.Open(ctx, token)
		requireLinkOff(t, err)
	}
}

func TestAnotherTeamsAssignmentHasNoLink(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	eve, _ := b.teacher(t)

	_, err := b.svc.Get(ctx, eve, asg.ID)
	require.ErrorIs(t, err, apperr.ErrNotFound)
	off := false
	_, err = b.svc.Update(ctx, eve, asg.ID, studentlink.Change{Enabled: &off, Rotate: true})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = b.svc.Get(ctx, ada, uuid.New())
	require.ErrorIs(t, err, apperr.ErrNotFound)

	// Eve made nothing: Ada's first look makes the link, on.
	l, err := b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	require.True(t, l.Enabled)
}

func TestStudentUploadsGoToTheLinksAssignment(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	_, other := b.teacher(t)
	size := int64(10)

	// Whatever folder the name carries, the file goes to the link's assignment.
	up, err := b.svc.Upload(ctx, "10.0.0.1", token, files.UploadRequest{
		FileName: "assignments/" + other.ID.String() + "/submissions/essay.txt", FileType: "text/plain", FileSize: &size,
	})
	require.NoError(t, err)
	require.Regexp(t, `^assignments/`+asg.ID.String()+`/submissions/student/[0-9a-f]{16}-essay\.txt$`, up.Key)
	rec, err := store.Q.FilesUploads(ctx, b.svc.Pool, []string{up.Key})
	require.NoError(t, err)
	require.Len(t, rec, 1)
	require.True(t, rec[0].ByStudent)
	require.Equal(t, asg.TeamID, rec[0].TeamID)
	require.Equal(t, uuid.NullUUID{UUID: asg.ID, Valid: true}, rec[0].AssignmentID)

	for _, bad := range []string{"", "not-a-token", strings.Repeat("A", 43)} {
		_, err = b.svc.Upload(ctx, "10.0.0.1", bad, files.UploadRequest{FileName: "a.txt", FileType: "text/plain", FileSize: &size})
		requireLinkOff(t, err)
	}
	_, err = b.svc.Upload(ctx, "10.0.0.1", token, files.UploadRequest{FileName: "a.txt", FileType: "text/plain"})
	requireCode(t, err, apperr.Invalid, "fileSize is required: send the file's size in bytes with the upload request.")
	big := int64(1<<20 + 1)
	_, err = b.svc.Upload(ctx, "10.0.0.1", token, files.UploadRequest{FileName: "a.txt", FileType: "text/plain", FileSize: &big})
	requireCode(t, err, apperr.Invalid, "This file is larger than the 1 MB limit.")

	off := false
	_, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &off})
	require.NoError(t, err)
	_, err = b.svc.Upload(ctx, "10.0.0.1", token, files.UploadRequest{FileName: "a.txt", FileType: "text/plain", FileSize: &size})
	requireLinkOff(t, err)
}

func TestStudentSubmitsOneFileAndGetsAViewToken(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	fileURL := b.upload(t, token, "essay.txt", "My essay about rivers.")

	in := submitInput(token, asg.ID, fileURL)
	in.StudentName = "  Sam\u202e Student "
	in.StudentEmail = "Sam@Pupils.test"
	// Details sent without a launch, claiming an LMS identity.
	in.LTI = json.RawMessage(`{"lis_result_sourcedid":"abc","user_id":"classmate-7","sub":"classmate-7","platformId":"` + uuid.NewString() + `"}`)
	in.RequiresPDFRead = []bool{true}
	got, err := b.svc.Submit(ctx, "10.0.0.1", in)
	require.NoError(t, err)

	require.Equal(t, studentlink.LinkAssignment{
		Assignment: studentlink.Assignment{ID: asg.ID, Name: "Essay", Type: "feedback", ProvideInstantFeedback: true},
	}, got.Assignment)
	require.Len(t, got.Submissions, 1)
	require.Len(t, got.FunctionResults, 1)
	sub := got.Submissions[0]
	require.Equal(t, sub.ID, got.FunctionResults[0].Submission)
	require.Equal(t, submission.SourceStudent, sub.Source)
	require.Equal(t, submission.RoleStudent, sub.SubmissionRole)
	require.Equal(t, submission.StatusQueued, sub.Status)
	require.Equal(t, "essay.txt", sub.Name)
	require.Equal(t, "Sam Student", sub.StudentName, "the name is cleaned")
	require.Equal(t, "sam@pupils.test", sub.StudentEmail)
	require.Len(t, got.ViewToken, 43)

	row, err := store.Q.GetSubmission(ctx, b.svc.Pool, store.GetSubmissionParams{ID: sub.ID, TeamID: ada.TeamID})
	require.NoError(t, err)
	var stored struct {
		Unverified map[string]string `json:"unverified"`
		Sub        string            `json:"sub"`
	}
	require.NoError(t, json.Unmarshal(row.Lti, &stored))
	require.Equal(t, "abc", stored.Unverified["lis_result_sourcedid"], "the details are kept for the teacher")
	require.Empty(t, stored.Sub, "but not where a verified launch's identity is read")
	exported, err := store.Q.ListExportSubmissions(ctx, b.svc.Pool, store.ListExportSubmissionsParams{AssignmentID: asg.ID, TeamID: ada.TeamID})
	require.NoError(t, err)
	require.Len(t, exported, 1)
	require.Empty(t, exported[0].LtiUserID, "the export's LTI user id comes only from a verified launch")
	require.Equal(t, "pdf", row.ReaderHint)
	require.Equal(t, "text/plain", row.ContentType)
	require.NotEqual(t, []byte(got.ViewToken), row.ViewTokenHash, "only the token's hash is stored")

	var extractJobs int
	require.NoError(t, b.svc.Pool.QueryRow(ctx,
		`SELECT count(*) FROM river_job WHERE kind = 'extract_text' AND args->>'submission_id' = $1`, sub.ID.String()).Scan(&extractJobs))
	require.Equal(t, 1, extractJobs, "one extraction job for the submission")

	// The view token opens that submission and its assignment.
	v, err := b.svc.Viewer(ctx, got.ViewToken)
	require.NoError(t, err)
	require.Equal(t, studentlink.Viewer{SubmissionID: sub.ID, AssignmentID: asg.ID, TeamID: ada.TeamID}, v)
	seen, err := b.svc.ViewAssignment(ctx, v)
	require.NoError(t, err)
	require.Equal(t, got.Assignment.Assignment, seen, "the public part, without the link's allowResubmission")
	for _, bad := range []string{"", "x", strings.Repeat("A", 43)} {
		_, err = b.svc.Viewer(ctx, bad)
		require.ErrorIs(t, err, apperr.ErrNotFound)
	}

	// The same file cannot be submitted twice.
	_, err = b.svc.Submit(ctx, "10.0.0.1", submitInput(token, asg.ID, fileURL))
	requireCode(t, err, apperr.Invalid, studentlink.MsgFileSubmitted)
}

func TestStudentSubmissionsAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	fileURL := b.upload(t, token, "essay.txt", "My essay.")
	otherAsg := b.assignment(t, ada)
	otherToken := b.link(t, ada, otherAsg)
	otherURL := b.upload(t, otherToken, "essay.txt", "Another essay.")

	// A key Ada uploaded herself, into the same assignment.
	size := int64(5)
	teacherUp, err := b.svc.Files.PresignUpload(ctx, files.Teacher, ada.TeamID, files.UploadRequest{
		FileName: "assignments/" + asg.ID.String() + "/submissions/mine.txt", FileType: "text/plain", FileSize: &size, UserID: ada.UserID,
	})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(ctx, teacherUp.Key, strings.NewReader("Ada's"), size, "text/plain"))
	// Issued through the link but never uploaded.
	missing, err := b.svc.Upload(ctx, "10.0.0.1", token, files.UploadRequest{FileName: "gone.txt", FileType: "text/plain", FileSize: &size})
	require.NoError(t, err)

	edit := func(f func(*studentlink.SubmitInput)) studentlink.SubmitInput {
		in := submitInput(token, asg.ID, fileURL)
		f(&in)
		return in
	}
	tests := []struct {
		name    string
		in      studentlink.SubmitInput
		code    apperr.Code
		message string
	}{
		{"no link", edit(func(in *studentlink.SubmitInput) { in.LinkToken = "" }), apperr.NotFound, studentlink.MsgLinkOff},
		{"another assignment's link", edit(func(in *studentlink.SubmitInput) { in.LinkToken = otherToken }), apperr.NotFound, studentlink.MsgLinkOff},
		{"no name", edit(func(in *studentlink.SubmitInput) { in.StudentName = " \u202e " }), apperr.Invalid, studentlink.MsgNameRequired},
		{"long name", edit(func(in *studentlink.SubmitInput) { in.StudentName = strings.Repeat("n", 201) }), apperr.Invalid, "Name can be at most 200 characters"},
		{"no email", edit(func(in *studentlink.SubmitInput) { in.StudentEmail = "" }), apperr.Invalid, submission.MsgEmail},
		{"bad email", edit(func(in *studentlink.SubmitInput) { in.StudentEmail = "sam at school" }), apperr.Invalid, submission.MsgEmail},
		{"no file", edit(func(in *studentlink.SubmitInput) { in.Files = nil }), apperr.Invalid, studentlink.MsgOneFile},
		{"two files", edit(func(in *studentlink.SubmitInput) { in.Files = append(in.Files, in.Files[0]) }), apperr.Invalid, studentlink.MsgOneFile},
		{"teacher role", edit(func(in *studentlink.SubmitInput) { in.Role = "teacher" }), apperr.Invalid, studentlink.MsgRole},
		{"other type", edit(func(in *studentlink.SubmitInput) { in.Type = "grade" }), apperr.Invalid, submission.MsgTypeMismatch},
		{"LTI too large", edit(func(in *studentlink.SubmitInput) {
			in.LTI = json.RawMessage(`"` + strings.Repeat("x", studentlink.MaxLTI) + `"`)
		}), apperr.Invalid, studentlink.MsgLTITooLarge},
		{"a teacher's key", edit(func(in *studentlink.SubmitInput) { in.Files[0].Location = teacherUp.Key }), apperr.NotFound, "Not found"},
		{"a key of another assignment's link", edit(func(in *studentlink.SubmitInput) { in.Files[0].Location = otherURL }), apperr.Invalid, "essay.txt was uploaded to another assignment."},
		{"a key never issued", edit(func(in *studentlink.SubmitInput) {
			in.Files[0].Location = "assignments/" + asg.ID.String() + "/submissions/student/0123456789abcdef-essay.txt"
		}), apperr.NotFound, "Not found"},
		{"an outside URL", edit(func(in *studentlink.SubmitInput) { in.Files[0].Location = "https://evil.example/x.pdf" }), apperr.Invalid, "essay.txt is not a file uploaded to Markwell."},
		{"a file that never arrived", edit(func(in *studentlink.SubmitInput) { in.Files[0].Location = missing.FileURL }), apperr.Invalid, "essay.txt has not finished uploading. Please upload it again."},
	}
	for _, tt := range tests {
		_, err := b.svc.Submit(ctx, "10.0.0.1", tt.in)
		require.Error(t, err, tt.name)
		e := apperr.From(err)
		require.Equal(t, tt.code, e.Code, "%s: %v", tt.name, err)
		require.Equal(t, tt.message, e.Message, tt.name)
	}

	// The link turned off refuses the submission too.
	off := false
	_, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &off})
	require.NoError(t, err)
	_, err = b.svc.Submit(ctx, "10.0.0.1", submitInput(token, asg.ID, fileURL))
	requireLinkOff(t, err)

	rows, err := store.Q.ListSubmissions(ctx, b.svc.Pool, store.ListSubmissionsParams{AssignmentID: asg.ID, TeamID: ada.TeamID})
	require.NoError(t, err)
	require.Empty(t, rows, "nothing was created")
}

func TestStudentCallsAreLimitedPerAddressAndPerLink(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	size := int64(3)
	req := files.UploadRequest{FileName: "a.txt", FileType: "text/plain", FileSize: &size}

	perAddr := setup(t, ratelimit.Rule{}, ratelimit.Rule{Limit: 2, Window: time.Hour})
	ada, asg := perAddr.teacher(t)
	token := perAddr.link(t, ada, asg)
	addr := "10.1.0." + uuid.NewString()[:3] // the counts live in the shared database
	for range 2 {
		_, err := perAddr.svc.Upload(ctx, addr, token, req)
		require.NoError(t, err)
	}
	_, err := perAddr.svc.Upload(ctx, addr, token, req)
	requireCode(t, err, apperr.RateLimited, studentlink.MsgTooMany)
	require.Positive(t, apperr.From(err).RetryAfter)
	_, err = perAddr.svc.Upload(ctx, addr, "made-up", req)
	requireCode(t, err, apperr.RateLimited, studentlink.MsgTooMany) // made-up tokens count too
	_, err = perAddr.svc.Upload(ctx, addr+"9", token, req)
	require.NoError(t, err, "another address has its own count")
	// Submissions are counted apart from uploads.
	_, err = perAddr.svc.Submit(ctx, addr, submitInput(token, asg.ID, "nowhere"))
	require.NotEqual(t, apperr.RateLimited, apperr.From(err).Code, err)

	perLink := setup(t, ratelimit.Rule{Limit: 1, Window: time.Hour}, ratelimit.Rule{})
	ada, asg = perLink.teacher(t)
	token = perLink.link(t, ada, asg)
	_, err = perLink.svc.Upload(ctx, "10.2.0.1", token, req)
	require.NoError(t, err)
	_, err = perLink.svc.Upload(ctx, "10.2.0.2", token, req)
	requireCode(t, err, apperr.RateLimited, studentlink.MsgTooMany)
	eve, other := perLink.teacher(t)
	otherToken := perLink.link(t, eve, other)
	_, err = perLink.svc.Upload(ctx, "10.2.0.2", otherToken, req)
	require.NoError(t, err, "another link has its own count")
}
