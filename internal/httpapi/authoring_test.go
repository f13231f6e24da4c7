package httpapi_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm/fakellm"
)

// authoringRoutes are the rubric, assignment, function and AI-assist routes.
var authoringRoutes = [][2]string{
	{"POST", "/api/v1/db/rubric/put"}, {"POST", "/api/v1/db/rubric/update"}, {"POST", "/api/v1/db/rubric/get"}, {"GET", "/api/v1/db/rubric/list"},
	{"POST", "/api/v1/db/assignment/put"}, {"POST", "/api/v1/db/assignment/update"},
	{"POST", "/api/v1/db/assignment/get"}, {"POST", "/api/v1/db/assignment/get-view-only"},
	{"POST", "/api/v1/db/assignment/history"},
	{"POST", "/api/v1/db/function/put"}, {"POST", "/api/v1/db/function/update"},
	{"POST", "/api/v1/db/function/get"}, {"POST", "/api/v1/db/function/get-view-only"},
	{"POST", "/api/v1/ai-assist/suggest-criteria"}, {"POST", "/api/v1/ai-assist/suggest-questions"},
	{"POST", "/api/v1/ai-assist/rubric-from-sheet"},
}

// author is a signed-in teacher's browser.
func (b *bundle) author(t *testing.T, name string) *browser {
	t.Helper()
	br := b.newBrowser(t)
	br.signIn(t, name, strings.ToLower(name)+"-"+uuid.NewString()[:8]+"@school.test")
	return br
}

// call posts body (or GETs when body is nil) and returns the status, the
// data of a success and the error of a failure.
func (br *browser) call(t *testing.T, path string, body any) (int, map[string]any, map[string]any) {
	t.Helper()
	method := "POST"
	if body == nil {
		method = "GET"
	}
	res, out := br.do(t, method, path, body)
	data, _ := out["data"].(map[string]any)
	e, _ := out["error"].(map[string]any)
	return res.StatusCode, data, e
}

// refused checks a 400 with the given message.
func (br *browser) refused(t *testing.T, path string, body any, msg string) {
	t.Helper()
	status, _, e := br.call(t, path, body)
	require.Equal(t, 400, status, "%s %v", path, body)
	require.Equal(t, map[string]any{"code": "invalid", "message": msg}, e, "%s %v", path, body)
}

// missing checks a 404.
func (br *browser) missing(t *testing.T, path string, body any) {
	t.Helper()
	status, _, e := br.call(t, path, body)
	require.Equal(t, 404, status, "%s %v", path, body)
	require.Equal(t, "not_found", e["code"], "%s %v", path, body)
}

func TestAuthoringRoutesNeedASession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, rt := range authoringRoutes {
		var body any
		if rt[0] == "POST" {
			body = map[string]any{}
		}
		res, out := b.do(t, rt[0], rt[1], body)
		require.Equal(t, 401, res.StatusCode, rt[1])
		require.Equal(t, "unauthorized", out["error"].(map[string]any)["code"], rt[1])
	}
}

func okRubric() map[string]any {
	return map[string]any{"name": "Essay", "criteria": []any{map[string]any{
		"criterionDescription": "Argument", "levelDescriptions": []any{"Weak", "Strong"}, "useRange": true,
		"levelRanges": []any{map[string]any{"levelDescriptionsIndex": 0, "min": 0, "max": 2}, map[string]any{"levelDescriptionsIndex": 1, "min": 3, "max": 5}},
	}}}
}

func TestRubricRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.author(t, "Ada"), b.author(t, "Bob")

	status, data, _ := ada.call(t, "/api/v1/db/rubric/put", okRubric())
	require.Equal(t, 200, status)
	r := data["rubric"].(map[string]any)
	id := r["_id"].(string)
	require.Equal(t, "Essay", r["name"])
	require.Equal(t, okRubric()["criteria"].([]any)[0].(map[string]any)["criterionDescription"], r["criteria"].([]any)[0].(map[string]any)["criterionDescription"])
	require.Equal(t, []any{map[string]any{"levelDescriptionsIndex": 0.0, "min": 0.0, "max": 2.0}, map[string]any{"levelDescriptionsIndex": 1.0, "min": 3.0, "max": 5.0}},
		r["criteria"].([]any)[0].(map[string]any)["levelRanges"])
	require.Contains(t, r, "createdAt")
	require.Contains(t, r, "updatedAt")

	upd := okRubric()
	upd["rubricId"], upd["name"] = id, "Essay v2"
	status, data, _ = ada.call(t, "/api/v1/db/rubric/update", upd)
	require.Equal(t, 200, status)
	require.Equal(t, "Essay v2", data["rubric"].(map[string]any)["name"])

	status, data, _ = ada.call(t, "/api/v1/db/rubric/get", map[string]any{"rubricId": id})
	require.Equal(t, 200, status)
	require.Equal(t, "Essay v2", data["rubric"].(map[string]any)["name"])

	status, data, _ = ada.call(t, "/api/v1/db/rubric/list", nil)
	require.Equal(t, 200, status)
	require.Len(t, data["rubrics"], 1)
	status, data, _ = bob.call(t, "/api/v1/db/rubric/list", nil)
	require.Equal(t, 200, status)
	require.Equal(t, []any{}, data["rubrics"])

	// Every validation message, as the editor shows it.
	crit := func(c map[string]any) map[string]any {
		out := map[string]any{"criterionDescription": "C", "levelDescriptions": []any{"L"}, "useRange": false}
		for k, v := range c {
			out[k] = v
		}
		return map[string]any{"name": "R", "criteria": []any{out}}
	}
	for msg, body := range map[string]map[string]any{
		"Criterion description cannot be empty":                                           crit(map[string]any{"criterionDescription": "  "}),
		"Level description cannot be empty":                                               crit(map[string]any{"levelDescriptions": []any{"ok", " "}}),
		"If point ranges are enabled, min and max must be set for each level description": crit(map[string]any{"useRange": true}),
		"Level range must be set for each level description":                              crit(map[string]any{"useRange": true, "levelRanges": []any{}}),
		"Level range must have both min and max values":                                   crit(map[string]any{"useRange": true, "levelRanges": []any{map[string]any{"levelDescriptionsIndex": 0, "min": 1}}}),
		"Level range minimum cannot be greater than its maximum":                          crit(map[string]any{"useRange": true, "levelRanges": []any{map[string]any{"levelDescriptionsIndex": 0, "min": 3, "max": 1}}}),
		"Each criterion needs at least one level":                                         crit(map[string]any{"levelDescriptions": []any{}}),
		"Rubric name cannot be empty":                                                     {"name": " ", "criteria": okRubric()["criteria"]},
		"A rubric needs at least one criterion":                                           {"name": "R", "criteria": []any{}},
	} {
		ada.refused(t, "/api/v1/db/rubric/put", body, msg)
		body["rubricId"] = id
		ada.refused(t, "/api/v1/db/rubric/update", body, msg)
	}

	// Another team's rubric, or a malformed id, is not found.
	bob.missing(t, "/api/v1/db/rubric/get", map[string]any{"rubricId": id})
	upd["name"] = "Bob's now"
	bob.missing(t, "/api/v1/db/rubric/update", upd)
	ada.missing(t, "/api/v1/db/rubric/get", map[string]any{"rubricId": "nope"})
	ada.missing(t, "/api/v1/db/rubric/get", map[string]any{})
	status, data, _ = ada.call(t, "/api/v1/db/rubric/get", map[string]any{"rubricId": id})
	require.Equal(t, 200, status)
	require.Equal(t, "Essay v2", data["rubric"].(map[string]any)["name"])
}

func TestAssignmentRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.author(t, "Ada"), b.author(t, "Bob")

	status, data, _ := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": " Essay ", "type": "grade", "isHandWritten": true, "provideInstantFeedback": false})
	require.Equal(t, 200, status)
	asg := data["assignment"].(map[string]any)
	id := asg["_id"].(string)
	require.Equal(t, "Essay", asg["name"])
	require.Equal(t, "grade", asg["type"])
	require.Equal(t, true, asg["isHandWritten"])
	require.Nil(t, asg["folderId"])
	require.Nil(t, asg["classSummary"])
	require.Equal(t, []any{}, asg["submissions"])

	status, data, _ = ada.call(t, "/api/v1/db/assignment/update", map[string]any{"id": id, "name": "Essay 2", "type": "grade", "isHandWritten": false, "provideInstantFeedback": true})
	require.Equal(t, 200, status)
	require.Equal(t, "Essay 2", data["assignment"].(map[string]any)["name"])
	require.Equal(t, true, data["assignment"].(map[string]any)["provideInstantFeedback"])

	status, data, _ = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": id})
	require.Equal(t, 200, status)
	require.Equal(t, "Essay 2", data["assignment"].(map[string]any)["name"])
	require.Equal(t, []any{}, data["functionResults"])
	status, data, _ = ada.call(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": id})
	require.Equal(t, 200, status)
	require.Equal(t, "Essay 2", data["assignment"].(map[string]any)["name"])
	require.NotContains(t, data, "functionResults")

	ada.refused(t, "/api/v1/db/assignment/put", map[string]any{"name": "  ", "type": "grade"}, "Assignment name cannot be empty")
	ada.refused(t, "/api/v1/db/assignment/put", map[string]any{"name": "A", "type": "quiz"}, "Unknown assignment type")
	ada.refused(t, "/api/v1/db/assignment/update", map[string]any{"id": id, "name": "", "type": "grade"}, "Assignment name cannot be empty")
	ada.refused(t, "/api/v1/db/assignment/update", map[string]any{"id": id, "name": "A", "type": "quiz"}, "Unknown assignment type")
	ada.refused(t, "/api/v1/db/assignment/update", map[string]any{"id": id, "name": "A", "type": "feedback"}, "The assignment type cannot be changed")
	ada.refused(t, "/api/v1/db/assignment/put", "not an object", "Request body must be valid JSON")

	bob.missing(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": id})
	bob.missing(t, "/api/v1/db/assignment/get-view-only", map[string]any{"assignmentId": id})
	bob.missing(t, "/api/v1/db/assignment/update", map[string]any{"id": id, "name": "Mine", "type": "grade"})
	ada.missing(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": "123"})
	ada.missing(t, "/api/v1/db/assignment/update", map[string]any{"id": uuid.NewString(), "name": "A", "type": "grade"})
}

func TestFunctionRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada, bob := b.author(t, "Ada"), b.author(t, "Bob")
	newAssignment := func(br *browser, typ string) string {
		t.Helper()
		status, data, _ := br.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "A " + typ, "type": typ})
		require.Equal(t, 200, status)
		return data["assignment"].(map[string]any)["_id"].(string)
	}
	newRubric := func(br *browser) string {
		t.Helper()
		status, data, _ := br.call(t, "/api/v1/db/rubric/put", okRubric())
		require.Equal(t, 200, status)
		return data["rubric"].(map[string]any)["_id"].(string)
	}
	adaRubric, bobRubric := newRubric(ada), newRubric(bob)
	grammar := map[string]any{"key": "grammar", "color": "purple-500", "title": "Grammar", "description": "This highlighter should point out any grammar mistakes."}
	question := func(extra map[string]any) map[string]any {
		q := map[string]any{"questionText": "Q", "context": "", "rubricId": nil, "criteria": []any{map[string]any{"description": "", "points": 1}}, "subquestions": []any{}}
		for k, v := range extra {
			q[k] = v
		}
		return q
	}
	defs := map[string]map[string]any{
		"feedback":        {"highlights": []any{grammar}, "context": "Year 9 essay"},
		"grade":           {"questions": []any{question(map[string]any{"rubricId": adaRubric, "subquestions": []any{question(nil)}})}},
		"rubric-feedback": {"rubricId": adaRubric},
		"prompt":          {"prompt": "Comment on structure."},
	}
	for typ, def := range defs {
		id := newAssignment(ada, typ)
		ada.missing(t, "/api/v1/db/function/get", map[string]any{"type": typ, "assignmentId": id})

		body := map[string]any{"assignmentId": id}
		for k, v := range def {
			body[k] = v
		}
		status, data, e := ada.call(t, "/api/v1/db/function/put", body)
		require.Equal(t, 200, status, "%s %v", typ, e)
		fn := data["function"].(map[string]any)
		require.Equal(t, typ, fn["type"])
		require.Equal(t, id, fn["assignmentId"])
		fnID := fn["_id"].(string)

		ada.refused(t, "/api/v1/db/function/put", body, "This assignment already has a definition")

		for _, path := range []string{"/api/v1/db/function/get", "/api/v1/db/function/get-view-only"} {
			status, data, _ = ada.call(t, path, map[string]any{"type": typ, "assignmentId": id})
			require.Equal(t, 200, status, path)
			got := data["function"].(map[string]any)
			require.Equal(t, fnID, got["_id"])
			if typ == "rubric-feedback" {
				require.Equal(t, adaRubric, got["rubric"].(map[string]any)["_id"], "the rubric is embedded")
			} else {
				require.NotContains(t, got, "rubric")
			}
			bob.missing(t, path, map[string]any{"type": typ, "assignmentId": id})
		}

		body["functionId"] = fnID
		status, _, e = ada.call(t, "/api/v1/db/function/update", body)
		require.Equal(t, 200, status, "%s %v", typ, e)
		bob.missing(t, "/api/v1/db/function/update", body)
		bob.missing(t, "/api/v1/db/function/put", map[string]any{"assignmentId": id, "prompt": "x", "rubricId": bobRubric})
		ada.missing(t, "/api/v1/db/function/update", map[string]any{"functionId": "nope", "assignmentId": id})
	}

	// Every function validation message.
	fb, gr, rf, pr := newAssignment(ada, "feedback"), newAssignment(ada, "grade"), newAssignment(ada, "rubric-feedback"), newAssignment(ada, "prompt")
	hl := func(h map[string]any) map[string]any {
		out := map[string]any{"key": "k", "color": "red-300", "title": "T", "description": ""}
		for k, v := range h {
			out[k] = v
		}
		return map[string]any{"assignmentId": fb, "highlights": []any{out}}
	}
	deep := question(map[string]any{"subquestions": []any{question(map[string]any{"subquestions": []any{question(map[string]any{"subquestions": []any{question(nil)}})}})}})
	for msg, body := range map[string]map[string]any{
		"Highlighter title cannot be empty":                         hl(map[string]any{"title": " "}),
		"Highlighter key must be camel case, at most 25 characters": hl(map[string]any{"key": "Not Camel"}),
		"Highlighter keys must be unique":                           {"assignmentId": fb, "highlights": []any{grammar, grammar}},
		"Unknown highlighter colour":                                hl(map[string]any{"color": "purple-5000"}),
		"Grade questions nest at most 3 levels":                     {"assignmentId": gr, "questions": []any{deep}},
		"Each question needs question text":                         {"assignmentId": gr, "questions": []any{question(map[string]any{"questionText": ""})}},
		"Criterion points must be a number from 0 to 1000":          {"assignmentId": gr, "questions": []any{question(map[string]any{"criteria": []any{map[string]any{"description": "d", "points": 1001}}})}},
		"Please choose a rubric":                                    {"assignmentId": rf, "rubricId": nil},
		"Prompt cannot be empty":                                    {"assignmentId": pr, "prompt": "  "},
	} {
		ada.refused(t, "/api/v1/db/function/put", body, msg)
	}

	// Rubrics of another team, at either level, are not found.
	ada.missing(t, "/api/v1/db/function/put", map[string]any{"assignmentId": rf, "rubricId": bobRubric})
	ada.missing(t, "/api/v1/db/function/put", map[string]any{"assignmentId": rf, "rubricId": "not-an-id"})
	ada.missing(t, "/api/v1/db/function/put", map[string]any{"assignmentId": gr, "questions": []any{question(map[string]any{"rubricId": bobRubric})}})
	ada.missing(t, "/api/v1/db/function/put", map[string]any{"assignmentId": "", "prompt": "x"})
}

func TestAssistRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.author(t, "Ada")

	status, data, e := ada.call(t, "/api/v1/ai-assist/suggest-questions", map[string]any{"assignmentText": `Photosynthesis homework
1. Name the gas plants take in for photosynthesis.
2. Explain why leaves are green. (3 marks)
3) Describe what happens to the glucose a plant makes.
Why do plants need water?`})
	require.Equal(t, 200, status, e)
	qs := data["questionsAndCrits"].([]any)
	require.Len(t, qs, 4, "one question per numbered or question-marked line")
	require.Equal(t, "Explain why leaves are green.", qs[1].(map[string]any)["question"])
	for _, q := range qs {
		crits := q.(map[string]any)["criteria"].([]any)
		require.NotEmpty(t, crits)
		for _, c := range crits {
			require.NotEmpty(t, c.(map[string]any)["description"])
			require.GreaterOrEqual(t, c.(map[string]any)["points"].(float64), 1.0)
		}
	}

	status, data, e = ada.call(t, "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Explain why leaves are green.", "context": "Year 7"})
	require.Equal(t, 200, status, e)
	require.Equal(t, qs[1].(map[string]any)["criteria"], data["criteria"])

	ada.refused(t, "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": " ", "context": "c"}, "Please enter the question first.")
	ada.refused(t, "/api/v1/ai-assist/suggest-questions", map[string]any{"assignmentText": ""}, "Please paste the assignment text first.")

	// The API's client retries nothing here, so one fault fails the call.
	b.model.FailNext(fakellm.FaultServerError, 1)
	status, _, e = ada.call(t, "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
	require.Equal(t, 502, status)
	require.Equal(t, map[string]any{"code": "upstream", "message": "Failed to generate criteria."}, e)
	b.model.FailNext(fakellm.FaultMalformed, 1)
	status, _, e = ada.call(t, "/api/v1/ai-assist/suggest-questions", map[string]any{"assignmentText": "1. Why?"})
	require.Equal(t, 502, status)
	require.Equal(t, map[string]any{"code": "upstream", "message": "Failed to generate questions."}, e)
}
