package llm

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/openai/openai-go/v3"
)

// ErrStreamEnded is wrapped by the error of a stream that stopped before the
// model said the answer was finished (the connection dropped, or the
// provider ended the stream early). It is transient: another attempt may
// succeed.
var ErrStreamEnded = fmt.Errorf("stream ended before the answer finished: %w", io.ErrUnexpectedEOF)

// ChatStream asks for a free-form answer with stream=true (and
// stream_options.include_usage) and hands each piece of text to onDelta as
// it arrives.
//
// It returns:
//   - the error from onDelta, wrapped, when onDelta fails; the stream is
//     closed at once, so the model call is cancelled;
//   - ctx's error, wrapped, when ctx ends mid-stream (same cancellation);
//   - a *RateLimitError, an [ErrPermanent] error or a transient error when
//     the provider refuses the request, as [OpenAI.CompleteJSON] does;
//   - an [ErrBadOutput] error when the model refuses, is cut off at the
//     token limit or by the content filter, or writes nothing (the pieces
//     already handed to onDelta stay with the caller);
//   - an [ErrStreamEnded] error when the stream stops before the model
//     finished.
//
// Config.Timeout, when set, bounds the whole stream, not only its start.
func (c *OpenAI) ChatStream(ctx context.Context, req ChatRequest, onDelta func(delta string) error) (Usage, error) {
	params, err := c.params(req.System, req.Messages, req.Temperature, req.MaxTokens)
	if err != nil {
		return Usage{}, fmt.Errorf("llm chat stream: %w", err)
	}
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	usage, err := c.stream(ctx, params, onDelta)
	if err != nil {
		return usage, fmt.Errorf("llm chat stream: %w", err)
	}
	return usage, nil
}

// stream reads one streamed completion; see ChatStream.
func (c *OpenAI) stream(ctx context.Context, params openai.ChatCompletionNewParams, onDelta func(string) error) (Usage, error) {
	usage := Usage{Model: params.Model, Calls: 1}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := c.client.Chat.Completions.NewStreaming(ctx, params)
	defer func() { _ = s.Close() }()

	var finish, refusal string
	wrote := false
	for s.Next() {
		chunk := s.Current()
		if chunk.Model != "" {
			usage.Model = chunk.Model
		}
		if u := chunk.Usage; u.PromptTokens+u.CompletionTokens > 0 {
			usage.PromptTokens = int(u.PromptTokens)
			usage.CachedPromptTokens = int(u.PromptTokensDetails.CachedTokens)
			usage.CompletionTokens = int(u.CompletionTokens)
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			refusal += ch.Delta.Refusal
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
			if ch.Delta.Content == "" {
				continue
			}
			wrote = true
			if err := onDelta(ch.Delta.Content); err != nil {
				return usage, err
			}
		}
	}
	if err := s.Err(); err != nil {
		if ctx.Err() != nil {
			return usage, errors.Join(context.Cause(ctx), err)
		}
		return usage, classify(err)
	}
	if err := ctx.Err(); err != nil {
		return usage, context.Cause(ctx)
	}
	switch {
	case refusal != "":
		return usage, fmt.Errorf("model refused (%s): %w", clip(refusal), ErrBadOutput)
	case finish == "":
		return usage, ErrStreamEnded
	case finish == "length":
		return usage, fmt.Errorf("answer cut off at the token limit: %w", ErrBadOutput)
	case finish == "content_filter":
		return usage, fmt.Errorf("answer withheld by the content filter: %w", ErrBadOutput)
	case !wrote:
		return usage, fmt.Errorf("answer is empty: %w", ErrBadOutput)
	}
	return usage, nil
}
