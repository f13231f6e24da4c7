package result_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
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
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// bundle is the services of one test over a database, with the demo model
// served over HTTP and spoken to by the real OpenAI client.
type bundle struct {
	ctx     context.Context
	pool    *pgxpool.Pool
	insert  *queue.Client
	asgs    *assignment.Service
	rubrics *rubric.Service
	subs    *submission.Service
	svc     *result.Service
	demo    *fakellm.Server
	deps    jobs.Deps
}

// setup builds the services over the package's database, or over a
// database of the test's own when it runs River workers (they take any job
// of their queue).
func setup(t testing.TB, isolated bool, opts fakellm.Options) *bundle {
	t.Helper()
	pool := testdb.Pool(t)
	if isolated {
		pool = testdb.Isolated(t)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	insert, err := queue.NewInsertClient(pool, log)
	require.NoError(t, err)
	srv := fakellm.New(opts)
	fakellm.TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: ts.URL + "/v1", Model: fakellm.DefaultModel})
	require.NoError(t, err)
	asgs := &assignment.Service{Pool: pool}
	return &bundle{
		ctx: context.Background(), pool: pool, insert: insert, asgs: asgs,
		rubrics: &rubric.Service{Pool: pool},
		subs:    &submission.Service{Pool: pool, Jobs: insert},
		svc:     &result.Service{Pool: pool, Assignments: asgs, Model: model, Jobs: insert},
		demo:    srv,
		deps:    jobs.Deps{Pool: pool, LLM: model, Log: log},
	}
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

// student is how a student with a view token acts: the team, no user.
func student(a identity.Actor) identity.Actor { return identity.Actor{TeamID: a.TeamID} }

// gradeQuestions is a grade assignment three levels deep. The demo model
// meets a criterion when the text holds half its words or more, so
// photosynthesisText meets criteria 1.1, 1.2 and 1.1.1 (6 of 10 points).
func gradeQuestions() []assignment.Question {
	return []assignment.Question{
		{QuestionText: "Explain photosynthesis.", Criteria: []assignment.Criterion{
			{Description: "Names chlorophyll pigment", Points: 2},
			{Description: "Mentions glucose sugar", Points: 3},
		}, Subquestions: []assignment.Question{
			{QuestionText: "Where does it happen?", Criteria: []assignment.Criterion{{Description: "Chloroplasts in leaf cells", Points: 1}},
				Subquestions: []assignment.Question{
					{QuestionText: "Which layer has most?", Criteria: []assignment.Criterion{{Description: "Palisade mesophyll layer", Points: 1}}},
				}},
		}},
		{QuestionText: "Describe the water cycle.", Criteria: []assignment.Criterion{
			{Description: "Evaporation from oceans", Points: 2},
			{Description: "Condensation forms clouds", Points: 1},
		}},
	}
}

const photosynthesisText = "Chlorophyll is the green pigment that traps light. The plant makes glucose, a sugar. " +
	"It happens in the chloroplasts of leaf cells."

// highlighters are a feedback assignment's: the demo model marks doubled
// words under the grammar one.
func highlighters() []assignment.Highlighter {
	return []assignment.Highlighter{
		{Key: "praise", Color: "green-500", Title: "Praise", Description: "What works well."},
		{Key: "grammar", Color: "purple-500", Title: "Grammar", Description: "Grammar mistakes."},
	}
}

func pts(f float64) *float64 { return &f }

// essayRubric has a criterion without ranges (3 levels: 3, 2, 1 points)
// and one with ranges (4–5, 2–3, 0–1).
func essayRubric() rubric.Input {
	return rubric.Input{Name: "Essay", Criteria: []rubric.Criterion{
		{CriterionDescription: "Thesis", LevelDescriptions: []string{"Clear and arguable thesis", "Thesis present but vague", "No thesis"}},
		{CriterionDescription: "Evidence", LevelDescriptions: []string{"Strong, cited evidence", "Some evidence", "No evidence"}, UseRange: true,
			LevelRanges: []rubric.LevelRange{
				{LevelDescriptionsIndex: 0, Min: pts(4), Max: pts(5)},
				{LevelDescriptionsIndex: 1, Min: pts(2), Max: pts(3)},
				{LevelDescriptionsIndex: 2, Min: pts(0), Max: pts(1)},
			}},
	}}
}

// define creates an assignment of typ for a's team and its definition.
func (b *bundle) define(t testing.TB, a identity.Actor, typ string, instant bool) uuid.UUID {
	t.Helper()
	asg, err := b.asgs.Create(b.ctx, a, assignment.Input{Name: "Homework " + typ, Type: typ, ProvideInstantFeedback: instant})
	require.NoError(t, err)
	var in assignment.FunctionInput
	switch typ {
	case assignment.TypeGrade:
		in.Questions = gradeQuestions()
	case assignment.TypeFeedback:
		in.Highlights, in.Context = highlighters(), "A letter to a friend."
	case assignment.TypeRubricFeedback:
		r, err := b.rubrics.Create(b.ctx, a, essayRubric())
		require.NoError(t, err)
		in.RubricID = r.ID.String()
	case assignment.TypePrompt:
		in.Prompt = "Say how well the argument flows."
	}
	_, err = b.asgs.PutFunction(b.ctx, a, asg.ID, in)
	require.NoError(t, err)
	return asg.ID
}

// submit adds submissions whose text is ready (as a CSV import does).
func (b *bundle) submit(t testing.TB, a identity.Actor, asgID uuid.UUID, texts ...string) []uuid.UUID {
	t.Helper()
	asg, err := store.Q.GetAssignment(b.ctx, b.pool, store.GetAssignmentParams{ID: asgID, TeamID: a.TeamID})
	require.NoError(t, err)
	subs := make([]submission.NewSubmission, len(texts))
	for i, text := range texts {
		subs[i] = submission.NewSubmission{Name: "Student " + uuid.NewString()[:6], Source: submission.SourceCSV, Text: text}
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

// gradeNow starts the AI on the submissions (grade-all) and works each
// one's grade_submission job at once, as a worker would.
func (b *bundle) gradeNow(t testing.TB, a identity.Actor, asgID uuid.UUID, ids ...uuid.UUID) []result.FunctionResult {
	t.Helper()
	_, err := b.svc.RunMany(b.ctx, a, asgID, ids)
	require.NoError(t, err)
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewGradeSubmissionWorker(b.deps))
	out := make([]result.FunctionResult, len(ids))
	for i, id := range ids {
		tx, err := b.pool.Begin(b.ctx)
		require.NoError(t, err)
		res, err := worker.Work(b.ctx, t, tx, queue.GradeSubmissionArgs{SubmissionID: id}, nil)
		_ = tx.Rollback(b.ctx)
		require.NoError(t, err)
		require.Equal(t, river.EventKindJobCompleted, res.EventKind)
		out[i] = b.get(t, a, asgID, id)
		require.False(t, grading.IsInProgress(out[i].Status), "result %d is %s", i, out[i].Status)
	}
	return out
}

// get reads a submission's result as the teacher does.
func (b *bundle) get(t testing.TB, a identity.Actor, asgID, id uuid.UUID) result.FunctionResult {
	t.Helper()
	fr, err := b.svc.Get(b.ctx, a, id, asgID)
	require.NoError(t, err)
	return fr
}

// startWorker runs the ai queue, 4 wide, until the test ends (isolated
// databases only).
func (b *bundle) startWorker(t testing.TB) { b.startWorkerWidth(t, 4) }

// startWorkerWidth runs the ai queue with n slots until the test ends.
func (b *bundle) startWorkerWidth(t testing.TB, n int) {
	t.Helper()
	client, err := jobs.NewWorkerClient(b.pool, jobs.NewWorkers(b.deps), jobs.WorkerOptions{
		Queues: map[string]int{queue.QueueAI: n}, JobTimeout: time.Minute, RescueAfter: 2 * time.Minute,
		FetchPollInterval: 100 * time.Millisecond,
	}, b.deps.Log)
	require.NoError(t, err)
	require.NoError(t, client.Start(b.ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
}

// waitFinished waits until no result of the assignment is in progress and
// returns the assignment and its results as assignment/get does.
func (b *bundle) waitFinished(t testing.TB, a identity.Actor, asgID uuid.UUID) (assignment.Assignment, []result.FunctionResult) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		asg, results, err := b.svc.GetAssignment(b.ctx, a, asgID)
		require.NoError(t, err)
		busy := 0
		for _, r := range results {
			if grading.IsInProgress(r.Status) {
				busy++
			}
		}
		if busy == 0 {
			return asg, results
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d results still in progress", busy, len(results))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// writes is how many times a run wrote the submission's result.
func (b *bundle) writes(t testing.TB, id uuid.UUID) int {
	t.Helper()
	var n int
	require.NoError(t, b.pool.QueryRow(b.ctx, `SELECT result_writes FROM function_results WHERE submission_id = $1`, id).Scan(&n))
	return n
}

// answerNode is a node of a grade result's answers tree.
type answerNode struct {
	AnswerBoxesCoordinates json.RawMessage `json:"answerBoxesCoordinates"`
	AnswerMedia            []string        `json:"answerMedia"`
	Grade                  struct {
		Points          float64 `json:"points"`
		GradeAdjustment float64 `json:"gradeAdjustment"`
		Feedback        string  `json:"feedback"`
		Criteria        []bool  `json:"criteria"`
	} `json:"grade"`
	Subanswers []answerNode `json:"subanswers"`
}

func answers(t testing.TB, raw json.RawMessage) []answerNode {
	t.Helper()
	var out []answerNode
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return out
}

func requireCode(t testing.TB, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, code, e.Code, err.Error())
	if msg != "" {
		require.Equal(t, msg, e.Message)
	}
}

func total(t testing.TB, fr result.FunctionResult) (float64, float64) {
	t.Helper()
	require.NotNil(t, fr.TotalPoints, "status %s", fr.Status)
	require.NotNil(t, fr.MaxPoints)
	return *fr.TotalPoints, *fr.MaxPoints
}

func decode(t testing.TB, raw json.RawMessage, out any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(raw, out), string(raw))
}

func levelsOf(t testing.TB, fr result.FunctionResult) []int {
	t.Helper()
	return fr.CriteriaLevels
}
