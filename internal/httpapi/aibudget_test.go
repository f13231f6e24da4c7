package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/testdb"
)

// The probe's body: 41 system messages of 100,000 characters each (and a
// question). Every part of the prompt counts against one cap, so what the
// model receives stays under it; the files that do not fit are left out
// and counted.
func TestChatStreamHoldsEveryPartOfThePromptToOneCap(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.streamcap@school.test")
	var msgs []map[string]any
	for range 41 {
		msgs = append(msgs, map[string]any{"role": "system", "content": strings.Repeat("x", chat.MaxMessageLength)})
	}
	msgs = append(msgs, map[string]any{"role": "user", "content": "What do these files say?"})
	events := readEvents(t, b.openStream(t, context.Background(), map[string]any{"messages": msgs}), nil)
	require.Equal(t, "meta", events[0].name)
	require.Equal(t, 40.0, events[0].data["omittedTurns"], "one file fits beside the question")
	done := events[len(events)-1]
	require.Equal(t, "done", done.name, done.data)
	received := done.data["usage"].(map[string]any)["promptTokens"].(float64)
	require.LessOrEqual(t, received, float64(chat.ContextBudget), "the prompt tokens the model counted")
	require.Greater(t, received, float64(chat.MaxMessageLength/4), "the newest file was sent")

	// A document over the cap on its own is refused before the model is
	// asked, with a sentence that says what to do.
	streams := b.model.Stats().Streams
	res, got := b.do(t, "POST", "/api/v1/chat/stream", map[string]any{
		"messages": []map[string]any{{"role": "user", "content": "Shorten it"}},
		"document": strings.Repeat("d", chat.MaxDocumentLength),
	})
	require.Equal(t, 400, res.StatusCode, got)
	require.Contains(t, errMessage(got), "too much for the AI to read at once")
	require.Contains(t, errMessage(got), "at most 32,000 can be sent")
	require.Equal(t, streams, b.model.Stats().Streams, "the model was not asked")
}

// The AI budget counts tokens as well as calls: a teacher past their tokens
// is refused with 429, a Retry-After and when the tokens renew; the team's
// tokens are counted too, from every call (streamed or not).
func TestAITokensAreLimitedPerTeacherAndTeam(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	b := setup(t, func(c *config.Config) {
		c.AITokenLimitTeacher = ratelimit.Rule{Limit: 100, Window: day}
	})
	b.signIn(t, "Ada", "ada.tokens@school.test")
	events := readEvents(t, b.openStream(t, context.Background(), userAsks("Write a quiz about rivers")), nil)
	require.Equal(t, "done", events[len(events)-1].name)
	usage := events[len(events)-1].data["usage"].(map[string]any)
	require.Greater(t, usage["promptTokens"].(float64)+usage["completionTokens"].(float64), 100.0, "one answer spends the allowance")

	for _, call := range []func() (int, string, string){
		func() (int, string, string) {
			res, got := b.do(t, "POST", "/api/v1/chat/stream", userAsks("And one about lakes"))
			return res.StatusCode, res.Header.Get("Retry-After"), errMessage(got)
		},
		func() (int, string, string) {
			res, got := b.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why is the sky blue?"})
			return res.StatusCode, res.Header.Get("Retry-After"), errMessage(got)
		},
	} {
		status, retry, msg := call()
		require.Equal(t, 429, status, msg)
		require.NotEmpty(t, retry)
		require.Equal(t, "You have used all of today's 100 AI tokens; they renew at 00:00 UTC. Please wait until then.", msg)
	}
	// Another teacher has their own tokens.
	bo := b.newBrowser(t)
	bo.signIn(t, "Bo", "bo.tokens@school.test")
	res, got := bo.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why is the sky blue?"})
	require.Equal(t, 200, res.StatusCode, got)

	// The team's tokens: a structured call (AI assist) counts them too.
	tb := setup(t, func(c *config.Config) {
		c.AITokenLimitTeam = ratelimit.Rule{Limit: 50, Window: day}
	})
	tb.signIn(t, "Cy", "cy.tokens@school.test")
	res, got = tb.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why is the sky blue?"})
	require.Equal(t, 200, res.StatusCode, got)
	res, got = tb.do(t, "POST", "/api/v1/ai-assist/suggest-questions", map[string]any{"assignmentText": "1. Why?"})
	require.Equal(t, 429, res.StatusCode, got)
	require.Equal(t, "Your team has used all of today's 50 AI tokens; they renew at 00:00 UTC. Please wait until then.", errMessage(got))
}

// gradingJobs counts the grading jobs queued for the submissions.
func gradingJobs(t *testing.T, submissionIDs ...string) int {
	t.Helper()
	var n int
	require.NoError(t, testdb.Pool(t).QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = 'grade_submission' AND args->>'submission_id' = ANY($1)`,
		submissionIDs).Scan(&n))
	return n
}

// gradableAssignment is a prompt assignment of the signed-in teacher with
// its prompt and n uploaded submissions.
func gradableAssignment(t *testing.T, br *browser, n int) (assignmentID string, submissionIDs []string) {
	t.Helper()
	status, data, e := br.call(t, "/api/v1/db/assignment/put", map[string]any{"name": "Reflection", "type": "prompt"})
	require.Equal(t, 200, status, e)
	assignmentID = data["assignment"].(map[string]any)["_id"].(string)
	status, _, e = br.call(t, "/api/v1/db/function/put", map[string]any{"assignmentId": assignmentID, "prompt": "Be kind and specific"})
	require.Equal(t, 200, status, e)
	for range n {
		id, _ := uploadSubmission(t, br, assignmentID)
		submissionIDs = append(submissionIDs, id)
	}
	return assignmentID, submissionIDs
}

func statuses(data map[string]any) []string {
	var out []string
	for _, r := range data["functionResults"].([]any) {
		out = append(out, r.(map[string]any)["status"].(string))
	}
	return out
}

// runFunctionOnMany asked again and again on results in progress queues
// each once and answers their status; only the queued ones are counted
// against the team's budget.
func TestGradingAskedAgainQueuesEachOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.AILimitTeam = ratelimit.Rule{Limit: 3, Window: 24 * time.Hour} })
	b.signIn(t, "Ada", "ada.regrade@school.test")
	asg, subs := gradableAssignment(t, b.browser, 2)
	for range 35 {
		status, data, e := b.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": subs})
		require.Equal(t, 200, status, e)
		require.Equal(t, []string{grading.StatusGrading, grading.StatusGrading}, statuses(data))
	}
	require.Equal(t, 2, gradingJobs(t, subs...), "one job per submission")
	for range 3 {
		status, data, e := b.call(t, "/api/v1/lambda/gradeOnePub", map[string]any{"assignmentId": asg, "submissionId": subs[0], "processName": "PromptProcess"})
		require.Equal(t, 200, status, e)
		require.Equal(t, grading.StatusGrading, data["status"])
	}
	require.Equal(t, 2, gradingJobs(t, subs...), "gradeOnePub does not queue a run in progress again")

	// Two calls of the team's three were counted: one is left.
	res, got := b.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
	require.Equal(t, 200, res.StatusCode, got)
	res, got = b.do(t, "POST", "/api/v1/ai-assist/suggest-criteria", map[string]any{"question": "Why?"})
	require.Equal(t, 429, res.StatusCode, got)
}

// Grading counts one call per submission against the team's budget: past
// it, the teacher is told how many calls are left and when they renew
// (429 with Retry-After), and nothing is queued or changed.
func TestGradingPastTheTeamBudgetIsRefused(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.AILimitTeam = ratelimit.Rule{Limit: 3, Window: 24 * time.Hour} })
	b.signIn(t, "Ada", "ada.gradebudget@school.test")
	asg, subs := gradableAssignment(t, b.browser, 5)

	res, got := b.do(t, "POST", "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": subs})
	require.Equal(t, 429, res.StatusCode, got)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, "Your team has 3 of today's 3 AI calls left (one per submission graded); they renew at 00:00 UTC. "+
		"Grade at most 3 submissions, or wait until then.", errMessage(got))
	require.Zero(t, gradingJobs(t, subs...), "nothing is queued")
	status, data, e := b.call(t, "/api/v1/db/functionResult/get", map[string]any{"assignmentId": asg, "submissionId": subs[0]})
	require.Equal(t, 200, status, e)
	require.Equal(t, "", data["functionResult"].(map[string]any)["status"], "nothing is put in progress")

	status, data, e = b.call(t, "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asg, "submissionIds": subs[:3]})
	require.Equal(t, 200, status, e)
	require.Len(t, statuses(data), 3)
	require.Equal(t, 3, gradingJobs(t, subs...))

	res, got = b.do(t, "POST", "/api/v1/lambda/gradeOnePub", map[string]any{"assignmentId": asg, "submissionId": subs[3], "processName": "PromptProcess"})
	require.Equal(t, 429, res.StatusCode, got)
	require.Equal(t, "Your team has used all of today's 3 AI calls (one per submission graded); they renew at 00:00 UTC. "+
		"Please wait until then to grade.", errMessage(got))
	require.Equal(t, 3, gradingJobs(t, subs...))
}

// A student's instant feedback counts against the team's budget. Once it
// is spent, the work is still saved, the feedback waits for the teacher
// (nothing is queued), and the student is told so.
func TestInstantFeedbackCountsAgainstTheTeamBudget(t *testing.T) {
	t.Parallel()
	b := setup(t, func(c *config.Config) { c.AILimitTeam = ratelimit.Rule{Limit: 1, Window: 24 * time.Hour} })
	b.signIn(t, "Ada", "ada.instantbudget@school.test")
	asgID, token := linkedAssignment(t, b.browser, "Essay")
	sam := b.newBrowser(t).submitAs(t, asgID, token, "Sam Student", "Sam's essay")
	kim := b.newBrowser(t).submitAs(t, asgID, token, "Kim Student", "Kim's essay")
	samID := sam["submissions"].([]any)[0].(map[string]any)["_id"].(string)
	kimID := kim["submissions"].([]any)[0].(map[string]any)["_id"].(string)

	reader := b.newBrowser(t)
	status, got, e := reader.call(t, gradeOnePub, map[string]any{"viewToken": sam["viewToken"], "submissionId": samID, "assignmentId": asgID, "processName": "PromptProcess"})
	require.Equal(t, 200, status, e)
	require.Equal(t, grading.StatusGrading, got["status"])
	require.NotContains(t, got, "message")

	status, got, e = reader.call(t, gradeOnePub, map[string]any{"viewToken": kim["viewToken"], "submissionId": kimID, "assignmentId": asgID, "processName": "PromptProcess"})
	require.Equal(t, 200, status, "the student's work is accepted: %v", e)
	require.Equal(t, "", got["status"], "not started")
	require.Equal(t, result.MsgFeedbackWaits, got["message"])
	require.Zero(t, gradingJobs(t, kimID))
	status, got, e = reader.call(t, "/api/v1/db/submission/get-view-only", map[string]any{"submissionId": kimID, "viewToken": kim["viewToken"]})
	require.Equal(t, 200, status, "Kim's work is saved: %v", e)
	require.Equal(t, kimID, got["submission"].(map[string]any)["_id"])

	// The teacher sees the same budget.
	res, body := b.do(t, "POST", "/api/v1/lambda/runFunctionOnMany", map[string]any{"assignmentId": asgID, "submissionIds": []string{kimID}})
	require.Equal(t, 429, res.StatusCode, body)
	require.Contains(t, errMessage(body), "Your team has used all of today's 1 AI call")
}
