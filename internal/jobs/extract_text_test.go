package jobs_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
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

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/extract/ocr"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

// ocrPool is the tests' OCR pool, two clients wide like a small ocr queue.
var ocrPool *ocr.Pool

func TestMain(m *testing.M) {
	// Re-executes the test binary once with OMP_THREAD_LIMIT=1, as the worker does.
	if err := ocr.EnsureOpenMPThreadLimit(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var err error
	if ocrPool, err = ocr.NewPool(2); err != nil {
		fmt.Fprintln(os.Stderr, "OCR pool:", err)
		os.Exit(1)
	}
	code := testdb.Main(m)
	_ = ocrPool.Close()
	os.Exit(code)
}

// Known content of the extract package's fixtures (internal/extract/testdata).
const (
	essayPage1 = "The Water Cycle Water moves between the oceans, the air and the land in a cycle that never stops. " +
		"The sun warms the surface of the sea and turns some of the water into vapour."
	scanStart    = "Earthquakes happen when two plates of the crust slip past each other."
	printedStart = "Photosynthesis is the process plants use to make their own food."
	docxMime     = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
)

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
	blobs  *blob.Local
	insert *queue.Client
	teamID uuid.UUID
	asgID  uuid.UUID
	// deps are the real ones: a Reader, the OCR pool, local storage; no model.
	deps jobs.Deps
}

// setup gives each test its own database (workers take any job in their
// queues), local blob storage, a team and a typed (not handwritten) feedback
// assignment.
func setup(t testing.TB) *bundle {
	t.Helper()
	ctx := context.Background()
	pool := testdb.Isolated(t)
	blobs, err := blob.NewLocal(blob.Config{
		Dir: t.TempDir(), PublicURL: "http://localhost:8080", Secret: []byte(strings.Repeat("s", 32)),
	})
	require.NoError(t, err)
	b := &bundle{pool: pool, blobs: blobs}
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO teams (name) VALUES ($1) RETURNING id`, "Team "+t.Name()).Scan(&b.teamID))
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO assignments (team_id, name, type) VALUES ($1, 'Essay', 'feedback') RETURNING id`,
		b.teamID).Scan(&b.asgID))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b.insert, err = queue.NewInsertClient(pool, log)
	require.NoError(t, err)
	b.deps = jobs.Deps{
		Pool: pool, Blob: blobs, OCR: ocrPool, Log: log,
		ReadOptions: extract.Options{TempDir: t.TempDir()},
	}
	return b
}

// handwritten marks the test's assignment as handwritten.
func (b *bundle) handwritten(t testing.TB) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `UPDATE assignments SET is_hand_written = true WHERE id = $1`, b.asgID)
	require.NoError(t, err)
}

// upload describes one submitted file.
type upload struct {
	name, contentType string
	data              []byte
	readerHint        string
	handWritten       bool
}

// fixture is a file of the extract package's test data, named name.
func fixture(t testing.TB, file, name, contentType string) upload {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", file))
	require.NoError(t, err)
	return upload{name: name, contentType: contentType, data: data}
}

// add stores the file and writes its submission row and extraction job in
// one transaction, as the API does.
func (b *bundle) add(t testing.TB, u upload) (uuid.UUID, *rivertype.JobRow) {
	t.Helper()
	var id uuid.UUID
	var job *rivertype.JobRow
	require.NoError(t, store.InTx(context.Background(), b.pool, func(tx pgx.Tx) error {
		var err error
		id, job, err = b.addTx(t, tx, u)
		return err
	}))
	return id, job
}

// addTx stores the file and writes its row and job in tx.
func (b *bundle) addTx(t testing.TB, tx pgx.Tx, u upload) (uuid.UUID, *rivertype.JobRow, error) {
	t.Helper()
	ctx := context.Background()
	key := "assignments/" + b.asgID.String() + "/submissions/" + uuid.NewString()[:8] + "-" + blob.SanitizeFileName(u.name)
	if u.data != nil {
		require.NoError(t, b.blobs.Put(ctx, key, bytes.NewReader(u.data), int64(len(u.data)), u.contentType))
	}
	var id uuid.UUID
	if err := tx.QueryRow(ctx, `INSERT INTO submissions
		(team_id, assignment_id, name, file_key, content_type, role, reader_hint, is_hand_written)
		VALUES ($1, $2, $3, $4, $5, 'teacher', $6, $7) RETURNING id`,
		b.teamID, b.asgID, u.name, key, u.contentType, u.readerHint, u.handWritten).Scan(&id); err != nil {
		return id, nil, err
	}
	res, err := b.insert.InsertTx(ctx, tx, queue.ExtractTextArgs{SubmissionID: id}, nil)
	if err != nil {
		return id, nil, err
	}
	return id, res.Job, nil
}

// submission reads a submission as the extraction jobs see it.
func (b *bundle) submission(t testing.TB, id uuid.UUID) store.GetSubmissionToExtractRow {
	t.Helper()
	sub, err := store.Q.GetSubmissionToExtract(context.Background(), b.pool, id)
	require.NoError(t, err)
	return sub
}

// page is a stored page.
type page struct {
	Text       string `json:"text"`
	Source     string `json:"source"`
	Confidence *int   `json:"confidence"`
	Warning    string `json:"warning"`
}

func pages(t testing.TB, sub store.GetSubmissionToExtractRow) []page {
	t.Helper()
	var out []page
	require.NoError(t, json.Unmarshal(sub.Pages, &out))
	require.Len(t, out, int(sub.PageCount))
	return out
}

// waitStatus waits until the submission's extraction is ready or failed.
func (b *bundle) waitStatus(t testing.TB, id uuid.UUID) store.GetSubmissionToExtractRow {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		sub := b.submission(t, id)
		if sub.ExtractStatus == "ready" || sub.ExtractStatus == "failed" {
			return sub
		}
		if time.Now().After(deadline) {
			t.Fatalf("submission %s still %s", id, sub.ExtractStatus)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startWorker runs a worker client on the given queues until the test ends
// and returns it with a channel of its job events.
func (b *bundle) startWorker(t testing.TB, deps jobs.Deps, queues map[string]int, rescueAfter time.Duration) (*queue.Client, <-chan *river.Event) {
	t.Helper()
	client, err := jobs.NewWorkerClient(b.pool, jobs.NewWorkers(deps), jobs.WorkerOptions{
		Queues:            queues,
		JobTimeout:        rescueAfter / 2,
		RescueAfter:       rescueAfter,
		FetchPollInterval: 100 * time.Millisecond,
	}, deps.Log)
	require.NoError(t, err)
	events, cancel := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed,
		river.EventKindJobCancelled, river.EventKindJobSnoozed)
	t.Cleanup(cancel)
	require.NoError(t, client.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.Stop(ctx)
	})
	return client, events
}

// extractQueue runs the extract queue only.
var extractQueue = map[string]int{queue.QueueExtract: 2}

// allQueues runs every extraction queue.
var allQueues = map[string]int{queue.QueueExtract: 2, queue.QueueOCR: 2, queue.QueueAI: 2}

// waitFor returns the next event of the job.
func waitFor(t testing.TB, events <-chan *river.Event, jobID int64) *river.Event {
	t.Helper()
	timeout := time.After(90 * time.Second)
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

// waitAll returns the first event of each of the jobs, in whatever order
// they finish (two workers run side by side).
func waitAll(t testing.TB, events <-chan *river.Event, jobIDs []int64) map[int64]*river.Event {
	t.Helper()
	out := make(map[int64]*river.Event, len(jobIDs))
	timeout := time.After(90 * time.Second)
	for len(out) < len(jobIDs) {
		select {
		case ev := <-events:
			if slices.Contains(jobIDs, ev.Job.ID) && out[ev.Job.ID] == nil {
				out[ev.Job.ID] = ev
			}
		case <-timeout:
			t.Fatalf("%d of %d jobs finished", len(out), len(jobIDs))
		}
	}
	return out
}

// waitKind returns the next event of a job of the kind.
func waitKind(t testing.TB, events <-chan *river.Event, kind string) *river.Event {
	t.Helper()
	timeout := time.After(90 * time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Job.Kind == kind {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s job finished", kind)
		}
	}
}

// handedTo lists the jobs of a kind in the queue table.
func (b *bundle) handedTo(t testing.TB, kind string) []*rivertype.JobRow {
	t.Helper()
	res, err := b.insert.JobList(context.Background(), river.NewJobListParams().Kinds(kind).First(100))
	require.NoError(t, err)
	return res.Jobs
}

func TestExtractText_TextPDFIsReadPageByPage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "text-3pages.pdf", "essay.pdf", "application/pdf"))
	require.Equal(t, queue.QueueExtract, job.Queue)

	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.Empty(t, sub.ExtractError)
	require.EqualValues(t, 1, sub.ExtractWrites)
	got := pages(t, sub)
	require.Len(t, got, 3)
	require.Equal(t, essayPage1, strings.Join(strings.Fields(got[0].Text), " "))
	require.True(t, strings.HasPrefix(got[1].Text, "Page two"), got[1].Text)
	for i, p := range got {
		require.Equal(t, "pdftotext", p.Source, "page %d is the PDF's text layer", i+1)
	}
	require.NotNil(t, sub.ExtractedText)
	require.Contains(t, *sub.ExtractedText, "vapour.\n\nPage two", "pages are joined by a blank line")
	require.Empty(t, b.handedTo(t, "ocr_pages"), "no page needed OCR")
}

func TestExtractText_DOCXIsOnePageWithListsAndTable(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.Equal(t, []page{{Text: *sub.ExtractedText, Source: "file"}}, pages(t, sub))
	require.True(t, strings.HasPrefix(*sub.ExtractedText, "Lab Report: Plant Growth\n"))
	require.Contains(t, *sub.ExtractedText, "Sunny window | 4 cm | 9 cm")
	require.EqualValues(t, 1, sub.ExtractWrites)

	// The file's SHA-256 is kept, so the same file uploaded again is recognised.
	data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "report.docx"))
	require.NoError(t, err)
	want := sha256.Sum256(data)
	var got string
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT content_sha256 FROM submissions WHERE id = $1`, id).Scan(&got))
	require.Equal(t, hex.EncodeToString(want[:]), got)
}

// A text file whose Greek was saved in one encoding and read in another is
// ready with a warning saying what is wrong, and no page for the table to
// link to ("Check page 1 … against the original"): its text is its original.
func TestExtractText_GarbledTextFileIsWarnedWithoutAPageToCheck(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "greek-double-encoded.txt", "essay.txt", "text/plain"))
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	got := pages(t, sub)
	require.Regexp(t, `^Some characters in this file look garbled \(“.+”\), so words may be wrong or missing$`, got[0].Warning)
	require.Equal(t, got[0].Warning, sub.ExtractError, "the table shows what is wrong")

	listed, err := store.Q.ListSubmissions(context.Background(), b.pool, store.ListSubmissionsParams{AssignmentID: sub.AssignmentID, TeamID: sub.TeamID})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Empty(t, listed[0].DoubtfulPages, "no page to check against an original")
}

// A file's format comes from its bytes: a PNG uploaded as essay.pdf, with
// the client asking for a PDF read, is read as an image (by OCR).
func TestExtractText_PDFThatIsReallyAPNGIsReadAsAnImage(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u := fixture(t, "printed.png", "essay.pdf", "application/pdf")
	u.readerHint = "pdf"
	id, _ := b.add(t, u)
	b.startWorker(t, b.deps, allQueues, time.Minute)

	sub := b.waitStatus(t, id)
	require.Equal(t, "ready", sub.ExtractStatus, sub.ExtractError)
	got := pages(t, sub)
	require.Len(t, got, 1)
	require.Equal(t, "ocr", got[0].Source)
	require.True(t, strings.HasPrefix(got[0].Text, printedStart), got[0].Text)
	require.EqualValues(t, 1, sub.ExtractWrites)
}

// Files that can never be read fail at once with a reason the teacher
// understands; the job is cancelled, not retried.
func TestExtractText_UnreadableFilesFailAtOnceWithTheReason(t *testing.T) {
	t.Parallel()
	b := setup(t)
	cases := []struct {
		upload upload
		reason string
	}{
		{fixture(t, "truncated.pdf", "essay.pdf", "application/pdf"), extract.ReasonPDFDamaged},
		{fixture(t, "encrypted-aes256.pdf", "locked.pdf", "application/pdf"), extract.ReasonPDFPassword},
		{upload{name: "song.mp3", contentType: "audio/mpeg", data: []byte("ID3\x04\x00\x00\x00\x00\x00\x00 not an essay")}, extract.ReasonUnsupported},
		{upload{name: "empty.txt", contentType: "text/plain", data: []byte{}}, extract.ReasonEmpty},
	}
	ids := make([]uuid.UUID, len(cases))
	jobIDs := make([]int64, len(cases))
	for i, c := range cases {
		id, job := b.add(t, c.upload)
		ids[i], jobIDs[i] = id, job.ID
	}
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	finished := waitAll(t, events, jobIDs)
	for i, c := range cases {
		ev := finished[jobIDs[i]]
		require.Equal(t, river.EventKindJobCancelled, ev.Kind, c.upload.name)
		require.Equal(t, 1, ev.Job.Attempt, "%s: not retried", c.upload.name)
		sub := b.submission(t, ids[i])
		require.Equal(t, "failed", sub.ExtractStatus, c.upload.name)
		require.Equal(t, c.reason, sub.ExtractError, "%s: the reason only, no internals", c.upload.name)
		require.Zero(t, sub.ExtractWrites)
	}
}

func TestExtractText_MissingFileFailsWithoutRetrying(t *testing.T) {
	t.Parallel()
	b := setup(t)
	u := fixture(t, "report.docx", "report.docx", docxMime)
	u.data = nil // the row names a key that holds no file
	id, job := b.add(t, u)
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt)
	sub := b.submission(t, id)
	require.Equal(t, "failed", sub.ExtractStatus)
	require.Equal(t, jobs.ReasonMissing, sub.ExtractError)
}

// A failure that retrying might fix (storage down) is retried with backoff;
// the submission stays extracting until the last attempt marks it failed,
// with a reason that hides the internal error.
func TestExtractText_TransientErrorsRetryAndOnlyTheLastAttemptFails(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, _ := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))
	var calls atomic.Int32
	deps := b.deps
	deps.Blob = &blobMock{GetFunc: func(context.Context, string) (io.ReadCloser, error) {
		calls.Add(1)
		return nil, errors.New("dial tcp 10.0.0.7:9000: connection refused")
	}}
	// Two attempts instead of five, so the test does not wait out the backoff.
	_, err := b.pool.Exec(context.Background(), `UPDATE river_job SET max_attempts = 2 WHERE kind = 'extract_text'`)
	require.NoError(t, err)
	_, events := b.startWorker(t, deps, extractQueue, time.Minute)

	var jobID int64
	select {
	case ev := <-events:
		jobID = ev.Job.ID
		require.Equal(t, river.EventKindJobFailed, ev.Kind)
		require.Contains(t, []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRetryable}, ev.Job.State, "to be retried")
	case <-time.After(30 * time.Second):
		t.Fatal("no attempt")
	}
	sub := b.submission(t, id)
	require.Equal(t, "extracting", sub.ExtractStatus, "not failed while attempts remain")
	require.Empty(t, sub.ExtractError)

	ev := waitFor(t, events, jobID)
	require.Equal(t, river.EventKindJobFailed, ev.Kind)
	require.Equal(t, rivertype.JobStateDiscarded, ev.Job.State)
	require.Equal(t, int32(2), calls.Load())
	sub = b.submission(t, id)
	require.Equal(t, "failed", sub.ExtractStatus)
	require.Equal(t, jobs.ReasonUnreadable, sub.ExtractError)
}

// What a crash between the final write and River marking the job complete
// leaves behind: the job runs again, and writes nothing.
func TestExtractText_RerunOfAFinishedJobWritesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	id, job := b.add(t, fixture(t, "text-3pages.pdf", "essay.pdf", "application/pdf"))
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)
	before := b.submission(t, id)
	require.EqualValues(t, 1, before.ExtractWrites)

	_, err := b.pool.Exec(ctx, `UPDATE river_job SET state = 'available', finalized_at = NULL, scheduled_at = now() WHERE id = $1`, job.ID)
	require.NoError(t, err)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt, "the job really ran again")

	after := b.submission(t, id)
	require.EqualValues(t, 1, after.ExtractWrites)
	require.Equal(t, before.ExtractedText, after.ExtractedText)
	require.JSONEq(t, string(before.Pages), string(after.Pages))
}

// Two runs of one extraction at once (a rescued job whose first worker is
// still alive): the one that finishes second writes nothing.
func TestExtractText_SecondOfTwoConcurrentRunsWritesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))
	deps := b.deps
	deps.Extractor = &extractorMock{ExtractFunc: func(ctx context.Context, in extract.Input) (extract.Result, error) {
		// The other run finishes while this one reads.
		first := "Written by the run that finished first."
		n, err := store.Q.FinishExtracting(ctx, b.pool, store.FinishExtractingParams{
			ID: id, Pages: []byte(`[{"text": "Written by the run that finished first.", "source": "file"}]`),
			PageCount: 1, ExtractedText: &first,
		})
		if err != nil || n != 1 {
			return extract.Result{}, fmt.Errorf("the other run: %d rows, %v", n, err)
		}
		return extract.New(extract.Options{}).Extract(ctx, in)
	}}
	_, events := b.startWorker(t, deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.EqualValues(t, 1, sub.ExtractWrites)
	require.Equal(t, "Written by the run that finished first.", *sub.ExtractedText)
}

// A worker stopped mid-job (its context cancelled, as on a hard shutdown)
// leaves the job to be retried; the next worker completes it exactly once.
func TestExtractText_KilledWorkerJobIsRetriedAndCompletesOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))

	var calls atomic.Int32
	started := make(chan struct{})
	deps := b.deps
	deps.Extractor = &extractorMock{ExtractFunc: func(ctx context.Context, in extract.Input) (extract.Result, error) {
		if calls.Add(1) == 1 {
			close(started)
			<-ctx.Done() // hangs until the worker is killed
			return extract.Result{}, ctx.Err()
		}
		return extract.New(extract.Options{}).Extract(ctx, in)
	}}

	first, _ := b.startWorker(t, deps, extractQueue, time.Minute)
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
	require.Equal(t, "extracting", b.submission(t, id).ExtractStatus)

	_, events := b.startWorker(t, deps, extractQueue, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt)
	require.Equal(t, int32(2), calls.Load())

	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.EqualValues(t, 1, sub.ExtractWrites)
	require.True(t, strings.HasPrefix(*sub.ExtractedText, "Lab Report: Plant Growth"))
}

// A worker process that died outright leaves its job "running"; the rescuer
// of a live worker returns it to the queue and it completes.
func TestExtractText_JobOfDeadProcessIsRescued(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	id, job := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))
	// What a process killed with SIGKILL leaves behind.
	_, err := b.pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1,
		attempted_at = now() - interval '10 minutes', attempted_by = ARRAY['dead-worker'] WHERE id = $1`, job.ID)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE submissions SET extract_status = 'extracting' WHERE id = $1`, id)
	require.NoError(t, err)

	_, events := b.startWorker(t, b.deps, extractQueue, 2*time.Second)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCompleted, ev.Kind)
	require.Equal(t, 2, ev.Job.Attempt)
	sub := b.submission(t, id)
	require.Equal(t, "ready", sub.ExtractStatus)
	require.EqualValues(t, 1, sub.ExtractWrites)
}

func TestExtractText_DeletedSubmissionCancelsTheJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "report.docx", "report.docx", docxMime))
	_, err := b.pool.Exec(context.Background(), `DELETE FROM submissions WHERE id = $1`, id)
	require.NoError(t, err)
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	ev := waitFor(t, events, job.ID)
	require.Equal(t, river.EventKindJobCancelled, ev.Kind)
	require.Equal(t, 1, ev.Job.Attempt)
}

func TestExtractText_RolledBackRowLeavesNoJob(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	var jobID int64
	err := store.InTx(ctx, b.pool, func(tx pgx.Tx) error {
		var id uuid.UUID
		require.NoError(t, tx.QueryRow(ctx, `INSERT INTO submissions (team_id, assignment_id, name, file_key)
			VALUES ($1, $2, 'a.txt', 'k') RETURNING id`, b.teamID, b.asgID).Scan(&id))
		res, err := b.insert.InsertTx(ctx, tx, queue.ExtractTextArgs{SubmissionID: id}, nil)
		require.NoError(t, err)
		jobID = res.Job.ID
		return io.ErrUnexpectedEOF // the request failed after both writes
	})
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	_, err = b.insert.JobGet(ctx, jobID)
	require.ErrorIs(t, err, river.ErrNotFound)
}

// requireHandedTo checks that exactly one job of args' kind was queued, on
// the given queue.
func requireHandedTo[T river.JobArgs](t *testing.T, b *bundle, args T, queue string) {
	t.Helper()
	rivertest.RequireInserted(context.Background(), t, riverpgxv5.New(b.pool), args, &rivertest.RequireInsertedOpts{Queue: queue})
	require.Len(t, b.handedTo(t, args.Kind()), 1)
}
