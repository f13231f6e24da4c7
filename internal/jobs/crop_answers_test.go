package jobs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// gradeQuestions is a grade assignment's tree: question 0 with two criteria
// and a subquestion, question 1 with one criterion.
const gradeQuestions = `[
 {"questionText":"Q1","criteria":[{"description":"a","points":1},{"description":"b","points":2}],
  "subquestions":[{"questionText":"Q1a","criteria":[{"description":"c","points":1}],"subquestions":[]}]},
 {"questionText":"Q2","criteria":[{"description":"d","points":1}],"subquestions":[]}]`

// cropBundle is the extraction bundle turned into a handwritten grade
// assignment with a question tree and a template.
type cropBundle struct {
	*bundle
	worker *rivertest.Worker[jobs.CropAnswersArgs, pgx.Tx]
	boxes  []answerbox.Box
	dir    string // the blob store's root
}

func setupCrop(t *testing.T) *cropBundle {
	t.Helper()
	ctx := context.Background()
	b := setup(t)
	dir := t.TempDir()
	blobs, err := blob.NewLocal(blob.Config{Dir: dir, PublicURL: "http://localhost:8080", Secret: []byte(strings.Repeat("s", 32))})
	require.NoError(t, err)
	b.blobs, b.deps.Blob = blobs, blobs
	_, err = b.pool.Exec(ctx, `UPDATE assignments SET type = 'grade', is_hand_written = true WHERE id = $1`, b.asgID)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `INSERT INTO functions (team_id, assignment_id, type, questions) VALUES ($1, $2, 'grade', $3)`,
		b.teamID, b.asgID, gradeQuestions)
	require.NoError(t, err)
	boxes := []answerbox.Box{
		{Path: []int{0}, Page: 0, X: 0.1, Y: 0.2, Width: 0.5, Height: 0.25},
		{Path: []int{0, 0}, Page: 1, X: 0, Y: 0, Width: 1, Height: 0.5},
		{Path: []int{1}, Page: 0, X: 0.5, Y: 0.5, Width: 0.5, Height: 0.5},
	}
	raw, err := json.Marshal(boxes)
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE assignments SET answer_boxes = $2 WHERE id = $1`, b.asgID, raw)
	require.NoError(t, err)
	return &cropBundle{bundle: b, boxes: boxes, dir: dir,
		worker: rivertest.NewWorker(t, riverpgxv5.New(b.pool), &river.Config{}, jobs.NewCropAnswersWorker(b.deps))}
}

// readySubmission stores a file as a read submission with its grade result.
func (b *cropBundle) readySubmission(t *testing.T, name, contentType string, data []byte, pageCount int) uuid.UUID {
	t.Helper()
	ctx := context.Background()
	key := "assignments/" + b.asgID.String() + "/submissions/" + uuid.NewString()[:8] + "-" + name
	require.NoError(t, b.blobs.Put(ctx, key, bytes.NewReader(data), int64(len(data)), contentType))
	var id uuid.UUID
	require.NoError(t, b.pool.QueryRow(ctx, `INSERT INTO submissions
		(team_id, assignment_id, name, file_key, content_type, extract_status, page_count, is_hand_written)
		VALUES ($1, $2, $3, $4, $5, 'ready', $6, true) RETURNING id`,
		b.teamID, b.asgID, name, key, contentType, pageCount).Scan(&id))
	_, err := b.pool.Exec(ctx, `INSERT INTO function_results (team_id, assignment_id, submission_id, status)
		VALUES ($1, $2, $3, '')`, b.teamID, b.asgID, id)
	require.NoError(t, err)
	return id
}

func (b *cropBundle) run(t *testing.T, id uuid.UUID) *rivertest.WorkResult {
	t.Helper()
	ctx := context.Background()
	tx, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	res, err := b.worker.Work(ctx, t, tx, jobs.CropAnswersArgs{SubmissionID: id}, nil)
	require.NoError(t, err)
	return res
}

// result reads a submission's result: status and answers.
func (b *cropBundle) result(t *testing.T, id uuid.UUID) (string, []map[string]any) {
	t.Helper()
	var status string
	var raw []byte
	require.NoError(t, b.pool.QueryRow(context.Background(),
		`SELECT status, answers FROM function_results WHERE submission_id = $1`, id).Scan(&status, &raw))
	var answers []map[string]any
	require.NoError(t, json.Unmarshal(raw, &answers))
	return status, answers
}

// stored lists the keys under the blob root that start with prefix.
func (b *cropBundle) stored(t *testing.T, prefix string) []string {
	t.Helper()
	dir := filepath.Join(b.dir, "data")
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, prefix) {
			out = append(out, rel)
		}
		return nil
	}))
	sort.Strings(out)
	return out
}

// imageSize decodes a stored JPEG's size.
func (b *cropBundle) imageSize(t *testing.T, key string) image.Point {
	t.Helper()
	body, err := b.blobs.Get(context.Background(), key)
	require.NoError(t, err)
	defer body.Close()
	data, err := io.ReadAll(body)
	require.NoError(t, err)
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
	require.NoError(t, err, key)
	return image.Pt(cfg.Width, cfg.Height)
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func round(f float64) int { return int(math.Round(f)) }

func TestCropAnswersOfAPDF(t *testing.T) {
	t.Parallel()
	b := setupCrop(t)
	ctx := context.Background()
	pdf, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "text-3pages.pdf"))
	require.NoError(t, err)
	id := b.readySubmission(t, "test.pdf", "application/pdf", pdf, 3)
	// a grade already given to question 2 survives the crop
	_, err = b.pool.Exec(ctx, `UPDATE function_results SET answers = $2 WHERE submission_id = $1`, id,
		`[{}, {"grade": {"points": 1, "gradeAdjustment": 0, "feedback": "Good", "criteria": [true]}}]`)
	require.NoError(t, err)

	res := b.run(t, id)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)

	status, answers := b.result(t, id)
	require.Equal(t, "ready-to-grade", status)
	require.Len(t, answers, 2)
	q1key := answerbox.CropKey(b.asgID, id, []int{0})
	require.Equal(t, []any{q1key}, answers[0]["answerMedia"])
	require.Equal(t, map[string]any{"x": 0.1, "y": 0.2, "width": 0.5, "height": 0.25}, answers[0]["answerBoxesCoordinates"])
	require.Equal(t, map[string]any{"points": 0.0, "gradeAdjustment": 0.0, "feedback": "", "criteria": []any{false, false}}, answers[0]["grade"])
	sub := answers[0]["subanswers"].([]any)[0].(map[string]any)
	require.Equal(t, []any{answerbox.CropKey(b.asgID, id, []int{0, 0})}, sub["answerMedia"])
	require.Equal(t, []any{}, sub["subanswers"])
	require.Equal(t, "Good", answers[1]["grade"].(map[string]any)["feedback"], "an existing grade is kept")
	require.Equal(t, []any{answerbox.CropKey(b.asgID, id, []int{1})}, answers[1]["answerMedia"])

	// crops are the box's fraction of the page rendered at 100 dpi
	page := b.imageSize(t, answerbox.PageKey(b.asgID, id, 0))
	require.Greater(t, page.X, 500)
	require.Equal(t, image.Pt(round(0.5*float64(page.X)), round(0.25*float64(page.Y))), b.imageSize(t, q1key))
	page1 := b.imageSize(t, answerbox.PageKey(b.asgID, id, 1))
	require.Equal(t, image.Pt(page1.X, round(0.5*float64(page1.Y))), b.imageSize(t, answerbox.CropKey(b.asgID, id, []int{0, 0})))

	// a rerun writes the same keys and the same answers, and adds no file
	before := b.stored(t, "assignments/"+b.asgID.String()+"/submissions/")
	require.Len(t, before, 1+2+3, "the file, two pages, three crops")
	res = b.run(t, id)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	_, again := b.result(t, id)
	require.Equal(t, answers, again)
	require.Equal(t, before, b.stored(t, "assignments/"+b.asgID.String()+"/submissions/"))
}

func TestCropAnswersOfAPNG(t *testing.T) {
	t.Parallel()
	b := setupCrop(t)
	id := b.readySubmission(t, "photo.png", "image/png", pngOf(t, 400, 300), 1)

	res := b.run(t, id)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
	status, answers := b.result(t, id)
	require.Equal(t, "ready-to-grade", status)
	require.Equal(t, image.Pt(200, 75), b.imageSize(t, answerbox.CropKey(b.asgID, id, []int{0})))
	require.Equal(t, image.Pt(200, 150), b.imageSize(t, answerbox.CropKey(b.asgID, id, []int{1})))
	sub := answers[0]["subanswers"].([]any)[0].(map[string]any)
	require.Equal(t, []any{}, sub["answerMedia"], "the box is on a page the photo does not have")
	require.NotNil(t, sub["answerBoxesCoordinates"])
}

func TestCropAnswersCancelsWithoutTemplateOrSubmission(t *testing.T) {
	t.Parallel()
	b := setupCrop(t)
	res := b.run(t, uuid.New())
	require.Equal(t, river.EventKindJobCancelled, res.EventKind, "a submission that is gone")

	id := b.readySubmission(t, "photo.png", "image/png", pngOf(t, 40, 30), 1)
	_, err := b.pool.Exec(context.Background(), `UPDATE assignments SET answer_boxes = '[]' WHERE id = $1`, b.asgID)
	require.NoError(t, err)
	res = b.run(t, id)
	require.Equal(t, river.EventKindJobCancelled, res.EventKind, "a template that is gone")
	var answers []byte
	require.NoError(t, b.pool.QueryRow(context.Background(), `SELECT answers FROM function_results WHERE submission_id = $1`, id).Scan(&answers))
	require.Nil(t, answers, "nothing written")
}

// TestFinishedHandwrittenGradeWorkQueuesCrops: the extraction that makes a
// handwritten grade submission ready queues crop_answers in its own
// transaction when the assignment has a template, and the worker crops it.
func TestFinishedHandwrittenGradeWorkQueuesCrops(t *testing.T) {
	t.Parallel()
	b := setupCrop(t)
	ctx := context.Background()
	u := fixture(t, "text-3pages.pdf", "essay.pdf", "application/pdf")
	u.handWritten = true
	var id uuid.UUID
	var jobID int64
	require.NoError(t, store.InTx(ctx, b.pool, func(tx pgx.Tx) error {
		var err error
		sid, job, err := b.addTx(t, tx, u)
		if err != nil {
			return err
		}
		id, jobID = sid, job.ID
		_, err = tx.Exec(ctx, `INSERT INTO function_results (team_id, assignment_id, submission_id, status)
			VALUES ($1, $2, $3, '')`, b.teamID, b.asgID, id)
		return err
	}))
	_, events := b.startWorker(t, b.deps, allQueues, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, jobID).Kind)
	require.Equal(t, "ready", b.submission(t, id).ExtractStatus)
	rivertest.RequireInserted(ctx, t, riverpgxv5.New(b.pool), jobs.CropAnswersArgs{SubmissionID: id},
		&rivertest.RequireInsertedOpts{Queue: queue.QueueOCR})
	deadline := time.Now().Add(60 * time.Second)
	for {
		var status string
		require.NoError(t, b.pool.QueryRow(ctx, `SELECT status FROM function_results WHERE submission_id = $1`, id).Scan(&status))
		if status == "ready-to-grade" {
			break
		}
		require.True(t, time.Now().Before(deadline), "the answers were never cropped")
		time.Sleep(100 * time.Millisecond)
	}
	_, answers := b.result(t, id)
	require.Equal(t, []any{answerbox.CropKey(b.asgID, id, []int{0})}, answers[0]["answerMedia"])
}

// TestTypedWorkQueuesNoCrops: a typed submission of a feedback assignment
// is not cropped.
func TestTypedWorkQueuesNoCrops(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id, job := b.add(t, fixture(t, "text-3pages.pdf", "essay.pdf", "application/pdf"))
	_, events := b.startWorker(t, b.deps, extractQueue, time.Minute)
	require.Equal(t, river.EventKindJobCompleted, waitFor(t, events, job.ID).Kind)
	require.Equal(t, "ready", b.submission(t, id).ExtractStatus)
	require.Empty(t, b.handedTo(t, jobs.CropAnswersArgs{}.Kind()))
}
