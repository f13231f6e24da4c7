package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pollClass is a prompt assignment with a definition and two graded
// results, as the assignment page polls it.
type pollClass struct {
	asg, fn   string
	subs, frs []string
	teacher   *browser
}

func newPollClass(t *testing.T, br *browser, name string) pollClass {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/db/assignment/put", map[string]any{"name": name, "type": "prompt"})
	require.Equal(t, 200, status, e)
	c := pollClass{asg: data["assignment"].(map[string]any)["_id"].(string), teacher: br}
	status, data, e = br.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": c.asg, "prompt": "Be kind"})
	require.Equal(t, 200, status, e)
	c.fn = data["function"].(map[string]any)["_id"].(string)
	for _, fb := range []string{"Good", "Fine"} {
		sub, fr := uploadSubmission(t, br, c.asg)
		finish(t, sub, fb)
		c.subs, c.frs = append(c.subs, sub), append(c.frs, fr)
	}
	return c
}

// get reads assignment/get as the page polls it: with the version it holds
// as If-None-Match and since ("" sends neither).
func (c pollClass) get(t *testing.T, br *browser, version string) (*http.Response, map[string]any) {
	t.Helper()
	body := map[string]any{"assignmentId": c.asg}
	var header []string
	if version != "" {
		body["since"] = version
		header = []string{"If-None-Match", `"` + version + `"`}
	}
	res, out := br.do(t, "POST", "/api/v1/db/assignment/get", body, header...)
	data, _ := out["data"].(map[string]any)
	return res, data
}

// version reads the class whole and returns its version, checking that the
// ETag and data.version say the same.
func (c pollClass) version(t *testing.T) string {
	t.Helper()
	res, data := c.get(t, c.teacher, "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "private, no-cache", res.Header.Get("Cache-Control"))
	v := data["version"].(string)
	require.Equal(t, `"`+v+`"`, res.Header.Get("ETag"))
	return v
}

func (c pollClass) notModified(t *testing.T, v, why string) {
	t.Helper()
	res, data := c.get(t, c.teacher, v)
	require.Equal(t, http.StatusNotModified, res.StatusCode, why)
	require.Nil(t, data, "a 304 has no body")
	require.Equal(t, `"`+v+`"`, res.Header.Get("ETag"))
}

func TestAPollIsNotModifiedUntilTheClassChanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, eve := b.author(t, "Ada"), b.author(t, "Eve")
	c := newPollClass(t, ada, "Essay")
	other := newPollClass(t, ada, "Other")
	eves := newPollClass(t, eve, "Eve's")

	v := c.version(t)
	c.notModified(t, v, "nothing written")
	c.notModified(t, v, "nothing written, again")
	// Once the writes that made the class are announced, a poll is a 304
	// from the change listener's memory, without the database.
	require.Eventually(t, func() bool {
		before := b.clock.Answered()
		c.notModified(t, v, "nothing written, from memory")
		return b.clock.Answered() > before
	}, 5*time.Second, 10*time.Millisecond)

	// Writes elsewhere leave the class's version.
	status, _, e := ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": other.frs[0], "submissionId": other.subs[0], "feedback": "Other's"})
	require.Equal(t, 200, status, e)
	status, _, e = ada.call(t, "/api/v1/db/assignment/update", map[string]any{"id": other.asg, "name": "Other 2"})
	require.Equal(t, 200, status, e)
	uploadSubmission(t, ada, other.asg)
	status, _, e = eve.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": eves.subs[0], "submission": map[string]any{"name": "Eve's 2"}})
	require.Equal(t, 200, status, e)
	c.notModified(t, v, "writes to another assignment and another team")

	// Another team's assignment is not found, whatever version is sent.
	res, _ := c.get(t, eve, v)
	require.Equal(t, 404, res.StatusCode)
	res, _ = eves.get(t, ada, eves.version(t))
	require.Equal(t, 404, res.StatusCode)

	// Junk or no version: the whole answer, never an error; another team's
	// assignment stays not found. The last three look like versions but
	// are no snapshot PostgreSQL would read (xmin after xmax, an
	// in-progress id outside them, an invalid transaction id).
	now := strconv.FormatInt(time.Now().Unix(), 10)
	for _, junk := range []string{"junk", "1-2:3:", "9999999999-1:2:", now + "-5:3:", now + "-3:9:2", now + "-4294967296:4294967296:"} {
		res, data := c.get(t, ada, junk)
		require.Equal(t, 200, res.StatusCode, junk)
		require.Len(t, data["functionResults"], 2, junk)
		require.NotContains(t, data, "delta")
		res, _ = c.get(t, eve, junk)
		require.Equal(t, 404, res.StatusCode, junk)
	}

	// Each kind of write moves the version.
	writes := []struct {
		name string
		do   func()
	}{
		{"a result edited", func() {
			status, _, e := ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": c.frs[0], "submissionId": c.subs[0], "feedback": "Better"})
			require.Equal(t, 200, status, e)
		}},
		{"a submission renamed", func() {
			status, _, e := ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": c.subs[1], "submission": map[string]any{"name": "Bo"}})
			require.Equal(t, 200, status, e)
		}},
		{"a new upload", func() {
			sub, fr := uploadSubmission(t, ada, c.asg)
			c.subs, c.frs = append(c.subs, sub), append(c.frs, fr)
		}},
		{"a submission deleted", func() {
			status, _, e := ada.call(t, "/api/v1/db/assignment/delete-submission-and-function-result", map[string]any{
				"assignmentId": c.asg, "submissionId": c.subs[2], "frId": c.frs[2], "type": "prompt",
			})
			require.Equal(t, 200, status, e)
		}},
		{"the assignment renamed", func() {
			status, _, e := ada.call(t, "/api/v1/db/assignment/update", map[string]any{"id": c.asg, "name": "Essay 2"})
			require.Equal(t, 200, status, e)
		}},
		{"its definition changed", func() {
			status, _, e := ada.call(t, "/api/v1/db/function/update", map[string]any{"functionId": c.fn, "assignmentId": c.asg, "prompt": "Be kinder"})
			require.Equal(t, 200, status, e)
		}},
	}
	for _, w := range writes {
		w.do()
		res, data := c.get(t, ada, v)
		require.Equal(t, 200, res.StatusCode, w.name)
		next := data["version"].(string)
		require.NotEqual(t, v, next, w.name)
		require.Equal(t, `"`+next+`"`, res.Header.Get("ETag"), w.name)
		v = next
		c.notModified(t, v, "nothing since "+w.name)
	}
}

// A delta carries exactly the rows written since the client's version and
// the ids of those deleted; applied to the answer the client held, it gives
// what a whole read gives.
func TestADeltaAppliedToThePreviousAnswerIsAWholeRead(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.author(t, "Ada")
	c := newPollClass(t, ada, "Essay")
	third, _ := uploadSubmission(t, ada, c.asg)
	finish(t, third, "Third")
	res, before := c.get(t, ada, "")
	require.Equal(t, 200, res.StatusCode)
	v := before["version"].(string)

	status, _, e := ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": c.frs[1], "submissionId": c.subs[1], "feedback": "Better"})
	require.Equal(t, 200, status, e)
	status, _, e = ada.call(t, "/api/v1/db/submission/update", map[string]any{"submissionId": third, "submission": map[string]any{"studentName": "Cy"}})
	require.Equal(t, 200, status, e)
	status, _, e = ada.call(t, "/api/v1/db/assignment/delete-submission-and-function-result", map[string]any{
		"assignmentId": c.asg, "submissionId": c.subs[0], "frId": c.frs[0], "type": "prompt",
	})
	require.Equal(t, 200, status, e)
	fourth, fourthFR := uploadSubmission(t, ada, c.asg)

	res, delta := c.get(t, ada, v)
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, true, delta["delta"])
	require.Equal(t, []string{c.frs[1], fourthFR}, ids(delta["functionResults"]), "the edited result and the new one")
	require.Equal(t, []string{third, fourth}, ids(delta["submissions"]), "the edited submission and the new one")
	require.Equal(t, []any{c.subs[0]}, delta["deletedSubmissionIds"])
	require.Equal(t, []any{c.frs[0]}, delta["deletedFunctionResultIds"])

	res, whole := c.get(t, ada, "")
	require.Equal(t, 200, res.StatusCode)
	require.NotContains(t, whole, "delta")
	applied := applyDelta(before, delta)
	delete(applied, "version")
	delete(whole, "version")
	require.Equal(t, roundTrip(t, whole), roundTrip(t, applied))

	// A change to the assignment itself: the whole answer again.
	status, _, e = ada.call(t, "/api/v1/db/assignment/update", map[string]any{"id": c.asg, "name": "Essay 2"})
	require.Equal(t, 200, status, e)
	res, data := c.get(t, ada, delta["version"].(string))
	require.Equal(t, 200, res.StatusCode)
	require.NotContains(t, data, "delta")
	require.Len(t, data["functionResults"], 3)

	// So does a change to its definition (every result's totals and
	// outdated marks may move).
	status, _, e = ada.call(t, "/api/v1/db/function/update", map[string]any{"functionId": c.fn, "assignmentId": c.asg, "prompt": "Be kinder"})
	require.Equal(t, 200, status, e)
	res, data = c.get(t, ada, data["version"].(string))
	require.Equal(t, 200, res.StatusCode)
	require.NotContains(t, data, "delta")
	require.Len(t, data["functionResults"], 3)
}

// ids lists the _id of each row of a JSON list.
func ids(list any) []string {
	out := []string{}
	for _, r := range list.([]any) {
		out = append(out, r.(map[string]any)["_id"].(string))
	}
	return out
}

// applyDelta is what the UI does with a delta (lib/revalidated-query.ts):
// the assignment replaced, rows replaced by _id or appended, deleted ones
// dropped.
func applyDelta(prev, delta map[string]any) map[string]any {
	merge := func(old, changed any, deleted any) []any {
		gone := map[any]bool{}
		for _, id := range deleted.([]any) {
			gone[id] = true
		}
		byID := map[any]any{}
		for _, r := range changed.([]any) {
			byID[r.(map[string]any)["_id"]] = r
		}
		out := []any{}
		for _, r := range old.([]any) {
			id := r.(map[string]any)["_id"]
			if gone[id] {
				continue
			}
			if n, ok := byID[id]; ok {
				r = n
				delete(byID, id)
			}
			out = append(out, r)
		}
		for _, r := range changed.([]any) {
			if _, ok := byID[r.(map[string]any)["_id"]]; ok && !gone[r.(map[string]any)["_id"]] {
				out = append(out, r)
			}
		}
		return out
	}
	return map[string]any{
		"assignment":      delta["assignment"],
		"functionResults": merge(prev["functionResults"], delta["functionResults"], delta["deletedFunctionResultIds"]),
		"submissions":     merge(prev["submissions"], delta["submissions"], delta["deletedSubmissionIds"]),
		"version":         delta["version"],
	}
}

func roundTrip(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	require.NoError(t, err)
	return string(b)
}

// functionResult/get answers 304 while neither the result, its submission,
// the assignment nor its definition changed.
func TestAResultReadIsNotModifiedUntilItChanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, eve := b.author(t, "Ada"), b.author(t, "Eve")
	c := newPollClass(t, ada, "Essay")
	read := func(br *browser, etag string) *http.Response {
		var header []string
		if etag != "" {
			header = []string{"If-None-Match", etag}
		}
		res, _ := br.do(t, "POST", "/api/v1/db/functionResult/get", map[string]any{"assignmentId": c.asg, "submissionId": c.subs[0]}, header...)
		return res
	}
	res := read(ada, "")
	require.Equal(t, 200, res.StatusCode)
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)
	require.Equal(t, 304, read(ada, etag).StatusCode)
	require.Equal(t, 404, read(eve, etag).StatusCode, "another team's result")

	status, _, e := ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": c.frs[1], "submissionId": c.subs[1], "feedback": "Other row"})
	require.Equal(t, 200, status, e)
	require.Equal(t, 304, read(ada, etag).StatusCode, "another result of the class")

	status, _, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": c.frs[0], "submissionId": c.subs[0], "feedback": "This row"})
	require.Equal(t, 200, status, e)
	res = read(ada, etag)
	require.Equal(t, 200, res.StatusCode, "the result itself")
	require.NotEqual(t, etag, res.Header.Get("ETag"))
	etag = res.Header.Get("ETag")

	status, _, e = ada.call(t, "/api/v1/db/function/update", map[string]any{"functionId": c.fn, "assignmentId": c.asg, "prompt": "Be kinder"})
	require.Equal(t, 200, status, e)
	require.Equal(t, 200, read(ada, etag).StatusCode, "its definition")
}
