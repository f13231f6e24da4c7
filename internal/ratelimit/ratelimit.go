// Package ratelimit keeps limits in PostgreSQL, so every API and worker
// process shares one count and adding processes never raises a limit:
// [Limiter] counts requests in fixed windows (abuse guards and AI budgets),
// [ModelLimiter] admits model calls under the provider's requests- and
// tokens-per-minute limit in a sliding window.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// Rule is a limit: at most Limit hits per Window. A zero Limit turns the
// rule off.
type Rule struct {
	Limit  int
	Window time.Duration
}

// ParseRule reads "N/window", e.g. "30/1m" or "2000/24h"; "off" (or "0")
// turns the rule off.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return Rule{}, nil
	}
	n, w, ok := strings.Cut(s, "/")
	if !ok {
		return Rule{}, fmt.Errorf("%q: want N/window, e.g. 30/1m", s)
	}
	limit, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || limit < 1 {
		return Rule{}, fmt.Errorf("%q: the count must be a whole number of at least 1", s)
	}
	window, err := time.ParseDuration(strings.TrimSpace(w))
	if err != nil || window < time.Second {
		return Rule{}, fmt.Errorf("%q: the window must be a duration of at least 1s, e.g. 1m or 24h", s)
	}
	return Rule{Limit: limit, Window: window}, nil
}

// String writes the rule as ParseRule reads it.
func (r Rule) String() string {
	if r.Limit == 0 {
		return "off"
	}
	return fmt.Sprintf("%d/%s", r.Limit, r.Window)
}

// Limiter counts hits in PostgreSQL.
type Limiter struct {
	Pool *pgxpool.Pool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ErrLimited is wrapped by the errors Allow returns when a limit is hit.
var ErrLimited = errors.New("rate limited")

// Allow counts one hit of key under rule. Past the limit it returns a
// RateLimited apperr carrying message and the time until the window ends
// (the Retry-After). A database failure lets the hit through: a limit is
// a guard against abuse, and an outage of the counter must not lock every
// teacher out; the caller's own database work will fail loudly anyway.
func (l *Limiter) Allow(ctx context.Context, rule Rule, key, message string) error {
	if l == nil || rule.Limit == 0 {
		return nil
	}
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.Truncate(rule.Window)
	end := start.Add(rule.Window)
	n, err := store.Q.HitRateCounter(ctx, l.Pool, store.HitRateCounterParams{
		Key: key, WindowStart: start, N: 1, ExpiresAt: end,
	})
	if err != nil {
		return nil //nolint:nilerr // see the doc comment: fail open
	}
	if int(n) > rule.Limit {
		e := apperr.RateLimitedAfter(message, end.Sub(now))
		e.Err = fmt.Errorf("%w: %s over %s", ErrLimited, key, rule)
		return e
	}
	return nil
}

// Purge deletes counters whose window has ended.
func (l *Limiter) Purge(ctx context.Context) (int64, error) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	n, err := store.Q.PurgeRateCounters(ctx, l.Pool, now)
	if err != nil {
		return 0, fmt.Errorf("purge rate counters: %w", err)
	}
	return n, nil
}

// The messages a limited teacher sees.
const (
	MsgAITeacher = "You have made many AI requests in a short time. Please wait a moment and try again."
	MsgAITeam    = "Your team has used today's AI allowance. It renews tomorrow."
	MsgSignIn    = "Too many sign-in attempts from your network. Please wait a minute and try again."
)

// AIBudget caps the AI calls a teacher makes per window and their team
// makes per window, so model cost is bounded.
type AIBudget struct {
	Limiter *Limiter
	Teacher Rule
	Team    Rule
}

// Spend counts one AI call of teacher in team, or returns a RateLimited
// error with a Retry-After and a message the UI shows.
func (b *AIBudget) Spend(ctx context.Context, teacher, team uuid.UUID) error {
	if b == nil {
		return nil
	}
	if err := b.Limiter.Allow(ctx, b.Teacher, "ai:teacher:"+teacher.String(), MsgAITeacher); err != nil {
		return err
	}
	return b.Limiter.Allow(ctx, b.Team, "ai:team:"+team.String(), MsgAITeam)
}
