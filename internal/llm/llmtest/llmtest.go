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
