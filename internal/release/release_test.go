package release_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

const secret = "0123456789abcdef0123456789abcdef"

// world is a teacher's assignment and its submissions, each with a result
// in a given status, over a database of the test's own.
type world struct {
	ctx     context.Context
	pool    *pgxpool.Pool
	svc     *release.Service
	links   release.Links
	teacher identity.Actor
	asg     uuid.UUID
}

// newWorld makes a world; isolated gives it a database of its own (the
// tests that run jobs: a worker takes any job of its queue).
func newWorld(t *testing.T, emailEnabled, isolated bool) *world {
	t.Helper()
	pool := testdb.Pool(t)
	if isolated {
		pool = testdb.Isolated(t)
	}
	jobsClient, err := queue.NewInsertClient(pool, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	links, err := release.NewLinks(secret, "https://markwell.school.test/")
	require.NoError(t, err)
	w := &world{ctx: context.Background(), pool: pool, links: links,
		svc: &release.Service{Pool: pool, Jobs: jobsClient, Links: links, EmailEnabled: emailEnabled}}
	w.teacher = w.newTeacher(t, `Ms O'Brien <b>`)
	w.asg = w.newAssignment(t, w.teacher, `Rivers & <Seas>`)
	return w
}

func (w *world) newTeacher(t *testing.T, name string) identity.Actor {
	t.Helper()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(w.ctx, w.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(w.ctx, w.pool, store.CreateUserParams{Email: email, Name: name, TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	return identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: name, Email: email}
}

func (w *world) newAssignment(t *testing.T, a identity.Actor, name string) uuid.UUID {
	t.Helper()
	asg, err := store.Q.CreateAssignment(w.ctx, w.pool, store.CreateAssignmentParams{
		TeamID: a.TeamID, Name: name, Type: "prompt", CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
	})
	require.NoError(t, err)
	return asg.ID
}

// submit adds a student's submission to asg with a result in status.
func (w *world) submit(t *testing.T, a identity.Actor, asg uuid.UUID, student, email, status string) uuid.UUID {
	t.Helper()
	sub, err := store.Q.CreateSubmission(w.ctx, w.pool, store.CreateSubmissionParams{
		TeamID: a.TeamID, AssignmentID: asg, Name: student + ".txt", Role: "student", StudentName: student, StudentEmail: email,
	})
	require.NoError(t, err)
	_, err = w.pool.Exec(w.ctx, `INSERT INTO function_results (team_id, assignment_id, submission_id, status, feedback)
		VALUES ($1, $2, $3, $4, 'Well argued.')`, a.TeamID, asg, sub.ID, status)
	require.NoError(t, err)
	return sub.ID
}

func byID(rs []release.Release) map[uuid.UUID]release.Release {
	out := map[uuid.UUID]release.Release{}
	for _, r := range rs {
		out[r.SubmissionID] = r
	}
	return out
}

func tokenOf(t *testing.T, link string) string {
	t.Helper()
	tok, ok := strings.CutPrefix(link, "https://markwell.school.test/results/")
	require.True(t, ok, link)
	return tok
}

func TestReleaseKeepsRevokesAndRenewsLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false, false)
	a := w.teacher
	ada := w.submit(t, a, w.asg, "Ada", "ada@pupils.test", "reviewed")
	ben := w.submit(t, a, w.asg, "Ben", "ben@pupils.test", "graded")
	cy := w.submit(t, a, w.asg, "Cy", "cy@pupils.test", "grading")
	dee := w.submit(t, a, w.asg, "Dee", "", "reviewed")

	// Nothing is released at first.
	list, err := w.svc.List(w.ctx, a, w.asg)
	require.NoError(t, err)
	require.Len(t, list, 4)
	for _, r := range list {
		require.Equal(t, release.StateNotReleased, r.State)
		require.Empty(t, r.Link)
		require.Equal(t, release.EmailNone, r.Email)
	}

	// "Release all reviewed": Ada and Dee; the two others are skipped.
	out, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg})
	require.NoError(t, err)
	require.Equal(t, 2, out.Skipped)
	require.Equal(t, 1, out.SkippedNotReviewed, "Ben's is graded")
	require.Equal(t, 1, out.SkippedNotGraded, "Cy's is still grading")
	got := byID(out.Releases)
	require.Len(t, got, 2)
	require.Equal(t, release.StateReleased, got[ada].State)
	require.Equal(t, release.StateReleased, got[dee].State)
	adaLink := got[ada].Link
	require.NotEqual(t, adaLink, got[dee].Link)
	opened, err := release.Resolve(w.ctx, w.pool, tokenOf(t, adaLink))
	require.NoError(t, err)
	require.Equal(t, release.Opened{SubmissionID: ada, AssignmentID: w.asg, TeamID: a.TeamID}, opened)
	var jobsQueued int
	require.NoError(t, w.pool.QueryRow(w.ctx, `SELECT count(*) FROM river_job WHERE kind = 'send_result_email'`).Scan(&jobsQueued))
	require.Zero(t, jobsQueued, "no email without sendEmail")

	// Given rows: only finished results; Cy's (still grading) is skipped.
	out, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{ben, cy, ada}})
	require.NoError(t, err)
	require.Equal(t, 1, out.Skipped)
	require.Equal(t, 0, out.SkippedNotReviewed)
	require.Equal(t, 1, out.SkippedNotGraded)
	got = byID(out.Releases)
	require.Len(t, got, 2)
	require.Equal(t, adaLink, got[ada].Link, "releasing again keeps the link")
	require.Equal(t, release.StateReleased, got[ben].State)

	// Nothing finished to release: 400, nothing changes.
	_, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{cy}})
	require.Equal(t, release.MsgNothingToRelease, apperr.From(err).Message)
	_, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{ben}, SendEmail: true})
	require.Equal(t, release.MsgEmailOff, apperr.From(err).Message, "email asked for without SMTP")

	// Revoke closes the link at once; releasing again makes a new one.
	revoked, err := w.svc.Revoke(w.ctx, a, w.asg, []uuid.UUID{ada})
	require.NoError(t, err)
	require.Equal(t, release.StateRevoked, revoked[0].State)
	require.Empty(t, revoked[0].Link)
	require.NotNil(t, revoked[0].RevokedAt)
	_, err = release.Resolve(w.ctx, w.pool, tokenOf(t, adaLink))
	require.ErrorIs(t, err, apperr.ErrNotFound)
	out, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{ada}})
	require.NoError(t, err)
	newLink := out.Releases[0].Link
	require.NotEqual(t, adaLink, newLink)
	_, err = release.Resolve(w.ctx, w.pool, tokenOf(t, adaLink))
	require.ErrorIs(t, err, apperr.ErrNotFound, "the revoked link stays dead")
	opened, err = release.Resolve(w.ctx, w.pool, tokenOf(t, newLink))
	require.NoError(t, err)
	require.Equal(t, ada, opened.SubmissionID)
	for _, bad := range []string{"", "short", strings.Repeat("A", 43), tokenOf(t, newLink) + "x"} {
		_, err = release.Resolve(w.ctx, w.pool, bad)
		require.ErrorIs(t, err, apperr.ErrNotFound, bad)
	}

	// The links CSV lists the live links, formula-looking names escaped.
	evil := w.submit(t, a, w.asg, "=HYPERLINK(\"x\")", "", "graded")
	_, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{evil}})
	require.NoError(t, err)
	name, csv, err := w.svc.LinksCSV(w.ctx, a, w.asg)
	require.NoError(t, err)
	require.Equal(t, `Rivers & <Seas>`, name)
	text := string(csv)
	require.Contains(t, text, "Student name,Email,Link")
	require.Contains(t, text, "Ada,ada@pupils.test,"+newLink)
	require.Contains(t, text, `"'=HYPERLINK(""x"")"`)
	require.NotContains(t, text, "Cy,", "not released, not listed")

	// Another team: every call is not found, and A's ids in B's
	// assignment too.
	b := w.newTeacher(t, "Bea")
	_, err = w.svc.List(w.ctx, b, w.asg)
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = w.svc.Release(w.ctx, b, release.Input{AssignmentID: w.asg})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = w.svc.Revoke(w.ctx, b, w.asg, []uuid.UUID{ada})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, _, err = w.svc.LinksCSV(w.ctx, b, w.asg)
	require.ErrorIs(t, err, apperr.ErrNotFound)
	bAsg := w.newAssignment(t, b, "Bea's")
	w.submit(t, b, bAsg, "Bo", "", "graded")
	_, err = w.svc.Release(w.ctx, b, release.Input{AssignmentID: bAsg, SubmissionIDs: []uuid.UUID{ben}})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = w.svc.Revoke(w.ctx, b, bAsg, []uuid.UUID{ben})
	require.ErrorIs(t, err, apperr.ErrNotFound)
	_, err = release.Resolve(w.ctx, w.pool, tokenOf(t, got[ben].Link))
	require.NoError(t, err, "Ben's release is untouched")
}

// runWorker runs send_result_email jobs with m until every one is done.
func runWorker(t *testing.T, pool *pgxpool.Pool, m *release.Mailer) {
	t.Helper()
	workers := jobs.NewWorkers(jobs.Deps{Pool: pool, Mailer: m, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	client, err := jobs.NewWorkerClient(pool, workers, jobs.WorkerOptions{
		Queues: map[string]int{queue.QueueDefault: 4}, JobTimeout: time.Minute, RescueAfter: time.Hour,
		FetchPollInterval: 100 * time.Millisecond,
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, client.Start(ctx))
	defer func() { require.NoError(t, client.Stop(ctx)) }()
	require.Eventually(t, func() bool {
		var open int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'send_result_email'
			AND state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(&open))
		return open == 0
	}, 30*time.Second, 50*time.Millisecond)
}

func TestReleaseAllCountsTheSkippedByReason(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false, false)
	a := w.teacher
	w.submit(t, a, w.asg, "Ada", "", "reviewed")
	w.submit(t, a, w.asg, "Ben", "", "graded")
	w.submit(t, a, w.asg, "Cy", "", "graded")
	w.submit(t, a, w.asg, "Dee", "", "annotated")
	w.submit(t, a, w.asg, "Eve", "", "failed")

	out, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg})
	require.NoError(t, err)
	require.Len(t, out.Releases, 1)
	require.Equal(t, release.Outcome{Releases: out.Releases, Skipped: 4, SkippedNotReviewed: 3, SkippedNotGraded: 1}, out)
}

func TestReleaseEmailsEachStudentTheirLink(t *testing.T) {
	t.Parallel()
	// The server accepts only pupils.test: any other recipient is refused
	// at RCPT with a 5xx, which is a bounce.
	mp := startSMTP(t, serverOptions{AllowTo: regexp.MustCompile(`@pupils\.test$`)})
	w := newWorld(t, true, true)
	a := w.teacher
	ada := w.submit(t, a, w.asg, "Ada <i>Lovelace</i>", "ada@pupils.test", "reviewed")
	ben := w.submit(t, a, w.asg, "Ben", "ben@pupils.test", "graded")
	noEmail := w.submit(t, a, w.asg, "Dee", "", "reviewed")
	eve := w.submit(t, a, w.asg, "Eve", "eve@elsewhere.test", "graded")
	fay := w.submit(t, a, w.asg, "Fay", "fay@pupils.test", "graded")
	gus := w.submit(t, a, w.asg, "Gus", "gus@pupils.test", "graded")

	out, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{ada, ben, noEmail, eve, fay}, SendEmail: true})
	require.NoError(t, err)
	got := byID(out.Releases)
	for _, id := range []uuid.UUID{ada, ben, eve, fay} {
		require.Equal(t, release.EmailQueued, got[id].Email)
	}
	require.Equal(t, release.EmailNone, got[noEmail].Email, "no address, no email")
	// Gus is released without email: none is sent to him.
	_, err = w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: []uuid.UUID{gus}})
	require.NoError(t, err)
	// Fay's release is revoked before her email goes: it is not sent.
	_, err = w.svc.Revoke(w.ctx, a, w.asg, []uuid.UUID{fay})
	require.NoError(t, err)

	smtpCfg, err := release.ParseSMTP("smtp://"+mp.Addr+"?tls=none", "Markwell <no-reply@school.test>")
	require.NoError(t, err)
	runWorker(t, w.pool, &release.Mailer{Pool: w.pool, SMTP: smtpCfg, Links: w.links,
		Limiter: &ratelimit.Limiter{Pool: w.pool}, PerTeam: ratelimit.Rule{Limit: 60, Window: time.Minute}})

	list, err := w.svc.List(w.ctx, a, w.asg)
	require.NoError(t, err)
	got = byID(list)
	require.Equal(t, release.EmailSent, got[ada].Email)
	require.NotNil(t, got[ada].EmailedAt)
	require.Equal(t, release.EmailSent, got[ben].Email)
	require.Equal(t, release.EmailBounced, got[eve].Email)
	require.Regexp(t, `^5\d\d `, got[eve].EmailError, "the server's reply is kept")
	require.Equal(t, release.EmailNone, got[fay].Email)
	require.Contains(t, got[fay].EmailError, "revoked")
	require.Equal(t, release.EmailNone, got[gus].Email)

	// One message each to Ada and Ben, and nothing else.
	msgs := mp.messages(t)
	require.Len(t, msgs, 2)
	byTo := map[string]delivered{}
	for _, m := range msgs {
		require.Len(t, m.To, 1)
		byTo[m.To[0].Address] = m
	}
	for addr, id := range map[string]uuid.UUID{"ada@pupils.test": ada, "ben@pupils.test": ben} {
		m, ok := byTo[addr]
		require.True(t, ok, addr)
		link := got[id].Link
		require.Contains(t, m.Text, link)
		require.Contains(t, m.HTML, `href="`+link+`"`)
		require.Equal(t, `Ms O'Brien <b>`, m.From.Name, "the teacher's name as From")
		require.Equal(t, "no-reply@school.test", m.From.Address)
		require.Len(t, m.ReplyTo, 1)
		require.Equal(t, a.Email, m.ReplyTo[0].Address)
		require.Equal(t, "Your feedback on Rivers & <Seas>", m.Subject)
		// Names are data: escaped in the HTML.
		require.NotContains(t, m.HTML, "<Seas>")
		require.Contains(t, m.HTML, "Rivers &amp; &lt;Seas&gt;")
		require.NotContains(t, m.HTML, "<b>")
		// The link opens this student's submission, no other.
		opened, err := release.Resolve(w.ctx, w.pool, tokenOf(t, link))
		require.NoError(t, err)
		require.Equal(t, id, opened.SubmissionID)
	}
	require.NotContains(t, byTo["ada@pupils.test"].HTML, "<i>")
	require.Contains(t, byTo["ada@pupils.test"].HTML, "Ada &lt;i&gt;Lovelace&lt;/i&gt;")
}

func TestTheTeamRateLimitSnoozesEmails(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true, true)
	a := w.teacher
	ids := []uuid.UUID{w.submit(t, a, w.asg, "Ada", "ada@pupils.test", "graded"), w.submit(t, a, w.asg, "Ben", "ben@pupils.test", "graded")}
	out, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, SubmissionIDs: ids, SendEmail: true})
	require.NoError(t, err)
	// A server that accepts nothing: the first email's attempt is a
	// failure to retry, the second is not attempted (the limit).
	smtpCfg, err := release.ParseSMTP("smtp://"+freeAddr(t)+"?tls=none", "Markwell <no-reply@school.test>")
	require.NoError(t, err)
	m := &release.Mailer{Pool: w.pool, SMTP: smtpCfg, Links: w.links,
		Limiter: &ratelimit.Limiter{Pool: w.pool}, PerTeam: ratelimit.Rule{Limit: 1, Window: time.Hour}}
	at := func(id uuid.UUID) time.Time { return *byID(out.Releases)[id].ReleasedAt }
	d, err := m.Deliver(w.ctx, ids[0], a.TeamID, at(ids[0]), false)
	require.NoError(t, err)
	require.Error(t, d.Retry, "connection refused is retried")
	require.Zero(t, d.Snooze)
	d, err = m.Deliver(w.ctx, ids[1], a.TeamID, at(ids[1]), false)
	require.NoError(t, err)
	require.Greater(t, d.Snooze, time.Duration(0), "past the team's limit the job waits")
	require.NoError(t, d.Retry)
	// The last attempt marks the release failed with the reason.
	m.PerTeam = ratelimit.Rule{}
	_, err = m.Deliver(w.ctx, ids[0], a.TeamID, at(ids[0]), true)
	require.NoError(t, err)
	list, err := w.svc.List(w.ctx, a, w.asg)
	require.NoError(t, err)
	require.Equal(t, release.EmailFailed, byID(list)[ids[0]].Email)
	require.Contains(t, byID(list)[ids[0]].EmailError, "connect")
	require.Equal(t, release.EmailQueued, byID(list)[ids[1]].Email)
}

func TestParseSMTP(t *testing.T) {
	t.Parallel()
	s, err := release.ParseSMTP("", "")
	require.NoError(t, err)
	require.Nil(t, s, "no settings, no email")
	s, err = release.ParseSMTP("smtp://user:p%40ss@mail.school.example", "Markwell <no-reply@school.example>")
	require.NoError(t, err)
	require.Equal(t, release.SMTP{Host: "mail.school.example:587", TLS: "starttls", User: "user", Password: "p@ss",
		From: s.From}, *s)
	require.Equal(t, "no-reply@school.example", s.From.Address)
	s, err = release.ParseSMTP("smtps://mail.school.example", "no-reply@school.example")
	require.NoError(t, err)
	require.Equal(t, "mail.school.example:465", s.Host)
	require.Equal(t, "implicit", s.TLS)
	s, err = release.ParseSMTP("smtp://127.0.0.1:1025?tls=none", "no-reply@school.example")
	require.NoError(t, err)
	require.Equal(t, "none", s.TLS)
	for raw, want := range map[string]string{
		"http://mail.school.example":                 "scheme",
		"smtps://mail.school.example?tls=none":       "smtp:// only",
		"smtp://mail.school.example?tls=maybe":       "not known",
		"smtp://u:p@mail.school.example:25?tls=none": "clear",
		"smtp://mail.school.example?port=2":          "unknown setting",
		"mail.school.example":                        "must look like",
	} {
		_, err := release.ParseSMTP(raw, "no-reply@school.example")
		require.ErrorContains(t, err, want, raw)
		require.ErrorContains(t, err, "SMTP_URL", raw)
	}
	_, err = release.ParseSMTP("smtp://mail.school.example", "")
	require.ErrorContains(t, err, "SMTP_FROM")
	_, err = release.ParseSMTP("smtp://mail.school.example", "not an address")
	require.ErrorContains(t, err, "SMTP_FROM")
	_, err = release.ParseSMTP("", "no-reply@school.example")
	require.ErrorContains(t, err, "SMTP_URL: required")
}

// What a release queues in its transaction (the LTI scores) commits with
// it: the step sees the released rows with their links, and when the step
// fails nothing is released, so a release never loses its scores.
func TestReleaseRunsItsStepInTheSameTransaction(t *testing.T) {
	t.Parallel()
	w := newWorld(t, false, false)
	a := w.teacher
	ada := w.submit(t, a, w.asg, "Ada", "ada@pupils.test", "reviewed")
	w.submit(t, a, w.asg, "Ben", "ben@pupils.test", "grading")

	_, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, InTx: func(context.Context, pgx.Tx, []release.Release) error {
		return errors.New("queue down")
	}})
	require.ErrorContains(t, err, "queue down")
	list, err := w.svc.List(w.ctx, a, w.asg)
	require.NoError(t, err)
	require.Equal(t, release.StateNotReleased, byID(list)[ada].State, "a failed step releases nothing")

	var seen []release.Release
	out, err := w.svc.Release(w.ctx, a, release.Input{AssignmentID: w.asg, InTx: func(ctx context.Context, tx pgx.Tx, rs []release.Release) error {
		seen = rs
		// The step writes in the release's transaction: the release is
		// visible there.
		var n int
		require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM releases WHERE submission_id = $1 AND revoked_at IS NULL`, ada).Scan(&n))
		require.Equal(t, 1, n)
		return nil
	}})
	require.NoError(t, err)
	require.Len(t, seen, 1)
	require.Equal(t, ada, seen[0].SubmissionID)
	require.Equal(t, release.StateReleased, seen[0].State)
	require.Equal(t, out.Releases[0].Link, seen[0].Link)
	require.NotEmpty(t, seen[0].Link)
}
