package httpapi_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/testdb"
)

// TestPageImageOfAPixelBombIsRefused: a submitted PNG of a few dozen bytes
// whose header claims 8,000 × 8,000 pixels is refused from its header when
// the teacher opens the page, instead of being decoded on the request path.
func TestPageImageOfAPixelBombIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	ada.signIn(t, "Ada", "ada.pagebomb@school.test")
	asg := handwrittenGrade(t, ada)

	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	bomb := buf.Bytes()
	binary.BigEndian.PutUint32(bomb[16:], 8000) // IHDR width
	binary.BigEndian.PutUint32(bomb[20:], 8000) // and height
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))

	url := uploadFile(t, ada, asg, "photo.png", string(bomb))
	status, data, e := ada.call(t, "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg, "submissions": []map[string]any{{"name": "photo.png", "location": url}}, "submissionRole": "teacher",
	})
	require.Equal(t, 200, status, e)
	sub := data["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	_, err := testdb.Pool(t).Exec(context.Background(), `UPDATE submissions SET extract_status = 'ready', page_count = 1 WHERE id = $1`, sub)
	require.NoError(t, err)

	status, _, e = ada.call(t, "/api/v1/db/submission/page-image", map[string]any{"submissionId": sub, "page": 0})
	require.Equal(t, 400, status, e)
	require.Equal(t, answerbox.MsgPageTooLarge, e["message"])
}
