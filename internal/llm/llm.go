// Package llm is Markwell's client for OpenAI-compatible chat models.
//
// Workers and the API depend on the [Client] interface; [OpenAI] implements it
// with openai-go over Chat Completions, so the same code talks to OpenAI, Azure,
// Ollama, vLLM or Markwell's own demo model (package fakellm). Errors are
// classified for River: [IsPermanent] means "cancel the job", [RetryAfter]
// means "snooze the job", anything else is transient and may be retried.
package llm

import (
	"context"
	"fmt"
	"strings"
)

// Client is what the rest of Markwell needs from a language model.
type Client interface {
	// CompleteJSON asks for an answer that follows req.Schema (structured
	// output) and decodes it into out, which must be a pointer. An answer that
	// cannot be read or does not follow the schema is an error wrapping
	// [ErrBadOutput]. The usage is what the call cost, also when it failed
	// after the model answered.
	CompleteJSON(ctx context.Context, req Request, out any) (Usage, error)
	// Chat asks for a free-form text answer.
	Chat(ctx context.Context, req ChatRequest) (string, error)
	// ChatStream asks for a free-form text answer and hands it to onDelta
	// piece by piece as the model writes it. An error from onDelta stops
	// the stream (the model call is cancelled) and is returned wrapped;
	// cancelling ctx does the same. The usage is what the call cost, as far
	// as the model reported it before the stream ended.
	ChatStream(ctx context.Context, req ChatRequest, onDelta func(delta string) error) (Usage, error)
}

// Role is the author of a [Message].
type Role string

// The roles a [Message] can have. System instructions usually go in
// Request.System instead.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role Role
	Text string
	// ImageURLs are images shown to the model with the text: data: URLs
	// (data:image/png;base64,…) or https URLs. Only user messages may carry
	// images; a request with images goes to the vision model.
	ImageURLs []string
}

// UserText returns a user message with the given text.
func UserText(text string) Message { return Message{Role: RoleUser, Text: text} }

// Request asks for a structured (JSON) answer.
type Request struct {
	// Task is a short name for the answer's schema, such as "suggest_criteria"
	// (letters, digits, '_' and '-', at most 64). It is sent as the schema
	// name, which is also how the demo model recognises the task.
	Task string
	// System is the system prompt; empty means none.
	System   string
	Messages []Message
	// Schema is the JSON schema of the answer. Strict structured output
	// requires every object to list all its properties as required and to set
	// "additionalProperties": false.
	Schema map[string]any
	// Temperature is sent when not nil.
	Temperature *float64
	// MaxTokens caps the answer's length (max_completion_tokens); 0 means the
	// provider's default.
	MaxTokens int
	// Summary asks for the cheaper summary model (LLM_SUMMARY_MODEL, else
	// the main model); images still go to the vision model.
	Summary bool
}

// Usage is what model calls cost: the model that answered and the tokens
// it counted. Cost in money comes from a [Prices] table.
type Usage struct {
	Model        string
	Calls        int
	PromptTokens int
	// CachedPromptTokens is the part of PromptTokens the provider served
	// from its prompt cache (usage.prompt_tokens_details.cached_tokens),
	// priced at [Price.CachedPrompt].
	CachedPromptTokens int
	CompletionTokens   int
	// Mode is how the last structured answer was asked for (empty for
	// free-form chat).
	Mode OutputMode
}

// Add adds o to u; the model and mode become o's when o names them.
func (u *Usage) Add(o Usage) {
	if o.Model != "" {
		u.Model = o.Model
	}
	if o.Mode != "" {
		u.Mode = o.Mode
	}
	u.Calls += o.Calls
	u.PromptTokens += o.PromptTokens
	u.CachedPromptTokens += o.CachedPromptTokens
	u.CompletionTokens += o.CompletionTokens
}

// OutputMode is how a structured answer is asked of the provider.
type OutputMode string

// The output modes. Whatever the mode, Markwell checks the answer against
// the schema itself ([Validate]).
const (
	// ModeAuto starts with json_schema and, when the provider refuses it
	// with a 400, falls back to json_object and then prompt, remembering
	// per model what worked.
	ModeAuto OutputMode = "auto"
	// ModeJSONSchema sends response_format json_schema, strict: the
	// provider enforces the schema.
	ModeJSONSchema OutputMode = "json_schema"
	// ModeJSONObject sends response_format json_object (JSON mode) with the
	// schema in the system prompt.
	ModeJSONObject OutputMode = "json_object"
	// ModePrompt sends no response_format: the schema is in the system
	// prompt and the JSON is taken out of the answer's text.
	ModePrompt OutputMode = "prompt"
)

// ParseOutputMode reads a mode name; empty means [ModeAuto].
func ParseOutputMode(s string) (OutputMode, error) {
	switch m := OutputMode(strings.TrimSpace(s)); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeJSONSchema, ModeJSONObject, ModePrompt:
		return m, nil
	}
	return "", fmt.Errorf("%q is not an output mode: use auto, json_schema, json_object or prompt", s)
}

// ChatRequest asks for a free-form text answer.
type ChatRequest struct {
	System      string
	Messages    []Message
	Temperature *float64
	MaxTokens   int
}

// Float returns a pointer to f, for Request.Temperature.
func Float(f float64) *float64 { return &f }
