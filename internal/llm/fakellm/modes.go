package fakellm

import (
	"fmt"
	"strings"

	"github.com/markwell/markwell/internal/llm"
)

// The output modes, as the demo model sees them (see [llm.OutputMode]):
//
//   - json_schema: response_format json_schema. With "strict": true the
//     schema must fit [llm.CheckStrict], or the request gets the 400 a
//     strict provider sends. Options.RefuseJSONSchema refuses every such
//     request, as a provider without structured outputs does.
//   - json_object: response_format json_object (JSON mode). When the system
//     prompt carries [llm.SchemaInstructions], the task is answered exactly
//     as for json_schema, as plain JSON; without them the answer is a small
//     JSON object about the text. Options.RefuseJSONObject refuses it.
//   - prompt: no response_format, schema instructions in the system prompt.
//     The task's JSON is the answer, wrapped in a sentence and a ```json
//     fence with Options.Chatty, as a model without JSON mode writes.

// refuse is the 400 the demo model answers req with when its options or
// the strict rules do not accept its response_format; nil accepts it.
func (s *Server) refuse(req ChatRequest) *badRequest {
	switch req.Format {
	case "json_schema":
		if s.opts.RefuseJSONSchema {
			return invalid("response_format", "response_format type 'json_schema' is not supported by this model.")
		}
		if req.Strict {
			if err := llm.CheckStrict(req.Schema); err != nil {
				return invalid("response_format", "Invalid schema for response_format '%s': %s.", req.Task, strings.TrimSuffix(err.Error(), "."))
			}
		}
	case "json_object":
		if s.opts.RefuseJSONObject {
			return invalid("response_format", "response_format type 'json_object' is not supported by this model.")
		}
	}
	return nil
}

// instructed names req's task and schema from the schema instructions in
// its system prompt, for a request without json_schema.
func instructed(req ChatRequest) ChatRequest {
	if req.Format == "json_schema" {
		return req
	}
	for _, m := range req.Messages {
		if m.Role != "system" && m.Role != "developer" {
			continue
		}
		if task, schema, ok := llm.ParseSchemaInstructions(m.Text); ok {
			req.Task, req.Schema, req.instructed = task, schema, true
		}
	}
	return req
}

// withoutInstructions is req as its task handler sees it: the system
// prompt without the schema instructions, as it was before Markwell added
// them, so that a task is answered the same in every mode.
func withoutInstructions(req ChatRequest) ChatRequest {
	if !req.instructed {
		return req
	}
	msgs := make([]Message, len(req.Messages))
	for i, m := range req.Messages {
		if m.Role == "system" || m.Role == "developer" {
			m.Text = llm.StripSchemaInstructions(m.Text)
		}
		msgs[i] = m
	}
	req.Messages = msgs
	return req
}

// chatty wraps a JSON answer as a model without JSON mode writes it: a
// sentence, the JSON in a ```json fence, a closing sentence.
func chatty(task, content string) string {
	return fmt.Sprintf("Here is the %s answer from the demo model, as JSON:\n\n```json\n%s\n```\n\nI hope this helps; ask if anything should change.",
		strings.ReplaceAll(task, "_", " "), content)
}
