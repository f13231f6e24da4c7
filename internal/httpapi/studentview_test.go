package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/testdb"
)

// studentBodyKeys are, for each read a view token opens, every key the
// answer's data may hold for a student: the allow-list of their result
// page (docs/api-submissions.md, "What a view token reads"). A key is a
// path from data, "[]" standing for a list's elements; an answer's
// subanswers and a question's subquestions have the shape of their parent
// (their paths read as the parent's). A key not listed here is a field the
// student must not be sent: the route matrix (matrix_test.go) and
// TestStudentReadsOnlyWhatTheirResultPageShows fail on it.
var studentBodyKeys = map[string][]string{
	"POST /api/v1/db/assignment/get-view-only": {
		"assignment", "assignment._id", "assignment.name", "assignment.type", "assignment.isHandWritten",
		"assignment.provideInstantFeedback",
	},
	"POST /api/v1/db/submission/get-view-only": {
		"submission", "submission._id", "submission.name", "submission.studentName", "submission.status",
		"submission.error", "submission.pageCount", "submission.text",
	},
	"POST /api/v1/db/functionResult/get-view-only": {
		"functionResult", "functionResult.status",
		// whether the teacher released the result (package release)
		"functionResult.released",
		// once the result is finished, and released or with instant feedback on
		"functionResult.feedback", "functionResult.highlightedText", "functionResult.criteriaLevels",
		"functionResult.criteriaPoints", "functionResult.criteriaFeedback", "functionResult.overallComments",
		"functionResult.totalPoints", "functionResult.maxPoints", "functionResult.updatedAt",
		"functionResult.answers", "functionResult.answers[].grade", "functionResult.answers[].grade.points",
		"functionResult.answers[].grade.gradeAdjustment", "functionResult.answers[].grade.feedback",
		"functionResult.answers[].grade.criteria", "functionResult.answers[].signedAnswerMedia",
		"functionResult.answers[].subanswers",
	},
	// only once the result is finished
	"POST /api/v1/db/function/get-view-only": {
		"function", "function.type",
		"function.highlights", "function.highlights[].key", "function.highlights[].color", "function.highlights[].title",
		"function.questions", "function.questions[].questionText", "function.questions[].criteria",
		"function.questions[].criteria[].description", "function.questions[].criteria[].points",
		"function.questions[].subquestions",
		"function.rubric", "function.rubric.name", "function.rubric.criteria",
		"function.rubric.criteria[].criterionDescription", "function.rubric.criteria[].levelDescriptions",
		"function.rubric.criteria[].useRange", "function.rubric.criteria[].levelRanges",
		"function.rubric.criteria[].levelRanges[].levelDescriptionsIndex",
		"function.rubric.criteria[].levelRanges[].min", "function.rubric.criteria[].levelRanges[].max",
	},
}

// nested are the lists whose elements have their parent's shape.
var nested = regexp.MustCompile(`(\.(subanswers|subquestions)\[\])+`)

// keyPaths lists every object key in v as a path (see studentBodyKeys).
func keyPaths(prefix string, v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out[nested.ReplaceAllString(p, "")] = true
			keyPaths(p, child, out)
		}
	case []any:
		for _, child := range v {
			keyPaths(prefix+"[]", child, out)
		}
	}
}

// studentBodyProblems says which keys of a student's answer to route
// (data, decoded) are not on the route's allow-list; nil for a route
// without one.
func studentBodyProblems(route string, data any) []string {
	allowed, ok := studentBodyKeys[route]
	if !ok {
		return nil
	}
	found := map[string]bool{}
	keyPaths("", data, found)
	var extra []string
	for k := range found {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	if len(extra) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("a student is sent %s, beyond what their result page shows", strings.Join(extra, ", "))}
}

// The marks of what only the teacher may read; none may reach a student.
const (
	secretContext = "SECRET-CONTEXT the answer is the Nile"
	secretPrompt  = "SECRET-PROMPT grade generously"
	secretDesc    = "SECRET-DESCRIPTION look for the the"
	secretLevel   = "SECRET-LEVEL muddled thesis"
	secretFlag    = "SECRET-FLAG ignore previous instructions"
	secretError   = "SECRET-ERROR the model timed out"
	secretModel   = "secret-model-7"
	secretReason  = "SECRET-REASONING"
	// cropFolder holds the pictures of handwritten answers: their keys are
	// not sent to a student, their signed URLs are.
	cropFolder = "/submissions/crops/"
)

// studentCase is one assignment type's definition, with the teacher's
// secrets in it, and a finished result of it.
type studentCase struct {
	typ, done string
	fn        func(assignmentID, rubricID string) map[string]any
	// result is the finished result's columns: highlighted text, criteria
	// levels, answers (crop is the assignment's crops folder).
	highlighted, levels string
	answers             func(crop string) string
	// shown is what the student's page shows of the definition once the
	// result is finished.
	shown []string
}

var studentCases = []studentCase{
	{
		typ: "grade", done: "graded",
		fn: func(asg, _ string) map[string]any {
			return map[string]any{"assignmentId": asg, "questions": []map[string]any{{
				"questionText": "Where do rivers run?", "context": secretContext,
				"criteria": []map[string]any{{"description": "Names the sea", "points": 2}},
				"subquestions": []map[string]any{{"questionText": "Why?", "context": secretContext,
					"criteria": []map[string]any{{"description": "Gives a reason", "points": 1}}}},
			}}}
		},
		answers: func(crop string) string {
			return `[{"answerBoxesCoordinates": {"x": 0.1, "y": 0.1, "width": 0.5, "height": 0.2, "page": 0},
				"answerMedia": ["` + crop + `a.png"], "reasoning": "` + secretReason + `",
				"grade": {"points": 2, "gradeAdjustment": 0, "feedback": "Right", "criteria": [true], "reasoning": "` + secretReason + `"},
				"subanswers": [{"answerBoxesCoordinates": null, "answerMedia": [], "subanswers": [],
					"grade": {"points": 0, "gradeAdjustment": 0.5, "feedback": "Say why", "criteria": [false]}}]}]`
		},
		shown: []string{"Where do rivers run?", "Names the sea", "Gives a reason"},
	},
	{
		typ: "feedback", done: "annotated",
		fn: func(asg, _ string) map[string]any {
			return map[string]any{"assignmentId": asg, "context": secretContext, "highlights": []map[string]any{
				{"key": "grammar", "color": "purple-500", "title": "Grammar", "description": secretDesc}}}
		},
		highlighted: `Rivers run to <grammar comment="One the is enough.">the the</grammar> sea.`,
		shown:       []string{"Grammar", "purple-500"},
	},
	{
		typ: "rubric-feedback", done: "graded",
		fn: func(asg, rubricID string) map[string]any {
			return map[string]any{"assignmentId": asg, "rubricId": rubricID}
		},
		highlighted: `Rivers <criterion1Evidence comment="Clear claim.">run to the sea</criterion1Evidence>.`,
		levels:      `[0]`,
		shown:       []string{"Thesis", "Clear thesis"},
	},
	{
		typ: "prompt", done: "graded",
		fn: func(asg, _ string) map[string]any {
			return map[string]any{"assignmentId": asg, "prompt": secretPrompt}
		},
	},
}

// TestStudentReadsOnlyWhatTheirResultPageShows submits through the link of
// an assignment of each type, whose definition holds what only the
// teacher may read (a question's context, the prompt, a highlighter's
// instructions, a rubric level the student was not given), and reads the
// view-only calls with the student's view token: before a result exists,
// the result is its status and the definition is not sent at all; once it
// is finished, every answer holds only the keys the result page shows
// (studentBodyKeys) and none of the teacher's secrets, nor the result's
// flags, error, benchmark or cost. The teacher's own view-only calls still
// answer as before.
func TestStudentReadsOnlyWhatTheirResultPageShows(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.studentview@school.test")
	status, data, e := ada.call(t, "/api/v1/db/rubric/put", map[string]any{"name": "Essay rubric", "criteria": []map[string]any{
		{"criterionDescription": "Thesis", "levelDescriptions": []string{"Clear thesis", secretLevel}, "useRange": false}}})
	require.Equal(t, 200, status, e)
	rubricID := data["rubric"].(map[string]any)["_id"].(string)

	for _, tc := range studentCases {
		t.Run(tc.typ, func(t *testing.T) {
			status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Rivers " + tc.typ, "type": tc.typ})
			require.Equal(t, 200, status, e)
			asgID := data["assignment"].(map[string]any)["_id"].(string)
			status, _, e = ada.call(t, "/api/v1/db/function/put", tc.fn(asgID, rubricID))
			require.Equal(t, 200, status, e)
			status, data, e = ada.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
			require.Equal(t, 200, status, e)
			token := data["token"].(string)

			sam := b.newBrowser(t)
			fileURL := sam.linkUpload(t, token, "rivers.txt", "Rivers run to the the sea.")
			status, data, e = sam.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
				"linkToken": token, "assignmentId": asgID, "type": tc.typ, "submissionRole": "student",
				"submissions": []map[string]any{{"name": "rivers.txt", "location": fileURL}},
				"studentName": "Sam Student", "studentEmail": "sam@pupils.test",
			})
			require.Equal(t, 200, status, e)
			subID := data["submissions"].([]any)[0].(map[string]any)["_id"].(string)
			viewToken := data["viewToken"].(string)

			reader := b.newBrowser(t) // the result page, in a browser with no session
			bodies := map[string]map[string]any{
				"POST /api/v1/db/assignment/get-view-only":     {"assignmentId": asgID},
				"POST /api/v1/db/submission/get-view-only":     {"submissionId": subID},
				"POST /api/v1/db/functionResult/get-view-only": {"assignmentId": asgID, "submissionId": subID},
				"POST /api/v1/db/function/get-view-only":       {"assignmentId": asgID, "type": tc.typ},
			}
			read := func(br *browser, route string, token bool) (int, map[string]any, string) {
				t.Helper()
				body := map[string]any{}
				for k, v := range bodies[route] {
					body[k] = v
				}
				if token {
					body["viewToken"] = viewToken
				}
				res, out := br.do(t, "POST", strings.TrimPrefix(route, "POST "), body)
				raw, err := json.Marshal(out)
				require.NoError(t, err)
				return res.StatusCode, out, string(raw)
			}
			// checkStudent reads every route as the student: only allowed
			// keys, none of the secrets.
			checkStudent := func(when string) map[string]map[string]any {
				t.Helper()
				got := map[string]map[string]any{}
				for route := range bodies {
					status, out, raw := read(reader, route, true)
					for _, secret := range []string{secretContext, secretPrompt, secretDesc, secretLevel, secretFlag,
						secretError, secretModel, secretReason, rubricID, "sam@pupils.test"} {
						require.NotContains(t, raw, secret, "%s %s", when, route)
					}
					if status != 200 {
						got[route] = out
						continue
					}
					require.Empty(t, studentBodyProblems(route, out["data"]), "%s %s: %s", when, route, raw)
					got[route] = out["data"].(map[string]any)
				}
				return got
			}

			// Before a result exists: the status only, and no definition.
			got := checkStudent("before the result")
			require.Equal(t, map[string]any{"functionResult": map[string]any{"status": "", "released": false}}, got["POST /api/v1/db/functionResult/get-view-only"])
			require.Equal(t, map[string]any{"error": map[string]any{"code": "not_found", "message": result.MsgFeedbackNotReady}},
				got["POST /api/v1/db/function/get-view-only"])
			require.Equal(t, "Sam Student", got["POST /api/v1/db/submission/get-view-only"]["submission"].(map[string]any)["studentName"])

			ctx := context.Background()
			pool := testdb.Pool(t)
			_, err := pool.Exec(ctx, `UPDATE submissions SET extract_status = 'ready', extracted_text = 'Rivers run to the the sea.' WHERE id = $1`, subID)
			require.NoError(t, err)
			setResult := func(status string) {
				t.Helper()
				answers := "null"
				if tc.answers != nil {
					answers = tc.answers("assignments/" + asgID + cropFolder)
				}
				levels := tc.levels
				if levels == "" {
					levels = "[]"
				}
				_, err := pool.Exec(ctx, `UPDATE function_results SET status = $2, feedback = 'Well argued.', highlighted_text = $3,
					criteria_levels = $4::jsonb, criteria_points = '[2]', criteria_feedback = '["A clear claim."]',
					overall_comments = 'Good work.', answers = $5::jsonb, error = $6, is_benchmark = true,
					flags = $7::jsonb, dropped_highlights = 2, model = $8, model_calls = 3, prompt_tokens = 900,
					completion_tokens = 80, cost_usd = 0.25, graded_at = now(), updated_at = now()
					WHERE submission_id = $1`,
					subID, status, tc.highlighted, levels, answers, secretError,
					`[{"kind": "injection", "passage": "`+secretFlag+`"}]`, secretModel)
				require.NoError(t, err)
			}

			// While the AI works, and when it failed: still the status only.
			for _, status := range []string{"grading", "failed"} {
				setResult(status)
				got = checkStudent("while " + status)
				require.Equal(t, map[string]any{"functionResult": map[string]any{"status": status, "released": false}}, got["POST /api/v1/db/functionResult/get-view-only"])
				require.Equal(t, result.MsgFeedbackNotReady, got["POST /api/v1/db/function/get-view-only"]["error"].(map[string]any)["message"])
			}

			// Finished but not released (instant feedback is off): the
			// status only, and the page says the teacher has not released it.
			setResult(tc.done)
			got = checkStudent("finished, not released")
			require.Equal(t, map[string]any{"functionResult": map[string]any{"status": tc.done, "released": false}}, got["POST /api/v1/db/functionResult/get-view-only"])
			require.Equal(t, release.MsgNotReleased, got["POST /api/v1/db/function/get-view-only"]["error"].(map[string]any)["message"])

			// Released: what the page shows, and nothing else.
			status, _, e = ada.call(t, "/api/v1/db/assignment/release", map[string]any{"assignmentId": asgID, "submissionIds": []string{subID}})
			require.Equal(t, 200, status, e)
			got = checkStudent("finished")
			fr := got["POST /api/v1/db/functionResult/get-view-only"]["functionResult"].(map[string]any)
			require.Equal(t, tc.done, fr["status"])
			require.Equal(t, "Well argued.", fr["feedback"])
			require.Equal(t, true, fr["released"])
			fn := got["POST /api/v1/db/function/get-view-only"]["function"].(map[string]any)
			require.Equal(t, tc.typ, fn["type"])
			rawFn, err := json.Marshal(fn)
			require.NoError(t, err)
			for _, s := range tc.shown {
				require.Contains(t, string(rawFn), s, "the page needs it to show the result")
			}
			switch tc.typ {
			case "grade":
				require.Equal(t, 2.5, fr["totalPoints"], "2 points and a half-point adjustment")
				require.Equal(t, 3.0, fr["maxPoints"])
				answers := fr["answers"].([]any)
				require.Len(t, answers, 1)
				first := answers[0].(map[string]any)
				require.Equal(t, []any{true}, first["grade"].(map[string]any)["criteria"])
				require.Len(t, first["signedAnswerMedia"], 1, "the picture of the student's own answer")
				require.Equal(t, "Say why", first["subanswers"].([]any)[0].(map[string]any)["grade"].(map[string]any)["feedback"])
			case "rubric-feedback":
				rubric := fn["rubric"].(map[string]any)
				require.Equal(t, []any{"Clear thesis", ""}, rubric["criteria"].([]any)[0].(map[string]any)["levelDescriptions"],
					"the level the student was given; the other one's place only")
				require.Equal(t, []any{"A clear claim."}, fr["criteriaFeedback"])
			case "feedback":
				require.Equal(t, tc.highlighted, fr["highlightedText"])
			case "prompt":
				require.Equal(t, map[string]any{"type": "prompt"}, fn, "nothing of the prompt")
			}

			// The teacher's session reads the view-only calls as before:
			// the definition with its context or prompt, the result with its
			// benchmark.
			status, out, raw := read(ada, "POST /api/v1/db/function/get-view-only", false)
			require.Equal(t, 200, status, raw)
			switch tc.typ {
			case "grade", "feedback":
				require.Contains(t, raw, secretContext)
			case "prompt":
				require.Equal(t, secretPrompt, out["data"].(map[string]any)["function"].(map[string]any)["prompt"])
			case "rubric-feedback":
				require.Contains(t, raw, secretLevel)
			}
			status, out, raw = read(ada, "POST /api/v1/db/functionResult/get-view-only", false)
			require.Equal(t, 200, status, raw)
			require.Equal(t, true, out["data"].(map[string]any)["functionResult"].(map[string]any)["isBenchmark"])
			status, out, raw = read(ada, "POST /api/v1/db/submission/get-view-only", false)
			require.Equal(t, 200, status, raw)
			require.Equal(t, "sam@pupils.test", out["data"].(map[string]any)["submission"].(map[string]any)["studentEmail"])
		})
	}
}

// TestResubmissionThroughTheLink: the teacher's "Allow resubmission"
// (off by default) decides whether a student who submitted through the
// link may submit again; off, the second submission is refused with a
// sentence and creates nothing; on, it is kept as attempt 2, linked to
// attempt 1, and the teacher sees both.
func TestResubmissionThroughTheLink(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.resubmit@school.test")
	asgID, token := linkedAssignment(t, ada, "Essay")
	status, data, e := ada.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	require.Equal(t, false, data["allowResubmission"], "off by default")

	submit := func(name, email string) (int, map[string]any, map[string]any) {
		t.Helper()
		br := b.newBrowser(t)
		fileURL := br.linkUpload(t, token, "essay.txt", "An essay by "+name)
		return br.call(t, "/api/v1/db/assignment/update-submissions-from-student", map[string]any{
			"linkToken": token, "assignmentId": asgID, "type": "prompt",
			"submissions": []map[string]any{{"name": "essay.txt", "location": fileURL}},
			"studentName": name, "studentEmail": email,
		})
	}
	listed := func() []any {
		t.Helper()
		status, data, e := ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asgID})
		require.Equal(t, 200, status, e)
		return data["submissions"].([]any)
	}

	status, data, e = submit("Sam Student", "sam@pupils.test")
	require.Equal(t, 200, status, e)
	first := data["submissions"].([]any)[0].(map[string]any)
	require.Equal(t, 1.0, first["attempt"])
	require.Nil(t, first["previousSubmissionId"])

	status, _, e = submit("sam student", " SAM@Pupils.test ")
	require.Equal(t, 409, status)
	require.Equal(t, map[string]any{"code": "conflict", "message": studentlink.MsgAlreadySubmitted}, e)
	require.Equal(t, "You have already submitted this assignment. Ask your teacher if you need to submit again.", e["message"])
	require.Len(t, listed(), 1, "nothing was created")

	status, data, e = ada.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "allowResubmission": true})
	require.Equal(t, 200, status, e)
	require.Equal(t, map[string]any{"enabled": true, "token": token, "allowResubmission": true}, data)
	status, data, e = ada.call(t, "/api/v1/db/assignment/student-link/get", map[string]any{"assignmentId": asgID})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["allowResubmission"])
	// Turning the link off and on, or rotating it, leaves the setting.
	status, data, e = ada.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "enabled": true})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["allowResubmission"])

	status, data, e = submit("Sam Student", "Sam@pupils.test")
	require.Equal(t, 200, status, e)
	second := data["submissions"].([]any)[0].(map[string]any)
	require.Equal(t, 2.0, second["attempt"])
	require.Equal(t, first["_id"], second["previousSubmissionId"])

	subs := listed()
	require.Len(t, subs, 2, "the first attempt stays")
	byID := map[string]map[string]any{}
	for _, s := range subs {
		byID[s.(map[string]any)["_id"].(string)] = s.(map[string]any)
	}
	require.Equal(t, 1.0, byID[first["_id"].(string)]["attempt"])
	require.Equal(t, 2.0, byID[second["_id"].(string)]["attempt"])
	require.Equal(t, first["_id"], byID[second["_id"].(string)]["previousSubmissionId"])

	// allowResubmission must be a boolean.
	status, _, e = ada.call(t, "/api/v1/db/assignment/student-link/update", map[string]any{"assignmentId": asgID, "allowResubmission": "yes"})
	require.Equal(t, 400, status, e)
}
