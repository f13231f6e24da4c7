package jobs_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// gradeBundle is the jobs bundle with a teacher, the services the
// teacher's requests go through, and the demo model over HTTP (through the
// OpenAI client) with a log of every call it answered.
type gradeBundle struct {
	*bundle
	actor   identity.Actor
	asgs    *assignment.Service
	subs    *submission.Service
	results *result.Service
	demo    *fakellm.Server
	calls   *callLog
}

// setupGrading gives the test its own database, a teacher and the demo
// model configured by opts; cfg.Model defaults to the demo model's.
func setupGrading(t *testing.T, opts fakellm.Options, cfg llm.Config) *gradeBundle {
	t.Helper()
	b := setup(t)
	srv := fakellm.New(opts)
	fakellm.TeachAll(srv)
	calls := &callLog{}
	ts := httptest.NewServer(calls.wrap(srv))
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL + "/v1"
	if cfg.Model == "" {
		cfg.Model = fakellm.DefaultModel
	}
	model, err := llm.NewOpenAI(cfg)
	require.NoError(t, err)
	b.deps.LLM = model

	ctx := context.Background()
	email := "t-" + uuid.NewString()[:8] + "@school.test"
	tm, err := store.Q.CreateTeam(ctx, b.pool, "Team "+email)
	require.NoError(t, err)
	u, err := store.Q.CreateUser(ctx, b.pool, store.CreateUserParams{Email: email, Name: "T", TeamID: uuid.NullUUID{UUID: tm.ID, Valid: true}})
	require.NoError(t, err)
	asgs := &assignment.Service{Pool: b.pool}
	return &gradeBundle{
		bundle:  b,
		actor:   identity.Actor{UserID: u.ID, TeamID: tm.ID, Name: "T", Email: email},
		asgs:    asgs,
		subs:    &submission.Service{Pool: b.pool, Jobs: b.insert},
		results: &result.Service{Pool: b.pool, Assignments: asgs, Model: model, Jobs: b.insert},
		demo:    srv,
		calls:   calls,
	}
}

// aiQueue runs the ai queue four wide.
var aiQueue = map[string]int{queue.QueueAI: 4}

// questions is a grade assignment two levels deep (10 points); the demo
// model meets a criterion when the text holds half its words or more.
func questions() []assignment.Question {
	return []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}, Subquestions: []assignment.Question{
			{QuestionText: "Where does it happen?", Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}}},
		}},
		{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 2},
		}},
	}
}

// photosynthesis meets criteria 1.1, 1.2 and 1.1.1 of questions (6 points).
const photosynthesis = "Chlorophyll is the green pigment that traps light. The plant makes glucose, a sugar. " +
	"It happens in the chloroplasts of leaf cells."

func pointsOf(f float64) *float64 { return &f }

// define creates an assignment of typ and its definition.
func (g *gradeBundle) define(t *testing.T, typ string) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	asg, err := g.asgs.Create(ctx, g.actor, assignment.Input{Name: "Homework", Type: typ})
	require.NoError(t, err)
	var in assignment.FunctionInput
	switch typ {
	case assignment.TypeGrade:
		in.Questions = questions()
	case assignment.TypeFeedback:
		in.Highlights = []assignment.Highlighter{{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar mistakes."}}
	case assignment.TypeRubricFeedback:
		r, err := (&rubric.Service{Pool: g.pool}).Create(ctx, g.actor, rubric.Input{Name: "Essay", Criteria: []rubric.Criterion{
			{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
			{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong, cited evidence", "Some evidence", "No evidence"}, UseRange: true,
				LevelRanges: []rubric.LevelRange{
					{LevelDescriptionsIndex: 0, Min: pointsOf(4), Max: pointsOf(5)},
					{LevelDescriptionsIndex: 1, Min: pointsOf(2), Max: pointsOf(3)},
					{LevelDescriptionsIndex: 2, Min: pointsOf(0), Max: pointsOf(1)},
				}},
		}})
		require.NoError(t, err)
		in.RubricID = r.ID.String()
	case assignment.TypePrompt:
		in.Prompt = "Say how well the argument flows."
	}
	_, err = g.asgs.PutFunction(ctx, g.actor, asg.ID, in)
	require.NoError(t, err)
	return asg.ID
}

// newSubmission is a submission to add: its text (ready at once) or a file
// to extract, a text file unless contentType says otherwise (then name is
// the file's name).
type newSubmission struct {
	name, text  string
	file        []byte
	contentType string
}

// submit adds submissions to an assignment as the API does: rows, empty
// results and, for files, extraction jobs in one transaction.
func (g *gradeBundle) submit(t *testing.T, asgID uuid.UUID, subs ...newSubmission) []uuid.UUID {
	t.Helper()
	ctx := context.Background()
	asg, err := store.Q.GetAssignment(ctx, g.pool, store.GetAssignmentParams{ID: asgID, TeamID: g.actor.TeamID})
	require.NoError(t, err)
	rows := make([]submission.NewSubmission, len(subs))
	for i, s := range subs {
		name := s.name
		if name == "" {
			name = "Student " + strconv.Itoa(i+1)
		}
		rows[i] = submission.NewSubmission{Name: name, Source: submission.SourceCSV, Text: s.text}
		if s.file != nil {
			contentType, file := s.contentType, name
			if contentType == "" {
				contentType, file = "text/plain", name+".txt"
			}
			key := "assignments/" + asgID.String() + "/submissions/" + uuid.NewString()[:8] + "-" + file
			require.NoError(t, g.blobs.Put(ctx, key, bytes.NewReader(s.file), int64(len(s.file)), contentType))
			rows[i].Key, rows[i].ContentType, rows[i].Source = key, contentType, submission.SourceUpload
		}
	}
	var ids []uuid.UUID
	require.NoError(t, store.InTx(ctx, g.pool, func(tx pgx.Tx) error {
		created, _, err := g.subs.CreateTx(ctx, tx, g.actor.TeamID, asg, rows)
		for _, s := range created {
			ids = append(ids, s.ID)
		}
		return err
	}))
	return ids
}

// texts are submissions with the given texts.
func texts(ts ...string) []newSubmission {
	out := make([]newSubmission, len(ts))
	for i, s := range ts {
		out[i] = newSubmission{text: s}
	}
	return out
}

// runMany is the teacher pressing "Grade all" on the submissions.
func (g *gradeBundle) runMany(t *testing.T, asgID uuid.UUID, ids []uuid.UUID, opts ...result.RunOptions) {
	t.Helper()
	_, err := g.results.RunMany(context.Background(), g.actor, asgID, ids, opts...)
	require.NoError(t, err)
}

// stored is a function result as stored, with what the API does not show.
type stored struct {
	Status, Error string
	Writes, Calls int
	Flags         string
}

func (g *gradeBundle) stored(t *testing.T, id uuid.UUID) stored {
	t.Helper()
	var s stored
	require.NoError(t, g.pool.QueryRow(context.Background(), `SELECT status, error, result_writes, model_calls, flags::text
		FROM function_results WHERE submission_id = $1`, id).Scan(&s.Status, &s.Error, &s.Writes, &s.Calls, &s.Flags))
	return s
}

// waitFinished waits until none of the submissions' results is in
// progress and returns them as the teacher reads them.
func (g *gradeBundle) waitFinished(t *testing.T, asgID uuid.UUID, ids []uuid.UUID) []result.FunctionResult {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		out := make([]result.FunctionResult, len(ids))
		busy := 0
		for i, id := range ids {
			fr, err := g.results.Get(context.Background(), g.actor, id, asgID)
			require.NoError(t, err)
			out[i] = fr
			if grading.IsInProgress(fr.Status) {
				busy++
			}
		}
		if busy == 0 {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d results still in progress", busy, len(ids))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// call is one chat completion the demo model answered.
type call struct {
	ref        string // the ref-N of the submission it graded; "" when none
	start, end time.Time
	status     int
	retryAfter time.Duration // what a 429 asked for
}

// callLog records the demo model's calls in the order they arrived.
type callLog struct {
	mu    sync.Mutex
	calls []call
}

var refPattern = regexp.MustCompile(`ref-\d+`)

func (l *callLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		c := call{ref: refPattern.FindString(string(body)), start: time.Now()}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		c.end, c.status = time.Now(), rec.status
		if c.status == http.StatusTooManyRequests {
			c.retryAfter = headerWait(rec.Header())
		}
		l.mu.Lock()
		l.calls = append(l.calls, c)
		l.mu.Unlock()
	})
}

// headerWait reads Retry-After-Ms, else Retry-After in seconds.
func headerWait(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil {
		return time.Duration(ms * float64(time.Millisecond))
	}
	s, _ := strconv.ParseFloat(h.Get("Retry-After"), 64)
	return time.Duration(s * float64(time.Second))
}

// byRef returns the calls of each submission in the order they started.
func (l *callLog) byRef() map[string][]call {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string][]call{}
	for _, c := range l.calls {
		out[c.ref] = append(out[c.ref], c)
	}
	for _, cs := range out {
		slices.SortFunc(cs, func(a, b call) int { return a.start.Compare(b.start) })
	}
	return out
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// refs are n submission texts that each carry their ref-N.
func refs(n int, text string) []newSubmission {
	out := make([]newSubmission, n)
	for i := range out {
		out[i] = newSubmission{text: "Essay ref-" + strconv.Itoa(i) + ". " + text}
	}
	return out
}

// requireSentence checks a reason shown to a teacher: one plain sentence or
// two, no internals.
func requireSentence(t *testing.T, reason string) {
	t.Helper()
	require.NotEmpty(t, reason)
	require.True(t, strings.HasSuffix(reason, "."), reason)
	for _, internal := range []string{"llm", "http", "json", "context", "500", "grading grade_answers", "Post "} {
		require.NotContains(t, reason, internal)
	}
}

// finishedJobs waits until every job of kind is finalized and returns them.
func (g *gradeBundle) finishedJobs(t *testing.T, kind string) []*rivertype.JobRow {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows := g.handedTo(t, kind)
		if !slices.ContainsFunc(rows, func(j *rivertype.JobRow) bool { return j.FinalizedAt == nil }) {
			return rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s jobs not finished", kind)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
