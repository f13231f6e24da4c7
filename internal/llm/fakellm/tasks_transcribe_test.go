package fakellm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// transcribeBody is a page transcription request as package jobs sends it.
func transcribeBody(t *testing.T, imageURL string) string {
	t.Helper()
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}},
		"required": []any{"text"}, "additionalProperties": false}
	body, err := json.Marshal(map[string]any{
		"model": DefaultModel,
		"messages": []any{
			map[string]any{"role": "system", "content": "You transcribe a student's handwritten work."},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "Transcribe the writing on this page."},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": imageURL}},
			}},
		},
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": TaskTranscribePage, "schema": schema, "strict": true}},
	})
	require.NoError(t, err)
	return string(body)
}

func TestTeachAllTranscribesPagesHonestlyAndDeterministically(t *testing.T) {
	t.Parallel()
	srv := New(Options{})
	TeachAll(srv)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	b := bundle{srv: srv, url: ts.URL}

	var img bytes.Buffer
	require.NoError(t, png.Encode(&img, image.NewGray(image.Rect(0, 0, 120, 80))))
	page := "data:image/png;base64," + base64.StdEncoding.EncodeToString(img.Bytes())

	transcript := func(url string) string {
		status, _, out := b.post(t, transcribeBody(t, url))
		require.Equal(t, http.StatusOK, status, out)
		content := out["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
		var answer struct {
			Text string `json:"text"`
		}
		require.NoError(t, json.Unmarshal([]byte(content), &answer))
		return answer.Text
	}
	got := transcript(page)
	require.Contains(t, got, "demo model cannot read handwriting", "it never pretends to have read the page")
	require.Contains(t, got, "PNG, 120 × 80 pixels")
	require.Equal(t, got, transcript(page), "the same page gets the same transcript")
	require.Contains(t, transcript("https://example.com/page.png"), "an image URL the demo model does not download")
	require.Equal(t, int64(3), srv.Stats().Tasks[TaskTranscribePage])
}
