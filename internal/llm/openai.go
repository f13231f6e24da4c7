package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Config says which OpenAI-compatible endpoint and models to use.
type Config struct {
	// BaseURL is the API root, e.g. https://api.openai.com/v1 or
	// http://127.0.0.1:8090/v1 for the demo model. Empty means openai-go's
	// default: OPENAI_BASE_URL, else OpenAI.
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (Ollama, the demo
	// model).
	APIKey string
	// Model answers text-only requests.
	Model string
	// VisionModel answers requests that carry images; empty means Model.
	VisionModel string
	// SummaryModel answers text-only requests marked Request.Summary (class
	// summaries): a cheaper model; empty means Model.
	SummaryModel string
	// Timeout bounds each HTTP attempt; 0 leaves it to the caller's context.
	Timeout time.Duration
	// MaxRetries is how often openai-go itself retries a failed attempt.
	// Markwell retries through River, so 0 is the usual choice.
	MaxRetries int
	// OutputMode is how structured answers are asked for (LLM_OUTPUT_MODE);
	// empty means ModeAuto.
	OutputMode OutputMode
}

// maxIdleConnsPerHost is how many idle connections to the model endpoint
// are kept: about the widest ai queue a process runs.
const maxIdleConnsPerHost = 64

// OpenAI is a [Client] for any endpoint that speaks the Chat Completions API.
type OpenAI struct {
	client openai.Client
	cfg    Config
}

var _ Client = (*OpenAI)(nil)

// NewOpenAI returns a client for cfg.
func NewOpenAI(cfg Config) (*OpenAI, error) {
	if cfg.Model == "" {
		return nil, errors.New("llm: model is required")
	}
	if cfg.MaxRetries < 0 {
		return nil, fmt.Errorf("llm: max retries %d is negative", cfg.MaxRetries)
	}
	if cfg.VisionModel == "" {
		cfg.VisionModel = cfg.Model
	}
	// A worker has dozens of calls in flight to one host: keep that many
	// connections alive instead of http.DefaultTransport's 2, or most calls
	// pay a new connection (a TLS handshake against a provider).
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = maxIdleConnsPerHost
	opts := []option.RequestOption{
		// Always set, so that an OPENAI_API_KEY in the environment never
		// reaches an endpoint it was not meant for.
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(cfg.MaxRetries),
		option.WithHTTPClient(&http.Client{Transport: transport}),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(cfg.Timeout))
	}
	return &OpenAI{client: openai.NewClient(opts...), cfg: cfg}, nil
}

// taskName is what OpenAI accepts as a response format name.
var taskName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CompleteJSON asks for a structured answer (response_format json_schema,
// strict) named req.Task, checks it against req.Schema with [Validate] and
// decodes it into out.
func (c *OpenAI) CompleteJSON(ctx context.Context, req Request, out any) (Usage, error) {
	if !taskName.MatchString(req.Task) {
		return Usage{}, fmt.Errorf("llm: task name %q: %w", req.Task, ErrPermanent)
	}
	if req.Schema == nil {
		return Usage{}, fmt.Errorf("llm %s: schema is required: %w", req.Task, ErrPermanent)
	}
	params, err := c.params(req.System, req.Messages, req.Temperature, req.MaxTokens)
	if err != nil {
		return Usage{}, fmt.Errorf("llm %s: %w", req.Task, err)
	}
	if req.Summary && c.cfg.SummaryModel != "" && !hasImages(req.Messages) {
		params.Model = c.cfg.SummaryModel
	}
	params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   req.Task,
				Schema: req.Schema,
				Strict: openai.Bool(true),
			},
		},
	}
	content, usage, err := c.complete(ctx, params)
	if err != nil {
		return usage, fmt.Errorf("llm %s: %w", req.Task, err)
	}
	content = stripCodeFence(content)
	var doc any
	if err := json.Unmarshal([]byte(content), &doc); err != nil {
		return usage, fmt.Errorf("llm %s: answer is not JSON (%v): %w", req.Task, err, ErrBadOutput)
	}
	if err := Validate(req.Schema, doc); err != nil {
		return usage, fmt.Errorf("llm %s: answer does not follow the schema (%v): %w", req.Task, err, ErrBadOutput)
	}
	if err := json.Unmarshal([]byte(content), out); err != nil {
		return usage, fmt.Errorf("llm %s: decode answer (%v): %w", req.Task, err, ErrBadOutput)
	}
	return usage, nil
}

// Chat asks for a free-form answer and returns its text.
func (c *OpenAI) Chat(ctx context.Context, req ChatRequest) (string, error) {
	params, err := c.params(req.System, req.Messages, req.Temperature, req.MaxTokens)
	if err != nil {
		return "", fmt.Errorf("llm chat: %w", err)
	}
	content, _, err := c.complete(ctx, params)
	if err != nil {
		return "", fmt.Errorf("llm chat: %w", err)
	}
	return content, nil
}

// Models lists the model ids the endpoint offers; a cheap way to check the
// configuration at start-up.
func (c *OpenAI) Models(ctx context.Context) ([]string, error) {
	page, err := c.client.Models.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("llm list models: %w", classify(err))
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// params builds the Chat Completions request shared by both kinds of call.
func (c *OpenAI) params(system string, msgs []Message, temperature *float64, maxTokens int) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: c.cfg.Model}
	if system != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(system))
	}
	if len(msgs) == 0 {
		return p, fmt.Errorf("no messages: %w", ErrPermanent)
	}
	for i, m := range msgs {
		if len(m.ImageURLs) > 0 {
			if m.Role != RoleUser {
				return p, fmt.Errorf("message %d: only user messages may carry images: %w", i, ErrPermanent)
			}
			p.Model = c.cfg.VisionModel
		}
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Text))
		case RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Text))
		case RoleUser:
			p.Messages = append(p.Messages, userMessage(m))
		default:
			return p, fmt.Errorf("message %d: unknown role %q: %w", i, m.Role, ErrPermanent)
		}
	}
	if temperature != nil {
		p.Temperature = openai.Float(*temperature)
	}
	if maxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(int64(maxTokens))
	}
	return p, nil
}

// hasImages reports whether any message carries an image (and so goes to
// the vision model).
func hasImages(msgs []Message) bool {
	for _, m := range msgs {
		if len(m.ImageURLs) > 0 {
			return true
		}
	}
	return false
}

func userMessage(m Message) openai.ChatCompletionMessageParamUnion {
	if len(m.ImageURLs) == 0 {
		return openai.UserMessage(m.Text)
	}
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(m.ImageURLs)+1)
	if m.Text != "" {
		parts = append(parts, openai.TextContentPart(m.Text))
	}
	for _, u := range m.ImageURLs {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: u}))
	}
	return openai.UserMessage(parts)
}

// complete sends params and returns the first choice's text and what the
// call cost (one call, and the tokens once the model has answered).
func (c *OpenAI) complete(ctx context.Context, params openai.ChatCompletionNewParams) (string, Usage, error) {
	usage := Usage{Model: params.Model, Calls: 1}
	res, err := c.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return "", usage, classify(err)
	}
	if res.Model != "" {
		usage.Model = res.Model
	}
	usage.PromptTokens = int(res.Usage.PromptTokens)
	usage.CompletionTokens = int(res.Usage.CompletionTokens)
	if len(res.Choices) == 0 {
		return "", usage, fmt.Errorf("answer has no choices: %w", ErrBadOutput)
	}
	choice := res.Choices[0]
	switch {
	case choice.Message.Refusal != "":
		return "", usage, fmt.Errorf("model refused (%s): %w", clip(choice.Message.Refusal), ErrBadOutput)
	case choice.FinishReason == "length":
		return "", usage, fmt.Errorf("answer cut off at the token limit: %w", ErrBadOutput)
	case choice.FinishReason == "content_filter":
		return "", usage, fmt.Errorf("answer withheld by the content filter: %w", ErrBadOutput)
	case strings.TrimSpace(choice.Message.Content) == "":
		return "", usage, fmt.Errorf("answer is empty: %w", ErrBadOutput)
	}
	return choice.Message.Content, usage, nil
}

// classify turns an openai-go error into a *RateLimitError, an
// ErrPermanent-wrapping error or a transient error. Context errors,
// connection failures, 5xx and unreadable responses are transient.
func classify(err error) error {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return err
	}
	status := apiErr.StatusCode
	switch {
	case status == http.StatusTooManyRequests:
		var header http.Header
		if apiErr.Response != nil {
			header = apiErr.Response.Header
		}
		return &RateLimitError{RetryAfter: parseRetryAfter(header, time.Now()), Message: clip(apiErr.Message), err: apiErr}
	case permanentStatus[status]:
		return fmt.Errorf("%w: %w%s", ErrPermanent, apiErr, detail(apiErr))
	default:
		return fmt.Errorf("%w%s", apiErr, detail(apiErr))
	}
}

// detail is the provider's own message, which says what was wrong.
func detail(e *openai.Error) string {
	if e.Message == "" {
		return ""
	}
	return " (" + clip(e.Message) + ")"
}

// clip shortens provider text for error messages.
func clip(s string) string {
	const limit = 300
	s = strings.TrimSpace(s)
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// stripCodeFence removes a ```json … ``` wrapper that some non-strict
// providers put around JSON answers.
func stripCodeFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "```"), "```")
	if i := strings.IndexByte(s, '\n'); i >= 0 && !strings.ContainsAny(s[:i], "{[") {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}
