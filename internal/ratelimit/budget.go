package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/store"
)

// MsgAITeacher is what a teacher past their calls per window is told.
const MsgAITeacher = "You have made many AI requests in a short time. Please wait a moment and try again."

// AIBudget bounds what the AI costs, in calls and in tokens (prompt and
// answer together), per teacher and per team, each in fixed windows shared
// by every process:
//   - a teacher's calls through the API (chat, AI assist, class summaries)
//     count one call each against the teacher and the team (Spend), and the
//     tokens they used against both once they are known (SpendTokens);
//   - grading (grade-all, grade-selected, gradeOnePub, a student's instant
//     feedback) counts one call per submission against the team when it is
//     asked for (Grade), and each run's tokens against the team when the
//     worker has them.
//
// A call is admitted while the calls and the tokens used in the window are
// under their limits; its tokens are known only after it, so the last call
// admitted may pass the token limit by its own size (which the chat's
// context cap bounds). A zero Rule turns its limit off; a nil budget limits
// nothing.
type AIBudget struct {
	Limiter *Limiter
	// Teacher and Team cap calls (AI_RATE_LIMIT_TEACHER, AI_RATE_LIMIT_TEAM).
	Teacher Rule
	Team    Rule
	// TeacherTokens and TeamTokens cap tokens (AI_TOKEN_LIMIT_TEACHER,
	// AI_TOKEN_LIMIT_TEAM).
	TeacherTokens Rule
	TeamTokens    Rule
}

// The counters' keys.
func teacherCallsKey(id uuid.UUID) string  { return "ai:teacher:" + id.String() }
func teamCallsKey(id uuid.UUID) string     { return "ai:team:" + id.String() }
func teacherTokensKey(id uuid.UUID) string { return "ai-tokens:teacher:" + id.String() }
func teamTokensKey(id uuid.UUID) string    { return "ai-tokens:team:" + id.String() }

// Spend admits one AI call that teacher of team makes through the API and
// counts it, or returns a RateLimited error (429 with a Retry-After) whose
// message says which allowance is spent and when it renews: the teacher's
// or the team's tokens, the teacher's calls, the team's calls.
func (b *AIBudget) Spend(ctx context.Context, teacher, team uuid.UUID) error {
	if b == nil || b.Limiter == nil {
		return nil
	}
	if err := b.tokensLeft(ctx, teacher, team); err != nil {
		return err
	}
	if err := b.Limiter.Allow(ctx, b.Teacher, teacherCallsKey(teacher), MsgAITeacher); err != nil {
		return err
	}
	if b.Team.Limit == 0 {
		return nil
	}
	_, _, ends := b.Limiter.window(b.Team)
	spent := Usage{Used: int64(b.Team.Limit), Limit: int64(b.Team.Limit), Ends: ends, Window: b.Team.Window}
	return b.Limiter.Allow(ctx, b.Team, teamCallsKey(team), TeamCallsMessage(spent, 0))
}

// Grade counts n graded submissions (one AI call each) against team's
// budget through db, all or none: when the team's tokens are spent or
// fewer than n calls are left, nothing is counted and the RateLimited
// error (wrapping ErrLimited) says how many calls are left and when they
// renew. Called in the transaction that queues the grading, so a rollback
// gives the calls back.
func (b *AIBudget) Grade(ctx context.Context, db store.DBTX, team uuid.UUID, n int) error {
	if b == nil || b.Limiter == nil || n <= 0 {
		return nil
	}
	if err := b.tokensLeft(ctx, uuid.Nil, team); err != nil {
		return err
	}
	u, ok, err := b.Limiter.Take(ctx, db, b.Team, teamCallsKey(team), int64(n))
	if err != nil {
		return fmt.Errorf("count %d graded submissions against team %s: %w", n, team, err)
	}
	if !ok {
		return limited(TeamCallsMessage(u, n), b.Limiter.until(u.Ends), teamCallsKey(team), b.Team)
	}
	return nil
}

// SpendTokens counts the tokens model calls used against teacher (none
// when uuid.Nil: grading is the team's) and team.
func (b *AIBudget) SpendTokens(ctx context.Context, teacher, team uuid.UUID, tokens int) error {
	if b == nil || tokens <= 0 {
		return nil
	}
	var errs []error
	if teacher != uuid.Nil {
		errs = append(errs, b.Limiter.Add(ctx, b.TeacherTokens, teacherTokensKey(teacher), int64(tokens)))
	}
	errs = append(errs, b.Limiter.Add(ctx, b.TeamTokens, teamTokensKey(team), int64(tokens)))
	return errors.Join(errs...)
}

// TeamUsage reads the team's calls and tokens in their current windows.
func (b *AIBudget) TeamUsage(ctx context.Context, team uuid.UUID) (calls, tokens Usage) {
	if b == nil {
		return Usage{}, Usage{}
	}
	return b.Limiter.Used(ctx, b.Team, teamCallsKey(team)), b.Limiter.Used(ctx, b.TeamTokens, teamTokensKey(team))
}

// tokensLeft refuses when the teacher's (unless uuid.Nil) or the team's
// tokens of the window are spent.
func (b *AIBudget) tokensLeft(ctx context.Context, teacher, team uuid.UUID) error {
	if teacher != uuid.Nil && b.TeacherTokens.Limit > 0 {
		if u := b.Limiter.Used(ctx, b.TeacherTokens, teacherTokensKey(teacher)); u.Left() == 0 {
			return limited(TeacherTokensMessage(u), b.Limiter.until(u.Ends), teacherTokensKey(teacher), b.TeacherTokens)
		}
	}
	if b.TeamTokens.Limit > 0 {
		if u := b.Limiter.Used(ctx, b.TeamTokens, teamTokensKey(team)); u.Left() == 0 {
			return limited(TeamTokensMessage(u), b.Limiter.until(u.Ends), teamTokensKey(team), b.TeamTokens)
		}
	}
	return nil
}

// until is the time from the limiter's now to t.
func (l *Limiter) until(t time.Time) time.Duration {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	return t.Sub(now)
}

// TeamCallsMessage tells a teacher that their team's AI calls are spent:
// how many of the window's are left and when they renew, and, when
// grading asked for n submissions, how many may still be graded.
func TeamCallsMessage(u Usage, n int) string {
	of := fmt.Sprintf("%s %s %s", period(u.Window), Count(u.Limit), plural(u.Limit, "AI call", "AI calls"))
	if n <= 0 {
		return fmt.Sprintf("Your team has used all of %s; they renew %s.", of, renewal(u))
	}
	per := " (one per submission graded)"
	if left := u.Left(); left > 0 {
		return fmt.Sprintf("Your team has %s of %s left%s; they renew %s. Grade at most %s %s, or wait until then.",
			Count(left), of, per, renewal(u), Count(left), plural(left, "submission", "submissions"))
	}
	return fmt.Sprintf("Your team has used all of %s%s; they renew %s. Please wait until then to grade.", of, per, renewal(u))
}

// TeamTokensMessage tells a teacher that their team's AI tokens are spent.
func TeamTokensMessage(u Usage) string {
	return fmt.Sprintf("Your team has used all of %s %s %s; they renew %s. Please wait until then.",
		period(u.Window), Count(u.Limit), plural(u.Limit, "AI token", "AI tokens"), renewal(u))
}

// TeacherTokensMessage tells a teacher that their own AI tokens are spent.
func TeacherTokensMessage(u Usage) string {
	return fmt.Sprintf("You have used all of %s %s %s; they renew %s. Please wait until then.",
		period(u.Window), Count(u.Limit), plural(u.Limit, "AI token", "AI tokens"), renewal(u))
}

// period names a window as the owner of its allowance: "today's",
// "this hour's", "this 10-minute period's".
func period(w time.Duration) string {
	switch w {
	case 24 * time.Hour:
		return "today's"
	case 7 * 24 * time.Hour:
		return "this week's"
	case time.Hour:
		return "this hour's"
	case time.Minute:
		return "this minute's"
	}
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}} {
		if w%u.d == 0 {
			return fmt.Sprintf("this %d-%s period's", w/u.d, u.name)
		}
	}
	return "this period's"
}

// renewal says when a window ends, in UTC: "at 00:00 UTC" within a day,
// else with the date.
func renewal(u Usage) string {
	end := u.Ends.UTC()
	if u.Window <= 24*time.Hour {
		return "at " + end.Format("15:04") + " UTC"
	}
	return "on " + end.Format("Monday 2 January at 15:04") + " UTC"
}

// Count writes n with thousands separators: 2,000.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
