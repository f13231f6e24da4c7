package httpapi_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

// testPlatform plays an LMS: its own RSA key and JWKS, an OIDC auth
// endpoint the test drives by hand, a token endpoint that checks Markwell's
// signed assertion against Markwell's JWKS, AGS line items and scores, and a
// Names and Roles roster.
type testPlatform struct {
	t        *testing.T
	b        *bundle
	srv      *httptest.Server
	key      *rsa.PrivateKey
	kid      string
	clientID string

	mu         sync.Mutex
	lineItems  []map[string]any
	scores     []map[string]any
	scopes     []string
	failScores int
	members    []map[string]any
}

func newTestPlatform(t *testing.T, b *bundle) *testPlatform {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	p := &testPlatform{t: t, b: b, key: key, kid: "platform-key-1", clientID: "markwell-client"}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: p.kid, Algorithm: "RS256", Use: "sig"}}})
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, r.ParseForm())
		claims := p.verifyMarkwell(r.PostForm.Get("client_assertion"))
		if claims["iss"] != p.clientID || claims["aud"] != p.srv.URL+"/token" || r.PostForm.Get("grant_type") != "client_credentials" {
			http.Error(w, "bad assertion", http.StatusUnauthorized)
			return
		}
		p.mu.Lock()
		p.scopes = append(p.scopes, r.PostForm.Get("scope"))
		p.mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "platform-token", "token_type": "Bearer", "expires_in": 3600})
	})
	authed := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") != "Bearer platform-token" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return false
		}
		return true
	}
	mux.HandleFunc("GET /lineitems", func(w http.ResponseWriter, r *http.Request) {
		if authed(w, r) {
			_, _ = io.WriteString(w, "[]")
		}
	})
	mux.HandleFunc("POST /lineitems", func(w http.ResponseWriter, r *http.Request) {
		if !authed(w, r) {
			return
		}
		var li map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&li))
		li["id"] = p.srv.URL + "/lineitems/1"
		p.mu.Lock()
		p.lineItems = append(p.lineItems, li)
		p.mu.Unlock()
		_ = json.NewEncoder(w).Encode(li)
	})
	mux.HandleFunc("POST /lineitems/1/scores", func(w http.ResponseWriter, r *http.Request) {
		if !authed(w, r) {
			return
		}
		require.Equal(t, "application/vnd.ims.lis.v1.score+json", r.Header.Get("Content-Type"))
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.failScores > 0 {
			p.failScores--
			http.Error(w, "gradebook locked", http.StatusServiceUnavailable)
			return
		}
		var s map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&s))
		p.scores = append(p.scores, s)
	})
	mux.HandleFunc("GET /nrps", func(w http.ResponseWriter, r *http.Request) {
		if authed(w, r) {
			p.mu.Lock()
			defer p.mu.Unlock()
			_ = json.NewEncoder(w).Encode(map[string]any{"id": p.srv.URL + "/nrps", "members": p.members})
		}
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// verifyMarkwell checks a JWT Markwell signed against Markwell's JWKS (as
// a platform does) and returns its claims.
func (p *testPlatform) verifyMarkwell(raw string) map[string]any {
	res, err := http.Get(p.b.srv.URL + "/api/lti/jwks")
	require.NoError(p.t, err)
	defer res.Body.Close()
	var set jose.JSONWebKeySet
	require.NoError(p.t, json.NewDecoder(res.Body).Decode(&set))
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	require.NoError(p.t, err)
	keys := set.Key(tok.Headers[0].KeyID)
	require.Len(p.t, keys, 1, "Markwell's JWKS publishes the key it signed with")
	var claims map[string]any
	require.NoError(p.t, tok.Claims(keys[0].Key, &claims))
	return claims
}

// register registers the platform through the operators' API.
func (p *testPlatform) register(t *testing.T) {
	t.Helper()
	ops := p.b.newBrowser(t)
	ops.signIn(t, "Ops", "ops@school.test")
	status, data, e := ops.call(t, "/api/v1/operator/lti/platforms", map[string]any{
		"name": "Test LMS", "issuer": p.srv.URL, "clientId": p.clientID, "deploymentIds": []string{"dep-1"},
		"authLoginUrl": p.srv.URL + "/auth", "tokenUrl": p.srv.URL + "/token", "jwksUrl": p.srv.URL + "/jwks",
	})
	require.Equal(t, 200, status, e)
	require.Equal(t, p.srv.URL, data["platform"].(map[string]any)["issuer"])
	status, data, e = ops.call(t, "/api/v1/operator/lti", nil)
	require.Equal(t, 200, status, e)
	tool := data["tool"].(map[string]any)
	require.Equal(t, p.b.srv.URL+"/api/lti/login", tool["loginUrl"])
	require.Equal(t, p.b.srv.URL+"/api/lti/launch", tool["redirectUri"])
	require.Equal(t, p.b.srv.URL+"/api/lti/jwks", tool["jwksUrl"])
	require.NotEmpty(t, data["platforms"])
}

// person is who the platform launches.
type person struct {
	sub, name, email string
	roles            []string
}

var (
	teacherRole = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"}
	learnerRole = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"}
)

// claims are a resource-link launch's claims for who, with nonce.
func (p *testPlatform) claims(who person, nonce string) map[string]any {
	now := time.Now()
	return map[string]any{
		"iss": p.srv.URL, "aud": p.clientID, "sub": who.sub, "nonce": nonce,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"name": who.name, "email": who.email,
		"https://purl.imsglobal.org/spec/lti/claim/message_type":  "LtiResourceLinkRequest",
		"https://purl.imsglobal.org/spec/lti/claim/version":       "1.3.0",
		"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "dep-1",
		"https://purl.imsglobal.org/spec/lti/claim/roles":         who.roles,
		"https://purl.imsglobal.org/spec/lti/claim/context":       map[string]any{"id": "course-1", "title": "Year 9 History"},
		"https://purl.imsglobal.org/spec/lti/claim/resource_link": map[string]any{"id": "link-1", "title": "Essay"},
		"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": map[string]any{
			"scope": []string{lti.ScopeLineItem, lti.ScopeScore}, "lineitems": p.srv.URL + "/lineitems"},
		"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": map[string]any{
			"context_memberships_url": p.srv.URL + "/nrps", "service_versions": []string{"2.0"}},
	}
}

// sign signs claims as the platform (or with another key and kid).
func (p *testPlatform) sign(claims map[string]any, key *rsa.PrivateKey, kid string) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	require.NoError(p.t, err)
	raw, err := jwt.Signed(signer).Claims(claims).Serialize()
	require.NoError(p.t, err)
	return raw
}

// login runs the third-party initiated login in br and returns the state
// and nonce Markwell sent to the platform's auth endpoint.
func (p *testPlatform) login(t *testing.T, br *browser, loginHint string) (state, nonce string) {
	t.Helper()
	q := url.Values{"iss": {p.srv.URL}, "login_hint": {loginHint}, "target_link_uri": {p.b.srv.URL + "/api/lti/launch"}, "client_id": {p.clientID}}
	res, _ := br.send(t, "GET", "/api/lti/login?"+q.Encode(), nil, "")
	require.Equal(t, http.StatusFound, res.StatusCode)
	loc, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, p.srv.URL+"/auth", loc.Scheme+"://"+loc.Host+loc.Path)
	require.Equal(t, p.b.srv.URL+"/api/lti/launch", loc.Query().Get("redirect_uri"))
	require.Equal(t, "form_post", loc.Query().Get("response_mode"))
	require.Equal(t, loginHint, loc.Query().Get("login_hint"))
	return loc.Query().Get("state"), loc.Query().Get("nonce")
}

// post form-posts the id_token to the launch URL, as the platform's auto
// submitting page does, and returns the answer and its body.
func (p *testPlatform) post(t *testing.T, br *browser, state, idToken string) (*http.Response, string) {
	t.Helper()
	form := url.Values{"state": {state}, "id_token": {idToken}}
	req, err := http.NewRequest("POST", p.b.srv.URL+"/api/lti/launch", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", p.srv.URL)
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	if cookie(res, httpapi.CSRFCookie) != nil {
		br.csrf = "" // a teacher's launch signed in: a new CSRF token
	}
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// launch logs who in through br and launches with the claims, changed by
// edit; it returns the answer, its body and the id_token.
func (p *testPlatform) launch(t *testing.T, br *browser, who person, edit func(map[string]any)) (*http.Response, string, string) {
	t.Helper()
	state, nonce := p.login(t, br, who.sub)
	c := p.claims(who, nonce)
	if edit != nil {
		edit(c)
	}
	tok := p.sign(c, p.key, p.kid)
	res, body := p.post(t, br, state, tok)
	return res, body, tok
}

func TestLTIPlatformEndToEnd(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := newTestPlatform(t, b)
	p.register(t)
	ms := person{sub: "teacher-7", name: "Ms Rivera", email: "rivera@school.test", roles: teacherRole}
	sam := person{sub: "pupil-1", name: "Sam Pupil", email: "sam@pupils.test", roles: learnerRole}

	// A pupil who arrives before the teacher set the activity up is told so.
	res, body, _ := p.launch(t, b.newBrowser(t), sam, nil)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, lti.MsgNotLinked)

	// The teacher adds Markwell by deep linking: signed in as herself,
	// in the team of the course, on the picker.
	teacher := b.newBrowser(t)
	res, _, _ = p.launch(t, teacher, ms, func(c map[string]any) {
		c["https://purl.imsglobal.org/spec/lti/claim/message_type"] = lti.MsgDeepLinking
		delete(c, "https://purl.imsglobal.org/spec/lti/claim/resource_link")
		c["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = map[string]any{
			"deep_link_return_url": p.srv.URL + "/deep-return", "accept_types": []string{"ltiResourceLink"}, "data": "opaque-42"}
	})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	loc := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "/lti/deep-link/"), loc)
	deepLinkID := strings.TrimPrefix(loc, "/lti/deep-link/")
	res, session := teacher.send(t, "GET", "/api/auth/session", nil, "")
	require.Equal(t, 200, res.StatusCode)
	user := session["user"].(map[string]any)
	require.Equal(t, "rivera@school.test", user["email"])
	require.Equal(t, "Ms Rivera", user["name"])

	status, data, e := teacher.call(t, "/api/v1/lti/deep-link/get", map[string]any{"id": deepLinkID})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Test LMS", data["request"].(map[string]any)["platform"])
	require.Equal(t, true, data["request"].(map[string]any)["lineItem"])
	// Another teacher cannot answer her request.
	other := b.newBrowser(t)
	other.signIn(t, "Eve", "eve.lti@school.test")
	other.missing(t, "/api/v1/lti/deep-link/get", map[string]any{"id": deepLinkID})

	status, data, e = teacher.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Causes of WW1", "type": "prompt", "provideInstantFeedback": false})
	require.Equal(t, 200, status, e)
	asgID := data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = teacher.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asgID, "prompt": "Be kind"})
	require.Equal(t, 200, status, e)
	// A pick without the CSRF token is refused.
	res, _ = teacher.send(t, "POST", "/api/v1/lti/deep-link/post", []byte(url.Values{"id": {deepLinkID}, "assignmentId": {asgID}}.Encode()), "application/x-www-form-urlencoded")
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	// The pick answers with Markwell's own page that form-posts the signed
	// response to the return URL of the verified launch (a returnUrl the
	// request names is ignored), under a CSP that lets forms go to that
	// origin only.
	res, page := postDeepLinkPick(t, teacher, url.Values{"id": {deepLinkID}, "assignmentId": {asgID}, "returnUrl": {"https://evil.test/steal"}})
	require.Equal(t, http.StatusOK, res.StatusCode, page)
	csp := res.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "form-action "+p.srv.URL+";")
	require.NotContains(t, csp, "evil.test")
	require.NotContains(t, csp, "'self'")
	require.NotContains(t, csp, "unsafe-inline")
	require.Contains(t, page, `action="`+p.srv.URL+`/deep-return"`)
	require.NotContains(t, page, "evil.test")
	m := regexp.MustCompile(`<input type="hidden" name="JWT" value="([^"]+)">`).FindStringSubmatch(page)
	require.Len(t, m, 2, page)
	nonce := regexp.MustCompile(`script-src 'nonce-([A-Za-z0-9_-]+)'`).FindStringSubmatch(csp)
	require.Len(t, nonce, 2, csp)
	require.Contains(t, page, `<script nonce="`+nonce[1]+`">`)
	dl := p.verifyMarkwell(m[1])
	require.Equal(t, p.clientID, dl["iss"])
	require.Equal(t, p.srv.URL, dl["aud"])
	require.Equal(t, "LtiDeepLinkingResponse", dl["https://purl.imsglobal.org/spec/lti/claim/message_type"])
	require.Equal(t, "dep-1", dl["https://purl.imsglobal.org/spec/lti/claim/deployment_id"])
	require.Equal(t, "opaque-42", dl["https://purl.imsglobal.org/spec/lti-dl/claim/data"])
	items := dl["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"].([]any)
	require.Len(t, items, 1)
	item := items[0].(map[string]any)
	require.Equal(t, "ltiResourceLink", item["type"])
	require.Equal(t, "Causes of WW1", item["title"])
	require.Equal(t, b.srv.URL+"/api/lti/launch", item["url"])
	require.Equal(t, "Causes of WW1", item["lineItem"].(map[string]any)["label"])
	custom := item["custom"].(map[string]any)
	// The request is used up.
	res, page = postDeepLinkPick(t, teacher, url.Values{"id": {deepLinkID}, "assignmentId": {asgID}})
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	require.Contains(t, page, "expired or was already used")
	require.NotContains(t, page, "JWT")

	// A course editor who points the custom parameter at another
	// assignment (its MAC no longer matches) links nothing.
	res, body, _ = p.launch(t, b.newBrowser(t), sam, func(c map[string]any) {
		c["https://purl.imsglobal.org/spec/lti/claim/resource_link"] = map[string]any{"id": "link-forged"}
		c["https://purl.imsglobal.org/spec/lti/claim/custom"] = map[string]any{"markwell_link": someAssignment(t).String() + ".forged"}
	})
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, lti.MsgNotLinked)

	// The teacher opens the new activity: the platform sends the custom
	// parameter back; she lands on the assignment.
	withLink := func(c map[string]any) { c["https://purl.imsglobal.org/spec/lti/claim/custom"] = custom }
	res, _, _ = p.launch(t, teacher, ms, withLink)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/assignment/"+asgID, res.Header.Get("Location"))

	// A second teacher of the course joins the course's team.
	co := b.newBrowser(t)
	res, _, _ = p.launch(t, co, person{sub: "teacher-8", name: "Mr Okafor", email: "okafor@school.test", roles: teacherRole}, withLink)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, "/assignment/"+asgID, res.Header.Get("Location"))
	status, _, e = co.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e, "the co-teacher is in the course's team")

	// The pupil launches: the student page, with their name and email
	// from the token.
	pupil := b.newBrowser(t)
	res, _, _ = p.launch(t, pupil, sam, withLink)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	dest, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(dest.Path, "/submit/"), dest.String())
	linkToken := strings.TrimPrefix(dest.Path, "/submit/")
	launchToken := dest.Query().Get("ltiLaunch")
	status, data, e = pupil.call(t, "/api/v1/lti/learner", map[string]any{"assignmentId": asgID, "token": launchToken})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"name": "Sam Pupil", "email": "sam@pupils.test"}, data["learner"])

	// The pupil submits; what the client claims is overruled by the launch.
	fileURL := pupil.linkUpload(t, linkToken, "essay.txt", "The alliances dragged everyone in.")
	status, data, e = pupil.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
		"linkToken": linkToken, "assignmentId": asgID, "ltiLaunch": launchToken,
		"submissions":    []map[string]any{{"name": "essay.txt", "location": fileURL}},
		"submissionRole": "student", "type": "prompt",
		"studentName": "Someone Else", "studentEmail": "else@pupils.test",
		"studentSubmissionLTIDetails": map[string]any{"sub": "forged"},
	})
	require.Equal(t, 200, status, e)
	sub := data["submissions"].([]any)[0].(map[string]any)
	require.Equal(t, "Sam Pupil", sub["studentName"])
	require.Equal(t, "sam@pupils.test", sub["studentEmail"])
	subID := sub["_id"].(string)
	var details map[string]any
	require.NoError(t, testdbRow(t, `SELECT lti FROM submissions WHERE id = $1`, subID, &details))
	require.Equal(t, "pupil-1", details["sub"])
	require.Equal(t, "link-1", details["resourceLinkId"])

	// Names and Roles: Sam submitted, Kim has not.
	p.members = []map[string]any{
		{"user_id": "pupil-1", "name": "Sam Pupil", "email": "sam@pupils.test", "roles": learnerRole, "status": "Active"},
		{"user_id": "pupil-2", "name": "Kim Pupil", "email": "kim@pupils.test", "roles": learnerRole, "status": "Active"},
		{"user_id": "teacher-7", "name": "Ms Rivera", "email": "rivera@school.test", "roles": teacherRole, "status": "Active"},
	}
	status, data, e = teacher.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID, "roster": true})
	require.Equal(t, 200, status, e)
	st := data["lti"].(map[string]any)
	require.Equal(t, true, st["linked"])
	require.Equal(t, []any{
		map[string]any{"name": "Sam Pupil", "email": "sam@pupils.test", "submitted": true},
		map[string]any{"name": "Kim Pupil", "email": "kim@pupils.test", "submitted": false},
	}, st["roster"])
	other.missing(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID, "roster": true})

	// The teacher releases: a prompt result has no points, which the
	// status says per pupil.
	finish(t, subID, "Good use of evidence.")
	status, _, e = teacher.call(t, "/api/v1/db/assignment/release", map[string]any{"assignmentId": asgID, "submissionIds": []string{subID}, "sendEmail": false})
	require.Equal(t, 200, status, e)
	status, data, e = teacher.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	scores := data["lti"].(map[string]any)["scores"].([]any)
	require.Len(t, scores, 1)
	require.Equal(t, "skipped", scores[0].(map[string]any)["state"])
	require.Equal(t, lti.MsgNoPoints, scores[0].(map[string]any)["error"])

	// A graded result (7 of 10) is queued as the release step does and
	// sent by the job: the platform is down the first time.
	var teamID string
	require.NoError(t, testdbRow(t, `SELECT team_id::text FROM assignments WHERE id = $1`, asgID, &teamID))
	actorTeam := identity.Actor{TeamID: uuidOf(t, teamID)}
	seven, ten := 7.0, 10.0
	require.NoError(t, b.lti.QueueScores(t.Context(), actorTeam, uuidOf(t, asgID), []lti.Released{{
		SubmissionID: uuidOf(t, subID), StudentName: "Sam Pupil", Points: &seven, Max: &ten, Link: b.srv.URL + "/results/abc"}}))
	p.failScores = 1
	// The lti_score job itself works it (River's test worker, in a
	// transaction of its own): the failure makes River retry the job.
	worker := rivertest.NewWorker(t, riverpgxv5.New(b.lti.Pool), &river.Config{}, jobs.NewLTIScoreWorker(jobs.Deps{LTI: b.lti}))
	jobTx, err := b.lti.Pool.Begin(t.Context())
	require.NoError(t, err)
	t.Cleanup(func() { _ = jobTx.Rollback(context.Background()) })
	args := queue.LTIScoreArgs{TeamID: actorTeam.TeamID, AssignmentID: uuidOf(t, asgID)}
	run, err := worker.Work(t.Context(), t, jobTx, args, nil)
	require.Error(t, err, "a failure makes the job retry")
	require.Equal(t, river.EventKindJobFailed, run.EventKind)
	require.Equal(t, rivertype.JobStateRetryable, run.Job.State)
	status, data, e = teacher.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	row := data["lti"].(map[string]any)["scores"].([]any)[0].(map[string]any)
	require.Equal(t, "failed", row["state"])
	require.Equal(t, "The platform refused the score (HTTP 503). It will be tried again.", row["error"])

	// A job whose last attempt fails gives up: the score says Markwell
	// stopped trying (not that it will try again).
	p.failScores = 1
	run, _ = worker.Work(t.Context(), t, jobTx, args, &river.InsertOpts{MaxAttempts: 1})
	require.Equal(t, rivertype.JobStateCancelled, run.Job.State, "the last attempt ends the job")
	status, data, e = teacher.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	row = data["lti"].(map[string]any)["scores"].([]any)[0].(map[string]any)
	require.Equal(t, "failed", row["state"])
	require.Equal(t, lti.MsgScoresAbandoned, row["error"])

	// Releasing again queues the job again, and this time it goes through.
	run, err = worker.Work(t.Context(), t, jobTx, args, nil)
	require.NoError(t, err, "the retry goes through")
	require.Equal(t, river.EventKindJobCompleted, run.EventKind)
	status, data, e = teacher.call(t, "/api/v1/lti/assignment/status", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	row = data["lti"].(map[string]any)["scores"].([]any)[0].(map[string]any)
	require.Equal(t, "sent", row["state"])
	require.Equal(t, "Sam Pupil", row["studentName"])

	p.mu.Lock()
	defer p.mu.Unlock()
	require.Len(t, p.lineItems, 1, "one line item, created in the lineitems container")
	require.Equal(t, "Causes of WW1", p.lineItems[0]["label"])
	require.Equal(t, asgID, p.lineItems[0]["resourceId"])
	require.Len(t, p.scores, 1)
	s := p.scores[0]
	require.Equal(t, "pupil-1", s["userId"])
	require.Equal(t, 7.0, s["scoreGiven"])
	require.Equal(t, 10.0, s["scoreMaximum"])
	require.Equal(t, "Completed", s["activityProgress"])
	require.Equal(t, "FullyGraded", s["gradingProgress"])
	require.Equal(t, "Your feedback: "+b.srv.URL+"/results/abc", s["comment"])
	require.Contains(t, p.scopes, lti.ScopeLineItem+" "+lti.ScopeScore)
	require.Contains(t, p.scopes, lti.ScopeNRPS)
}

func TestLTIRefusesTamperedLaunches(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := newTestPlatform(t, b)
	p.register(t)
	sam := person{sub: "pupil-1", name: "Sam Pupil", email: "sam@pupils.test", roles: learnerRole}
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)

	refused := func(t *testing.T, res *http.Response, body, msg string) {
		t.Helper()
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
		require.Contains(t, body, "Markwell could not open this launch")
		require.Contains(t, body, html.EscapeString(msg))
		require.NotContains(t, body, "goroutine")
		require.NotContains(t, body, `"error"`)
		require.Nil(t, cookie(res, httpapi_SessionCookie), "nobody is signed in")
	}
	cases := []struct {
		name string
		edit func(map[string]any)
		msg  string
	}{
		{"wrong issuer", func(c map[string]any) { c["iss"] = "https://evil.example" }, lti.MsgWrongIssuer},
		{"wrong audience", func(c map[string]any) { c["aud"] = "someone-else" }, lti.MsgWrongAudience},
		{"expired", func(c map[string]any) {
			c["exp"] = time.Now().Add(-time.Hour).Unix()
			c["iat"] = time.Now().Add(-2 * time.Hour).Unix()
		}, lti.MsgExpiredToken},
		{"wrong deployment", func(c map[string]any) { c["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "dep-9" }, lti.MsgDeployment},
		{"wrong nonce", func(c map[string]any) { c["nonce"] = "made-up" }, lti.MsgReplay},
		{"not LTI 1.3", func(c map[string]any) { c["https://purl.imsglobal.org/spec/lti/claim/version"] = "1.1" }, lti.MsgMessageType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body, _ := p.launch(t, b.newBrowser(t), sam, tc.edit)
			refused(t, res, body, tc.msg)
		})
	}
	t.Run("unknown key", func(t *testing.T) {
		br := b.newBrowser(t)
		state, nonce := p.login(t, br, sam.sub)
		res, body := p.post(t, br, state, p.sign(p.claims(sam, nonce), other, "not-published"))
		refused(t, res, body, lti.MsgUnknownKey)
	})
	t.Run("signed by another key under the platform's kid", func(t *testing.T) {
		br := b.newBrowser(t)
		state, nonce := p.login(t, br, sam.sub)
		res, body := p.post(t, br, state, p.sign(p.claims(sam, nonce), other, p.kid))
		refused(t, res, body, lti.MsgBadToken)
	})
	t.Run("nonce replay", func(t *testing.T) {
		// A teacher's good launch, then the same id_token again: with the
		// used state, and with a fresh login's state.
		br := b.newBrowser(t)
		ms := person{sub: "teacher-1", name: "Ms Rivera", email: "rivera.t@school.test", roles: teacherRole}
		state, nonce := p.login(t, br, ms.sub)
		tok := p.sign(p.claims(ms, nonce), p.key, p.kid)
		res, _ := p.post(t, br, state, tok)
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		thief := b.newBrowser(t)
		thief.client.Jar.SetCookies(mustURL(t, b.srv.URL+"/api/lti"), []*http.Cookie{{Name: "markwell.lti-state", Value: state, Path: "/api/lti"}})
		res, body := p.post(t, thief, state, tok)
		refused(t, res, body, lti.MsgLoginExpired)
		fresh, _ := p.login(t, thief, ms.sub)
		res, body = p.post(t, thief, fresh, tok)
		refused(t, res, body, lti.MsgReplay)
	})
	t.Run("state from another browser", func(t *testing.T) {
		br := b.newBrowser(t)
		state, nonce := p.login(t, br, sam.sub)
		res, body := p.post(t, b.newBrowser(t), state, p.sign(p.claims(sam, nonce), p.key, p.kid))
		refused(t, res, body, lti.MsgStateMismatch)
	})
	t.Run("unknown platform", func(t *testing.T) {
		res, _ := b.newBrowser(t).send(t, "GET", "/api/lti/login?iss=https%3A%2F%2Fnobody.example&login_hint=x", nil, "")
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	})
}

func TestLTIOperatorRegistrationAndKeyRotation(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ops := b.newBrowser(t)
	ops.signIn(t, "Ops", "ops@school.test")
	// http:// URLs are refused unless LTI_ALLOW_INSECURE_URLS (this
	// router allows them); a missing deployment id is refused.
	ops.refused(t, "/api/v1/operator/lti/platforms", map[string]any{"issuer": "https://lms.example", "clientId": "c",
		"authLoginUrl": "https://lms.example/auth", "tokenUrl": "https://lms.example/token", "jwksUrl": "https://lms.example/jwks"}, lti.MsgPlatformFields)
	body := map[string]any{"issuer": "https://lms.example", "clientId": "c", "deploymentIds": []string{"1"},
		"authLoginUrl": "https://lms.example/auth", "tokenUrl": "https://lms.example/token", "jwksUrl": "https://lms.example/jwks"}
	status, _, e := ops.call(t, "/api/v1/operator/lti/platforms", body)
	require.Equal(t, 200, status, e)
	status, _, e = ops.call(t, "/api/v1/operator/lti/platforms", body)
	require.Equal(t, 409, status)
	require.Equal(t, lti.MsgPlatformExists, e["message"])

	status, data, e := ops.call(t, "/api/v1/operator/lti", nil)
	require.Equal(t, 200, status, e)
	first := data["keyIds"].([]any)
	require.Len(t, first, 1)
	status, data, e = ops.call(t, "/api/v1/operator/lti/rotate-key", map[string]any{})
	require.Equal(t, 200, status, e)
	status, data, e = ops.call(t, "/api/v1/operator/lti", nil)
	require.Equal(t, 200, status, e)
	keys := data["keyIds"].([]any)
	require.Len(t, keys, 2, "the old key stays published beside the new one")
	require.Equal(t, first[0], keys[1])
	// The JWKS is public; a teacher sees no operator page.
	res, _ := b.newBrowser(t).send(t, "GET", "/api/lti/jwks", nil, "")
	require.Equal(t, 200, res.StatusCode)
	teacher := b.newBrowser(t)
	teacher.signIn(t, "Tom", "tom.lti@school.test")
	teacher.missing(t, "/api/v1/operator/lti/platforms", body)
	res, _ = teacher.send(t, "GET", "/admin/lti", nil, "")
	require.Equal(t, 404, res.StatusCode)
	res, _ = ops.send(t, "GET", "/admin/lti", nil, "")
	require.Equal(t, 200, res.StatusCode)
}

const httpapi_SessionCookie = httpapi.SessionCookie

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func uuidOf(t *testing.T, s string) uuid.UUID {
	t.Helper()
	u, err := uuid.Parse(s)
	require.NoError(t, err)
	return u
}

// testdbRow scans one value of query's row into dst (JSON columns into maps).
func testdbRow(t *testing.T, query, arg string, dst any) error {
	t.Helper()
	return testdb.Pool(t).QueryRow(t.Context(), query, arg).Scan(dst)
}

// postDeepLinkPick posts the picker's form (with the browser's CSRF token
// as a field, as the page does) and returns the HTML answer.
func postDeepLinkPick(t *testing.T, br *browser, f url.Values) (*http.Response, string) {
	t.Helper()
	f.Set("csrfToken", br.csrfToken(t))
	req, err := http.NewRequest("POST", br.b.srv.URL+"/api/v1/lti/deep-link/post", strings.NewReader(f.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// page GETs path in br without following redirects and returns the answer
// and its body as a person reads it.
func page(t *testing.T, br *browser, path string) (*http.Response, string) {
	t.Helper()
	res, err := br.client.Get(br.b.srv.URL + path)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, html.UnescapeString(string(raw))
}

// answerLink posts the teacher's answer on the account-link page (decision
// "link" or "cancel") as its form does, with csrfToken ("" for none).
func answerLink(t *testing.T, br *browser, decision, csrfToken string) (*http.Response, string) {
	t.Helper()
	f := url.Values{"decision": {decision}}
	if csrfToken != "" {
		f.Set("csrfToken", csrfToken)
	}
	req, err := http.NewRequest("POST", br.b.srv.URL+httpapi.LTILinkPage, strings.NewReader(f.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := br.client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, html.UnescapeString(string(raw))
}

// accountLinked says whether the platform account sub is linked to a
// Markwell user.
func accountLinked(t *testing.T, sub string) bool {
	t.Helper()
	var n int
	require.NoError(t, testdbRow(t, `SELECT count(*) FROM accounts WHERE provider_account_id = $1`, sub, &n))
	return n == 1
}

// sessionUserID is the id of the user br is signed in as ("" for none).
func sessionUserID(t *testing.T, br *browser) string {
	t.Helper()
	_, session := br.send(t, "GET", "/api/auth/session", nil, "")
	u, _ := session["user"].(map[string]any)
	id, _ := u["id"].(string)
	return id
}

// A teacher whose email has a Markwell account made another way: a launch
// from the browser where she is signed in to it links her LMS account and
// opens; from then on every launch opens directly.
func TestLTITeacherWithAnAccountIsLinkedFromHerSignedInBrowser(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := newTestPlatform(t, b)
	p.register(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada Lovelace", "ada.lti@school.test")
	adaID := sessionUserID(t, ada)
	require.NotEmpty(t, adaID)
	teacher := person{sub: "teacher-ada", name: "Ada L.", email: "Ada.LTI@school.test", roles: teacherRole}

	res, _, _ := p.launch(t, ada, teacher, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, httpapi.LTILinkPage, res.Header.Get("Location"), "the launch post cannot see her Lax session: it goes on at the link page")
	linked := func() bool { return accountLinked(t, teacher.sub) }
	// She is asked first: which account, which platform; nothing is linked
	// by opening the page.
	res, body := page(t, ada, httpapi.LTILinkPage)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Contains(t, body, "Link your course account to Markwell?")
	require.Contains(t, body, "ada.lti@school.test", "the account she is signed in to")
	require.Contains(t, body, "Test LMS", "the platform that asks")
	require.Contains(t, body, `action="/api/lti/link"`)
	require.False(t, linked(), "opening the page links nothing")
	// The form's answer needs the CSRF token the page carries.
	res, body = answerLink(t, ada, "link", "")
	require.Equal(t, http.StatusForbidden, res.StatusCode, body)
	require.False(t, linked(), "an answer without the page's token links nothing")

	res, body = answerLink(t, ada, "link", ada.csrfToken(t))
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	require.Equal(t, "/library", res.Header.Get("Location"))
	require.Equal(t, adaID, sessionUserID(t, ada), "signed in as the account she had, not a new one")
	require.True(t, linked())

	// Any browser now: the launch opens directly as her.
	fresh := b.newBrowser(t)
	res, body, _ = p.launch(t, fresh, teacher, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	require.Equal(t, "/library", res.Header.Get("Location"))
	require.Equal(t, adaID, sessionUserID(t, fresh))
}

// The same teacher launching from a browser that is not signed in is asked
// to sign in once, and comes back to her launch; nobody else's browser can
// finish the link, and the email alone links nothing.
func TestLTITeacherWithAnAccountIsAskedToSignInFirst(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := newTestPlatform(t, b)
	p.register(t)
	b.newBrowser(t).signIn(t, "Ada Lovelace", "ada.lti2@school.test")
	teacher := person{sub: "teacher-ada2", name: "Ada L.", email: "ada.lti2@school.test", roles: teacherRole}
	linked := func() bool { return accountLinked(t, teacher.sub) }

	fresh := b.newBrowser(t)
	res, _, _ := p.launch(t, fresh, teacher, nil)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	require.Equal(t, httpapi.LTILinkPage, res.Header.Get("Location"))
	res, body := page(t, fresh, httpapi.LTILinkPage)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	require.Contains(t, body, lti.MsgSignInToLink)
	require.Contains(t, body, `href="`+b.srv.URL+`/signin?callbackUrl=%2Fapi%2Flti%2Flink"`, "a sign-in link that comes back")
	require.Empty(t, sessionUserID(t, fresh), "the email alone signs nobody in")
	require.False(t, linked())

	// Someone signed in elsewhere cannot finish her link: the launch waits
	// on her browser only.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.lti2@school.test")
	eveID := sessionUserID(t, eve)
	res, body = page(t, eve, httpapi.LTILinkPage)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, lti.MsgLoginExpired)
	// A launch with Ada's email in Eve's signed-in browser links nothing.
	res, _, _ = p.launch(t, eve, teacher, nil)
	require.Equal(t, httpapi.LTILinkPage, res.Header.Get("Location"))
	res, body = page(t, eve, httpapi.LTILinkPage)
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, lti.MsgSignedInAsOther)
	require.NotContains(t, body, "/signin?", "signed in already: she must sign out first")
	require.Equal(t, eveID, sessionUserID(t, eve))
	require.False(t, linked())

	// She signs in (the sign-in comes back to the link page), agrees, and
	// goes on.
	fresh.signIn(t, "Ada Lovelace", "ada.lti2@school.test")
	adaID := sessionUserID(t, fresh)
	res, body = page(t, fresh, httpapi.LTILinkPage)
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Contains(t, body, "Link and continue")
	require.False(t, linked())
	res, body = answerLink(t, fresh, "link", fresh.csrfToken(t))
	require.Equal(t, http.StatusSeeOther, res.StatusCode, body)
	require.Equal(t, "/library", res.Header.Get("Location"))
	require.Equal(t, adaID, sessionUserID(t, fresh))
	require.True(t, linked())
	res, body = page(t, fresh, httpapi.LTILinkPage)
	require.Contains(t, body, lti.MsgLoginExpired, "the waiting launch is used once")
}

// A signed-in teacher who did not start the launch (a platform steering her
// browser through one, or a launch opened by mistake) declines on the page:
// nothing is linked, the waiting launch is gone, she stays who she was.
func TestLTITeacherCanDeclineTheAccountLink(t *testing.T) {
	t.Parallel()
	b := setup(t)
	p := newTestPlatform(t, b)
	p.register(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada Lovelace", "ada.lti3@school.test")
	adaID := sessionUserID(t, ada)
	teacher := person{sub: "teacher-ada3", name: "Ada L.", email: "ada.lti3@school.test", roles: teacherRole}

	res, _, _ := p.launch(t, ada, teacher, nil)
	require.Equal(t, httpapi.LTILinkPage, res.Header.Get("Location"))
	res, body := page(t, ada, httpapi.LTILinkPage)
	require.Equal(t, http.StatusOK, res.StatusCode, body)

	res, body = answerLink(t, ada, "cancel", ada.csrfToken(t))
	require.Equal(t, http.StatusOK, res.StatusCode, body)
	require.Contains(t, body, "Nothing was linked")
	require.False(t, accountLinked(t, teacher.sub))
	var n int
	require.NoError(t, testdbRow(t, `SELECT count(*) FROM lti_account_links WHERE claims->>'sub' = $1`, teacher.sub, &n))
	require.Zero(t, n, "the waiting launch is forgotten")
	require.Equal(t, adaID, sessionUserID(t, ada))
	// The declined launch cannot be taken up again.
	res, body = answerLink(t, ada, "link", ada.csrfToken(t))
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Contains(t, body, lti.MsgLoginExpired)
}
