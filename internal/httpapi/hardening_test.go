package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/ratelimit"
)

// TestNULInEveryTextFieldOfEveryRouteIs400 enumerates the router, asks
// each JSON route for its body type and sends, for every string field of
// that body (nested ones included), a body whose field holds a NUL. Each
// must be refused with 400 naming the field, and change nothing.
func TestNULInEveryTextFieldOfEveryRouteIs400(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.nul@school.test")
	_, before := b.do(t, "GET", "/api/v1/db/library/get", nil)

	checked := 0
	for _, r := range b.router.Routes() {
		if r.Method == http.MethodGet || !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		typ := httpapi.BodyType(r.HandlerFunc)
		require.NotNil(t, typ, "%s %s does not bind its body through handle: give it a body type", r.Method, r.Path)
		for _, field := range stringFields(typ, "", map[reflect.Type]bool{}) {
			body := nestedBody(field, "a\u0000b")
			res, got := b.do(t, r.Method, r.Path, body)
			require.Equal(t, 400, res.StatusCode, "%s %s with NUL in %s: %v", r.Method, r.Path, field, got)
			msg := got["error"].(map[string]any)["message"].(string)
			require.Contains(t, msg, "cannot contain control characters", "%s %s %s", r.Method, r.Path, field)
			checked++
		}
	}
	require.Greater(t, checked, 40, "the walk found the routes' text fields")

	// The sign-in API's form fields and session data too.
	res, _ := b.postForm(t, "/api/auth/callback/credentials", url.Values{"name": {"Eve\x00"}, "email": {"eve.nul@school.test"}})
	require.Equal(t, 400, res.StatusCode)
	res, _ = b.do(t, "POST", "/api/auth/session", map[string]any{"data": map[string]any{"name": "x\u0000"}})
	require.Equal(t, 400, res.StatusCode)

	_, after := b.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Equal(t, before, after, "nothing changed")
}

// TestDeeplyNestedJSONIsRefusedAtOnce: a body nested past input.MaxDepth
// is a 400 on a route, whoever sends it, and a path that is no route is a
// 404 whatever its body; nothing changes.
func TestDeeplyNestedJSONIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.deep@school.test")
	_, before := b.do(t, "GET", "/api/v1/db/library/get", nil)

	deep := json.RawMessage(`{"name":` + strings.Repeat("[", 1_000) + `"x"` + strings.Repeat("]", 1_000) + `}`)
	for _, path := range []string{"/api/v1/db/team/create-folder", "/api/v1/db/assignment/put", "/api/auth/session"} {
		res, got := b.do(t, "POST", path, deep)
		require.Equal(t, 400, res.StatusCode, "%s: %v", path, got)
		require.Equal(t, "The request is nested more than 64 levels deep", got["error"].(map[string]any)["message"], path)
	}
	res, _ := b.do(t, "POST", "/api/no-such-route", deep)
	require.Equal(t, 404, res.StatusCode)

	_, after := b.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Equal(t, before, after, "nothing changed")
}

// stringFields lists the JSON paths ("questions.criteria.description") of
// every string in a body type, following structs, slices and pointers.
// A type met again inside itself (a question's subquestions) is walked
// once.
func stringFields(t reflect.Type, prefix string, seen map[reflect.Type]bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if seen[t] {
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return []string{prefix}
	case reflect.Struct:
	default:
		return nil
	}
	if t.NumField() == 2 && t.Field(0).Name == "v" && t.Field(1).Name == "state" {
		return []string{prefix} // an id: sent as a string
	}
	seen[t] = true
	defer delete(seen, t)
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			out = append(out, stringFields(f.Type, prefix, seen)...)
			continue
		}
		if !f.IsExported() && tag == "" {
			continue
		}
		name := tag
		if name == "" {
			name = f.Name
		}
		p := name
		if prefix != "" {
			p = prefix + "." + name
		}
		out = append(out, stringFields(f.Type, p, seen)...)
	}
	return out
}

// nestedBody builds {"a":{"b":v}} from "a.b"; every level is an object,
// which the input rule reads before any handler decides it wanted a list.
func nestedBody(path string, v any) map[string]any {
	parts := strings.Split(path, ".")
	var cur any = v
	for i := len(parts) - 1; i >= 0; i-- {
		cur = map[string]any{parts[i]: cur}
	}
	return cur.(map[string]any)
}

func TestMetricsAreNotOnTheAppPortForAnonymousCallers(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, err := http.Get(b.srv.URL + "/metrics")
	require.NoError(t, err)
	res.Body.Close()
	require.NotEqual(t, 200, res.StatusCode)
}

func TestSignInAttemptsAreLimitedPerAddress(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.SignInLimit = ratelimit.Rule{Limit: 3, Window: time.Hour} })
	// From a loopback address of this test's own: the package's tests share
	// one database, so every other test's sign-ins from 127.0.0.1 count
	// against that address.
	const addr = "127.0.0.77"
	for i := range 3 {
		br := b.newBrowser(t).from(addr)
		br.signIn(t, "T", "limit"+string(rune('a'+i))+"@school.test")
	}
	br := b.newBrowser(t).from(addr)
	res, body := br.postForm(t, "/api/auth/callback/credentials", url.Values{"name": {"T"}, "email": {"limitz@school.test"}})
	require.Equal(t, 429, res.StatusCode, body)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, ratelimit.MsgSignIn, body["error"].(map[string]any)["message"])
}

func TestAICallsAreLimitedPerTeacher(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.ai-limit@school.test")
	lb := setupWithAIBudget(t, ratelimit.Rule{Limit: 2, Window: time.Minute}, ratelimit.Rule{Limit: 100, Window: 24 * time.Hour})
	lb.signIn(t, "Ada", "ada.ai-limit2@school.test")
	for range 2 {
		res, body := lb.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why is the sky blue?"})
		require.Equal(t, 200, res.StatusCode, body)
	}
	res, body := lb.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why is the sky blue?"})
	require.Equal(t, 429, res.StatusCode, body)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, ratelimit.MsgAITeacher, body["error"].(map[string]any)["message"])

	// Another teacher has their own allowance.
	other := lb.newBrowser(t)
	other.signIn(t, "Bo", "bo.ai-limit@school.test")
	res, _ = other.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
	require.Equal(t, 200, res.StatusCode)
	// Without limits set, nothing is limited.
	for range 3 {
		res, _ := b.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
		require.Equal(t, 200, res.StatusCode)
	}
}

func TestAICallsAreLimitedPerTeam(t *testing.T) {
	t.Parallel()
	lb := setupWithAIBudget(t, ratelimit.Rule{Limit: 100, Window: time.Minute}, ratelimit.Rule{Limit: 1, Window: 24 * time.Hour})
	lb.signIn(t, "Ada", "ada.team-limit@school.test")
	res, _ := lb.do(t, "POST", "/api/v1/ai-assist/suggest-questions", map[string]any{"assignmentText": "1. Why?"})
	require.Equal(t, 200, res.StatusCode)
	res, body := lb.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
	require.Equal(t, 429, res.StatusCode)
	require.Equal(t, "Your team has used all of today's 1 AI call; they renew at 00:00 UTC.", body["error"].(map[string]any)["message"])
}

func TestHSTSAndANarrowCSP(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, _ := b.do(t, "GET", "/library", nil)
	require.Empty(t, res.Header.Get("Strict-Transport-Security"), "no HSTS over http")
	csp := res.Header.Get("Content-Security-Policy")
	directives := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	require.Equal(t, "'self'", directives["connect-src"], csp)
	require.Equal(t, "'self'", directives["form-action"], csp)
	require.Equal(t, "'self'", directives["script-src"], "scripts stay without unsafe-inline")

	s := setup(t, func(c *config.Config) {
		c.PublicURL = "https://markwell.school.test"
		c.GoogleClientID, c.GoogleClientSecret, c.GoogleIssuer = "id", "secret", "https://accounts.google.com"
	})
	res, _ = s.do(t, "GET", "/library", nil)
	require.Equal(t, "max-age=31536000; includeSubDomains", res.Header.Get("Strict-Transport-Security"))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "form-action 'self' https://accounts.google.com")
}

func setupWithAIBudget(t *testing.T, teacher, team ratelimit.Rule) *bundle {
	t.Helper()
	return setup(t, func(c *config.Config) { c.AILimitTeacher, c.AILimitTeam = teacher, team })
}

func TestNamesLoseBidiOverridesAndLongTextIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.bidi@school.test")
	res, body := b.do(t, "POST", "/api/v1/db/assignment/put", map[string]any{"name": "abc\u202egpj.exe", "type": "prompt"})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "abcgpj.exe", body["data"].(map[string]any)["assignment"].(map[string]any)["name"])

	res, body = b.do(t, "POST", "/api/v1/db/team/create-folder", map[string]any{"folderName": "\u2066Term\u2069 1"})
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "Term 1", body["data"].(map[string]any)["folder"].(map[string]any)["name"])

	criteria := []map[string]any{{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear"}, "useRange": false}}
	_, body = b.do(t, "POST", "/api/v1/db/rubric/put", map[string]any{"name": "R", "criteria": criteria})
	rubricID := body["data"].(map[string]any)["rubric"].(map[string]any)["_id"]
	res, body = b.do(t, "POST", "/api/v1/db/share/rubric", map[string]any{"rubricId": rubricID, "email": strings.Repeat("a", 250) + "@school.test"})
	require.Equal(t, 400, res.StatusCode, body, "an email longer than 254 characters")

	many := make([]map[string]any, 501)
	for i := range many {
		many[i] = map[string]any{"name": "F", "assignments": []string{}}
	}
	res, body = b.do(t, "POST", "/api/v1/db/team/update-folders", map[string]any{"newFolders": many})
	require.Equal(t, 400, res.StatusCode, body)
	require.Equal(t, "A team can have at most 500 folders", body["error"].(map[string]any)["message"])
}
