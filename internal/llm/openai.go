package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
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
	// Log receives the warning when automatic detection settles on another
	// mode for a model; nil means slog.Default().
	Log *slog.Logger
}

// maxIdleConnsPerHost is how many idle connections to the model endpoint
// are kept: about the widest ai queue a process runs.
const maxIdleConnsPerHost = 64

// OpenAI is a [Client] for any endpoint that speaks the Chat Completions API.
type OpenAI struct {
	client openai.Client
	cfg    Config

	mu sync.Mutex
	// modes is, per model, the mode automatic detection settled on after
	// the provider refused json_schema.
	modes map[string]OutputMode
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
	if cfg.OutputMode == "" {
		cfg.OutputMode = ModeAuto
	}
	if _, err := ParseOutputMode(string(cfg.OutputMode)); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
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
	return &OpenAI{client: openai.NewClient(opts...), cfg: cfg, modes: map[string]OutputMode{}}, nil
}

// taskName is what OpenAI accepts as a response format name.
var taskName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CompleteJSON asks for a structured answer named req.Task in the
// configured output mode, checks it against req.Schema with [Validate] and
// decodes it into out.
//
// The modes: json_schema sends response_format json_schema, strict;
// json_object sends response_format json_object with
// [SchemaInstructions] appended to the system prompt; prompt sends no
// response_format, the same instructions, and takes the JSON out of the
// answer with [ExtractJSON]. In auto mode a 400 to json_schema is retried
// once in json_object and, refused again, once in prompt. The first mode
// the provider accepts is remembered for the model (and logged once), so
// later calls go straight to it; when every mode is refused the 400 was
// about something else, and the first error is returned. Rate limits,
// server errors, timeouts and a strict provider's refusal of the schema
// itself never change the mode.
//
// The usage counts every attempt (Calls) and names the mode of the last.
func (c *OpenAI) CompleteJSON(ctx context.Context, req Request, out any) (Usage, error) {
	if !taskName.MatchString(req.Task) {
		return Usage{}, fmt.Errorf("llm: task name %q: %w", req.Task, ErrPermanent)
	}
	if req.Schema == nil {
		return Usage{}, fmt.Errorf("llm %s: schema is required: %w", req.Task, ErrPermanent)
	}
	var usage Usage
	var refused error
	modes := c.modesFor(c.structuredModel(req))
	for i, mode := range modes {
		params, err := c.structuredParams(req, mode)
		if err != nil {
			return usage, fmt.Errorf("llm %s: %w", req.Task, err)
		}
		content, u, err := c.complete(ctx, params)
		u.Mode = mode
		usage.Add(u)
		if len(modes) > 1 && isBadRequest(err) {
			if refused == nil {
				refused = err
			}
			if i == len(modes)-1 {
				return usage, fmt.Errorf("llm %s: %w", req.Task, refused)
			}
			continue
		}
		if i > 0 && (err == nil || errors.Is(err, ErrBadOutput)) {
			// The provider took the request in this mode.
			c.settle(params.Model, mode, refused)
		}
		if err != nil {
			return usage, fmt.Errorf("llm %s: %w", req.Task, err)
		}
		if err := decodeAnswer(req.Schema, mode, content, out); err != nil {
			return usage, fmt.Errorf("llm %s: %w", req.Task, err)
		}
		return usage, nil
	}
	return usage, fmt.Errorf("llm %s: no output mode to try: %w", req.Task, ErrPermanent)
}

// autoModes is the order automatic detection tries the modes in.
var autoModes = []OutputMode{ModeJSONSchema, ModeJSONObject, ModePrompt}

// modesFor returns the modes to try, in order, for a structured call to
// model: the configured one, or in auto mode the chain from what was
// remembered for the model (json_schema when nothing was).
func (c *OpenAI) modesFor(model string) []OutputMode {
	if c.cfg.OutputMode != ModeAuto {
		return []OutputMode{c.cfg.OutputMode}
	}
	c.mu.Lock()
	start, ok := c.modes[model]
	c.mu.Unlock()
	if !ok {
		return autoModes
	}
	return autoModes[slices.Index(autoModes, start):]
}

// Mode reports the mode structured calls to model start with: the
// configured one, or in auto mode what detection settled on (json_schema
// until a refusal).
func (c *OpenAI) Mode(model string) OutputMode { return c.modesFor(model)[0] }

// settle remembers that model answers in mode after refusing the modes
// before it, and warns the first time it happens for the model.
func (c *OpenAI) settle(model string, mode OutputMode, refusal error) {
	c.mu.Lock()
	_, warned := c.modes[model]
	c.modes[model] = mode
	c.mu.Unlock()
	if warned {
		return
	}
	log := c.cfg.Log
	if log == nil {
		log = slog.Default()
	}
	var provider string
	if apiErr := (*openai.Error)(nil); errors.As(refusal, &apiErr) {
		provider = clip(apiErr.Message)
	}
	log.Warn("the model refused structured output (json_schema); using "+string(mode)+" for it from now on",
		"model", model, "mode", string(mode), "provider_error", provider,
		"advice", "set LLM_OUTPUT_MODE="+string(mode)+" to skip the refused attempt after each start")
}

// isBadRequest reports whether the provider refused the request with a 400,
// as a provider without a response_format does. A strict provider's refusal
// of the schema itself ([IsSchemaRefusal]) is not: the schema is wrong, not
// the mode, and another mode would only hide it.
func isBadRequest(err error) bool {
	var apiErr *openai.Error
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest && !IsSchemaRefusal(err)
}

// IsSchemaRefusal reports whether err is a strict provider's 400 for a
// schema outside the strict subset ("Invalid schema for response_format
// …", OpenAI's and the demo model's wording): a Markwell bug, not the
// provider's missing feature.
func IsSchemaRefusal(err error) bool {
	var apiErr *openai.Error
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest &&
		strings.HasPrefix(apiErr.Message, "Invalid schema for response_format")
}

// structuredModel is the model a structured request goes to.
func (c *OpenAI) structuredModel(req Request) string {
	switch {
	case hasImages(req.Messages):
		return c.cfg.VisionModel
	case req.Summary && c.cfg.SummaryModel != "":
		return c.cfg.SummaryModel
	}
	return c.cfg.Model
}

// structuredParams builds the request for a structured answer in mode.
func (c *OpenAI) structuredParams(req Request, mode OutputMode) (openai.ChatCompletionNewParams, error) {
	system := req.System
	if mode != ModeJSONSchema {
		system = withInstructions(req.System, req.Task, req.Schema)
	}
	params, err := c.params(system, req.Messages, req.Temperature, req.MaxTokens)
	if err != nil {
		return params, err
	}
	params.Model = c.structuredModel(req)
	switch mode {
	case ModeJSONSchema:
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   req.Task,
					Schema: req.Schema,
					Strict: openai.Bool(true),
				},
			},
		}
	case ModeJSONObject:
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONObject: &shared.ResponseFormatJSONObjectParam{},
		}
	}
	return params, nil
}

// decodeAnswer reads the JSON of an answer given in mode, checks it
// against schema and decodes it into out; an unusable answer wraps
// [ErrBadOutput].
func decodeAnswer(schema map[string]any, mode OutputMode, content string, out any) error {
	if mode == ModeJSONSchema {
		content = stripCodeFence(content)
	} else {
		obj, err := ExtractJSON(content)
		if err != nil {
			return err
		}
		content = obj
	}
	var doc any
	if err := json.Unmarshal([]byte(content), &doc); err != nil {
		return fmt.Errorf("answer is not JSON (%v): %w", err, ErrBadOutput)
	}
	if err := validateDecoded(schema, doc); err != nil {
		return fmt.Errorf("answer does not follow the schema (%v): %w", err, ErrBadOutput)
	}
	if err := json.Unmarshal([]byte(content), out); err != nil {
		return fmt.Errorf("decode answer (%v): %w", err, ErrBadOutput)
	}
	return nil
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
	usage.CachedPromptTokens = int(res.Usage.PromptTokensDetails.CachedTokens)
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
