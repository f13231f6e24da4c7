package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"
)

// transport is shared by every teacher: many idle connections per host, as
// a fleet of browsers keeps. The scale phase wraps it to count requests.
var transport http.RoundTripper = &http.Transport{
	MaxIdleConns:        512,
	MaxIdleConnsPerHost: 512,
	IdleConnTimeout:     90 * time.Second,
}

// teacher is one signed-in browser: its cookies and CSRF token, calling the
// API as frontend/src/lib/api-client.ts does.
type teacher struct {
	base   string
	client *http.Client
	csrf   string
	email  string
	// pages are the polled reads this browser holds, by what they read
	// (one goroutine drives a teacher, so no lock).
	pages map[string]*revalidated
	// body is the buffer polled answers are read into (revalidate), reused
	// from one poll to the next so the load generator's own allocations
	// stay out of what it measures (one goroutine polls for a teacher, as
	// for pages; uploads run in parallel and do not use it).
	body bytes.Buffer
}

// readBody reads an answer into t's buffer; the bytes are valid until t's
// next request.
func (t *teacher) readBody(r io.Reader) ([]byte, error) {
	t.body.Reset()
	_, err := t.body.ReadFrom(r)
	return t.body.Bytes(), err
}

// page is the browser's state of the polled read named key.
func (t *teacher) page(key string) *revalidated {
	if t.pages == nil {
		t.pages = map[string]*revalidated{}
	}
	st, ok := t.pages[key]
	if !ok {
		st = &revalidated{}
		t.pages[key] = st
	}
	return st
}

// signIn signs a new teacher in through the development sign-in as
// e2e/browser.mjs signInByAPI does (CSRF token, form post), then fetches the
// CSRF token of the new session. Each new teacher gets a team of their own.
func signIn(ctx context.Context, base, name, email string) (*teacher, error) {
	jar, _ := cookiejar.New(nil)
	t := &teacher{base: base, email: email, client: &http.Client{Jar: jar, Transport: transport, Timeout: 60 * time.Second}}
	if err := t.fetchCSRF(ctx); err != nil {
		return nil, err
	}
	form := url.Values{"csrfToken": {t.csrf}, "name": {name}, "email": {email}, "callbackUrl": {"/library"}, "json": {"true"}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/auth/callback/credentials", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	res, err := t.client.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sign-in of %s: %d %s", email, res.StatusCode, body)
	}
	// Signing in renews the CSRF cookie.
	return t, t.fetchCSRF(ctx)
}

func (t *teacher) fetchCSRF(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, t.base+"/api/auth/csrf", nil)
	res, err := t.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var out struct {
		CSRFToken string `json:"csrfToken"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.CSRFToken == "" {
		return fmt.Errorf("csrf token: %d %v", res.StatusCode, err)
	}
	t.csrf = out.CSRFToken
	return nil
}

// apiError is a non-2xx answer.
type apiError struct {
	Status int
	Body   string
}

func (e *apiError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body) }

// call POSTs body as JSON to /api/v1/<path> with the CSRF header and
// decodes the answer's data into out (nil: discard). It returns the time
// from sending to the last byte of the answer.
func (t *teacher) call(ctx context.Context, method, path string, body, out any) (time.Duration, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequestWithContext(ctx, method, t.base+"/api/v1/"+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", t.csrf)
	start := time.Now()
	res, err := t.client.Do(req)
	if err != nil {
		return time.Since(start), err
	}
	b, err := io.ReadAll(res.Body) // not readBody: uploads call in parallel
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return took, err
	}
	if res.StatusCode/100 != 2 {
		return took, &apiError{Status: res.StatusCode, Body: truncate(string(b), 300)}
	}
	if out != nil {
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(b, &env); err != nil {
			return took, fmt.Errorf("%s: %w", path, err)
		}
		if err := json.Unmarshal(env.Data, out); err != nil {
			return took, fmt.Errorf("%s data: %w", path, err)
		}
	}
	return took, nil
}

func (t *teacher) post(ctx context.Context, path string, body, out any) error {
	_, err := t.call(ctx, http.MethodPost, path, body, out)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// The API's shapes, as far as the benchmark reads them.
type (
	assignmentView struct {
		Assignment struct {
			ID string `json:"_id"`
		} `json:"assignment"`
		Submissions     []submissionView `json:"submissions"`
		FunctionResults []resultView     `json:"functionResults"`
	}
	submissionView struct {
		ID     string `json:"_id"`
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	resultView struct {
		ID         string  `json:"_id"`
		Submission string  `json:"submission"`
		Status     string  `json:"status"`
		Error      string  `json:"error"`
		GradedAt   *string `json:"gradedAt"`
	}
)

// createGradeAssignment creates a grade assignment of two questions with two
// criteria each, as the wizard does (assignment/put, function/put).
func (t *teacher) createGradeAssignment(ctx context.Context, name string) (string, error) {
	var out struct {
		Assignment struct {
			ID string `json:"_id"`
		} `json:"assignment"`
	}
	if err := t.post(ctx, "db/assignment/put", map[string]any{
		"name": name, "type": "grade", "isHandWritten": false, "provideInstantFeedback": false,
	}, &out); err != nil {
		return "", err
	}
	q := func(text string, c ...string) map[string]any {
		crit := []map[string]any{}
		for i, d := range c {
			crit = append(crit, map[string]any{"description": d, "points": 2 + i})
		}
		return map[string]any{"questionText": text, "context": "", "rubricId": nil, "criteria": crit, "subquestions": []any{}}
	}
	err := t.post(ctx, "db/function/put", map[string]any{
		"assignmentId": out.Assignment.ID,
		"questions": []any{
			q("Explain photosynthesis.", "Names chlorophyll pigment", "Mentions glucose sugar"),
			q("Describe the water cycle.", "Evaporation from oceans", "Condensation forms clouds"),
		},
	}, nil)
	return out.Assignment.ID, err
}

// upload adds n text submissions to an assignment as the upload dialog
// does: s3-upload and a PUT of the bytes per file (conc at a time), then
// update-submissions in batches of at most 200.
func (t *teacher) upload(ctx context.Context, asgID string, n, conc int) error {
	locations := make([]string, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, conc)
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem }()
			loc, err := t.putFile(ctx, asgID, fmt.Sprintf("student-%03d.txt", i+1), []byte(essay(i)))
			locations[i] = loc
			errs <- err
		}(i)
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			return err
		}
	}
	for start := 0; start < n; start += 200 {
		end := min(start+200, n)
		subs := make([]map[string]string, 0, end-start)
		for i := start; i < end; i++ {
			subs = append(subs, map[string]string{"name": fmt.Sprintf("Student %03d", i+1), "location": locations[i]})
		}
		if err := t.post(ctx, "db/assignment/update-submissions", map[string]any{
			"assignmentId": asgID, "submissions": subs, "submissionRole": "teacher", "type": "grade",
			"requiresTextractArray": []bool{}, "requiresPDFReadArray": []bool{}, "requiresImageReadArray": []bool{}, "isHandWritten": false,
		}, nil); err != nil {
			return err
		}
	}
	return nil
}

// putFile signs an upload and PUTs the bytes; it returns the location
// update-submissions takes (the signed URL without its query).
func (t *teacher) putFile(ctx context.Context, asgID, name string, data []byte) (string, error) {
	var up struct {
		SignedURL string `json:"signedUrl"`
	}
	if err := t.post(ctx, "s3-upload", map[string]any{
		"fileName": "assignments/" + asgID + "/submissions/" + name, "fileType": "text/plain", "fileSize": len(data),
	}, &up); err != nil {
		return "", err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, up.SignedURL, bytes.NewReader(data))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("If-None-Match", "*") // signed into S3 upload URLs (write once)
	res, err := t.client.Do(req)
	if err != nil {
		return "", err
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return "", fmt.Errorf("PUT %s: %d %s", name, res.StatusCode, truncate(string(b), 200))
	}
	u, err := url.Parse(up.SignedURL)
	if err != nil {
		return "", err
	}
	u.RawQuery = ""
	return u.String(), nil
}

func (t *teacher) getAssignment(ctx context.Context, asgID string) (assignmentView, time.Duration, error) {
	var v assignmentView
	took, err := t.call(ctx, http.MethodPost, "db/assignment/get", map[string]string{"assignmentId": asgID}, &v)
	return v, took, err
}

// waitReady polls assignment/get until every submission is ready (failed
// ones are an error).
func (t *teacher) waitReady(ctx context.Context, asgID string, n int, timeout time.Duration) (assignmentView, error) {
	deadline := time.Now().Add(timeout)
	for {
		v, _, err := t.getAssignment(ctx, asgID)
		if err != nil {
			return v, err
		}
		ready := 0
		for _, s := range v.Submissions {
			switch s.Status {
			case "ready":
				ready++
			case "failed":
				return v, fmt.Errorf("submission %s failed: %s", s.ID, s.Error)
			}
		}
		if ready == n && len(v.Submissions) == n {
			return v, nil
		}
		if time.Now().After(deadline) {
			return v, fmt.Errorf("%d of %d submissions ready after %s", ready, n, timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// runAll presses "Grade all": runFunctionOnMany on every submission.
func (t *teacher) runAll(ctx context.Context, v assignmentView) error {
	ids := make([]string, len(v.Submissions))
	for i, s := range v.Submissions {
		ids[i] = s.ID
	}
	return t.post(ctx, "lambda/runFunctionOnMany", map[string]any{"assignmentId": v.Assignment.ID, "submissionIds": ids}, nil)
}

// inProgress reports whether a result is still being worked on.
func inProgress(status string) bool {
	switch status {
	case "grading", "rubric-grading", "annotating":
		return true
	}
	return false
}

// counts returns how many results are done (graded or reviewed) and failed.
func counts(v assignmentView) (done, failed, running int) {
	for _, r := range v.FunctionResults {
		switch {
		case r.Status == "failed":
			failed++
		case inProgress(r.Status):
			running++
		case r.Status == "graded" || r.Status == "reviewed":
			done++
		}
	}
	return
}

var essayWords = strings.Fields(`plants use chlorophyll pigment to capture light energy and turn carbon
dioxide and water into glucose sugar and oxygen the water cycle begins with evaporation from oceans
and lakes then condensation forms clouds and precipitation returns water to the ground where it
collects in rivers and seeps into soil roots absorb it and leaves release it again by transpiration
energy from the sun drives the whole process which keeps ecosystems alive`)

// essay is a different student answer of about 200 words for each i.
func essay(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Student %d answers.\n\n", i+1)
	x := uint32(i*2654435761 + 1)
	for w := 0; w < 200; w++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteString(essayWords[int(x)%len(essayWords)])
		if w%15 == 14 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// readKind is how a polled read was answered.
type readKind int

const (
	readFull        readKind = iota // the whole answer
	readDelta                       // only what changed since the client's version
	readNotModified                 // 304: nothing changed
)

// revalidated is what a page keeps of a polled read, as
// frontend/src/lib/revalidated-query.ts does: its ETag and version. Merged
// keeps the answer with every delta applied (only the Monday-morning
// pollers need it: they read the results' statuses).
type revalidated struct {
	etag    string
	version string
	merge   bool
	view    assignmentView
}

// classAnswer is assignment/get's data as far as a poll reads it.
type classAnswer struct {
	assignmentView
	Version                  string   `json:"version"`
	Delta                    bool     `json:"delta"`
	DeletedSubmissionIDs     []string `json:"deletedSubmissionIds"`
	DeletedFunctionResultIDs []string `json:"deletedFunctionResultIds"`
}

// revalidate sends a conditional request: the version it holds as
// If-None-Match (and, with sinceBody, as the body's since), then keeps the
// answer's ETag and version. A client holding nothing sends a plain request.
// The answer's bytes are valid until t's next request (readBody).
func (t *teacher) revalidate(ctx context.Context, path string, body map[string]any, st *revalidated, sinceBody bool) (readKind, time.Duration, []byte, error) {
	if st.version != "" && sinceBody {
		body["since"] = st.version
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, t.base+"/api/v1/"+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", t.csrf)
	if st.etag != "" {
		req.Header.Set("If-None-Match", st.etag)
	}
	start := time.Now()
	res, err := t.client.Do(req)
	if err != nil {
		return readFull, time.Since(start), nil, err
	}
	data, err := t.readBody(res.Body)
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return readFull, took, nil, err
	}
	switch {
	case res.StatusCode == http.StatusNotModified:
		return readNotModified, took, nil, nil
	case res.StatusCode/100 != 2:
		return readFull, took, nil, &apiError{Status: res.StatusCode, Body: truncate(string(data), 300)}
	}
	st.etag = res.Header.Get("ETag")
	// The version is the ETag's value (data.version holds the same): read
	// from the header, so the load generator need not decode 0.6 MB
	// answers to poll.
	st.version = strings.Trim(strings.TrimPrefix(st.etag, "W/"), `"`)
	return readFull, took, data, nil
}

// pollAssignment is assignment/get as the UI polls it: If-None-Match and
// since from st; a delta is merged into st.view when st.merge is set.
func (t *teacher) pollAssignment(ctx context.Context, asgID string, st *revalidated) (readKind, time.Duration, error) {
	kind, took, body, err := t.revalidate(ctx, "db/assignment/get", map[string]any{"assignmentId": asgID}, st, true)
	if err != nil || kind == readNotModified {
		return kind, took, err
	}
	if !st.merge {
		// Only a delta says so in its data; a client that does not merge
		// learns it from the size it did not download.
		if bytes.Contains(body, []byte(`"delta":true`)) {
			kind = readDelta
		}
		return kind, took, nil
	}
	var env struct {
		Data classAnswer `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return kind, took, fmt.Errorf("assignment/get: %w", err)
	}
	a := env.Data
	if a.Version != "" {
		st.version = a.Version
	}
	if !a.Delta {
		st.view = a.assignmentView
		return readFull, took, nil
	}
	st.view = mergeDelta(st.view, a)
	return readDelta, took, nil
}

// mergeDelta applies a delta to the answer it follows: rows replaced by
// _id, new ones appended, deleted ones dropped.
func mergeDelta(prev assignmentView, d classAnswer) assignmentView {
	out := prev
	out.Assignment = d.Assignment
	gone := map[string]bool{}
	for _, id := range d.DeletedSubmissionIDs {
		gone[id] = true
	}
	for _, id := range d.DeletedFunctionResultIDs {
		gone[id] = true
	}
	out.Submissions = mergeRows(prev.Submissions, d.Submissions, gone, func(s submissionView) string { return s.ID })
	out.FunctionResults = mergeRows(prev.FunctionResults, d.FunctionResults, gone, func(r resultView) string { return r.ID })
	return out
}

func mergeRows[T any](prev, changed []T, gone map[string]bool, id func(T) string) []T {
	byID := map[string]T{}
	for _, r := range changed {
		byID[id(r)] = r
	}
	out := make([]T, 0, len(prev)+len(changed))
	for _, r := range prev {
		if gone[id(r)] {
			continue
		}
		if c, ok := byID[id(r)]; ok {
			r = c
			delete(byID, id(r))
		}
		out = append(out, r)
	}
	for _, r := range changed {
		if _, ok := byID[id(r)]; ok {
			out = append(out, r)
		}
	}
	return out
}
