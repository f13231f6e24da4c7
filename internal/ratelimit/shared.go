package ratelimit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
)

// SharedRule is a quota the members of a group share (the students sending
// through one link), which grows with how many distinct members used it in
// the window: Base.Limit + PerMember × members, at most Max, per
// Base.Window. A class of thirty gets room for thirty, while one or two
// members alone get little more than the base. A zero Base.Limit turns the
// rule off; PerMember 0 keeps the quota at Base.Limit; Max 0 leaves the
// growth uncapped.
type SharedRule struct {
	Base      Rule
	PerMember int
	Max       int
}

// Limit is the quota when members distinct members used it in the window.
func (r SharedRule) Limit(members int64) int64 {
	return min(int64(r.Base.Limit)+int64(r.PerMember)*members, r.cap())
}

// cap is the most the quota grows to: Max, never below the base; no cap
// when Max is 0.
func (r SharedRule) cap() int64 {
	if r.Max == 0 {
		return math.MaxInt32
	}
	return int64(max(r.Max, r.Base.Limit))
}

// String writes the rule for logs and errors, e.g. "300/1h+25 per member (max 3000)".
func (r SharedRule) String() string {
	s := r.Base.String()
	if r.Base.Limit == 0 || r.PerMember == 0 {
		return s
	}
	s += fmt.Sprintf("+%d per member", r.PerMember)
	if r.Max > 0 {
		s += fmt.Sprintf(" (max %d)", r.Max)
	}
	return s
}

// AllowShared counts one hit of member (for example a client address) on
// the shared quota key under rule. Past the quota it returns a RateLimited
// apperr carrying message and the time until the window ends. A member's
// first hit in a window raises the quota before it is counted, so a new
// member is let in unless the quota has reached rule.Max. A refused hit is
// not counted against the quota (unlike Allow's), so attempts past it do
// not eat the room later members bring; callers check a member's own limit
// first, which bounds its attempts. Like Allow, a database failure lets the
// hit through.
func (l *Limiter) AllowShared(ctx context.Context, rule SharedRule, key, member, message string) error {
	if l == nil || rule.Base.Limit == 0 {
		return nil
	}
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.Truncate(rule.Base.Window)
	end := start.Add(rule.Base.Window)
	row, err := store.Q.HitSharedRateCounter(ctx, l.Pool, store.HitSharedRateCounterParams{
		Key: key, MembersKey: key + ":members", MemberKey: key + ":member:" + member,
		WindowStart: start, ExpiresAt: end,
		Base: int64(rule.Base.Limit), PerMember: int64(rule.PerMember), Cap: rule.cap(),
	})
	if err != nil {
		return nil //nolint:nilerr // see Allow: fail open
	}
	if !row.Allowed {
		e := apperr.RateLimitedAfter(message, end.Sub(now))
		e.Err = fmt.Errorf("%w: %s at its quota of %d (%s, %d members)", ErrLimited, key, row.Quota, rule, row.Members)
		return e
	}
	return nil
}
