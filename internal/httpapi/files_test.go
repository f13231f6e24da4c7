package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rawRequest sends one request outside any browser (no cookies), as an <img>
// tag, a download link or a PUT to a signed URL does, and returns the
// response with its body read.
func rawRequest(t *testing.T, method, url, contentType, body string) (*http.Response, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(got)
}

// uploadFile asks route for a signed upload of body and PUTs it; it returns
// the file URL.
func (br *browser) uploadFile(t *testing.T, route, fileName, fileType, body string) string {
	t.Helper()
	res, got := br.do(t, "POST", route, map[string]any{"fileName": fileName, "fileType": fileType, "fileSize": len(body)})
	require.Equal(t, 200, res.StatusCode, got)
	up := got["data"].(map[string]any)
	put, _ := rawRequest(t, "PUT", up["signedUrl"].(string), fileType, body)
	require.Equal(t, 200, put.StatusCode)
	return up["fileUrl"].(string)
}

func TestChatFilesStayWithTheirTeam(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	adaTeam := ada.signIn(t, "Ada", "ada.chatfiles@school.test")["teamId"].(string)
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.chatfiles@school.test")

	fileURL := ada.uploadFile(t, "/api/v1/s3-upload", "chats/notes.pdf", "application/pdf", "%PDF-1.4 Ada's notes")

	// Ada reads her file through a signed URL.
	res, body := ada.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": fileURL})
	require.Equal(t, 200, res.StatusCode, body)
	get, got := rawRequest(t, "GET", body["data"].(map[string]any)["signedUrl"].(string), "", "")
	require.Equal(t, 200, get.StatusCode)
	require.Equal(t, "%PDF-1.4 Ada's notes", got)

	// Eve, who learnt the URL, gets the answer of a file that does not exist.
	res, body = eve.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": fileURL})
	require.Equal(t, 404, res.StatusCode, body)
	require.Equal(t, map[string]any{"code": "not_found", "message": "Not found"}, body["error"])
	missing := strings.Replace(fileURL, "notes.pdf", "gone.pdf", 1)
	res, body = eve.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": missing})
	require.Equal(t, 404, res.StatusCode, "Eve cannot tell Ada's files from files never stored: %v", body)

	// The key names Ada's team; a name without a folder goes to the team's chats.
	require.Regexp(t, `/files/chats/`+adaTeam+`/[0-9a-f]{16}-notes\.pdf$`, fileURL, "the key names Ada's team")
	noFolder := ada.uploadFile(t, "/api/v1/s3-upload", "plan.txt", "text/plain", "plan")
	require.Contains(t, noFolder, "/files/chats/"+adaTeam+"/", "a name without a folder goes to the team's chats")

	// Nor can Eve upload into Ada's folder.
	res, body = eve.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/" + adaTeam + "/x.txt", "fileType": "text/plain"})
	require.Equal(t, 404, res.StatusCode, body)
	res, body = eve.do(t, "POST", "/api/v1/s3-public-asset-upload", map[string]any{"fileName": "public/" + adaTeam + "/x.png", "fileType": "image/png"})
	require.Equal(t, 404, res.StatusCode, body)
	res, body = ada.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/" + adaTeam + "/x.txt", "fileType": "text/plain"})
	require.Equal(t, 200, res.StatusCode, body)

	// Keys outside the layout belong to nobody: not signed for anyone.
	for _, key := range []string{"chats/0123456789abcdef-a.pdf", "assistants/0123456789abcdef-a.pdf", "0123456789abcdef-a.pdf", "chats/" + adaTeam + "/"} {
		res, body = ada.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": b.srv.URL + "/files/" + key})
		if strings.HasSuffix(key, "/") {
			require.Equal(t, 400, res.StatusCode, "%s: %v", key, body) // not a file URL at all
			continue
		}
		require.Equal(t, 404, res.StatusCode, "%s: %v", key, body)
	}
}

func TestOnlyImagesArePublic(t *testing.T) {
	t.Parallel()
	b := setup(t)
	team := b.signIn(t, "Ada", "ada.public@school.test")["teamId"].(string)

	for _, fileType := range []string{"text/html", "image/svg+xml", "application/pdf", "text/html; charset=utf-8", "not a type"} {
		res, body := b.do(t, "POST", "/api/v1/s3-public-asset-upload", map[string]any{"fileName": "public/page.html", "fileType": fileType})
		require.Equal(t, 400, res.StatusCode, fileType)
		require.Equal(t, "Public assets must be PNG, JPEG, GIF or WebP images.", body["error"].(map[string]any)["message"], fileType)
	}
	// The teacher route does not reach public/ either.
	res, body := b.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "public/page.html", "fileType": "text/html"})
	require.Equal(t, 400, res.StatusCode, body)

	imageURL := b.uploadFile(t, "/api/v1/s3-public-asset-upload", "logo.png", "image/png", "\x89PNG pretend")
	require.Regexp(t, `/files/public/`+team+`/[0-9a-f]{16}-logo\.png$`, imageURL)
	get, got := rawRequest(t, "GET", imageURL, "", "")
	require.Equal(t, 200, get.StatusCode, "an image needs no signature")
	require.Equal(t, "\x89PNG pretend", got)
	require.Equal(t, "image/png", get.Header.Get("Content-Type"))
	require.Empty(t, get.Header.Get("Content-Disposition"), "images display inline")
	require.Equal(t, "sandbox", get.Header.Get("Content-Security-Policy"))
	require.Equal(t, "nosniff", get.Header.Get("X-Content-Type-Options"))

	// A signed chat file is not readable without its signature, even when its
	// bytes are an image.
	chatURL := b.uploadFile(t, "/api/v1/s3-upload", "chats/photo.png", "image/png", "\x89PNG pretend")
	get, _ = rawRequest(t, "GET", chatURL, "", "")
	require.Equal(t, 403, get.StatusCode)
}

func TestServedFilesAreSandboxedDownloads(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.headers@school.test")

	for _, tc := range []struct {
		name, fileType, disposition string
	}{
		{"page.html", "text/html", "attachment; filename=page.html"},
		{"essay.pdf", "application/pdf", "attachment; filename=essay.pdf"},
		{"drawing.svg", "image/svg+xml", "attachment; filename=drawing.svg"},
		{"essay.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "attachment; filename=essay.docx"},
		{"photo.jpg", "image/jpeg", ""},
	} {
		fileURL := b.uploadFile(t, "/api/v1/s3-upload", "chats/"+tc.name, tc.fileType, "<script>alert(document.cookie)</script>")
		res, body := b.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": fileURL})
		require.Equal(t, 200, res.StatusCode, body)
		get, _ := rawRequest(t, "GET", body["data"].(map[string]any)["signedUrl"].(string), "", "")
		require.Equal(t, 200, get.StatusCode, tc.name)
		require.Equal(t, tc.fileType, get.Header.Get("Content-Type"), tc.name)
		require.Equal(t, "sandbox", get.Header.Get("Content-Security-Policy"), tc.name)
		require.Equal(t, "nosniff", get.Header.Get("X-Content-Type-Options"), tc.name)
		require.Equal(t, tc.disposition, get.Header.Get("Content-Disposition"), tc.name)
	}
}

func TestUploadSizeIsChecked(t *testing.T) {
	t.Parallel()
	b := setup(t) // the store's limit is 1 MiB
	b.signIn(t, "Ada", "ada.size@school.test")

	for _, tc := range []struct {
		size any
		want string
	}{
		{1<<20 + 1, "This file is larger than the 1 MB limit."},
		{0, "This file is empty."},
		{-5, "fileSize must be the file's size in bytes."},
		{"12", "Request body must be valid JSON"},
		{1.5, "Request body must be valid JSON"},
	} {
		res, body := b.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/big.bin", "fileType": "application/octet-stream", "fileSize": tc.size})
		require.Equal(t, 400, res.StatusCode, "%v: %v", tc.size, body)
		require.Equal(t, tc.want, body["error"].(map[string]any)["message"], tc.size)
	}

	// The size is signed: the store refuses a body of another length.
	res, body := b.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/notes.txt", "fileType": "text/plain", "fileSize": 5})
	require.Equal(t, 200, res.StatusCode, body)
	signed := body["data"].(map[string]any)["signedUrl"].(string)
	put, _ := rawRequest(t, "PUT", signed, "text/plain", "hello, and a lot more than was announced")
	require.Equal(t, 403, put.StatusCode)
	put, _ = rawRequest(t, "PUT", signed, "text/plain", "hello")
	require.Equal(t, 200, put.StatusCode)

	// Exactly the limit is fine; without a size the local store still caps the body.
	res, body = b.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/max.bin", "fileType": "application/octet-stream", "fileSize": 1 << 20})
	require.Equal(t, 200, res.StatusCode, body)
	res, body = b.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/any.bin", "fileType": "application/octet-stream"})
	require.Equal(t, 200, res.StatusCode, body)
	put, _ = rawRequest(t, "PUT", body["data"].(map[string]any)["signedUrl"].(string), "application/octet-stream", strings.Repeat("x", 1<<20+1))
	require.Equal(t, http.StatusRequestEntityTooLarge, put.StatusCode)
}
