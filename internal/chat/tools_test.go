package chat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/catalog"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
)

func requireRefused(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	require.Error(t, err)
	require.Equal(t, code, apperr.From(err).Code, err.Error())
	require.Equal(t, msg, apperr.From(err).Message)
}

func TestPromptWithToolOrWorkflow(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	svc.Model = &llmtest.Mock{}
	ada := teacher(t, svc, uuid.Nil)
	ctx := context.Background()
	quiz, _ := catalog.FindTool(catalog.ToolQuizMaker)

	p, err := svc.Prompt(ctx, ada, chat.Ask{ToolID: catalog.ToolQuizMaker}, msgs("user", "A quiz on volcanoes"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.System, quiz.SystemPrompt+"\n\n"), "the tool's prompt replaces the document chat's")
	require.Contains(t, p.System, "<document>", "the document instruction follows")
	require.Empty(t, p.WorkflowPrompt)

	// A workflow run: no messages needed; the composed message comes last.
	run := &chat.WorkflowRun{ID: catalog.WorkflowLessonPlan, Inputs: map[string]string{
		"subject": "Science", "gradeLevel": "Year 7", "topic": "Volcanoes", "lessonLength": "45 minutes"}}
	p, err = svc.Prompt(ctx, ada, chat.Ask{Workflow: run}, nil)
	require.NoError(t, err)
	planner, _ := catalog.FindTool(catalog.ToolLessonPlanner)
	require.True(t, strings.HasPrefix(p.System, planner.SystemPrompt+"\n\n"))
	require.True(t, strings.HasPrefix(p.WorkflowPrompt, "Write a lesson plan for a 45 minutes Science lesson for Year 7."), p.WorkflowPrompt)
	require.Equal(t, []llm.Message{{Role: llm.RoleUser, Text: p.WorkflowPrompt}}, p.Messages)

	// With earlier messages (the tool's greeting), it is appended; the
	// workflow's id may also come as toolId.
	p, err = svc.Prompt(ctx, ada, chat.Ask{ToolID: catalog.WorkflowLessonPlan, Workflow: run}, msgs("assistant", "Hello!"))
	require.NoError(t, err)
	require.Len(t, p.Messages, 2)
	require.Equal(t, llm.Message{Role: llm.RoleUser, Text: p.WorkflowPrompt}, p.Messages[1])

	// A later turn of the workflow's chat names the workflow as its tool.
	p, err = svc.Prompt(ctx, ada, chat.Ask{ToolID: catalog.WorkflowLessonPlan}, msgs("user", "x", "assistant", "y", "user", "Shorter please"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(p.System, planner.SystemPrompt))
	require.Empty(t, p.WorkflowPrompt)
}

func TestPromptRefusesBadToolsAndWorkflows(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	svc.Model = &llmtest.Mock{}
	ada := teacher(t, svc, uuid.Nil)
	ctx := context.Background()
	asst, err := (&assistant.Service{Pool: svc.Pool}).Create(ctx, ada, assistant.Input{Title: "P", Description: "d", SystemPrompt: "p"})
	require.NoError(t, err)
	hi := msgs("user", "hi")
	good := map[string]string{"subject": "Science", "gradeLevel": "Year 7", "topic": "Volcanoes", "lessonLength": "45 minutes"}

	for name, tc := range map[string]struct {
		ask  chat.Ask
		ms   []chat.Message
		code apperr.Code
		msg  string
	}{
		"assistant and tool":     {chat.Ask{AssistantID: asst.ID, ToolID: catalog.ToolQuizMaker}, hi, apperr.Invalid, "Choose an assistant or a tool, not both"},
		"assistant and workflow": {chat.Ask{AssistantID: asst.ID, Workflow: &chat.WorkflowRun{ID: catalog.WorkflowLessonPlan, Inputs: good}}, hi, apperr.Invalid, "Choose an assistant or a tool, not both"},
		"tool and workflow":      {chat.Ask{ToolID: catalog.ToolQuizMaker, Workflow: &chat.WorkflowRun{ID: catalog.WorkflowLessonPlan, Inputs: good}}, hi, apperr.Invalid, catalog.MsgToolAndWorkflow},
		"unknown tool":           {chat.Ask{ToolID: "teleporter"}, hi, apperr.NotFound, "Tool not found"},
		"unknown workflow":       {chat.Ask{Workflow: &chat.WorkflowRun{ID: "teleport", Inputs: good}}, nil, apperr.NotFound, "Workflow not found"},
		"rubric tool":            {chat.Ask{ToolID: catalog.ToolRubricFromSheet}, hi, apperr.Invalid, `"Rubric from an assignment sheet" makes a rubric, not a chat: use it from the Tools page`},
		"missing inputs":         {chat.Ask{Workflow: &chat.WorkflowRun{ID: catalog.WorkflowLessonPlan}}, nil, apperr.Invalid, "Please fill in all required fields"},
		"no messages, no run":    {chat.Ask{ToolID: catalog.ToolQuizMaker}, nil, apperr.Invalid, chat.MsgNoMessages},
	} {
		_, err := svc.Prompt(ctx, ada, tc.ask, tc.ms)
		require.Error(t, err, name)
		require.Equal(t, tc.code, apperr.From(err).Code, name)
		require.Equal(t, tc.msg, apperr.From(err).Message, name)
	}
}

func TestChatsRememberTheirTool(t *testing.T) {
	t.Parallel()
	svc := setup(t)
	ctx := context.Background()
	a := teacher(t, svc, uuid.Nil)

	id, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, catalog.WorkflowQuizFromText, chat.State{Messages: msgs("user", "Write a quiz")})
	require.NoError(t, err)
	plain, err := svc.Save(ctx, a, uuid.Nil, uuid.Nil, "", chat.State{Messages: msgs("user", "Hello")})
	require.NoError(t, err)
	// An update leaving the tool out keeps it.
	_, err = svc.Save(ctx, a, id, uuid.Nil, "", chat.State{Messages: msgs("user", "Write a quiz", "assistant", "Done")})
	require.NoError(t, err)
	list, err := svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, id, list[0].ID)
	require.Equal(t, catalog.WorkflowQuizFromText, list[0].ToolID)
	require.Len(t, list[0].Messages, 2)
	require.Equal(t, plain, list[1].ID)
	require.Equal(t, "", list[1].ToolID)

	_, err = svc.Save(ctx, a, uuid.Nil, uuid.Nil, "teleporter", chat.State{})
	requireRefused(t, err, apperr.NotFound, "Tool not found")
	_, err = svc.Save(ctx, a, uuid.Nil, uuid.Nil, catalog.ToolRubricFromSheet, chat.State{})
	requireRefused(t, err, apperr.Invalid, `"Rubric from an assignment sheet" makes a rubric, not a chat: use it from the Tools page`)
	_, err = svc.Save(ctx, a, uuid.Nil, uuid.New(), catalog.ToolQuizMaker, chat.State{})
	requireRefused(t, err, apperr.Invalid, "Choose an assistant or a tool, not both")
	list, err = svc.List(ctx, a)
	require.NoError(t, err)
	require.Len(t, list, 2, "nothing refused was saved")
}
