package httpapi_test

// The security suite's HTTP half (issue 11, point 3): SSRF through every
// field that names a URL, odd and hostile upload names, zip bombs sent as
// attachments, oversize bodies, the headers of every kind of response, the
// sign-in limit behind (forged) proxies and callbackUrl after an OIDC
// round trip. docs/security.md lists where each item is enforced and tested.

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/ratelimit"
)

// urlFieldName matches the JSON names of fields that hold an address.
var urlFieldName = regexp.MustCompile(`(?i)(url|uri|link|location|image|src|href|endpoint|webhook|callback)`)

// urlFields are the /api/v1 body fields that name a URL (or a file by its
// URL), each with the probe TestNoFieldThatNamesAURLFetchesIt sends.
// A new field whose name looks like an address fails
// TestEveryURLFieldIsProbedForSSRF until it is added here.
var urlFields = map[string]bool{
	"/api/v1/getSignedURL link":                                                  true,
	"/api/v1/db/assistant/put imageURL":                                          true,
	"/api/v1/db/assistant/update imageURL":                                       true,
	"/api/v1/upload-and-read-pdf fileLinks":                                      true,
	"/api/v1/upload-and-read-files fileLinks":                                    true,
	"/api/v1/db/assignment/preview-csv csvLocation":                              true,
	"/api/v1/db/assignment/update-submissions-csv csvLocation":                   true,
	"/api/v1/db/assignment/update-submissions submissions.location":              true,
	"/api/v1/db/assignment/update-submissions-from-student submissions.location": true,
}

// TestEveryURLFieldIsProbedForSSRF walks every route's body type: each
// string field whose name says it holds an address must be one the SSRF
// probe below covers (linkToken names a token, not an address).
func TestEveryURLFieldIsProbedForSSRF(t *testing.T) {
	t.Parallel()
	b := setup(t)
	found := map[string]bool{}
	for _, r := range b.router.Routes() {
		if r.Method == http.MethodGet || !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		if strings.HasPrefix(r.Path, "/api/v1/operator/lti/") {
			// An operator registers the LMS's own endpoints, which Markwell
			// calls by design (https only, time and size limits; lti_test.go);
			// everyone else gets 404 there (the route matrix).
			continue
		}
		typ := httpapi.BodyType(r.HandlerFunc)
		if typ == nil {
			continue // TestNULInEveryTextFieldOfEveryRouteIs400 insists on a body type
		}
		for _, f := range stringFields(typ, "", map[reflect.Type]bool{}) {
			last := f[strings.LastIndex(f, ".")+1:]
			if last == "linkToken" || !urlFieldName.MatchString(last) {
				continue
			}
			found[r.Path+" "+f] = true
		}
	}
	require.Equal(t, urlFields, found, "every field that names an address is probed by TestNoFieldThatNamesAURLFetchesIt")
}

// TestNoFieldThatNamesAURLFetchesIt sends addresses inside the network
// (a listening server that counts its visitors, the cloud metadata address,
// loopback, Markwell itself, file: and gopher:) through every field that
// names a URL, and a Markdown image for the Word export. Each is refused
// with a 400 that names the field's value, and nothing is ever fetched.
func TestNoFieldThatNamesAURLFetchesIt(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	ada.signIn(t, "Ada", "ada.ssrf@school.test")
	var hits atomic.Int32
	canary := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		t.Errorf("the server fetched %s", r.URL)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n"))
	}))
	defer canary.Close()
	cu, err := url.Parse(canary.URL)
	require.NoError(t, err)

	targets := []string{
		canary.URL + "/essay.pdf",
		"http://localhost:" + cu.Port() + "/essay.pdf",
		"http://[::1]:" + cu.Port() + "/essay.pdf",
		"http://169.254.169.254/latest/meta-data/iam/security-credentials/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"file:///etc/passwd",
		"gopher://127.0.0.1:6379/_INFO",
		b.srv.URL + "/api/v1/db/library/get", // Markwell itself, not one of its files
		b.srv.URL + "/files/../../etc/passwd",
		b.srv.URL + "@" + cu.Host + "/essay.pdf",
	}

	grade := gradeAssignment(t, ada)
	asg, token := linkedAssignment(t, ada, "SSRF essay")
	student := b.newBrowser(t)
	bodies := map[string]func(u string) map[string]any{
		"/api/v1/getSignedURL link": func(u string) map[string]any { return map[string]any{"link": u} },
		"/api/v1/db/assistant/put imageURL": func(u string) map[string]any {
			return map[string]any{"title": "Owl", "description": "d", "systemPrompt": "p", "initialMessage": "Hi", "imageURL": u}
		},
		"/api/v1/upload-and-read-pdf fileLinks": func(u string) map[string]any { return map[string]any{"fileLinks": []string{u}} },
		"/api/v1/upload-and-read-files fileLinks": func(u string) map[string]any {
			return map[string]any{"fileLinks": []string{u}, "fileNames": []string{"essay.pdf"}}
		},
		"/api/v1/db/assignment/preview-csv csvLocation": func(u string) map[string]any {
			return map[string]any{"assignmentId": grade, "csvLocation": u}
		},
		"/api/v1/db/assignment/update-submissions-csv csvLocation": func(u string) map[string]any {
			return map[string]any{"assignmentId": grade, "submissionRole": "teacher", "csvLocation": u,
				"parsedCSV": map[string]any{"nameColumn": 0, "questions": []any{map[string]any{"question": 0, "column": 1}}}}
		},
		"/api/v1/db/assignment/update-submissions submissions.location": func(u string) map[string]any {
			return map[string]any{"assignmentId": asg, "submissionRole": "teacher",
				"submissions": []map[string]any{{"name": "essay.pdf", "location": u}}}
		},
		"/api/v1/db/assignment/update-submissions-from-student submissions.location": func(u string) map[string]any {
			return map[string]any{"linkToken": token, "assignmentId": asg, "submissionRole": "student", "type": "prompt",
				"submissions": []map[string]any{{"name": "essay.pdf", "location": u}},
				"studentName": "Sam Student", "studentEmail": "sam@pupils.test"}
		},
		"/api/v1/chat/download-docx markdown": func(u string) map[string]any {
			return map[string]any{"markdown": "# Notes\n\n![chart](" + u + ")\n"}
		},
	}
	// The assistant's update takes the same field as its put.
	_, data, e := ada.call(t, "/api/v1/db/assistant/put", map[string]any{"title": "Owl", "description": "d", "systemPrompt": "p", "initialMessage": "Hi"})
	require.NotNil(t, data, e)
	assistant := data["assistant"].(map[string]any)
	bodies["/api/v1/db/assistant/update imageURL"] = func(u string) map[string]any {
		return map[string]any{"teamId": assistant["teamId"], "assistantId": assistant["_id"], "title": "Owl", "description": "d",
			"systemPrompt": "p", "initialMessage": "Hi", "imageURL": u}
	}
	for field := range urlFields {
		require.Contains(t, bodies, field, "a probe for %s", field)
	}

	for field, body := range bodies {
		path, _, _ := strings.Cut(field, " ")
		who := ada
		if strings.Contains(path, "from-student") {
			who = student
		}
		for _, u := range targets {
			res, got := who.do(t, "POST", path, body(u))
			require.Equal(t, 400, res.StatusCode, "%s with %s: %v", field, u, got)
			e, _ := got["error"].(map[string]any)
			require.Equal(t, "invalid", e["code"], "%s with %s: %v", field, u, got)
			require.NotEmpty(t, e["message"], "%s with %s", field, u)
		}
	}
	require.Zero(t, hits.Load(), "no address inside the network was fetched")

	// Nothing was stored on the way.
	_, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Empty(t, data["submissions"])
	_, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": grade})
	require.Empty(t, data["submissions"])
}

// fileURLPattern is the only shape of file URL an upload may answer: the
// store's address, the caller's folder, 16 random hex and a sanitised name.
func fileURLPattern(b *bundle, folder string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(b.srv.URL+"/files/"+folder) + `[0-9a-f]{16}-[A-Za-z0-9._~-]{1,128}$`)
}

// TestOddUploadNamesStayInTheirFolder sends traversal attempts and odd names
// through the teacher's, the public-asset and the student's upload routes:
// each is refused with a message, or stored under a sanitised name in the
// caller's own folder, where it is read back.
func TestOddUploadNamesStayInTheirFolder(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.browser
	team := ada.signIn(t, "Ada", "ada.oddnames@school.test")["teamId"].(string)
	asg, token := linkedAssignment(t, ada, "Odd names")
	other := someAssignment(t)

	refusedNames := map[string]string{
		"../../etc/passwd":                          "is not an upload folder",
		"chats/../../etc/passwd":                    "is not an upload folder",
		"chats/" + team + "/../../public/x.png":     "is not an upload folder",
		"/etc/passwd":                               "is not an upload folder",
		"chats//x.txt":                              "is not an upload folder",
		"CHATS/x.txt":                               "is not an upload folder",
		"chats/" + strings.ToUpper(team) + "/x.txt": "is not an upload folder",
		"chats/a\x00b.txt":                          "cannot contain control characters",
		"chats/a\x1b[31mred.txt":                    "cannot contain control characters",
	}
	for name, want := range refusedNames {
		res, got := ada.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": name, "fileType": "text/plain"})
		require.Equal(t, 400, res.StatusCode, "%q: %v", name, got)
		require.Contains(t, got["error"].(map[string]any)["message"], want, name)
	}

	chats := fileURLPattern(b, "chats/"+team+"/")
	for name, wantBase := range map[string]string{
		`..\..\windows\win.ini`:                      "....windowswin.ini",
		"chats/%2e%2e%2fsecret.txt":                  "2e2e2fsecret.txt",
		"chats/..":                                   "file",
		"chats/.":                                    "file",
		"chats/abc\u202egpj.exe":                     "abcgpj.exe",
		"chats/<img src=x onerror=alert(1)>.html":    "imgsrcxonerroralert1.html",
		"chats/\"; filename=evil.exe":                "filenameevil.exe",
		"chats/résumé final.pdf":                     "rsumfinal.pdf",
		"chats/" + strings.Repeat("a", 400) + ".pdf": strings.Repeat("a", 124) + ".pdf",
		"chats/日本語":                                  "file",
	} {
		fileURL := ada.uploadFile(t, "/api/v1/s3-upload", name, "text/plain", "odd "+wantBase)
		require.Regexp(t, chats, fileURL, name)
		require.True(t, strings.HasSuffix(fileURL, "-"+wantBase), "%q gave %s", name, fileURL)
		res, got := ada.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": fileURL})
		require.Equal(t, 200, res.StatusCode, got)
		get, body := rawRequest(t, "GET", got["data"].(map[string]any)["signedUrl"].(string), "", "")
		require.Equal(t, 200, get.StatusCode, name)
		require.Equal(t, "odd "+wantBase, body, name)
		require.Equal(t, "attachment; filename="+wantBase, get.Header.Get("Content-Disposition"), name)
	}

	// A public asset lands in the team's public folder, whatever folder it names.
	res, got := ada.do(t, "POST", "/api/v1/s3-public-asset-upload", map[string]any{"fileName": "public/../chats/" + team + "/logo.png", "fileType": "image/png"})
	require.Equal(t, 400, res.StatusCode, got)
	pub := ada.uploadFile(t, "/api/v1/s3-public-asset-upload", "..%2flogo .png", "image/png", "\x89PNG")
	require.Regexp(t, fileURLPattern(b, "public/"+team+"/"), pub)

	// A student's folder is always the link's assignment's, whatever they name.
	student := b.newBrowser(t)
	for _, name := range []string{
		"assignments/" + other.String() + "/submissions/essay.txt",
		"../../../chats/" + team + "/essay.txt",
		"assignments/" + asg + "/submissions/../../../public/" + team + "/essay.txt",
	} {
		fileURL := student.linkUpload(t, token, name, "student essay")
		require.Regexp(t, fileURLPattern(b, "assignments/"+asg+"/submissions/student/"), fileURL, name)
	}

	// Reading: a path that climbs out of /files/ or encodes its way out is
	// never a file.
	signed := ada.uploadFile(t, "/api/v1/s3-upload", "chats/notes.txt", "text/plain", "notes")
	_, sig := ada.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": signed})
	signedURL, err := url.Parse(sig["data"].(map[string]any)["signedUrl"].(string))
	require.NoError(t, err)
	for _, p := range []string{
		"/files/../../../../etc/passwd",
		"/files/..%2f..%2f..%2f..%2fetc%2fpasswd",
		"/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
		"/files/chats/" + team + "/..%2f..%2f..%2fsecret",
		"/files/chats/" + team + "/x/../" + signedURL.Path[strings.LastIndex(signedURL.Path, "/")+1:] + "?" + signedURL.RawQuery,
	} {
		req, err := http.NewRequest("GET", b.srv.URL+p, nil)
		require.NoError(t, err)
		req.URL.Opaque = p // sent exactly as written, not cleaned by the client
		if i := strings.IndexByte(p, '?'); i >= 0 {
			req.URL.Opaque, req.URL.RawQuery = p[:i], p[i+1:]
		}
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.NotEqual(t, 200, res.StatusCode, p)
		if res.StatusCode/100 == 3 {
			loc := res.Header.Get("Location")
			require.NotContains(t, loc, "etc/passwd", p)
		}
	}
}

// bombDOCX is a Word file whose document.xml is valid XML unpacking to
// about mib MiB of spaces from about mib KiB: flushed deflate segments of
// 1 MiB each, concatenated.
func bombDOCX(t *testing.T, mib int) []byte {
	t.Helper()
	deflated := func(b []byte) []byte {
		var out bytes.Buffer
		w, err := flate.NewWriter(&out, flate.BestCompression)
		require.NoError(t, err)
		_, err = w.Write(b)
		require.NoError(t, err)
		require.NoError(t, w.Flush())
		return out.Bytes()
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write([]byte(body))
		require.NoError(t, err)
	}
	head := deflated([]byte(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`))
	spaces := deflated(bytes.Repeat([]byte(" "), 1<<20))
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name: "word/document.xml", Method: zip.Deflate,
		CompressedSize64: uint64(len(head) + mib*len(spaces) + 5), UncompressedSize64: uint64(mib) << 20,
	})
	require.NoError(t, err)
	_, err = w.Write(head)
	require.NoError(t, err)
	for range mib {
		_, err = w.Write(spaces)
		require.NoError(t, err)
	}
	_, err = w.Write([]byte{1, 0, 0, 0xff, 0xff}) // the final, empty stored block
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// TestAZipBombAttachedToAChatIsRefusedUnread uploads a Word file that
// unpacks 1,000:1 (under the upload limit) and a file past the upload
// limit: the bomb is read as a failure naming the reason, quickly, and the
// big file never reaches the store.
func TestAZipBombAttachedToAChatIsRefusedUnread(t *testing.T) {
	t.Parallel()
	b := setup(t) // the store's limit is 1 MiB
	ada := b.browser
	ada.signIn(t, "Ada", "ada.zipbomb@school.test")
	bomb := bombDOCX(t, 200)
	require.Less(t, len(bomb), 1<<20, "the bomb fits under the upload limit")
	fileURL := ada.uploadFile(t, "/api/v1/s3-upload", "chats/essay.docx",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document", string(bomb))

	start := time.Now()
	status, data, e := ada.call(t, "/api/v1/upload-and-read-files", map[string]any{"fileLinks": []string{fileURL}, "fileNames": []string{"essay.docx"}})
	require.Equal(t, 200, status, e)
	require.Less(t, time.Since(start), 10*time.Second, "the bomb is refused before it is unpacked")
	require.Equal(t, true, data["error"])
	reason := strings.ToLower(extract.ReasonZipBomb[:1]) + extract.ReasonZipBomb[1:]
	require.Equal(t, []any{"[Could not read essay.docx: " + reason + "]"}, data["textArray"])

	// Past the limit: refused when asked, and the store refuses a body
	// longer than announced.
	res, got := ada.do(t, "POST", "/api/v1/s3-upload", map[string]any{"fileName": "chats/big.docx", "fileType": "application/zip", "fileSize": 1<<20 + 1})
	require.Equal(t, 400, res.StatusCode, got)
	require.Equal(t, "This file is larger than the 1 MB limit.", got["error"].(map[string]any)["message"])
}

// TestOversizeJSONBodiesAreRefused: a JSON body past 4 MiB is refused with
// 413 before any handler reads it; one just under is read.
func TestOversizeJSONBodiesAreRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.bigbody@school.test")
	big := []byte(`{"markdown":"` + strings.Repeat("x", 4<<20) + `"}`)
	res, err := b.rawPost(t, "/api/v1/chat/download-docx", big)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)

	// Under the cap the handler answers with its own limit.
	res, body := b.do(t, "POST", "/api/v1/chat/download-docx", map[string]any{"markdown": strings.Repeat("x", 500_001)})
	require.Equal(t, 400, res.StatusCode, body)
	require.Equal(t, "The document can be at most 500,000 characters", body["error"].(map[string]any)["message"])
}

// TestSecurityHeadersOnEveryKindOfResponse checks the app's HTML (a deep
// link and the root), a built asset, API answers (JSON, an error, a 404)
// and served files (a signed download and a public image).
func TestSecurityHeadersOnEveryKindOfResponse(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.headers-all@school.test")
	download := b.uploadFile(t, "/api/v1/s3-upload", "chats/page.html", "text/html", "<script>alert(1)</script>")
	_, sig := b.do(t, "POST", "/api/v1/getSignedURL", map[string]any{"link": download})
	image := b.uploadFile(t, "/api/v1/s3-public-asset-upload", "logo.png", "image/png", "\x89PNG")

	get := func(u string) *http.Response {
		t.Helper()
		res, err := b.client.Get(u)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	every := func(what string, res *http.Response) {
		t.Helper()
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), what)
		require.Equal(t, "same-origin", res.Header.Get("Referrer-Policy"), what)
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), what)
	}

	for _, p := range []string{"/", "/library", "/assignment/123/results?tab=2", "/submit/some-token"} {
		res := get(b.srv.URL + p)
		require.Equal(t, 200, res.StatusCode, p)
		every(p, res)
		csp := map[string]string{}
		for _, d := range strings.Split(res.Header.Get("Content-Security-Policy"), ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
			csp[name] = value
		}
		require.Equal(t, "'self'", csp["script-src"], "%s: no inline or third-party scripts", p)
		require.NotContains(t, csp["default-src"], "unsafe", p)
		require.Equal(t, "'none'", csp["frame-ancestors"], p)
		require.Equal(t, "'none'", csp["object-src"], p)
		require.Equal(t, "'self'", csp["base-uri"], p)
		require.Equal(t, "'self'", csp["connect-src"], p)
	}

	for what, u := range map[string]string{
		"asset":        b.srv.URL + "/assets/app.js",
		"api json":     b.srv.URL + "/api/v1/app-config",
		"api 401":      b.srv.URL + "/api/v1/db/library/get",
		"api 404":      b.srv.URL + "/api/v1/no-such-route",
		"health":       b.srv.URL + "/healthz",
		"signed file":  sig["data"].(map[string]any)["signedUrl"].(string),
		"public image": image,
	} {
		res := get(u)
		every(what, res)
		if strings.Contains(what, "file") || strings.Contains(what, "image") {
			require.Equal(t, 200, res.StatusCode, what)
			require.Equal(t, "sandbox", res.Header.Get("Content-Security-Policy"), what)
		}
	}
	res := get(sig["data"].(map[string]any)["signedUrl"].(string))
	require.Equal(t, "text/html", res.Header.Get("Content-Type"))
	require.Equal(t, "attachment; filename=page.html", res.Header.Get("Content-Disposition"), "an uploaded page downloads")
	res = get(image)
	require.Empty(t, res.Header.Get("Content-Disposition"), "an image displays")
}

// from makes br connect from the loopback address ip (any of 127/8), so
// its sign-in attempts count apart from every other test's.
func (br *browser) from(ip string) *browser {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	br.client.Transport = &http.Transport{DialContext: d.DialContext}
	return br
}

// TestSignInLimitCannotBeDodgedWithForwardedFor: without trusted proxies a
// forged X-Forwarded-For does not give a new allowance, and the OAuth start
// counts too; behind a trusted proxy each school's address has its own.
func TestSignInLimitCannotBeDodgedWithForwardedFor(t *testing.T) {
	t.Parallel()
	attempt := func(b *bundle, ip string, i int, forwarded string) *http.Response {
		br := b.newBrowser(t).from(ip)
		f := url.Values{"csrfToken": {br.csrfToken(t)}, "json": {"true"}, "name": {"T"}, "email": {fmt.Sprintf("xff%d@school.test", i)}}
		res, _ := br.send(t, "POST", "/api/auth/callback/credentials", []byte(f.Encode()), "application/x-www-form-urlencoded", "X-Forwarded-For", forwarded)
		return res
	}
	limit := ratelimit.Rule{Limit: 2, Window: time.Hour}

	p := startIDP(t)
	b := setup(t, func(c *config.Config) {
		c.SignInLimit = limit
		c.GoogleClientID, c.GoogleClientSecret, c.GoogleIssuer = p.m.ClientID, p.m.ClientSecret, p.m.Issuer()
	})
	require.Equal(t, 200, attempt(b, "127.0.0.41", 0, "203.0.113.1").StatusCode)
	require.Equal(t, 200, attempt(b, "127.0.0.41", 1, "203.0.113.2").StatusCode)
	res := attempt(b, "127.0.0.41", 2, "203.0.113.3")
	require.Equal(t, 429, res.StatusCode, "a forged X-Forwarded-For is the same caller")
	require.NotEmpty(t, res.Header.Get("Retry-After"))

	// The OAuth start counts against the same limit.
	for i := range 2 {
		res, body := b.newBrowser(t).from("127.0.0.42").postForm(t, "/api/auth/signin/google", url.Values{"callbackUrl": {"/library"}})
		require.Equal(t, 200, res.StatusCode, "%d: %v", i, body)
	}
	res, body := b.newBrowser(t).from("127.0.0.42").postForm(t, "/api/auth/signin/google", url.Values{"callbackUrl": {"/library"}})
	require.Equal(t, 429, res.StatusCode, body)
	require.Equal(t, ratelimit.MsgSignIn, body["error"].(map[string]any)["message"])

	// Behind a trusted proxy, two schools are two callers.
	tp := setup(t, func(c *config.Config) { c.SignInLimit = limit; c.TrustedProxies = []string{"127.0.0.43"} })
	for i := range 2 {
		require.Equal(t, 200, attempt(tp, "127.0.0.43", i, "192.0.2.143").StatusCode)
	}
	require.Equal(t, 429, attempt(tp, "127.0.0.43", 2, "192.0.2.143").StatusCode)
	require.Equal(t, 200, attempt(tp, "127.0.0.43", 3, "192.0.2.144").StatusCode, "another school has its own allowance")
}

// TestOIDCSignInReturnsOnlyToMarkwell: a callbackUrl pointing elsewhere,
// carried through the identity provider's round trip, ends on Markwell's
// home page.
func TestOIDCSignInReturnsOnlyToMarkwell(t *testing.T) {
	t.Parallel()
	b, p := oidcSetup(t)
	for i, evil := range []string{"https://evil.test/phish", "//evil.test/", "/\\evil.test", "javascript:alert(1)"} {
		br := b.newBrowser(t)
		res, body := br.postForm(t, "/api/auth/signin/google", url.Values{"callbackUrl": {evil}})
		require.Equal(t, 200, res.StatusCode, body)
		authURL := body["url"].(string)
		p.m.QueueUser(mockUser("grace-cb"+string(rune('a'+i))+"@school.test", true))
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(authURL)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 302, res.StatusCode)
		loc := br.finish(t, res.Header.Get("Location"))
		require.Equal(t, b.srv.URL+"/", loc.String(), evil)
	}
}

// TestOnlyTheLTINewTabPageMayBeFramed: an LMS that loads the launch in an
// iframe gets the one page that may be framed, with a button opening the
// same login in a new tab; nothing else (the login in a tab of its own,
// the app's pages even when framed) drops X-Frame-Options DENY.
func TestOnlyTheLTINewTabPageMayBeFramed(t *testing.T) {
	t.Parallel()
	b := setup(t)
	login := "/api/lti/login?" + url.Values{"iss": {"https://lms.example"}, "login_hint": {"u-1"}, "lti_message_hint": {"m&x"},
		"client_id": {"c-1"}, "target_link_uri": {b.srv.URL + "/api/lti/launch"}}.Encode()
	get := func(path string, frame bool) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest("GET", b.srv.URL+path, nil)
		require.NoError(t, err)
		if frame {
			req.Header.Set("Sec-Fetch-Dest", "iframe")
		}
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(raw)
	}

	res, body := get(login, true)
	require.Equal(t, 200, res.StatusCode, body)
	require.Empty(t, res.Header.Get("X-Frame-Options"))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors *;")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "default-src 'none'")
	require.Empty(t, res.Header.Values("Set-Cookie"), "the framed page starts nothing: no state cookie")
	require.Contains(t, body, "Open Markwell in a new tab")
	m := regexp.MustCompile(`<a class="button" href="([^"]+)" target="_blank" rel="noopener">`).FindStringSubmatch(body)
	require.NotNil(t, m, body)
	again, err := url.Parse(html.UnescapeString(m[1]))
	require.NoError(t, err)
	require.Equal(t, "/api/lti/login", again.Path)
	want, _ := url.Parse(login)
	require.Equal(t, want.Query(), again.Query(), "the new tab runs the same login")

	for _, c := range []struct {
		path  string
		frame bool
	}{{login, false}, {"/library", true}, {"/lti/deep-link/" + uuid.NewString(), true}, {"/submit/some-token", true}, {"/api/lti/jwks", true}} {
		res, _ := get(c.path, c.frame)
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), c.path)
		require.NotContains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors *", c.path)
	}
}
