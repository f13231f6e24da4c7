package httpapi_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
)

// adaAssistantAndChat makes an assistant and a chat through the API as the
// bundle's signed-in teacher and returns their ids.
func adaAssistantAndChat(t *testing.T, b *bundle) (assistantID, chatID string) {
	t.Helper()
	res, body := b.do(t, "POST", "/api/v1/db/assistant/put", map[string]any{"title": "Planner", "description": "Plans", "systemPrompt": "You plan."})
	require.Equal(t, 200, res.StatusCode, body)
	assistantID = body["data"].(map[string]any)["assistant"].(map[string]any)["_id"].(string)
	res, body = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"assistantId": assistantID, "chatState": map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "Plan a lesson"}}, "document": "", "pastDocuments": []any{}}})
	require.Equal(t, 200, res.StatusCode, body)
	chatID = body["data"].(map[string]any)["chatDoc"].(map[string]any)["_id"].(string)
	return assistantID, chatID
}

func errMessage(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

func TestAssistantRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.assistants@school.test")

	for _, body := range []map[string]any{
		{"title": "", "description": "d", "systemPrompt": "p"},
		{"title": "t", "description": "d"},
		{"title": "t", "systemPrompt": "p"},
	} {
		res, got := b.do(t, "POST", "/api/v1/db/assistant/put", body)
		require.Equal(t, 400, res.StatusCode)
		require.Equal(t, "Please fill in all required fields", errMessage(got))
	}
	res, got := b.do(t, "POST", "/api/v1/db/assistant/put", map[string]any{"title": "t", "description": "d", "systemPrompt": "p",
		"imageURL": "http://169.254.169.254/latest/meta-data"})
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, errMessage(got), "public asset of your team")

	// An image uploaded through s3-public-asset-upload is accepted.
	res, got = b.do(t, "POST", "/api/v1/s3-public-asset-upload", map[string]any{"fileName": "owl.png", "fileType": "image/png"})
	require.Equal(t, 200, res.StatusCode, got)
	image := got["data"].(map[string]any)["fileUrl"].(string)
	res, got = b.do(t, "POST", "/api/v1/db/assistant/put", map[string]any{"title": "Letters", "description": "d", "systemPrompt": "p",
		"initialMessage": "Hello!", "imageURL": image, "fileData": []map[string]any{{"fileName": "a.pdf", "fileText": "A", "fileType": "application/pdf"}}})
	require.Equal(t, 200, res.StatusCode, got)
	asst := got["data"].(map[string]any)["assistant"].(map[string]any)
	require.Equal(t, image, asst["imageURL"])
	id := asst["_id"].(string)

	// The team saves it: listed as saved and as Ada's own. (Teammates' rights: internal/assistant tests.)
	res, got = b.do(t, "POST", "/api/v1/db/team/addSavedAssistant", map[string]any{"assistantId": id})
	require.Equal(t, 200, res.StatusCode, got)
	res, got = b.do(t, "POST", "/api/v1/db/assistant/list", map[string]any{})
	require.Equal(t, 200, res.StatusCode, got)
	list := got["data"].(map[string]any)["assistants"].([]any)
	require.Len(t, list, 1)
	require.Equal(t, true, list[0].(map[string]any)["isSaved"])
	require.Equal(t, true, list[0].(map[string]any)["isMine"])

	res, got = b.do(t, "POST", "/api/v1/db/assistant/update", map[string]any{"assistantId": id, "title": "Letters 2", "description": "d", "systemPrompt": "p"})
	require.Equal(t, 200, res.StatusCode, got)
	require.Equal(t, "Letters 2", got["data"].(map[string]any)["assistant"].(map[string]any)["title"])
	res, _ = b.do(t, "POST", "/api/v1/db/team/removeSavedAssistant", map[string]any{"assistantId": id})
	require.Equal(t, 200, res.StatusCode)
	res, _ = b.do(t, "POST", "/api/v1/db/assistant/delete", map[string]any{"assistantId": id})
	require.Equal(t, 200, res.StatusCode)
	res, _ = b.do(t, "POST", "/api/v1/db/assistant/delete", map[string]any{"assistantId": id})
	require.Equal(t, 404, res.StatusCode)
}

func TestChatPutGetRoundTrip(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.chats@school.test")
	_, chatID := adaAssistantAndChat(t, b)
	res, got := b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"chatState": map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "Write a parent letter"}, {"role": "assistant", "content": "Done"}},
		"document": "# Letter", "pastDocuments": []map[string]any{{"messageIndex": 1, "document": "# Letter"}}}})
	require.Equal(t, 200, res.StatusCode, got)
	second := got["data"].(map[string]any)["chatDoc"].(map[string]any)["_id"].(string)

	res, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	require.Equal(t, 200, res.StatusCode, got)
	docs := got["data"].(map[string]any)["chatDocs"].([]any)
	require.Len(t, docs, 2)
	newest := docs[0].(map[string]any)
	require.Equal(t, second, newest["_id"])
	require.Equal(t, "Write a parent letter", newest["title"])
	require.Equal(t, "# Letter", newest["document"])
	require.Nil(t, newest["assistantId"])
	require.Equal(t, chatID, docs[1].(map[string]any)["_id"])
	require.Equal(t, "Plan a lesson", docs[1].(map[string]any)["title"])
	require.NotNil(t, docs[1].(map[string]any)["assistantId"])

	// An answer stopped before any text comes back marked stopped; the
	// others carry no mark at all.
	res, got = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"chatState": map[string]any{
		"chatId":   second,
		"messages": []map[string]any{{"role": "user", "content": "Write a parent letter"}, {"role": "assistant", "content": "", "stopped": true}},
		"document": "", "pastDocuments": []any{}}})
	require.Equal(t, 200, res.StatusCode, got)
	_, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	newest = got["data"].(map[string]any)["chatDocs"].([]any)[0].(map[string]any)
	require.Equal(t, second, newest["_id"])
	require.Equal(t, []any{
		map[string]any{"role": "user", "content": "Write a parent letter"},
		map[string]any{"role": "assistant", "content": "", "stopped": true},
	}, newest["messages"])

	for _, tc := range []struct {
		state map[string]any
		msg   string
	}{
		{map[string]any{"messages": []map[string]any{{"role": "admin", "content": "x"}}}, "Message role must be user, assistant or system"},
		{map[string]any{"messages": []any{}, "pastDocuments": []map[string]any{{"messageIndex": 3, "document": "d"}}}, "Each past document must belong to a message of this chat"},
		{map[string]any{"document": strings.Repeat("x", 500_001)}, "The document can be at most 500,000 characters"},
	} {
		res, got := b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"chatState": tc.state})
		require.Equal(t, 400, res.StatusCode, got)
		require.Equal(t, tc.msg, errMessage(got))
	}
	res, _ = b.do(t, "POST", "/api/v1/db/chat/delete", map[string]any{"chatId": chatID})
	require.Equal(t, 200, res.StatusCode)
	_, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	require.Len(t, got["data"].(map[string]any)["chatDocs"].([]any), 1)
}

func TestAssistantsAndChatsOfOthersAreNotListed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.lists@school.test")
	adaAssistantAndChat(t, b)
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.lists@school.test")
	_, got := eve.do(t, "POST", "/api/v1/db/assistant/list", map[string]any{})
	require.Empty(t, got["data"].(map[string]any)["assistants"])
	_, got = eve.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	require.Empty(t, got["data"].(map[string]any)["chatDocs"])
}

func TestDownloadDocx(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.docx@school.test")
	raw := []byte(`{"markdown":"# Field trip\n\n- Bring **lunch**\n- Bring a coat\n"}`)
	res, err := b.rawPost(t, "/api/v1/chat/download-docx", raw)
	require.NoError(t, err)
	defer res.Body.Close()
	doc, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, 200, res.StatusCode, string(doc))
	require.Equal(t, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", res.Header.Get("Content-Type"))
	require.Equal(t, `attachment; filename="downloaded.docx"`, res.Header.Get("Content-Disposition"))
	z, err := zip.NewReader(bytes.NewReader(doc), int64(len(doc)))
	require.NoError(t, err)
	f, err := z.Open("word/document.xml")
	require.NoError(t, err)
	xml, err := io.ReadAll(f)
	require.NoError(t, err)
	text := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(xml), "")
	require.Contains(t, text, "Field trip")
	require.Contains(t, text, "Bring lunch")
	require.Contains(t, text, "Bring a coat")

	// An outside URL is never fetched; nor is another team's file.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.docx@school.test")
	_, up := eve.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/dot.png", "fileType": "image/png"})
	evesFile := up["data"].(map[string]any)["fileUrl"].(string)
	for _, src := range []string{"http://169.254.169.254/latest/meta-data", evesFile} {
		res, got := b.do(t, "POST", "/api/v1/chat/download-docx", map[string]any{"markdown": "![x](" + src + ")"})
		require.Equal(t, 400, res.StatusCode)
		require.Equal(t, "Fetch image was failed: "+src, errMessage(got))
	}
}

// rawPost posts body with the CSRF token and returns the response unread.
func (br *browser) rawPost(t *testing.T, path string, body []byte) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest("POST", br.b.srv.URL+path, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(httpapi.CSRFHeader, br.csrfToken(t))
	return br.client.Do(req)
}
