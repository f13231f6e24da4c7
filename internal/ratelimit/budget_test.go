package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/llm/llmtest"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/testdb"
)

func TestTakeCountsAllOrNone(t *testing.T) {
	t.Parallel()
	l := &ratelimit.Limiter{Pool: testdb.Pool(t)}
	rule := ratelimit.Rule{Limit: 5, Window: time.Hour}
	key := "test:" + uuid.NewString()
	ctx := context.Background()

	u, ok, err := l.Take(ctx, l.Pool, rule, key, 3)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(3), u.Used)
	u, ok, err = l.Take(ctx, l.Pool, rule, key, 3)
	require.NoError(t, err)
	require.False(t, ok, "three more do not fit")
	require.Equal(t, int64(3), u.Used, "and none of them is counted")
	require.Equal(t, int64(2), u.Left())
	_, ok, err = l.Take(ctx, l.Pool, rule, key, 6)
	require.NoError(t, err)
	require.False(t, ok, "more than the limit never fits")
	u, ok, err = l.Take(ctx, l.Pool, rule, key, 2)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(5), u.Used)
	require.Equal(t, int64(5), l.Used(ctx, rule, key).Used)
}

// Grading takes one call per submission from the team, all or none, and a
// refusal says how many are left and when they renew.
func TestGradeSaysWhatIsLeftAndWhenItRenews(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 21, 0, 0, 0, time.UTC)
	l := &ratelimit.Limiter{Pool: testdb.Pool(t), Now: func() time.Time { return now }}
	b := &ratelimit.AIBudget{Limiter: l, Team: ratelimit.Rule{Limit: 2000, Window: 24 * time.Hour}}
	team := uuid.New()
	ctx := context.Background()

	require.NoError(t, b.Grade(ctx, l.Pool, team, 1988))
	err := b.Grade(ctx, l.Pool, team, 40)
	require.ErrorIs(t, err, ratelimit.ErrLimited)
	e := apperr.From(err)
	require.Equal(t, apperr.RateLimited, e.Code)
	require.Equal(t, 3*time.Hour, e.RetryAfter)
	require.Equal(t, "Your team has 12 of today's 2,000 AI calls left (one per submission graded); they renew at 00:00 UTC. "+
		"Grade at most 12 submissions, or wait until then.", e.Message)
	require.NoError(t, b.Grade(ctx, l.Pool, team, 12))
	err = b.Grade(ctx, l.Pool, team, 1)
	require.Equal(t, "Your team has used all of today's 2,000 AI calls (one per submission graded); they renew at 00:00 UTC. "+
		"Please wait until then to grade.", apperr.From(err).Message)
	// A teacher's call through the API meets the same count.
	err = b.Spend(ctx, uuid.New(), team)
	require.Equal(t, "Your team has used all of today's 2,000 AI calls; they renew at 00:00 UTC.", apperr.From(err).Message)

	// The next day starts afresh.
	now = now.Add(3 * time.Hour)
	require.NoError(t, b.Grade(ctx, l.Pool, team, 40))
	calls, _ := b.TeamUsage(ctx, team)
	require.Equal(t, int64(40), calls.Used)
}

// Tokens are known after a call: they are counted then, and the next call
// is refused once the teacher's or the team's tokens are spent.
func TestTokensAreCountedAfterTheCallAndRefuseTheNext(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	l := &ratelimit.Limiter{Pool: testdb.Pool(t), Now: func() time.Time { return now }}
	b := &ratelimit.AIBudget{Limiter: l,
		TeacherTokens: ratelimit.Rule{Limit: 1000, Window: time.Hour},
		TeamTokens:    ratelimit.Rule{Limit: 1500, Window: 7 * 24 * time.Hour}}
	ada, bo, team := uuid.New(), uuid.New(), uuid.New()
	ctx := context.Background()

	require.NoError(t, b.Spend(ctx, ada, team))
	require.NoError(t, b.SpendTokens(ctx, ada, team, 999))
	require.NoError(t, b.Spend(ctx, ada, team), "999 of 1,000: there is room")
	require.NoError(t, b.SpendTokens(ctx, ada, team, 300))
	err := b.Spend(ctx, ada, team)
	require.ErrorIs(t, err, ratelimit.ErrLimited)
	require.Equal(t, "You have used all of this hour's 1,000 AI tokens; they renew at 10:00 UTC. Please wait until then.", apperr.From(err).Message)
	require.Equal(t, 30*time.Minute, apperr.From(err).RetryAfter)

	require.NoError(t, b.Spend(ctx, bo, team), "Bo has tokens of his own")
	require.NoError(t, b.SpendTokens(ctx, bo, team, 201))
	err = b.Spend(ctx, bo, team)
	require.Equal(t, "Your team has used all of this week's 1,500 AI tokens; they renew on Monday 30 November at 00:00 UTC. Please wait until then.",
		apperr.From(err).Message)
	err = b.Grade(ctx, l.Pool, team, 1)
	require.ErrorIs(t, err, ratelimit.ErrLimited, "grading meets the team's tokens too")
}

// A metered model counts each call's tokens against the payer its context
// names, and nothing for a call without one.
func TestMeterCountsTheTokensOfThePayer(t *testing.T) {
	t.Parallel()
	l := &ratelimit.Limiter{Pool: testdb.Pool(t)}
	b := &ratelimit.AIBudget{Limiter: l, TeacherTokens: ratelimit.Rule{Limit: 1_000_000, Window: time.Hour},
		TeamTokens: ratelimit.Rule{Limit: 1_000_000, Window: time.Hour}}
	mock := &llmtest.Mock{CompleteJSONFunc: llmtest.Answer(map[string]any{}), Usage: llm.Usage{PromptTokens: 70, CompletionTokens: 5},
		ChatStreamFunc: llmtest.Stream("a", "b", "c")}
	model := b.Meter(mock)
	ada, team := uuid.New(), uuid.New()
	ctx := ratelimit.WithPayer(context.Background(), ada, team)

	var out map[string]any
	_, err := model.CompleteJSON(ctx, llm.Request{Task: "t"}, &out)
	require.NoError(t, err)
	_, err = model.ChatStream(ctx, llm.ChatRequest{}, func(string) error { return nil })
	require.NoError(t, err)
	_, err = model.CompleteJSON(context.Background(), llm.Request{Task: "t"}, &out) // nobody pays: not counted here
	require.NoError(t, err)

	_, tokens := b.TeamUsage(context.Background(), team)
	require.Equal(t, int64(75+3), tokens.Used)
	require.Equal(t, int64(78), l.Used(context.Background(), b.TeacherTokens, "ai-tokens:teacher:"+ada.String()).Used)
}

func TestMessagesNameTheWindow(t *testing.T) {
	t.Parallel()
	ends := time.Date(2026, 11, 23, 9, 10, 0, 0, time.UTC)
	for window, want := range map[time.Duration]string{
		10 * time.Minute: "Your team has used all of this 10-minute period's 5 AI calls; they renew at 09:10 UTC.",
		time.Minute:      "Your team has used all of this minute's 5 AI calls; they renew at 09:10 UTC.",
		48 * time.Hour:   "Your team has used all of this 2-day period's 5 AI calls; they renew on Monday 23 November at 09:10 UTC.",
	} {
		require.Equal(t, want, ratelimit.TeamCallsMessage(ratelimit.Usage{Used: 5, Limit: 5, Ends: ends, Window: window}, 0))
	}
	require.Equal(t, "1,234,567", ratelimit.Count(1234567))
	require.Equal(t, "12", ratelimit.Count(12))
	require.Contains(t, ratelimit.TeamCallsMessage(ratelimit.Usage{Used: 1, Limit: 2, Window: time.Hour}, 5), "Grade at most 1 submission,")
}
