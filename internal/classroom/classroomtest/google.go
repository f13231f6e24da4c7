// Package classroomtest is an httptest stand-in for the parts of Google the
// Classroom import uses: the OAuth token endpoint, the Classroom API (v1)
// and the Drive API (v3), laid out as classroom.EndpointsAt expects. It
// checks what Google checks that matters here: the client, the redirect
// URI, PKCE, bearer tokens and refresh tokens. Tests never reach the network.
package classroomtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The client the fake accepts.
const (
	ClientID     = "client-id"
	ClientSecret = "client-secret"
)

// File is a file in the fake Drive.
type File struct {
	Name, MimeType string
	Content        []byte
	// Hidden files answer 404, as Drive does for a file not shared with the caller.
	Hidden bool
}

// Google is the fake. Seed it (Seed, or the exported maps) before the code
// under test runs; change it during a test through its methods.
type Google struct {
	srv *httptest.Server

	// Courses, Coursework (by course id), Submissions (by "course/coursework"),
	// Students (by course id) and Files (by Drive id) are what the APIs
	// answer, as Google's JSON.
	Courses     []map[string]any
	Coursework  map[string][]map[string]any
	Submissions map[string][]map[string]any
	Students    map[string][]map[string]any
	Files       map[string]*File

	mu          sync.Mutex
	redirectURI string
	codes       map[string]string // authorisation code → S256 challenge
	access      map[string]bool
	refresh     map[string]bool
	grantScope  string
	expiresIn   int
	serial      int
	refreshes   int
	pageSize    int
	fail        map[string]int
	failFile    map[string]int
	calls       []string

	// Grades back (studentSubmissions.patch and :return).
	grades    map[string]Grade // by student submission id
	returned  map[string]bool
	left      map[string]bool // student submission ids whose student left
	foreign   map[string]bool // "course/coursework" created by another project
	noScope   bool
	failTimes map[string]int // path prefix → the next n calls answer 503
}

// Grade is what studentSubmissions.patch set on a student submission, and
// the updateMask it was sent with.
type Grade struct {
	Draft, Assigned *float64
	Mask            string
}

// New starts a fake that grants every scope asked for and issues access
// tokens valid for an hour, with no data (see Seed).
func New(t testing.TB) *Google {
	t.Helper()
	g := &Google{
		Coursework: map[string][]map[string]any{}, Submissions: map[string][]map[string]any{},
		Students: map[string][]map[string]any{}, Files: map[string]*File{},
		codes: map[string]string{}, access: map[string]bool{}, refresh: map[string]bool{},
		expiresIn: 3600, pageSize: 100, fail: map[string]int{}, failFile: map[string]int{},
		grades: map[string]Grade{}, returned: map[string]bool{}, left: map[string]bool{}, foreign: map[string]bool{},
		failTimes: map[string]int{},
	}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(g.srv.Close)
	return g
}

// URL is the fake's base URL, for classroom.EndpointsAt or GOOGLE_API_BASE_URL.
func (g *Google) URL() string { return g.srv.URL }

// Client is an HTTP client for the fake.
func (g *Google) Client() *http.Client { return g.srv.Client() }

// SetRedirectURI sets the only redirect URI a code exchange accepts.
func (g *Google) SetRedirectURI(u string) { g.lock(func() { g.redirectURI = u }) }

// SetGrantScope sets the scope a code exchange reports granted; "" (the
// default) grants what the consent URL asked for.
func (g *Google) SetGrantScope(s string) { g.lock(func() { g.grantScope = s }) }

// SetExpiresIn sets the lifetime of the access tokens issued next.
func (g *Google) SetExpiresIn(seconds int) { g.lock(func() { g.expiresIn = seconds }) }

// SetPageSize caps the items of one list page, to exercise paging.
func (g *Google) SetPageSize(n int) { g.lock(func() { g.pageSize = n }) }

// Fail answers the API requests whose path starts with prefix with status.
func (g *Google) Fail(prefix string, status int) { g.lock(func() { g.fail[prefix] = status }) }

// FailDownload answers the download or export of Drive file id with
// status, after a short delay (so the other downloads of an import finish
// first).
func (g *Google) FailDownload(id string, status int) { g.lock(func() { g.failFile[id] = status }) }

// LeaveCourse makes the calls on student submission id answer 404, as
// Google does once its student has left the course.
func (g *Google) LeaveCourse(id string) { g.lock(func() { g.left[id] = true }) }

// CreatedElsewhere makes patch and return on coursework of course answer
// 403 ProjectPermissionDenied, as for coursework created in Classroom
// itself or by another Developer Console project.
func (g *Google) CreatedElsewhere(course, coursework string) {
	g.lock(func() { g.foreign[course+"/"+coursework] = true })
}

// DenyGradeScope makes patch and return answer 403 with insufficient
// authentication scopes, as for a token without classroom.coursework.students.
func (g *Google) DenyGradeScope() { g.lock(func() { g.noScope = true }) }

// FailTimes answers the next n API requests whose path starts with prefix
// with 503.
func (g *Google) FailTimes(prefix string, n int) { g.lock(func() { g.failTimes[prefix] = n }) }

// GradeOf is what patch set on student submission id (zero when nothing).
func (g *Google) GradeOf(id string) Grade {
	var out Grade
	g.lock(func() { out = g.grades[id] })
	return out
}

// Returned reports whether student submission id was returned.
func (g *Google) Returned(id string) bool {
	var out bool
	g.lock(func() { out = g.returned[id] })
	return out
}

// RevokeAll makes the fake refuse every token it issued.
func (g *Google) RevokeAll() {
	g.lock(func() { g.access, g.refresh = map[string]bool{}, map[string]bool{} })
}

// Refreshes counts the refresh-token grants served.
func (g *Google) Refreshes() int {
	var n int
	g.lock(func() { n = g.refreshes })
	return n
}

// Calls counts the API requests ("GET /v1/courses", "GET
// /drive/v3/files/d1" …) that start with prefix; "" counts them all.
func (g *Google) Calls(prefix string) int {
	n := 0
	g.lock(func() {
		for _, c := range g.calls {
			if strings.HasPrefix(c, prefix) {
				n++
			}
		}
	})
	return n
}

func (g *Google) lock(fn func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fn()
}

// Approve is the teacher agreeing at the consent page authURL: it returns
// the code Google sends back, bound to the URL's PKCE challenge and scope.
func (g *Google) Approve(authURL string) string {
	u, _ := url.Parse(authURL)
	q := u.Query()
	var code string
	g.lock(func() {
		g.serial++
		code = fmt.Sprintf("code-%d", g.serial)
		if q.Get("code_challenge_method") == "S256" {
			g.codes[code] = q.Get("code_challenge") + " " + q.Get("scope")
		}
	})
	return code
}

// Seed gives the fake one teacher's Classroom: three courses; in Biology
// (c1) a lab report (w1, out of 50 points) turned in by Ada (s1: a Google Doc), returned to
// Ben (s2: a PDF, a video and a file Drive no longer shows), turned in by
// Cy with only a link (s3), and still being written by Dee (s4).
func (g *Google) Seed() {
	g.Courses = []map[string]any{
		{"id": "c1", "name": "Biology", "section": "Period 3"},
		{"id": "c2", "name": "Chemistry"},
		{"id": "c3", "name": "Physics", "section": "B"},
	}
	g.Coursework["c1"] = []map[string]any{{"id": "w1", "title": "Lab report", "maxPoints": 50}, {"id": "w2", "title": "Reading quiz"}}
	g.Coursework["c2"] = []map[string]any{}
	student := func(id, name, email string) map[string]any {
		return map[string]any{"userId": id, "profile": map[string]any{"name": map[string]any{"fullName": name}, "emailAddress": email}}
	}
	g.Students["c1"] = []map[string]any{
		student("u1", "Ada Lovelace", "ada@students.test"), student("u2", "Ben Okafor", "ben@students.test"),
		student("u3", "Cy Young", "cy@students.test"), student("u4", "Dee Diaz", "dee@students.test"),
	}
	drive := func(id, title string) map[string]any {
		return map[string]any{"driveFile": map[string]any{"id": id, "title": title, "alternateLink": "https://drive.google.com/" + id}}
	}
	work := func(attachments ...any) map[string]any { return map[string]any{"attachments": attachments} }
	g.Submissions["c1/w1"] = []map[string]any{
		{"id": "s1", "userId": "u1", "state": "TURNED_IN", "assignmentSubmission": work(drive("d-doc", "Ada's report"))},
		{"id": "s2", "userId": "u2", "state": "RETURNED", "assignmentSubmission": work(drive("d-pdf", "ben.pdf"), drive("d-vid", "clip.mp4"), drive("d-gone", "old.pdf"))},
		{"id": "s3", "userId": "u3", "state": "TURNED_IN", "assignmentSubmission": work(map[string]any{"link": map[string]any{"url": "https://example.test/cy"}})},
		{"id": "s4", "userId": "u4", "state": "CREATED", "assignmentSubmission": work(drive("d-draft", "draft"))},
	}
	g.Submissions["c1/w2"] = []map[string]any{}
	g.Files["d-doc"] = &File{Name: "Ada's report", MimeType: "application/vnd.google-apps.document", Content: []byte("Ada's words")}
	g.Files["d-pdf"] = &File{Name: "ben.pdf", MimeType: "application/pdf", Content: []byte("%PDF-1.4 Ben's lab")}
	g.Files["d-vid"] = &File{Name: "clip.mp4", MimeType: "video/mp4", Content: []byte("....ftypmp4")}
	g.Files["d-gone"] = &File{Name: "old.pdf", MimeType: "application/pdf", Hidden: true}
	g.Files["d-draft"] = &File{Name: "draft", MimeType: "application/vnd.google-apps.document", Content: []byte("draft")}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, reason string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"code": status, "message": http.StatusText(status),
		"errors": []map[string]any{{"reason": reason, "message": http.StatusText(status)}},
	}})
}

const googleApps = "application/vnd.google-apps."

func (g *Google) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/token" {
		g.token(w, r)
		return
	}
	if status := g.downloadFailure(r); status != 0 {
		time.Sleep(100 * time.Millisecond)
		apiError(w, status, "backendError")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, r.Method+" "+r.URL.Path)
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || !g.access[bearer] {
		apiError(w, http.StatusUnauthorized, "authError")
		return
	}
	for prefix, status := range g.fail {
		if strings.HasPrefix(r.URL.Path, prefix) {
			reason := "backendError"
			if status == http.StatusForbidden {
				reason = "forbidden"
			}
			apiError(w, status, reason)
			return
		}
	}
	for prefix, n := range g.failTimes {
		if n > 0 && strings.HasPrefix(r.URL.Path, prefix) {
			g.failTimes[prefix] = n - 1
			apiError(w, http.StatusServiceUnavailable, "backendError")
			return
		}
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) == 7 && parts[0] == "v1" && parts[5] == "studentSubmissions":
		g.gradeBack(w, r, parts)
	case len(parts) == 5 && parts[0] == "v1" && parts[3] == "courseWork" && r.Method == http.MethodGet:
		for _, cw := range g.Coursework[parts[2]] {
			if cw["id"] == parts[4] {
				writeJSON(w, http.StatusOK, cw)
				return
			}
		}
		apiError(w, http.StatusNotFound, "notFound")
	case len(parts) == 2 && parts[0] == "v1" && parts[1] == "courses":
		if r.URL.Query().Get("teacherId") != "me" {
			apiError(w, http.StatusBadRequest, "badRequest")
			return
		}
		g.page(w, r, "courses", g.Courses)
	case len(parts) == 4 && parts[0] == "v1" && parts[3] == "courseWork":
		cw, ok := g.Coursework[parts[2]]
		if !ok {
			apiError(w, http.StatusNotFound, "notFound")
			return
		}
		g.page(w, r, "courseWork", cw)
	case len(parts) == 4 && parts[0] == "v1" && parts[3] == "students":
		g.page(w, r, "students", g.Students[parts[2]])
	case len(parts) == 6 && parts[0] == "v1" && parts[5] == "studentSubmissions":
		subs, ok := g.Submissions[parts[2]+"/"+parts[4]]
		if !ok {
			apiError(w, http.StatusNotFound, "notFound")
			return
		}
		states := r.URL.Query()["states"]
		var out []map[string]any
		for _, s := range subs {
			if len(states) == 0 || slices.Contains(states, s["state"].(string)) {
				out = append(out, s)
			}
		}
		g.page(w, r, "studentSubmissions", out)
	case len(parts) >= 4 && parts[0] == "drive" && parts[2] == "files":
		g.file(w, r, parts)
	default:
		apiError(w, http.StatusNotFound, "notFound")
	}
}

// gradeBack answers PATCH …/studentSubmissions/{id}?updateMask=… (a
// teacher may set draftGrade and assignedGrade only) and POST
// …/studentSubmissions/{id}:return, with Google's refusals.
func (g *Google) gradeBack(w http.ResponseWriter, r *http.Request, parts []string) {
	id, action, _ := strings.Cut(parts[6], ":")
	work := parts[2] + "/" + parts[4]
	var sub map[string]any
	for _, s := range g.Submissions[work] {
		if s["id"] == id {
			sub = s
		}
	}
	switch {
	case g.noScope:
		writeJSON(w, http.StatusForbidden, map[string]any{"error": map[string]any{
			"code": 403, "message": "Request had insufficient authentication scopes.", "status": "PERMISSION_DENIED",
			"details": []map[string]any{{"reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT"}},
		}})
		return
	case sub == nil || g.left[id]:
		apiError(w, http.StatusNotFound, "notFound")
		return
	case g.foreign[work]:
		writeJSON(w, http.StatusForbidden, map[string]any{"error": map[string]any{
			"code": 403, "message": "@ProjectPermissionDenied The Developer Console project is not permitted to make this request.",
			"status": "PERMISSION_DENIED",
		}})
		return
	}
	switch {
	case r.Method == http.MethodPatch && action == "":
		mask := r.URL.Query().Get("updateMask")
		fields := strings.Split(mask, ",")
		if mask == "" || slices.ContainsFunc(fields, func(f string) bool { return f != "draftGrade" && f != "assignedGrade" }) {
			apiError(w, http.StatusBadRequest, "badRequest")
			return
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			apiError(w, http.StatusBadRequest, "badRequest")
			return
		}
		gr := g.grades[id]
		gr.Mask = mask
		for _, f := range fields {
			v, ok := body[f].(float64)
			if !ok {
				apiError(w, http.StatusBadRequest, "badRequest")
				return
			}
			if f == "draftGrade" {
				gr.Draft = &v
			} else {
				gr.Assigned = &v
			}
		}
		g.grades[id] = gr
		writeJSON(w, http.StatusOK, sub)
	case r.Method == http.MethodPost && action == "return":
		g.returned[id] = true
		sub["state"] = "RETURNED"
		writeJSON(w, http.StatusOK, map[string]any{})
	default:
		apiError(w, http.StatusNotFound, "notFound")
	}
}

// file answers drive/v3/files/{id}: metadata, ?alt=media or /export.
func (g *Google) file(w http.ResponseWriter, r *http.Request, parts []string) {
	file, ok := g.Files[parts[3]]
	if !ok || file.Hidden {
		apiError(w, http.StatusNotFound, "notFound")
		return
	}
	switch {
	case len(parts) == 5 && parts[4] == "export":
		if !strings.HasPrefix(file.MimeType, googleApps) || r.URL.Query().Get("mimeType") != "application/pdf" {
			apiError(w, http.StatusBadRequest, "badRequest")
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(append([]byte("%PDF-1.4 exported "), file.Content...))
	case r.URL.Query().Get("alt") == "media":
		if strings.HasPrefix(file.MimeType, googleApps) {
			apiError(w, http.StatusForbidden, "fileNotDownloadable")
			return
		}
		w.Header().Set("Content-Type", file.MimeType)
		_, _ = w.Write(file.Content)
	default:
		meta := map[string]any{"id": parts[3], "name": file.Name, "mimeType": file.MimeType}
		if !strings.HasPrefix(file.MimeType, googleApps) {
			meta["size"] = strconv.Itoa(len(file.Content))
		}
		writeJSON(w, http.StatusOK, meta)
	}
}

// downloadFailure is the status FailDownload set for r when r downloads or
// exports a Drive file; 0 otherwise.
func (g *Google) downloadFailure(r *http.Request) int {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 4 || parts[0] != "drive" || parts[2] != "files" ||
		!(len(parts) == 5 && parts[4] == "export" || r.URL.Query().Get("alt") == "media") {
		return 0
	}
	var status int
	g.lock(func() {
		if status = g.failFile[parts[3]]; status != 0 {
			g.calls = append(g.calls, r.Method+" "+r.URL.Path)
		}
	})
	return status
}

// page answers one page of items under key, with the offset as page token.
func (g *Google) page(w http.ResponseWriter, r *http.Request, key string, items []map[string]any) {
	from, _ := strconv.Atoi(r.URL.Query().Get("pageToken"))
	size := g.pageSize
	if n, err := strconv.Atoi(r.URL.Query().Get("pageSize")); err == nil && n > 0 && n < size {
		size = n
	}
	to := min(from+size, len(items))
	body := map[string]any{}
	if from < len(items) {
		body[key] = items[from:to]
	}
	if to < len(items) {
		body["nextPageToken"] = strconv.Itoa(to)
	}
	writeJSON(w, http.StatusOK, body)
}

func (g *Google) token(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := r.ParseForm(); err != nil || r.PostForm.Get("client_id") != ClientID || r.PostForm.Get("client_secret") != ClientSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client"})
		return
	}
	issue := func() map[string]any {
		g.serial++
		at := fmt.Sprintf("access-%d", g.serial)
		g.access[at] = true
		return map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": g.expiresIn}
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		code := r.PostForm.Get("code")
		bound, ok := g.codes[code]
		delete(g.codes, code) // a code works once
		challenge, scope, _ := strings.Cut(bound, " ")
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge || r.PostForm.Get("redirect_uri") != g.redirectURI {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
			return
		}
		body := issue()
		g.serial++
		rt := fmt.Sprintf("refresh-%d", g.serial)
		g.refresh[rt] = true
		body["refresh_token"] = rt
		body["scope"] = "openid email profile " + scope
		if g.grantScope != "" {
			body["scope"] = g.grantScope
		}
		writeJSON(w, http.StatusOK, body)
	case "refresh_token":
		if !g.refresh[r.PostForm.Get("refresh_token")] {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
			return
		}
		g.refreshes++
		writeJSON(w, http.StatusOK, issue())
	default:
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "unsupported_grant_type"})
	}
}
