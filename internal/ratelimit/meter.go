package ratelimit

import (
	"context"
	"log/slog"
	"slices"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/llm"
)

// payerKey is the context key of the teacher and team a model call is
// counted against.
type payerKey struct{}

type payer struct{ teacher, team uuid.UUID }

// WithPayer returns ctx naming the teacher and team whose AI budget pays
// for the model calls made with it (through a client from Meter).
func WithPayer(ctx context.Context, teacher, team uuid.UUID) context.Context {
	return context.WithValue(ctx, payerKey{}, payer{teacher: teacher, team: team})
}

// Meter returns c with the tokens of every call whose context names a
// payer (WithPayer) counted against that teacher's and team's budget once
// the call has answered, whether it succeeded or not. Calls without a
// payer are not counted here (grading counts its own). A nil budget
// returns c unchanged.
func (b *AIBudget) Meter(c llm.Client) llm.Client {
	if b == nil {
		return c
	}
	return &metered{client: c, budget: b}
}

type metered struct {
	client llm.Client
	budget *AIBudget
}

var _ llm.Client = (*metered)(nil)

// CompleteJSON counts the tokens the model reported.
func (m *metered) CompleteJSON(ctx context.Context, req llm.Request, out any) (llm.Usage, error) {
	u, err := m.client.CompleteJSON(ctx, req, out)
	m.count(ctx, u.PromptTokens+u.CompletionTokens)
	return u, err
}

// Chat reports no usage: its tokens are estimated from the prompt and the
// answer (a token per four characters).
func (m *metered) Chat(ctx context.Context, req llm.ChatRequest) (string, error) {
	text, err := m.client.Chat(ctx, req)
	m.count(ctx, llm.EstimateTokens(req.System, append(slices.Clip(req.Messages), llm.Message{Text: text}), 0))
	return text, err
}

// ChatStream counts what the model reported; a stream the client left
// before the model reported anything counts its prompt's estimate.
func (m *metered) ChatStream(ctx context.Context, req llm.ChatRequest, onDelta func(string) error) (llm.Usage, error) {
	u, err := m.client.ChatStream(ctx, req, onDelta)
	tokens := u.PromptTokens + u.CompletionTokens
	if tokens == 0 && err != nil && ctx.Err() != nil {
		// the client went away before the model reported its usage: the
		// prompt was sent all the same
		tokens = llm.EstimateTokens(req.System, req.Messages, 0)
	}
	m.count(ctx, tokens)
	return u, err
}

// count charges tokens to the context's payer; a failure to count is
// logged, never the call's failure.
func (m *metered) count(ctx context.Context, tokens int) {
	p, ok := ctx.Value(payerKey{}).(payer)
	if !ok || tokens <= 0 {
		return
	}
	if err := m.budget.SpendTokens(context.WithoutCancel(ctx), p.teacher, p.team, tokens); err != nil {
		slog.Default().WarnContext(ctx, "count AI tokens", "teacher", p.teacher, "team", p.team, "tokens", tokens, "err", err)
	}
}
