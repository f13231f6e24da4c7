package classroom_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/classroom/classroomtest"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

const publicURL = "http://markwell.test"

type bundle struct {
	ctx     context.Context
	pool    *pgxpool.Pool
	blobs   *blob.Local
	blobDir string
	fake    *classroomtest.Google
	cfg     classroom.Config
	svc     *classroom.Service
}

// setup serves a fake Google with one teacher's classes (see seed), a
// local blob store and the service over both, configured unless a change
// says otherwise.
func setup(t *testing.T, changes ...func(*classroom.Config)) *bundle {
	t.Helper()
	return setupOn(t, testdb.Pool(t), changes...)
}

// setupOn is setup on pool (testdb.Isolated for a test that runs workers).
func setupOn(t *testing.T, pool *pgxpool.Pool, changes ...func(*classroom.Config)) *bundle {
	t.Helper()
	blobDir := t.TempDir()
	blobs, err := blob.NewLocal(blob.Config{Dir: blobDir, PublicURL: publicURL, Secret: bytes.Repeat([]byte("k"), 32)})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	jobClient, err := queue.NewInsertClient(pool, log)
	require.NoError(t, err)
	fake := classroomtest.New(t)
	fake.SetRedirectURI(publicURL + classroom.CallbackPath)
	fake.Seed()
	cfg := classroom.Config{
		ClientID: classroomtest.ClientID, ClientSecret: classroomtest.ClientSecret, Secret: strings.Repeat("s", 32),
		PublicURL: publicURL, Endpoints: classroom.EndpointsAt(fake.URL()), HTTPClient: fake.Client(),
		MaxDownloadBytes: 1 << 20, Pool: pool, Blob: blobs, Log: log,
		Submissions: &submission.Service{Pool: pool, Jobs: jobClient, Files: &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}},
	}
	for _, c := range changes {
		c(&cfg)
	}
	svc, err := classroom.New(cfg)
	require.NoError(t, err)
	return &bundle{ctx: context.Background(), pool: pool, blobs: blobs, blobDir: blobDir, fake: fake, cfg: cfg, svc: svc}
}

// teacher creates a teacher with a team of their own.
func (b *bundle) teacher(t *testing.T) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(b.ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(b.ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email}
}

// session is a's browser session as the connect flow sees it.
func session(a identity.Actor) classroom.Teacher {
	return classroom.Teacher{ID: a.UserID, Email: a.Email, SessionToken: "session-of-" + a.UserID.String()}
}

// begin starts connecting and returns the consent URL, its query and the flow cookie.
func (b *bundle) begin(t *testing.T, a identity.Actor) (string, url.Values, string) {
	t.Helper()
	authURL, flow, err := b.svc.Begin(session(a), "/assignments/42?tab=submissions")
	require.NoError(t, err)
	u, err := url.Parse(authURL)
	require.NoError(t, err)
	return authURL, u.Query(), flow
}

// connect runs the whole consent: begin, approve at the fake, finish.
func (b *bundle) connect(t *testing.T, a identity.Actor) {
	t.Helper()
	authURL, q, flow := b.begin(t, a)
	back, err := b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Code: b.fake.Approve(authURL)})
	require.NoError(t, err)
	require.Equal(t, "/assignments/42?tab=submissions", back)
}

func (b *bundle) assignment(t *testing.T, a identity.Actor, handwritten bool) store.Assignment {
	t.Helper()
	asgs := &assignment.Service{Pool: b.pool}
	asg, err := asgs.Create(b.ctx, a, assignment.Input{Name: "Lab", Type: assignment.TypePrompt, IsHandWritten: handwritten})
	require.NoError(t, err)
	_, err = asgs.PutFunction(b.ctx, a, asg.ID, assignment.FunctionInput{Prompt: "Be kind"})
	require.NoError(t, err)
	row, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asg.ID, TeamID: a.TeamID})
	require.NoError(t, err)
	return row
}

func (b *bundle) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, query, args...).Scan(&n))
	return n
}

func (b *bundle) status(t *testing.T, a identity.Actor) classroom.Status {
	t.Helper()
	st, err := b.svc.Status(b.ctx, a.UserID)
	require.NoError(t, err)
	return st
}

func requireCode(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	if msg != "" {
		require.Equal(t, msg, e.Message)
	}
}

func TestNotConfigured(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		change func(*classroom.Config)
		reason string
	}{
		{"no Google client", func(c *classroom.Config) { c.ClientID, c.ClientSecret = "", "" }, classroom.MsgNotConfigured},
		{"turned off", func(c *classroom.Config) { c.Disabled = true }, classroom.MsgDisabled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, tt.change)
			a := b.teacher(t)
			require.Equal(t, classroom.Status{Configured: false, Connected: false, Reason: tt.reason}, b.status(t, a))

			_, _, err := b.svc.Begin(session(a), "/")
			require.Equal(t, classroom.OutcomeNotConfigured, classroom.OutcomeOf(err))
			_, err = b.svc.Courses(b.ctx, a)
			requireCode(t, err, apperr.Invalid, tt.reason)
			asg := b.assignment(t, a, false)
			_, err = b.svc.Import(b.ctx, a, classroom.ImportRequest{AssignmentID: asg.ID, ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1"}})
			requireCode(t, err, apperr.Invalid, tt.reason)
			require.Zero(t, b.fake.Calls(""), "Google was never called")
		})
	}

	t.Run("a nil service says not configured", func(t *testing.T) {
		t.Parallel()
		var s *classroom.Service
		st, err := s.Status(context.Background(), uuid.New())
		require.NoError(t, err)
		require.Equal(t, classroom.Status{Reason: classroom.MsgNotConfigured}, st)
	})
}

func TestConnect(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	require.Equal(t, classroom.Status{Configured: true, Reason: classroom.MsgNotConnected}, b.status(t, a))

	authURL, q, _ := b.begin(t, a)
	require.True(t, strings.HasPrefix(authURL, b.fake.URL()+"/o/oauth2/auth?"), authURL)
	require.Equal(t, "true", q.Get("include_granted_scopes"))
	require.Equal(t, "offline", q.Get("access_type"))
	require.Equal(t, "consent", q.Get("prompt"))
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.NotEmpty(t, q.Get("code_challenge"))
	require.NotEmpty(t, q.Get("state"))
	require.Equal(t, "code", q.Get("response_type"))
	require.Equal(t, "client-id", q.Get("client_id"))
	require.Equal(t, publicURL+"/api/v1/google/classroom/callback", q.Get("redirect_uri"))
	require.Equal(t, a.Email, q.Get("login_hint"))
	require.ElementsMatch(t, []string{
		"https://www.googleapis.com/auth/classroom.courses.readonly",
		"https://www.googleapis.com/auth/classroom.coursework.students.readonly",
		"https://www.googleapis.com/auth/classroom.rosters.readonly",
		"https://www.googleapis.com/auth/classroom.profile.emails",
		"https://www.googleapis.com/auth/drive.readonly",
		// asked for now, so that sending grades back needs no second consent
		"https://www.googleapis.com/auth/classroom.coursework.students",
	}, strings.Fields(q.Get("scope")))

	b.connect(t, a)
	require.Equal(t, classroom.Status{Configured: true, Connected: true, CanSendGrades: true}, b.status(t, a))

	// The token is stored encrypted: neither token appears in the row.
	var sealed []byte
	var scopes string
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT encrypted_token, scopes FROM google_tokens WHERE user_id = $1`, a.UserID).Scan(&sealed, &scopes))
	require.NotContains(t, string(sealed), "access-")
	require.NotContains(t, string(sealed), "refresh-")
	require.Contains(t, scopes, classroom.ScopeDrive)

	// Another teacher is not connected by it.
	require.False(t, b.status(t, b.teacher(t)).Connected)
}

func TestConnectRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tests := []struct {
		name string
		// finish completes a consent begun for a, given the consent URL's
		// query, the code Google sent and the flow cookie.
		finish  func(t *testing.T, a identity.Actor, q url.Values, code, flow string) (string, error)
		outcome string
		back    string
	}{
		{
			name: "another state",
			finish: func(_ *testing.T, a identity.Actor, _ url.Values, code, flow string) (string, error) {
				return b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: "forged", Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
		{
			name: "another session of the same teacher",
			finish: func(_ *testing.T, a identity.Actor, q url.Values, code, flow string) (string, error) {
				other := session(a)
				other.SessionToken = "another-session"
				return b.svc.Finish(b.ctx, other, flow, classroom.Callback{State: q.Get("state"), Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
		{
			name: "another teacher's flow",
			finish: func(t *testing.T, _ identity.Actor, q url.Values, code, flow string) (string, error) {
				return b.svc.Finish(b.ctx, session(b.teacher(t)), flow, classroom.Callback{State: q.Get("state"), Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
		{
			name: "no flow cookie",
			finish: func(_ *testing.T, a identity.Actor, q url.Values, code, _ string) (string, error) {
				return b.svc.Finish(b.ctx, session(a), "", classroom.Callback{State: q.Get("state"), Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/",
		},
		{
			name: "a tampered flow cookie",
			finish: func(_ *testing.T, a identity.Actor, q url.Values, code, flow string) (string, error) {
				c := []byte(flow)
				c[len(c)/2] ^= 1
				return b.svc.Finish(b.ctx, session(a), string(c), classroom.Callback{State: q.Get("state"), Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/",
		},
		{
			name: "too late",
			finish: func(t *testing.T, a identity.Actor, q url.Values, code, flow string) (string, error) {
				cfg := b.cfg
				cfg.Now = func() time.Time { return time.Now().Add(classroom.FlowTTL + time.Minute) }
				later, err := classroom.New(cfg)
				require.NoError(t, err)
				return later.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Code: code})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
		{
			name: "declined at Google",
			finish: func(_ *testing.T, a identity.Actor, q url.Values, _, flow string) (string, error) {
				return b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Error: "access_denied"})
			},
			outcome: classroom.OutcomeDenied, back: "/assignments/42?tab=submissions",
		},
		{
			name: "a code Google does not know",
			finish: func(_ *testing.T, a identity.Actor, q url.Values, _, flow string) (string, error) {
				return b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Code: "made-up"})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
		{
			name: "a code bound to another PKCE challenge",
			finish: func(t *testing.T, a identity.Actor, q url.Values, _, flow string) (string, error) {
				// The code was issued for another consent (its own challenge).
				otherURL, _, err := b.svc.Begin(session(a), "/")
				require.NoError(t, err)
				return b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Code: b.fake.Approve(otherURL)})
			},
			outcome: classroom.OutcomeFailed, back: "/assignments/42?tab=submissions",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := b.teacher(t)
			authURL, q, flow := b.begin(t, a)
			back, err := tt.finish(t, a, q, b.fake.Approve(authURL), flow)
			require.Error(t, err)
			require.Equal(t, tt.outcome, classroom.OutcomeOf(err), err.Error())
			require.Equal(t, tt.back, back)
			require.Equal(t, 0, b.count(t, `SELECT count(*) FROM google_tokens WHERE user_id = $1`, a.UserID), "nothing stored")
			require.False(t, b.status(t, a).Connected)
		})
	}

	t.Run("a permission left unticked", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.fake.SetGrantScope("openid email profile " + classroom.ScopeCourses + " " + classroom.ScopeCoursework)
		a := b.teacher(t)
		authURL, q, flow := b.begin(t, a)
		_, err := b.svc.Finish(b.ctx, session(a), flow, classroom.Callback{State: q.Get("state"), Code: b.fake.Approve(authURL)})
		require.Equal(t, classroom.OutcomeMissingScopes, classroom.OutcomeOf(err))
		require.Equal(t, 0, b.count(t, `SELECT count(*) FROM google_tokens WHERE user_id = $1`, a.UserID))
	})
}

func TestSafeReturnTo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                              "/",
		"/":                             "/",
		"/assignments/1?tab=x#top":      "/assignments/1?tab=x#top",
		"//evil.test/x":                 "/",
		"/\\evil.test":                  "/",
		"https://evil.test/":            "/",
		"javascript:alert(1)":           "/",
		"assignments/1":                 "/",
		"/a\nb":                         "/",
		"/" + strings.Repeat("a", 3000): "/",
	} {
		require.Equal(t, want, classroom.SafeReturnTo(in), "SafeReturnTo(%q)", in)
	}
}

func TestPicker(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.fake.SetPageSize(2) // three courses come in two pages
	a := b.teacher(t)

	_, err := b.svc.Courses(b.ctx, a)
	requireCode(t, err, apperr.Conflict, classroom.MsgNotConnected)

	b.connect(t, a)
	courses, err := b.svc.Courses(b.ctx, a)
	require.NoError(t, err)
	require.Equal(t, []classroom.Course{
		{ID: "c1", Name: "Biology", Section: "Period 3"}, {ID: "c2", Name: "Chemistry"}, {ID: "c3", Name: "Physics", Section: "B"},
	}, courses)

	work, err := b.svc.Coursework(b.ctx, a, "c1")
	require.NoError(t, err)
	require.Equal(t, []classroom.Coursework{{ID: "w1", Title: "Lab report"}, {ID: "w2", Title: "Reading quiz"}}, work)
	work, err = b.svc.Coursework(b.ctx, a, "c2")
	require.NoError(t, err)
	require.Empty(t, work)

	subs, err := b.svc.Submissions(b.ctx, a, "c1", "w1")
	require.NoError(t, err)
	require.Equal(t, []classroom.StudentSubmission{
		{ID: "s1", StudentName: "Ada Lovelace", StudentEmail: "ada@students.test", State: "TURNED_IN", Attachments: []classroom.Attachment{
			{ID: "d-doc", Title: "Ada's report", MimeType: "application/vnd.google-apps.document"},
		}},
		{ID: "s2", StudentName: "Ben Okafor", StudentEmail: "ben@students.test", State: "RETURNED", Attachments: []classroom.Attachment{
			{ID: "d-pdf", Title: "ben.pdf", MimeType: "application/pdf"},
			{ID: "d-vid", Title: "clip.mp4", MimeType: "video/mp4"},
			{ID: "d-gone", Title: "old.pdf", MimeType: ""},
		}},
		{ID: "s3", StudentName: "Cy Young", StudentEmail: "cy@students.test", State: "TURNED_IN", Attachments: []classroom.Attachment{}},
	}, subs, "Dee's draft is not turned in")
	subs, err = b.svc.Submissions(b.ctx, a, "c1", "w2")
	require.NoError(t, err)
	require.Empty(t, subs)

	// What the teacher sees when Classroom says no.
	_, err = b.svc.Coursework(b.ctx, a, "nope")
	requireCode(t, err, apperr.NotFound, "Not found")
	_, err = b.svc.Coursework(b.ctx, a, " ")
	requireCode(t, err, apperr.Invalid, classroom.MsgClassRequired)
	_, err = b.svc.Submissions(b.ctx, a, "c1", "")
	requireCode(t, err, apperr.Invalid, classroom.MsgWorkRequired)
}

func TestGoogleFailures(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status int
		code   apperr.Code
		msg    string
	}{
		{403, apperr.Forbidden, classroom.MsgForbidden},
		{429, apperr.RateLimited, classroom.MsgGoogleBusy},
		{500, apperr.Upstream, classroom.MsgGoogleDown},
		{503, apperr.Upstream, classroom.MsgGoogleDown},
	} {
		t.Run(fmt.Sprintf("status %d", tt.status), func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			a := b.teacher(t)
			b.connect(t, a)
			b.fake.Fail("/v1/courses", tt.status)
			_, err := b.svc.Courses(b.ctx, a)
			requireCode(t, err, tt.code, tt.msg)
			require.True(t, b.status(t, a).Connected, "the token is kept")
		})
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()

	t.Run("an expired token is refreshed once and stored", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.fake.SetExpiresIn(1) // expired at once, as far as oauth2 is concerned
		a := b.teacher(t)
		b.connect(t, a)
		b.fake.SetExpiresIn(3600)
		_, err := b.svc.Courses(b.ctx, a)
		require.NoError(t, err)
		_, err = b.svc.Coursework(b.ctx, a, "c1")
		require.NoError(t, err)
		require.Equal(t, 1, b.fake.Refreshes(), "the second request used the stored, refreshed token")
	})

	t.Run("a revoked token asks the teacher to connect again", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.fake.SetExpiresIn(1)
		a := b.teacher(t)
		b.connect(t, a)
		b.fake.RevokeAll()
		_, err := b.svc.Courses(b.ctx, a)
		requireCode(t, err, apperr.Conflict, classroom.MsgReconnect)
		require.Equal(t, classroom.Status{Configured: true, Reason: classroom.MsgNotConnected}, b.status(t, a))
	})

	t.Run("an access token Google stopped accepting", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		a := b.teacher(t)
		b.connect(t, a)
		b.fake.RevokeAll()
		_, err := b.svc.Courses(b.ctx, a)
		requireCode(t, err, apperr.Conflict, classroom.MsgReconnect)
		require.False(t, b.status(t, a).Connected)
	})

	t.Run("a token copied to another teacher does not open", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		a, mallory := b.teacher(t), b.teacher(t)
		b.connect(t, a)
		_, err := b.pool.Exec(b.ctx, `INSERT INTO google_tokens (user_id, encrypted_token, scopes)
			SELECT $2, encrypted_token, scopes FROM google_tokens WHERE user_id = $1`, a.UserID, mallory.UserID)
		require.NoError(t, err)
		_, err = b.svc.Courses(b.ctx, mallory)
		requireCode(t, err, apperr.Conflict, classroom.MsgReconnect)
		require.False(t, b.status(t, mallory).Connected)
		require.Zero(t, b.fake.Calls(""), "Google never saw Ada's token from Mallory")
		require.True(t, b.status(t, a).Connected)
	})

	t.Run("a token under another server key does not open", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		a := b.teacher(t)
		b.connect(t, a)
		cfg := b.cfg
		cfg.Secret = strings.Repeat("t", 32)
		rotated, err := classroom.New(cfg)
		require.NoError(t, err)
		_, err = rotated.Courses(b.ctx, a)
		requireCode(t, err, apperr.Conflict, classroom.MsgReconnect)
	})
}

// blobText reads a stored file.
func (b *bundle) blobText(t *testing.T, key string) string {
	t.Helper()
	r, err := b.blobs.Get(b.ctx, key)
	require.NoError(t, err)
	defer r.Close()
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(data)
}

func TestImport(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	b.connect(t, a)
	asg := b.assignment(t, a, true)
	req := classroom.ImportRequest{AssignmentID: asg.ID, Type: "prompt", ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1", "s2", "s3", "s4", "s1"}}

	res, err := b.svc.Import(b.ctx, a, req)
	require.NoError(t, err)
	require.Len(t, res.Submissions, 2)
	require.Len(t, res.FunctionResults, 2)
	sort.Slice(res.Submissions, func(i, j int) bool { return res.Submissions[i].StudentName < res.Submissions[j].StudentName })
	ada, ben := res.Submissions[0], res.Submissions[1]

	require.Equal(t, "Ada's report.pdf", ada.Name, "a Google Doc comes as PDF")
	require.Equal(t, "Ada Lovelace", ada.StudentName)
	require.Equal(t, "ada@students.test", ada.StudentEmail)
	require.Equal(t, submission.SourceGoogle, ada.Source)
	require.Equal(t, submission.RoleTeacher, ada.SubmissionRole)
	require.Equal(t, submission.StatusQueued, ada.Status)
	require.True(t, ada.IsHandWritten, "the assignment's handwriting setting")
	require.True(t, strings.HasPrefix(ada.Location, "assignments/"+asg.ID.String()+"/submissions/google/"), ada.Location)
	require.Equal(t, "%PDF-1.4 exported Ada's words", b.blobText(t, ada.Location))

	require.Equal(t, "ben.pdf", ben.Name)
	require.Equal(t, "Ben Okafor", ben.StudentName)
	require.Equal(t, "%PDF-1.4 Ben's lab", b.blobText(t, ben.Location))

	require.ElementsMatch(t, []classroom.Skipped{
		{SubmissionID: "s2", StudentName: "Ben Okafor", Title: "clip.mp4", Reason: classroom.ReasonUnreadable},
		{SubmissionID: "s2", StudentName: "Ben Okafor", Title: "old.pdf", Reason: classroom.ReasonNotShared},
		{SubmissionID: "s3", StudentName: "Cy Young", Reason: classroom.ReasonNoFiles},
		{SubmissionID: "s4", Reason: classroom.ReasonNotTurnedIn},
	}, res.Skipped)
	require.Zero(t, b.fake.Calls("GET /drive/v3/files/d-draft"), "Dee's draft was never read")

	// Stored: the rows, their external ids and the extraction jobs.
	require.Equal(t, 2, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1 AND source = 'google'`, asg.ID))
	require.Equal(t, 2, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1 AND external_id IN ('s1/d-doc', 's2/d-pdf')`, asg.ID))
	require.Equal(t, 2, b.count(t, `SELECT count(*) FROM river_job WHERE kind = 'extract_text' AND args->>'submission_id' IN ($1, $2)`,
		ada.ID.String(), ben.ID.String()))

	// A second import creates nothing and downloads nothing.
	driveCalls := func() int {
		return b.fake.Calls("GET /drive/v3/files/d-doc") + b.fake.Calls("GET /drive/v3/files/d-pdf")
	}
	before := driveCalls()
	again, err := b.svc.Import(b.ctx, a, req)
	require.NoError(t, err)
	require.Empty(t, again.Submissions)
	require.Contains(t, again.Skipped, classroom.Skipped{SubmissionID: "s1", StudentName: "Ada Lovelace", Title: "Ada's report", Reason: classroom.ReasonImported})
	require.Contains(t, again.Skipped, classroom.Skipped{SubmissionID: "s2", StudentName: "Ben Okafor", Title: "ben.pdf", Reason: classroom.ReasonImported})
	require.Equal(t, 2, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.ID))
	require.Equal(t, before+2, driveCalls(), "only the two type lookups, no download")
}

// storedFiles counts the files kept in the blob store's google folders.
func (b *bundle) storedFiles(t *testing.T) int {
	t.Helper()
	n := 0
	require.NoError(t, filepath.WalkDir(b.blobDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(path), "/submissions/google/") {
			n++
		}
		return err
	}))
	return n
}

func TestImportRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a := b.teacher(t)
	b.connect(t, a)
	asg := b.assignment(t, a, false)
	ok := classroom.ImportRequest{AssignmentID: asg.ID, Type: "prompt", ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1"}}
	many := make([]string, classroom.MaxSelected+1)
	for i := range many {
		many[i] = fmt.Sprintf("s%d", i+1)
	}
	for _, tt := range []struct {
		name   string
		change func(*classroom.ImportRequest)
		code   apperr.Code
		msg    string
	}{
		{"another type", func(r *classroom.ImportRequest) { r.Type = "grade" }, apperr.Invalid, submission.MsgTypeMismatch},
		{"no class", func(r *classroom.ImportRequest) { r.ClassID = "" }, apperr.Invalid, classroom.MsgClassRequired},
		{"no coursework", func(r *classroom.ImportRequest) { r.CourseworkID = " " }, apperr.Invalid, classroom.MsgWorkRequired},
		{"nothing selected", func(r *classroom.ImportRequest) { r.Selected = []string{"", " "} }, apperr.Invalid, classroom.MsgNoneSelected},
		{"too many", func(r *classroom.ImportRequest) { r.Selected = many }, apperr.Invalid, classroom.MsgTooMany},
		{"an unknown assignment", func(r *classroom.ImportRequest) { r.AssignmentID = uuid.New() }, apperr.NotFound, "Not found"},
		{"a course Classroom does not know", func(r *classroom.ImportRequest) { r.ClassID = "nope" }, apperr.NotFound, "Not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := ok
			tt.change(&req)
			_, err := b.svc.Import(b.ctx, a, req)
			requireCode(t, err, tt.code, tt.msg)
		})
	}
	require.Zero(t, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.ID))

	t.Run("another team's assignment is not found, before Google is asked", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		ada, eve := b.teacher(t), b.teacher(t)
		b.connect(t, eve)
		asg := b.assignment(t, ada, false)
		before := b.fake.Calls("")
		_, err := b.svc.Import(b.ctx, eve, classroom.ImportRequest{AssignmentID: asg.ID, ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1"}})
		requireCode(t, err, apperr.NotFound, "Not found")
		require.Equal(t, before, b.fake.Calls(""))
		require.Zero(t, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.ID))
	})

	t.Run("a file past the size limit is skipped", func(t *testing.T) {
		t.Parallel()
		b := setup(t, func(c *classroom.Config) { c.MaxDownloadBytes = 10 })
		a := b.teacher(t)
		b.connect(t, a)
		asg := b.assignment(t, a, false)
		res, err := b.svc.Import(b.ctx, a, classroom.ImportRequest{AssignmentID: asg.ID, ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1", "s2"}})
		require.NoError(t, err)
		require.Empty(t, res.Submissions)
		require.Contains(t, res.Skipped, classroom.Skipped{SubmissionID: "s2", StudentName: "Ben Okafor", Title: "ben.pdf", Reason: `"ben.pdf" is larger than the 10 bytes limit.`})
		require.Contains(t, res.Skipped, classroom.Skipped{SubmissionID: "s1", StudentName: "Ada Lovelace", Title: "Ada's report", Reason: `"Ada's report" is larger than the 10 bytes limit.`})
		require.Zero(t, b.storedFiles(t))
	})

	t.Run("Drive failing mid-import leaves nothing behind", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		a := b.teacher(t)
		b.connect(t, a)
		asg := b.assignment(t, a, false)
		b.fake.FailDownload("d-pdf", 500)
		_, err := b.svc.Import(b.ctx, a, classroom.ImportRequest{AssignmentID: asg.ID, ClassID: "c1", CourseworkID: "w1", Selected: []string{"s1", "s2"}})
		requireCode(t, err, apperr.Upstream, classroom.MsgGoogleDown)
		require.Equal(t, 1, b.fake.Calls("GET /drive/v3/files/d-doc/export"), "Ada's file was downloaded")
		require.Zero(t, b.count(t, `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.ID))
		require.Zero(t, b.storedFiles(t), "and deleted again")
	})
}

func TestSupported_PhotosScansAndOfficeFilesPupilsAttach(t *testing.T) {
	for mimeType, hint := range map[string]string{
		"application/pdf":                      "pdf",
		"application/vnd.google-apps.document": "pdf",   // exported by Drive
		"image/heic":                           "image", // an iPhone photo from the Classroom app
		"image/tiff":                           "image",
		"image/webp":                           "image",
		"application/vnd.oasis.opendocument.text": "textract",
		"application/rtf":                         "textract",
		"application/msword":                      "textract",
		"application/vnd.ms-powerpoint":           "textract",
	} {
		got, ok := classroom.Supported(mimeType)
		require.True(t, ok, mimeType)
		require.Equal(t, hint, got, mimeType)
	}
	for _, mimeType := range []string{"video/mp4", "application/zip", "application/vnd.google-apps.spreadsheet", "application/vnd.ms-excel"} {
		_, ok := classroom.Supported(mimeType)
		require.False(t, ok, mimeType)
	}
}
