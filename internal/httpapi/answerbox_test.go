package httpapi_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

// handwrittenGrade makes a handwritten grade assignment with two questions,
// the first with a subquestion, and returns its id.
func handwrittenGrade(t *testing.T, br *browser) string {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Maths test", "type": "grade", "isHandWritten": true})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	crit := []map[string]any{{"description": "Right answer", "points": 2}}
	status, _, e = br.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asg, "questions": []map[string]any{
		{"questionText": "Solve x + 1 = 2", "criteria": crit, "subquestions": []map[string]any{{"questionText": "Show your work", "criteria": crit}}},
		{"questionText": "Draw a triangle", "criteria": crit},
	}})
	require.Equal(t, 200, status, e)
	return asg
}

func testPNG(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.String()
}

// download GETs a signed URL and returns the JPEG's size.
func download(t *testing.T, url string) image.Point {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	cfg, err := jpeg.DecodeConfig(res.Body)
	require.NoError(t, err)
	return image.Pt(cfg.Width, cfg.Height)
}

func TestAnswerBoxesTemplateCropsAndSignedMedia(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ada := b.browser
	ada.signIn(t, "Ada", "ada.answerbox@school.test")
	asg := handwrittenGrade(t, ada)

	status, data, e := ada.call(t, "/api/v1/db/assignment/answer-boxes/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Equal(t, []any{}, data["boxes"])
	require.Nil(t, data["sample"], "no submission is ready yet")

	// a photo of the test, read (the worker is not running here)
	url := uploadFile(t, ada, asg, "photo.png", testPNG(t, 400, 300))
	status, data, e = ada.call(t, "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg, "submissions": []map[string]any{{"name": "photo.png", "location": url}}, "submissionRole": "teacher",
	})
	require.Equal(t, 200, status, e)
	sub := data["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	_, err := testdb.Pool(t).Exec(ctx, `UPDATE submissions SET extract_status = 'ready', page_count = 1 WHERE id = $1`, sub)
	require.NoError(t, err)

	status, data, e = ada.call(t, "/api/v1/db/assignment/answer-boxes/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"submissionId": sub, "pageCount": 1.0}, data["sample"])

	// the drawing screen shows the page
	status, data, e = ada.call(t, "/api/v1/db/submission/page-image", map[string]any{"submissionId": sub, "page": 0})
	require.Equal(t, 200, status, e)
	require.Equal(t, image.Pt(400, 300), download(t, data["url"].(string)))
	status, _, e = ada.call(t, "/api/v1/db/submission/page-image", map[string]any{"submissionId": sub, "page": 1})
	require.Equal(t, 400, status)
	require.Equal(t, answerbox.MsgNoPage, e["message"])

	// refusals
	for _, tc := range []struct {
		boxes []map[string]any
		msg   string
	}{
		{[]map[string]any{{"path": []int{5}, "page": 0, "x": 0, "y": 0, "width": 0.5, "height": 0.5}}, answerbox.MsgPath},
		{[]map[string]any{{"path": []int{0}, "page": 0, "x": 0.8, "y": 0, "width": 0.5, "height": 0.5}}, answerbox.MsgGeometry},
		{[]map[string]any{
			{"path": []int{1}, "page": 0, "x": 0, "y": 0, "width": 0.5, "height": 0.5},
			{"path": []int{1}, "page": 0, "x": 0.5, "y": 0.5, "width": 0.5, "height": 0.5},
		}, answerbox.MsgDuplicate},
	} {
		status, _, e = ada.call(t, "/api/v1/db/assignment/answer-boxes/update", map[string]any{"assignmentId": asg, "boxes": tc.boxes})
		require.Equal(t, 400, status)
		require.Equal(t, tc.msg, e["message"])
	}
	status, data, e = ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Typed", "type": "grade"})
	require.Equal(t, 200, status, e)
	typed := data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = ada.call(t, "/api/v1/db/assignment/answer-boxes/update", map[string]any{"assignmentId": typed, "boxes": []any{}})
	require.Equal(t, 400, status)
	require.Equal(t, answerbox.MsgNotHandwrittenGrade, e["message"])

	// saving the template queues the crop of the ready submission
	boxes := []map[string]any{
		{"path": []int{1}, "page": 0, "x": 0.5, "y": 0.5, "width": 0.5, "height": 0.5},
		{"path": []int{0}, "page": 0, "x": 0.1, "y": 0.2, "width": 0.5, "height": 0.25},
	}
	status, data, e = ada.call(t, "/api/v1/db/assignment/answer-boxes/update", map[string]any{"assignmentId": asg, "boxes": boxes})
	require.Equal(t, 200, status, e)
	saved := data["boxes"].([]any)
	require.Len(t, saved, 2)
	require.Equal(t, []any{0.0}, saved[0].(map[string]any)["path"], "sorted by question")
	subID := uuid.MustParse(sub)
	job := rivertest.RequireInserted(ctx, t, riverpgxv5.New(testdb.Pool(t)), jobs.CropAnswersArgs{SubmissionID: subID},
		&rivertest.RequireInsertedOpts{Queue: queue.QueueOCR})
	require.Equal(t, subID, job.Args.SubmissionID)
	status, data, _ = ada.call(t, "/api/v1/db/assignment/answer-boxes/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status)
	require.Len(t, data["boxes"], 2)

	// the worker crops; the teacher's page gets signed URLs of the crops
	w := rivertest.NewWorker(t, riverpgxv5.New(testdb.Pool(t)), &river.Config{},
		jobs.NewCropAnswersWorker(jobs.Deps{Pool: testdb.Pool(t), Blob: b.blobs}))
	tx, err := testdb.Pool(t).Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	res, err := w.Work(ctx, t, tx, jobs.CropAnswersArgs{SubmissionID: subID}, nil)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)

	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	result := data["functionResults"].([]any)[0].(map[string]any)
	require.Equal(t, "ready-to-grade", result["status"])
	answers := result["answers"].([]any)
	q1 := answers[0].(map[string]any)
	require.Equal(t, []any{answerbox.CropKey(uuid.MustParse(asg), subID, []int{0})}, q1["answerMedia"])
	signed := q1["signedAnswerMedia"].([]any)
	require.Len(t, signed, 1)
	require.Equal(t, image.Pt(200, 75), download(t, signed[0].(string)))
	q2 := answers[1].(map[string]any)
	require.Equal(t, image.Pt(200, 150), download(t, q2["signedAnswerMedia"].([]any)[0].(string)))
	require.NotContains(t, q1["subanswers"].([]any)[0].(map[string]any), "signedAnswerMedia", "no box, no media")

	// another team sees none of it
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.answerbox@school.test")
	eve.missing(t, "/api/v1/db/assignment/answer-boxes/get", map[string]any{"assignmentId": asg})
	eve.missing(t, "/api/v1/db/assignment/answer-boxes/update", map[string]any{"assignmentId": asg, "boxes": []any{}})
	eve.missing(t, "/api/v1/db/submission/page-image", map[string]any{"submissionId": sub, "page": 0})
}
