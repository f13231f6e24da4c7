// Package llmtest provides a hand-written [llm.Client] mock for other
// packages' tests.
package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/markwell/markwell/internal/llm"
)

// Mock is an llm.Client whose behaviour is set per test. A nil func fails
// the call with an error naming it.
type Mock struct {
	CompleteJSONFunc func(ctx context.Context, req llm.Request, out any) error
	// Usage is what every CompleteJSON call reports it cost; its Calls is
	// set to 1.
	Usage    llm.Usage
	ChatFunc func(ctx context.Context, req llm.ChatRequest) (string, error)
	// ChatStreamFunc answers ChatStream; [Stream] builds one that sends
	// fixed pieces.
	ChatStreamFunc func(ctx context.Context, req llm.ChatRequest, onDelta func(delta string) error) (llm.Usage, error)
}

var _ llm.Client = (*Mock)(nil)

// CompleteJSON calls CompleteJSONFunc.
func (m *Mock) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	if m.CompleteJSONFunc == nil {
		return llm.Usage{}, errors.New("llmtest: CompleteJSONFunc not set")
	}
	u := m.Usage
	u.Calls = 1
	return u, m.CompleteJSONFunc(ctx, req, out)
}

// Chat calls ChatFunc.
func (m *Mock) Chat(ctx context.Context, req llm.ChatRequest) (string, error) {
	if m.ChatFunc == nil {
		return "", errors.New("llmtest: ChatFunc not set")
	}
	return m.ChatFunc(ctx, req)
}

// ChatStream calls ChatStreamFunc.
func (m *Mock) ChatStream(ctx context.Context, req llm.ChatRequest, onDelta func(delta string) error) (llm.Usage, error) {
	if m.ChatStreamFunc == nil {
		return llm.Usage{}, errors.New("llmtest: ChatStreamFunc not set")
	}
	return m.ChatStreamFunc(ctx, req, onDelta)
}

// Stream returns a ChatStreamFunc that hands pieces to onDelta in order, as
// a model streaming them would, and reports one call whose completion
// tokens are the number of pieces. It stops with ctx's error when ctx ends,
// and with onDelta's error (wrapped) when onDelta fails.
func Stream(pieces ...string) func(ctx context.Context, req llm.ChatRequest, onDelta func(delta string) error) (llm.Usage, error) {
	return func(ctx context.Context, _ llm.ChatRequest, onDelta func(delta string) error) (llm.Usage, error) {
		u := llm.Usage{Model: "llmtest", Calls: 1}
		for _, p := range pieces {
			if err := ctx.Err(); err != nil {
				return u, fmt.Errorf("llmtest stream: %w", context.Cause(ctx))
			}
			if err := onDelta(p); err != nil {
				return u, fmt.Errorf("llmtest stream: %w", err)
			}
			u.CompletionTokens++
		}
		return u, nil
	}
}

// Answer returns a CompleteJSONFunc that decodes answer (any value
// encoding/json can marshal) into out, as if the model had sent it.
func Answer(answer any) func(ctx context.Context, req llm.Request, out any) error {
	return func(_ context.Context, req llm.Request, out any) error {
		b, err := json.Marshal(answer)
		if err != nil {
			return fmt.Errorf("llmtest: marshal answer for %s: %w", req.Task, err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("llmtest: decode answer for %s: %w", req.Task, err)
		}
		return nil
	}
}
