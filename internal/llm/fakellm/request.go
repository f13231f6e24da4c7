package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ChatRequest is a chat completion request as the demo model sees it.
type ChatRequest struct {
	Model    string
	Messages []Message
	// Format is response_format.type: "text" (or empty), "json_object" or
	// "json_schema".
	Format string
	// Task is response_format.json_schema.name; empty for free-form chat.
	Task string
	// Schema is response_format.json_schema.schema; nil for free-form chat.
	// A request without json_schema whose system prompt carries
	// [llm.SchemaInstructions] (the json_object and prompt modes) has the
	// Task and Schema named there.
	Schema map[string]any
	// Strict is response_format.json_schema.strict: the schema must fit
	// [llm.CheckStrict].
	Strict      bool
	Temperature *float64
	// MaxTokens is max_completion_tokens (or max_tokens); 0 means no limit.
	MaxTokens int
	// Stream asks for the answer as server-sent events; IncludeUsage
	// (stream_options.include_usage) asks for a last chunk with the usage.
	Stream       bool
	IncludeUsage bool

	// instructed is set when Task and Schema come from schema instructions
	// in the system prompt rather than from response_format.
	instructed bool
	// cached is how many prompt tokens the prompt cache served (see
	// cache.go).
	cached int
}

// Message is one message of a [ChatRequest], its content parts flattened.
type Message struct {
	Role      string
	Text      string
	ImageURLs []string
}

// UserText joins the text of the user messages, separated by blank lines.
func (r ChatRequest) UserText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "user" && strings.TrimSpace(m.Text) != "" {
			parts = append(parts, m.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Images counts the images attached to the request.
func (r ChatRequest) Images() int {
	n := 0
	for _, m := range r.Messages {
		n += len(m.ImageURLs)
	}
	return n
}

// wireRequest is the JSON body of POST /v1/chat/completions.
type wireRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Temperature    *float64 `json:"temperature"`
	MaxTokens      *int     `json:"max_tokens"`
	MaxCompletion  *int     `json:"max_completion_tokens"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string         `json:"name"`
			Schema map[string]any `json:"schema"`
			Strict *bool          `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wirePart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// badRequest is a request the demo model refuses with a 4xx.
type badRequest struct {
	status  int
	code    string
	param   string
	message string
}

func (e *badRequest) Error() string { return e.message }

func invalid(param, format string, args ...any) *badRequest {
	return &badRequest{status: 400, code: "invalid_request", param: param, message: fmt.Sprintf(format, args...)}
}

// parseRequest reads and checks a request body.
func parseRequest(body []byte, models []string) (ChatRequest, error) {
	var w wireRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&w); err != nil {
		return ChatRequest{}, invalid("", "The request body is not valid JSON: %v", err)
	}
	if w.Model == "" {
		return ChatRequest{}, invalid("model", "You must provide a model parameter.")
	}
	if !slices.Contains(models, w.Model) {
		return ChatRequest{}, &badRequest{status: 404, code: "model_not_found", param: "model",
			message: fmt.Sprintf("The model %q does not exist; the demo model serves %s.", w.Model, strings.Join(models, ", "))}
	}
	if len(w.Messages) == 0 {
		return ChatRequest{}, invalid("messages", "messages must not be empty.")
	}
	if t := w.Temperature; t != nil && (*t < 0 || *t > 2) {
		return ChatRequest{}, invalid("temperature", "temperature must be between 0 and 2, got %v.", *t)
	}
	if w.StreamOptions != nil && !w.Stream {
		return ChatRequest{}, invalid("stream_options", "stream_options is only allowed when stream is true.")
	}
	req := ChatRequest{Model: w.Model, Temperature: w.Temperature, Stream: w.Stream}
	if w.StreamOptions != nil {
		req.IncludeUsage = w.StreamOptions.IncludeUsage
	}
	switch {
	case w.MaxCompletion != nil:
		req.MaxTokens = *w.MaxCompletion
	case w.MaxTokens != nil:
		req.MaxTokens = *w.MaxTokens
	}
	for i, wm := range w.Messages {
		m, err := parseMessage(wm)
		if err != nil {
			return ChatRequest{}, invalid(fmt.Sprintf("messages[%d]", i), "messages[%d]: %v", i, err)
		}
		req.Messages = append(req.Messages, m)
	}
	if rf := w.ResponseFormat; rf != nil {
		req.Format = rf.Type
		switch rf.Type {
		case "", "text", "json_object":
		case "json_schema":
			if rf.JSONSchema == nil || rf.JSONSchema.Name == "" {
				return ChatRequest{}, invalid("response_format.json_schema.name", "response_format.json_schema.name is required.")
			}
			if rf.JSONSchema.Schema == nil {
				return ChatRequest{}, invalid("response_format.json_schema.schema", "response_format.json_schema.schema is required.")
			}
			req.Task, req.Schema = rf.JSONSchema.Name, rf.JSONSchema.Schema
			req.Strict = rf.JSONSchema.Strict != nil && *rf.JSONSchema.Strict
		default:
			return ChatRequest{}, invalid("response_format.type", "Unknown response_format type %q.", rf.Type)
		}
	}
	return req, nil
}

func parseMessage(wm wireMessage) (Message, error) {
	switch wm.Role {
	case "system", "developer", "user", "assistant", "tool":
	default:
		return Message{}, fmt.Errorf("unknown role %q", wm.Role)
	}
	m := Message{Role: wm.Role}
	content := bytes.TrimSpace(wm.Content)
	switch {
	case len(content) == 0 || string(content) == "null":
	case content[0] == '"':
		if err := json.Unmarshal(content, &m.Text); err != nil {
			return Message{}, fmt.Errorf("content: %w", err)
		}
	case content[0] == '[':
		var parts []wirePart
		if err := json.Unmarshal(content, &parts); err != nil {
			return Message{}, fmt.Errorf("content parts: %w", err)
		}
		var texts []string
		for _, p := range parts {
			switch p.Type {
			case "text":
				texts = append(texts, p.Text)
			case "image_url":
				if p.ImageURL.URL == "" {
					return Message{}, fmt.Errorf("image_url part without url")
				}
				m.ImageURLs = append(m.ImageURLs, p.ImageURL.URL)
			}
		}
		m.Text = strings.Join(texts, "\n")
	default:
		return Message{}, fmt.Errorf("content must be a string or a list of parts")
	}
	return m, nil
}
