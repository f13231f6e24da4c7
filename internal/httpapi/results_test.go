package httpapi_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/result"
)

// The grading routes answer with the spec's names and the clear messages
// of the result service; the worker side is proven in internal/result and
// internal/jobs.
func TestGradingRoutes(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.grading@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Reflection", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	sub, res := uploadSubmission(t, ada, asg)

	// Grading needs a definition first, and at least one submission.
	status, _, e = ada.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": []string{sub}})
	require.Equal(t, 400, status)
	require.Equal(t, result.MsgNoFunction, e["message"])
	status, _, e = ada.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asg, "prompt": "Be kind and specific"})
	require.Equal(t, 200, status, e)
	status, _, e = ada.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": []string{}})
	require.Equal(t, 400, status)
	require.Equal(t, result.MsgNoneToGrade, e["message"])

	// Grade-all puts the result in progress at once.
	status, data, e = ada.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": []string{sub}})
	require.Equal(t, 200, status, e)
	results := data["functionResults"].([]any)
	require.Len(t, results, 1)
	require.Equal(t, grading.StatusGrading, results[0].(map[string]any)["status"])
	status, data, e = ada.call(t, "/api/v1/db/functionResult/get", map[string]any{"assignmentId": asg, "submissionId": sub})
	require.Equal(t, 200, status, e)
	fr := data["functionResult"].(map[string]any)
	require.Equal(t, res, fr["_id"])
	require.Equal(t, "grading", fr["status"])
	require.Contains(t, fr, "usage", "the teacher sees what the run cost")

	// While the AI works, the teacher's edits wait.
	status, _, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": "Mine"})
	require.Equal(t, 409, status)
	require.Equal(t, result.MsgStillRunning, e["message"])

	// The prompt feedback route is a PUT answering success.
	status, data, e = ada.call(t, "/api/v1/db/gradeFunction/toggleCriterion", map[string]any{"gradeFunctionId": res, "questionIndexPath": []int{0}, "criterionIndex": 0})
	require.Equal(t, 409, status, "a result in progress cannot be toggled: %v %v", data, e)

	// Agreement needs three benchmarks on a grade or rubric assignment.
	status, _, e = ada.call(t, "/api/v1/db/assignment/check-agreement", map[string]any{"assignmentId": asg})
	require.Equal(t, 400, status)
	require.Equal(t, result.MsgAgreementTypes, e["message"])

	// Benchmarks are set through the rubric-feedback route, for any type.
	status, data, e = ada.call(t, "/api/v1/db/rubricFeedbackFunctionResult/update", map[string]any{"functionResultId": res, "data": map[string]any{"isBenchmark": true}})
	require.Equal(t, 200, status, e)
	require.Equal(t, true, data["functionResult"].(map[string]any)["isBenchmark"])

	// The class summary comes from the demo model.
	status, data, e = ada.call(t, "/api/v1/ai-assist/generate-summary", map[string]any{"assignmentId": asg, "criteriaBreakdown": []map[string]any{
		{"label": "Explains the method", "successRate": 0.9, "averagePoints": 1.8, "maxPoints": 2},
		{"label": "Cites sources", "successRate": 0.2, "averagePoints": 0.2, "maxPoints": 1},
	}})
	require.Equal(t, 200, status, e)
	sum := data["classSummary"].(map[string]any)
	require.Contains(t, sum["met"], "Explains the method")
	require.Contains(t, sum["missed"], "Cites sources")
	status, data, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	require.Equal(t, "done", data["assignment"].(map[string]any)["summaryStatus"])
	require.NotNil(t, data["assignment"].(map[string]any)["classSummary"])
	status, _, e = ada.call(t, "/api/v1/ai-assist/generate-summary", map[string]any{"assignmentId": asg, "criteriaBreakdown": []any{}})
	require.Equal(t, 400, status)
	require.Equal(t, grading.MsgSummaryFailed, e["message"])
}

// A result the teacher edited is theirs: a grade request sent straight to
// the API (not only the page's dialog) leaves it alone unless it says
// overwriteReviewed, and says how many it skipped.
func TestGradeRequestsSkipReviewedResultsUnlessAsked(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.reviewed@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Reflection", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = ada.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asg, "prompt": "Be kind and specific"})
	require.Equal(t, 200, status, e)
	sub, res := uploadSubmission(t, ada, asg)
	status, data, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": "The teacher's words."})
	require.Equal(t, 200, status, e)
	require.Equal(t, grading.StatusReviewed, data["functionResult"].(map[string]any)["status"])

	status, data, e = ada.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": []string{sub}})
	require.Equal(t, 200, status, e)
	require.Equal(t, grading.StatusReviewed, data["functionResults"].([]any)[0].(map[string]any)["status"])
	require.Equal(t, 1.0, data["skipped"])
	status, data, e = ada.call(t, "/api/v1/lambda/gradeOnePub", map[string]any{"assignmentId": asg, "submissionId": sub, "processName": grading.ProcessPrompt})
	require.Equal(t, 200, status, e)
	require.Equal(t, grading.StatusReviewed, data["status"])
	status, data, e = ada.call(t, "/api/v1/db/functionResult/get", map[string]any{"assignmentId": asg, "submissionId": sub})
	require.Equal(t, 200, status, e)
	require.Equal(t, "The teacher's words.", data["functionResult"].(map[string]any)["feedback"])
	require.Equal(t, grading.StatusReviewed, data["functionResult"].(map[string]any)["status"])

	status, data, e = ada.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": []string{sub}, "overwriteReviewed": true})
	require.Equal(t, 200, status, e)
	require.Equal(t, grading.StatusGrading, data["functionResults"].([]any)[0].(map[string]any)["status"])
	require.Equal(t, 0.0, data["skipped"])
}

// Two tabs (or two colleagues) on one result: an edit that says which
// result it was made from (updatedAt, as the page sends the whole result)
// is refused once the result has been saved since, and changes nothing;
// made again from the result as it now is, it keeps both edits. An edit
// that does not say is saved as before.
func TestAnEditOfAResultSavedSinceIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ada := b.newBrowser(t)
	ada.signIn(t, "Ada", "ada.twotabs@school.test")
	status, data, e := ada.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Reflection", "type": "prompt"})
	require.Equal(t, 200, status, e)
	asg := data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = ada.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": asg, "prompt": "Be kind and specific"})
	require.Equal(t, 200, status, e)
	sub, res := uploadSubmission(t, ada, asg)
	// The page polls its class: edits take the kept way where they can.
	status, _, e = ada.call(t, "/api/v1/db/assignment/get", map[string]any{"assignmentId": asg})
	require.Equal(t, 200, status, e)
	read := func() map[string]any {
		status, data, e := ada.call(t, "/api/v1/db/functionResult/get", map[string]any{"assignmentId": asg, "submissionId": sub})
		require.Equal(t, 200, status, e)
		return data["functionResult"].(map[string]any)
	}
	opened := read()["updatedAt"]

	// Tab A saves feedback; tab B, opened at the same time, its overall comments.
	status, data, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": "From tab A", "updatedAt": opened})
	require.Equal(t, 200, status, e)
	savedA := data["functionResult"].(map[string]any)["updatedAt"]
	require.NotEqual(t, opened, savedA)
	status, _, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": "", "overallComments": "From tab B", "updatedAt": opened})
	require.Equal(t, 409, status)
	require.Equal(t, result.MsgChangedElsewhere, e["message"])
	now := read()
	require.Equal(t, "From tab A", now["feedback"], "tab A's feedback was not overwritten")
	require.Equal(t, "", now["overallComments"])

	// Tab B applies its edit to the result as it now is.
	status, data, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": now["feedback"], "overallComments": "From tab B", "updatedAt": now["updatedAt"]})
	require.Equal(t, 200, status, e)
	now = read()
	require.Equal(t, "From tab A", now["feedback"])
	require.Equal(t, "From tab B", now["overallComments"])
	require.Equal(t, data["functionResult"].(map[string]any)["updatedAt"], now["updatedAt"])

	// A client that does not say what it edited is not held to it.
	status, _, e = ada.call(t, "/api/v1/db/functionResult/update", map[string]any{"_id": res, "submissionId": sub, "feedback": "Plain"})
	require.Equal(t, 200, status, e)
	require.Equal(t, "Plain", read()["feedback"])
}
