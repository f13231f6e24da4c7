package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/llm/fakellm"
	"github.com/markwell/markwell/internal/ratelimit"
)

func TestCatalogRoute(t *testing.T) {
	t.Parallel()
	b := setup(t)
	res, got := b.do(t, "GET", "/api/v1/catalog", nil)
	require.Equal(t, 401, res.StatusCode, "signed out: %v", got)

	b.signIn(t, "Ada", "ada.catalog@school.test")
	res, got = b.do(t, "GET", "/api/v1/catalog", nil)
	require.Equal(t, 200, res.StatusCode, got)
	data := got["data"].(map[string]any)
	var tools, workflows []string
	for _, tl := range data["tools"].([]any) {
		m := tl.(map[string]any)
		tools = append(tools, m["id"].(string)+":"+m["kind"].(string))
		require.NotEmpty(t, m["title"])
		require.NotEmpty(t, m["initialMessage"])
	}
	for _, w := range data["workflows"].([]any) {
		m := w.(map[string]any)
		workflows = append(workflows, m["id"].(string))
		require.NotEmpty(t, m["fields"])
	}
	require.Equal(t, []string{"lesson-planner:chat", "quiz-maker:chat", "parent-letter:chat", "rubric-from-sheet:rubric"}, tools)
	require.Equal(t, []string{"lesson-plan", "parent-letter-workflow", "quiz-from-text"}, workflows)
	raw, _ := json.Marshal(got)
	require.NotContains(t, string(raw), "You are Markwell's", "no system prompt is shown")
	require.NotContains(t, string(raw), "as a document", "no template is shown")
}

// streamDone reads a whole stream and returns its meta event, the chat
// text and the final document.
func streamDone(t *testing.T, br *browser, body any) (meta map[string]any, text, doc string) {
	t.Helper()
	res := br.openStream(t, context.Background(), body)
	require.Equal(t, 200, res.StatusCode)
	events := readEvents(t, res, nil)
	require.Equal(t, "meta", events[0].name)
	done := events[len(events)-1]
	require.Equal(t, "done", done.name, "%v", done.data)
	return events[0].data, done.data["text"].(string), done.data["document"].(string)
}

func TestChatStreamWithATool(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.tool@school.test")
	body := userAsks("Write a lesson plan about volcanoes for year 7")
	body["toolId"] = "lesson-planner"
	meta, _, doc := streamDone(t, b.browser, body)
	require.NotContains(t, meta, "prompt", "only a workflow run composes a message")
	require.True(t, strings.HasPrefix(doc, "# Lesson plan: "), doc)
	require.Contains(t, doc, `Follows the assistant's instructions: "You are Markwell's lesson planner`, "the tool's system prompt reached the model")

	// Without a tool the model gets the document chat's prompt.
	_, _, doc = streamDone(t, b.browser, userAsks("Write a lesson plan about volcanoes for year 7"))
	require.Contains(t, doc, `Follows the assistant's instructions: "You are Markwell's writing assistant`)
}

func TestChatStreamRunsAWorkflow(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.workflow@school.test")
	run := map[string]any{"messages": []any{}, "workflow": map[string]any{"id": "lesson-plan", "inputs": map[string]any{
		"subject": "Science", "gradeLevel": "Year 7", "topic": "How volcanoes form", "lessonLength": "45 minutes", "objectives": ""}}}
	meta, text, doc := streamDone(t, b.browser, run)
	prompt, _ := meta["prompt"].(string)
	require.True(t, strings.HasPrefix(prompt, "Write a lesson plan for a 45 minutes Science lesson for Year 7.\n\nTopic: How volcanoes form\n"), prompt)
	require.True(t, strings.HasPrefix(doc, "# Lesson plan: Write a lesson plan for a 45 minutes Science lesson"), doc)
	require.Contains(t, doc, `Follows the assistant's instructions: "You are Markwell's lesson planner`)
	require.Contains(t, text, "version 1 of the lesson plan")

	// The chat goes on with the workflow as its tool: the client sends the
	// whole conversation, the composed message first.
	next := map[string]any{"toolId": "lesson-plan", "messages": []map[string]any{
		{"role": "user", "content": prompt}, {"role": "assistant", "content": "<document>\n" + doc + "\n</document>"},
		{"role": "user", "content": "Make it shorter"}}}
	meta, _, doc = streamDone(t, b.browser, next)
	require.NotContains(t, meta, "prompt")
	require.Contains(t, doc, `Version 2, changed as you asked: "Make it shorter"`)
	require.Contains(t, doc, `Follows the assistant's instructions: "You are Markwell's lesson planner`)

	// The chat is saved with its workflow and comes back with it.
	res, got := b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"toolId": "lesson-plan", "chatState": map[string]any{
		"messages": []map[string]any{{"role": "user", "content": prompt}, {"role": "assistant", "content": text}}, "document": doc}})
	require.Equal(t, 200, res.StatusCode, got)
	_, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	saved := got["data"].(map[string]any)["chatDocs"].([]any)[0].(map[string]any)
	require.Equal(t, "lesson-plan", saved["toolId"])
	require.Equal(t, "Write a lesson plan for a 45 minutes Science lesson for Yea…", saved["title"], "named by the composed message")
}

func TestChatStreamRefusesBadToolsAndWorkflows(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.toolbad@school.test")
	assistantID, _ := adaAssistantAndChat(t, b)
	lesson := func(inputs map[string]any) map[string]any {
		return map[string]any{"messages": []any{}, "workflow": map[string]any{"id": "lesson-plan", "inputs": inputs}}
	}
	good := func() map[string]any {
		return map[string]any{"subject": "Science", "gradeLevel": "Year 7", "topic": "Volcanoes", "lessonLength": "45 minutes"}
	}
	with := func(k string, v any) map[string]any { m := good(); m[k] = v; return m }
	withAssistant := lesson(good())
	withAssistant["assistantId"] = assistantID
	toolAndAssistant := userAsks("Write a letter")
	toolAndAssistant["assistantId"], toolAndAssistant["toolId"] = assistantID, "parent-letter"
	unknownTool := userAsks("Write a letter")
	unknownTool["toolId"] = "teleporter"
	rubricTool := userAsks("Write a rubric")
	rubricTool["toolId"] = "rubric-from-sheet"

	for name, tc := range map[string]struct {
		body   map[string]any
		status int
		msg    string
	}{
		"missing required":       {lesson(with("topic", "  ")), 400, "Please fill in all required fields"},
		"no inputs":              {lesson(nil), 400, "Please fill in all required fields"},
		"not an option":          {lesson(with("lessonLength", "5 hours")), 400, "Lesson length must be one of: 30 minutes, 45 minutes, 60 minutes, 90 minutes"},
		"unknown field":          {lesson(with("pupilName", "Sam")), 400, `Plan a lesson has no field named "pupilName"`},
		"too long":               {lesson(with("topic", strings.Repeat("x", 301))), 400, "Topic can be at most 300 characters"},
		"input not a string":     {lesson(with("topic", 3)), 400, "Request body must be valid JSON"},
		"assistant and workflow": {withAssistant, 400, "Choose an assistant or a tool, not both"},
		"assistant and tool":     {toolAndAssistant, 400, "Choose an assistant or a tool, not both"},
		"rubric tool":            {rubricTool, 400, `"Rubric from an assignment sheet" makes a rubric, not a chat: use it from the Tools page`},
		"unknown tool":           {unknownTool, 404, "Tool not found"},
		"unknown workflow":       {map[string]any{"workflow": map[string]any{"id": "teleport", "inputs": good()}}, 404, "Workflow not found"},
	} {
		res, got := b.do(t, "POST", "/api/v1/chat/stream", tc.body)
		require.Equal(t, tc.status, res.StatusCode, "%s: %v", name, got)
		require.Contains(t, res.Header.Get("Content-Type"), "application/json", name)
		require.Equal(t, tc.msg, errMessage(got), name)
	}
	require.Zero(t, b.model.Stats().Streams, "the model was not asked")
}

func TestChatsRememberTheirTool(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.chattool@school.test")
	state := map[string]any{"messages": []map[string]any{{"role": "user", "content": "Write a quiz on volcanoes"}}}
	res, got := b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"toolId": "quiz-maker", "chatState": state})
	require.Equal(t, 200, res.StatusCode, got)
	id := got["data"].(map[string]any)["chatDoc"].(map[string]any)["_id"].(string)
	res, got = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"chatState": map[string]any{"messages": []map[string]any{{"role": "user", "content": "Hello"}}}})
	require.Equal(t, 200, res.StatusCode, got)
	// An update without toolId keeps it.
	res, got = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"chatState": map[string]any{"chatId": id, "messages": []map[string]any{
		{"role": "user", "content": "Write a quiz on volcanoes"}, {"role": "assistant", "content": "Here it is"}}}})
	require.Equal(t, 200, res.StatusCode, got)

	_, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	docs := got["data"].(map[string]any)["chatDocs"].([]any)
	require.Len(t, docs, 2)
	require.Equal(t, id, docs[0].(map[string]any)["_id"])
	require.Equal(t, "quiz-maker", docs[0].(map[string]any)["toolId"])
	require.Len(t, docs[0].(map[string]any)["messages"], 2)
	require.Equal(t, "", docs[1].(map[string]any)["toolId"], "a chat without a tool")

	res, got = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"toolId": "teleporter", "chatState": state})
	require.Equal(t, 404, res.StatusCode, got)
	require.Equal(t, "Tool not found", errMessage(got))
	res, got = b.do(t, "PUT", "/api/v1/db/chat/put", map[string]any{"toolId": "rubric-from-sheet", "chatState": state})
	require.Equal(t, 400, res.StatusCode, got)
	_, got = b.do(t, "PUT", "/api/v1/db/chat/get", map[string]any{})
	require.Len(t, got["data"].(map[string]any)["chatDocs"], 2, "nothing refused was saved")
}

const uniformsSheet = `Persuasive letter
1. State your position on school uniforms in the first paragraph.
2. Support your argument with at least two pieces of evidence.
3. End with a conclusion that calls the reader to act.`

func TestRubricFromSheetIsSavedInTheTeamsLibrary(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.rubricsheet@school.test")
	res, got := b.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{"assignmentText": uniformsSheet})
	require.Equal(t, 200, res.StatusCode, got)
	r := got["data"].(map[string]any)["rubric"].(map[string]any)
	require.Equal(t, "Persuasive letter rubric", r["name"])
	crits := r["criteria"].([]any)
	require.Len(t, crits, 4)
	first := crits[0].(map[string]any)
	require.Equal(t, "State your position on school uniforms in the first paragraph.", first["criterionDescription"])
	require.Len(t, first["levelDescriptions"], 4)
	require.Equal(t, false, first["useRange"])

	// It is in the team's rubrics and library, as rubric/put would leave it.
	_, list := b.do(t, "GET", "/api/v1/db/rubric/list", nil)
	rubrics := list["data"].(map[string]any)["rubrics"].([]any)
	require.Len(t, rubrics, 1)
	require.Equal(t, r, rubrics[0])
	_, lib := b.do(t, "GET", "/api/v1/db/library/get", nil)
	require.Equal(t, r["_id"], lib["data"].(map[string]any)["rubrics"].([]any)[0].(map[string]any)["_id"])
	_, one := b.do(t, "POST", "/api/v1/db/rubric/get", map[string]any{"rubricId": r["_id"]})
	require.Equal(t, r, one["data"].(map[string]any)["rubric"])

	// Not in another team's.
	eve := b.newBrowser(t)
	eve.signIn(t, "Eve", "eve.rubricsheet@school.test")
	_, list = eve.do(t, "GET", "/api/v1/db/rubric/list", nil)
	require.Empty(t, list["data"].(map[string]any)["rubrics"])
	res, _ = eve.do(t, "POST", "/api/v1/db/rubric/get", map[string]any{"rubricId": r["_id"]})
	require.Equal(t, 404, res.StatusCode)

	// Refused input never reaches the model.
	asked := b.model.Stats().Tasks["rubric_from_sheet"]
	for text, msg := range map[string]string{
		" \n ":                      "Please fill in all required fields",
		strings.Repeat("a", 50_001): "The assignment sheet can be at most 50,000 characters",
	} {
		res, got := b.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{"assignmentText": text})
		require.Equal(t, 400, res.StatusCode)
		require.Equal(t, msg, errMessage(got))
	}
	res, got = b.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{})
	require.Equal(t, 400, res.StatusCode)
	require.Equal(t, "Please fill in all required fields", errMessage(got))
	require.Equal(t, asked, b.model.Stats().Tasks["rubric_from_sheet"])
}

func TestRubricFromSheetInvalidTwiceSavesNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.signIn(t, "Ada", "ada.rubricbad@school.test")
	// The model keeps answering a rubric whose level is blank.
	b.model.Handle("rubric_from_sheet", func(fakellm.ChatRequest) (any, error) {
		return map[string]any{"name": "Essay", "criteria": []any{map[string]any{
			"criterionDescription": "Thesis", "levelDescriptions": []any{"Clear", "  "}}}}, nil
	})
	res, got := b.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{"assignmentText": uniformsSheet})
	require.Equal(t, 502, res.StatusCode, got)
	require.Equal(t, map[string]any{"code": "upstream", "message": "Failed to generate rubric."}, got["error"])
	require.Equal(t, int64(2), b.model.Stats().Tasks["rubric_from_sheet"], "asked once more with the reason, then given up")
	_, list := b.do(t, "GET", "/api/v1/db/rubric/list", nil)
	require.Empty(t, list["data"].(map[string]any)["rubrics"], "nothing saved")
}

func TestRubricFromSheetSpendsTheAIBudget(t *testing.T) {
	t.Parallel()
	lb := setupWithAIBudget(t, ratelimit.Rule{Limit: 1, Window: time.Minute}, ratelimit.Rule{Limit: 100, Window: 24 * time.Hour})
	lb.signIn(t, "Ada", "ada.rubriclimit@school.test")
	res, got := lb.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{"assignmentText": uniformsSheet})
	require.Equal(t, 200, res.StatusCode, got)
	res, got = lb.do(t, "POST", "/api/v1/ai-assist/rubric-from-sheet", map[string]any{"assignmentText": uniformsSheet})
	require.Equal(t, 429, res.StatusCode, got)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
	require.Equal(t, ratelimit.MsgAITeacher, errMessage(got))
	_, list := lb.do(t, "GET", "/api/v1/db/rubric/list", nil)
	require.Len(t, list["data"].(map[string]any)["rubrics"], 1, "the refused call saved nothing")
}
