package jobs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/storage"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// blobMock is a hand-written BlobReader.
type blobMock struct {
	GetFunc func(ctx context.Context, key string) (io.ReadCloser, error)
}

var _ jobs.BlobReader = (*blobMock)(nil)

func (b *blobMock) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	return b.GetFunc(ctx, key)
}

// extractorMock is a hand-written extract.Extractor.
type extractorMock struct {
	ExtractFunc func(ctx context.Context, in extract.Input) (extract.Result, error)
}

var _ extract.Extractor = (*extractorMock)(nil)

func (e *extractorMock) Extract(ctx context.Context, in extract.Input) (extract.Result, error) {
	return e.ExtractFunc(ctx, in)
}

type bundle struct {
	pool   *pgxpool.Pool
	insert *jobs.Client
	teamID uuid.UUID
	asgID  uuid.UUID
	files  map[string]string
	deps   jobs.Deps
}

// setup gives each test its own team and assignment in the package database,
// a blob store holding files by key, and the real plain-text extractor.
func setup(t testing.TB) *bundle {
	t.Helper()
	ctx := context.Background()
	pool := testdb.Isolated(t) // workers take any job in the queue: keep tests apart
	team, err := store.Q.CreateTeam(ctx, pool, "Team "+t.Name())
	require.NoError(t, err)
	asg, err := store.Q.CreateAssignment(ctx, pool, store.CreateAssignmentParams{
		TeamID: team.ID, Name: "Essay", Type: store.AssignmentTypeFeedback,
	})
	require.NoError(t, err)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	insert, err := jobs.NewInsertClient(pool, log)
	require.NoError(t, err)
	b := &bundle{pool: pool, insert: insert, teamID: team.ID, asgID: asg.ID, files: map[string]string{}}
	b.deps = jobs.Deps{
		Pool: pool,
		Blob: &blobMock{GetFunc: func(_ context.Context, key string) (io.ReadCloser, error) {
			text, ok := b.files[key]
			if !ok {
				return nil, fmt.Errorf("get %s: %w", key, storage.ErrNotFound)
			}
			return io.NopCloser(strings.NewReader(text)), nil
		}},
		Extractor: extract.PlainText{},
		Log:       log,
	}
	return b
}

// addSubmission writes a submission and its extraction job in one transaction.
func (b *bundle) addSubmission(t testing.TB, text string) (store.Submission, *rivertype.JobRow) {
	t.Helper()
	key := "assignments/" + b.asgID.String() + "/submissions/" + uuid.NewString() + "-essay.txt"
	b.files[key] = text
	var sub store.Submission
	var job *rivertype.JobRow
	err := store.InTx(context.Background(), b.pool, func(tx pgx.Tx) error {
		var err error
		sub, err = store.Q.CreateSubmission(context.Background(), tx, store.CreateSubmissionParams{
			TeamID: b.teamID, AssignmentID: b.asgID, Name: "essay.txt", FileKey: key,
			ContentType: "text/plain", Role: store.SubmissionRoleTeacher,
		})
		if err != nil {
			return err
		}
		res, err := b.insert.InsertTx(context.Background(), tx, jobs.ExtractTextArgs{SubmissionID: sub.ID}, nil)
		if err != nil {
			return err
		}
		job = res.Job
		return nil
	})
	require.NoError(t, err)
	return sub, job
}

// startWorker runs a worker client until the test ends and returns it with a
// channel of its finished jobs.
func (b *bundle) startWorker(t testing.TB, deps jobs.Deps, rescueAfter time.Duration) (*jobs.Client, <-chan *river.Event) {
	t.Helper()
	client, err := jobs.NewWorkerClient(b.pool, jobs.NewWorkers(deps), jobs.WorkerOptions{
		Queues:            map[string]int{jobs.QueueExtract: 2},
		JobTimeout:        rescueAfter / 2,
		RescueAfter:       rescueAfter,
		FetchPollInterval: 200 * time.Millisecond,
	}, deps.Log)
	require.NoError(t, err)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled)
	t.Cleanup(cancel)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
	return client, events
}

func waitFor(t *testing.T, events <-chan *river.Event, jobID int64) *river.Event {
	t.Helper()
	timeout := time.After(45 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Job.ID == jobID {
				return ev
			}
		case <-timeout:
			t.Fatalf("job %d did not finish", jobID)
		}
	}
}

func TestExtractText_RunsJobInsertedWithItsRow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	sub, job := b.addSubmission(t, "The mitochondria is the powerhouse of the cell.")
	require.Equal(t, jobs.QueueExtract, job.Queue)

	_, events := b.startWorker(t, b.deps, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)

	got, err := store.Q.GetSubmission(context.Background(), b.pool, store.GetSubmissionParams{ID: sub.ID, TeamID: b.teamID})
	require.NoError(t, err)
	require.Equal(t, "done", got.ExtractStatus)
	require.NotNil(t, got.ExtractedText)
	require.Equal(t, "The mitochondria is the powerhouse of the cell.", *got.ExtractedText)
}

func TestExtractText_RolledBackRowLeavesNoJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	var jobID int64
	err := store.InTx(ctx, b.pool, func(tx pgx.Tx) error {
		sub, err := store.Q.CreateSubmission(ctx, tx, store.CreateSubmissionParams{
			TeamID: b.teamID, AssignmentID: b.asgID, Name: "a.txt", FileKey: "k", ContentType: "text/plain", Role: store.SubmissionRoleTeacher,
		})
		require.NoError(t, err)
		res, err := b.insert.InsertTx(ctx, tx, jobs.ExtractTextArgs{SubmissionID: sub.ID}, nil)
		require.NoError(t, err)
		jobID = res.Job.ID
		return io.ErrUnexpectedEOF // the request failed after both writes
	})
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	_, err = b.insert.JobGet(ctx, jobID)
	require.ErrorIs(t, err, river.ErrNotFound)
}

func TestExtractText_UnsupportedFileIsCancelledWithAMessage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.files["k.mp3"] = "ID3..."
	ctx := context.Background()
	var sub store.Submission
	var jobID int64
	require.NoError(t, store.InTx(ctx, b.pool, func(tx pgx.Tx) error {
		var err error
		sub, err = store.Q.CreateSubmission(ctx, tx, store.CreateSubmissionParams{
			TeamID: b.teamID, AssignmentID: b.asgID, Name: "song.mp3", FileKey: "k.mp3", ContentType: "audio/mpeg", Role: store.SubmissionRoleStudent,
		})
		if err != nil {
			return err
		}
		res, err := b.insert.InsertTx(ctx, tx, jobs.ExtractTextArgs{SubmissionID: sub.ID}, nil)
		jobID = res.Job.ID
		return err
	}))
	_, events := b.startWorker(t, b.deps, time.Minute)
	ev := waitFor(t, events, jobID)
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	got, err := store.Q.GetSubmission(ctx, b.pool, store.GetSubmissionParams{ID: sub.ID, TeamID: b.teamID})
	require.NoError(t, err)
	require.Equal(t, "failed", got.ExtractStatus)
	require.Equal(t, "This file type cannot be read.", got.ExtractError)
}

// A worker stopped mid-job (its context cancelled, as on a hard shutdown)
// leaves the job to be retried; the next worker completes it exactly once.
func TestExtractText_KilledWorkerJobIsRetriedAndCompletesOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	sub, job := b.addSubmission(t, "Photosynthesis turns light into sugar.")

	var calls atomic.Int32
	started := make(chan struct{})
	deps := b.deps
	deps.Extractor = &extractorMock{ExtractFunc: func(ctx context.Context, in extract.Input) (extract.Result, error) {
		if calls.Add(1) == 1 {
			close(started)
			<-ctx.Done() // hangs until the worker is killed
			return extract.Result{}, ctx.Err()
		}
		return extract.PlainText{}.Extract(ctx, in)
	}}

	first, _ := b.startWorker(t, deps, time.Minute)
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("first worker never started the job")
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, first.StopAndCancel(stopCtx))

	row, err := b.insert.JobGet(context.Background(), job.ID)
	require.NoError(t, err)
	require.Contains(t, []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable}, row.State,
		"the interrupted job goes back to the queue")

	_, events := b.startWorker(t, deps, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt)
	require.Equal(t, int32(2), calls.Load())

	got, err := store.Q.GetSubmission(context.Background(), b.pool, store.GetSubmissionParams{ID: sub.ID, TeamID: b.teamID})
	require.NoError(t, err)
	require.Equal(t, "done", got.ExtractStatus)
	require.Equal(t, "Photosynthesis turns light into sugar.", *got.ExtractedText)
}

// A worker process that died outright leaves its job "running"; the rescuer
// of a live worker returns it to the queue and it completes.
func TestExtractText_JobOfDeadProcessIsRescued(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	sub, job := b.addSubmission(t, "Rescued text.")
	// What a process killed with SIGKILL leaves behind.
	_, err := b.pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1,
		attempted_at = now() - interval '10 minutes', attempted_by = ARRAY['dead-worker'] WHERE id = $1`, job.ID)
	require.NoError(t, err)

	_, events := b.startWorker(t, b.deps, 2*time.Second)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt)
	got, err := store.Q.GetSubmission(ctx, b.pool, store.GetSubmissionParams{ID: sub.ID, TeamID: b.teamID})
	require.NoError(t, err)
	require.Equal(t, "Rescued text.", *got.ExtractedText)
}

func TestExtractText_MissingFileFailsWithoutRetrying(t *testing.T) {
	t.Parallel()
	b := setup(t)
	sub, job := b.addSubmission(t, "gone")
	for k := range b.files {
		delete(b.files, k)
	}
	_, events := b.startWorker(t, b.deps, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt)
	got, err := store.Q.GetSubmission(context.Background(), b.pool, store.GetSubmissionParams{ID: sub.ID, TeamID: b.teamID})
	require.NoError(t, err)
	require.Equal(t, "failed", got.ExtractStatus)
	require.Equal(t, "The uploaded file is missing. Please upload it again.", got.ExtractError)
}
