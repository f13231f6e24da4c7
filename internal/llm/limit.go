package llm

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"
)

// Limiter admits model calls under a shared requests- and tokens-per-minute
// limit (ratelimit.ModelLimiter keeps it in PostgreSQL for every process).
type Limiter interface {
	// Reserve admits one call of about tokens tokens and returns its id,
	// or, when the call does not fit the limit now, a wait > 0 until it
	// may (and no id).
	Reserve(ctx context.Context, tokens int) (id int64, wait time.Duration, err error)
	// Settle replaces a reserved call's estimated tokens with the real ones.
	Settle(ctx context.Context, id int64, tokens int) error
}

// DefaultMaxWait is how long a limited call waits for its turn by default.
const DefaultMaxWait = 5 * time.Second

// ImageTokens is the estimate of one image's tokens when reserving (a
// high-detail 1024×1024 image on OpenAI's vision models); settling with the
// real usage corrects it.
const ImageTokens = 765

// LimitOptions tune [WithLimit].
type LimitOptions struct {
	// MaxWait is how long a call may sleep, in total, for its turn; a longer
	// wait returns a *RateLimitError so the job is snoozed and frees its
	// worker slot. 0 means DefaultMaxWait; negative means never sleep.
	MaxWait time.Duration
}

// Limited is a [Client] whose calls first take a turn from a [Limiter].
// Build it with [WithLimit].
type Limited struct {
	client  Client
	limiter Limiter
	maxWait time.Duration
}

var _ Client = (*Limited)(nil)

// WithLimit returns c with every call admitted by l first: a call that must
// wait up to o.MaxWait sleeps (honouring ctx), one that must wait longer
// fails with a *RateLimitError whose RetryAfter is the wait. After a
// structured call the reservation is settled with the tokens the model
// reported, and after a stream with the tokens its final chunk reported. A
// nil l returns c unchanged.
func WithLimit(c Client, l Limiter, o LimitOptions) Client {
	if l == nil {
		return c
	}
	maxWait := o.MaxWait
	switch {
	case maxWait == 0:
		maxWait = DefaultMaxWait
	case maxWait < 0:
		maxWait = 0
	}
	return &Limited{client: c, limiter: l, maxWait: maxWait}
}

// CompleteJSON takes a turn, asks the wrapped client and settles the turn
// with the real usage. A provider's own 429 is returned unchanged.
func (c *Limited) CompleteJSON(ctx context.Context, req Request, out any) (Usage, error) {
	id, err := c.turn(ctx, EstimateTokens(req.System, req.Messages, req.MaxTokens))
	if err != nil {
		return Usage{}, fmt.Errorf("llm %s: %w", req.Task, err)
	}
	usage, err := c.client.CompleteJSON(ctx, req, out)
	if used := usage.PromptTokens + usage.CompletionTokens; used > 0 {
		// The model answered: count what it really used. Otherwise the
		// estimate stays, since a provider may count a call that timed out.
		_ = c.limiter.Settle(context.WithoutCancel(ctx), id, used)
	}
	return usage, err
}

// Chat takes a turn and asks the wrapped client; the estimate stays, as a
// chat answer reports no usage.
func (c *Limited) Chat(ctx context.Context, req ChatRequest) (string, error) {
	if _, err := c.turn(ctx, EstimateTokens(req.System, req.Messages, req.MaxTokens)); err != nil {
		return "", fmt.Errorf("llm chat: %w", err)
	}
	return c.client.Chat(ctx, req)
}

// ChatStream takes a turn, streams from the wrapped client and settles the
// turn with the usage the model reported (the estimate stays when it
// reported none, as for a stream cut short).
func (c *Limited) ChatStream(ctx context.Context, req ChatRequest, onDelta func(delta string) error) (Usage, error) {
	id, err := c.turn(ctx, EstimateTokens(req.System, req.Messages, req.MaxTokens))
	if err != nil {
		return Usage{}, fmt.Errorf("llm chat stream: %w", err)
	}
	usage, err := c.client.ChatStream(ctx, req, onDelta)
	if used := usage.PromptTokens + usage.CompletionTokens; used > 0 {
		_ = c.limiter.Settle(context.WithoutCancel(ctx), id, used)
	}
	return usage, err
}

// turn reserves a call, sleeping while the total wait stays within maxWait.
func (c *Limited) turn(ctx context.Context, tokens int) (int64, error) {
	var waited time.Duration
	for {
		id, wait, err := c.limiter.Reserve(ctx, tokens)
		if err != nil {
			return 0, fmt.Errorf("shared model limit: %w", err)
		}
		if wait <= 0 {
			return id, nil
		}
		if waited+wait > c.maxWait {
			return 0, &RateLimitError{RetryAfter: wait, Message: "Markwell's shared model limit (LLM_RPM, LLM_TPM) is reached"}
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return 0, fmt.Errorf("waiting for the shared model limit: %w", context.Cause(ctx))
		case <-timer.C:
		}
		waited += wait
	}
}

// EstimateTokens guesses a call's tokens before it is made: a token per four
// characters of the prompt, ImageTokens per image, and the answer's cap.
func EstimateTokens(system string, msgs []Message, maxTokens int) int {
	chars := utf8.RuneCountInString(system)
	images := 0
	for _, m := range msgs {
		chars += utf8.RuneCountInString(m.Text)
		images += len(m.ImageURLs)
	}
	return (chars+3)/4 + images*ImageTokens + max(maxTokens, 0)
}
