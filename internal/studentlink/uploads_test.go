package studentlink_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/studentlink"
)

// shippedLimits are the student limits of the default configuration, on a
// clock that stands still (fixed windows must not roll over mid-test).
func shippedLimits(t *testing.T, b *bundle) studentlink.Limits {
	t.Helper()
	cfg, err := config.LoadFrom(map[string]string{
		"DATABASE_URL": "postgres://unused", "SECRET_KEY": "0123456789abcdef0123456789abcdef",
	})
	require.NoError(t, err)
	now := time.Now()
	return studentlink.Limits{
		Limiter: &ratelimit.Limiter{Pool: b.svc.Pool, Now: func() time.Time { return now }},
		PerLink: cfg.StudentLimitLink, LinkGrowth: cfg.StudentLinkGrowth, LinkMax: cfg.StudentLinkMax,
		PerAddr: cfg.StudentLimitAddr, PerSubmitter: cfg.StudentLimitSubmitter, PerStudent: cfg.StudentLimitStudent,
	}
}

// uploads asks n times for an upload through token from addr and returns how
// many were signed; every refusal must be the rate limit.
func uploads(t *testing.T, b *bundle, addr, token string, n int) int {
	t.Helper()
	size := int64(3)
	signed := 0
	for range n {
		_, err := b.svc.Upload(context.Background(), addr, token, files.UploadRequest{FileName: "a.txt", FileType: "text/plain", FileSize: &size})
		if err == nil {
			signed++
			continue
		}
		requireCode(t, err, apperr.RateLimited, studentlink.MsgTooMany)
	}
	return signed
}

func TestOneLinkHolderCannotLockTheClassOut(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	b.svc.Limits = shippedLimits(t, b)
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	net := fmt.Sprintf("10.%d.%d.", 100+uuid.New()[0]%100, uuid.New()[1]) // the counts live in the shared database

	// What the probe sent: 205 uploads from one address, 89 from another.
	hammer := uploads(t, b, net+"250", token, 205)
	require.Equal(t, 100, hammer, "one address stops at its own limit on the link")
	require.Equal(t, 89, uploads(t, b, net+"251", token, 89))

	// A class of thirty, each from their own address, still uploads a few files each.
	for i := range 30 {
		require.Equal(t, 3, uploads(t, b, fmt.Sprint(net, i+1), token, 3), "student %d", i+1)
	}
	// And the hammering address is still stopped.
	require.Zero(t, uploads(t, b, net+"250", token, 1))

	// An IPv6 holder does not become many submitters by changing the low bits of
	// their address: the /64 counts once.
	prefix := fmt.Sprintf("2001:db8:%x:%x::", uuid.New()[0], uuid.New()[1])
	signed := 0
	for i := range 120 {
		signed += uploads(t, b, fmt.Sprintf("%s%x", prefix, i+1), token, 1)
	}
	require.Equal(t, 100, signed)
}

func TestLinkQuotaGrowsWithDistinctSubmittersUpToItsCap(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	now := time.Now()
	b.svc.Limits = studentlink.Limits{
		Limiter: &ratelimit.Limiter{Pool: b.svc.Pool, Now: func() time.Time { return now }},
		PerLink: ratelimit.Rule{Limit: 4, Window: time.Hour}, LinkGrowth: 2, LinkMax: 10,
		PerSubmitter: ratelimit.Rule{Limit: 5, Window: time.Hour},
	}
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	net := fmt.Sprintf("10.%d.%d.", uuid.New()[0]%100, uuid.New()[1])

	// The quota is 4 + 2 × the addresses seen, at most 10; each address may send 5.
	require.Equal(t, 5, uploads(t, b, net+"1", token, 5), "one address: quota 6, its own limit 5")
	require.Equal(t, 3, uploads(t, b, net+"2", token, 5), "two addresses: quota 8")
	require.Equal(t, 2, uploads(t, b, net+"3", token, 5), "three addresses: quota 10, refused calls did not count")
	require.Zero(t, uploads(t, b, net+"4", token, 5), "at the cap, a new address brings no room")
}

func TestStudentSubmissionsAreLimitedPerStudent(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	now := time.Now()
	b.svc.Limits = studentlink.Limits{
		Limiter:    &ratelimit.Limiter{Pool: b.svc.Pool, Now: func() time.Time { return now }},
		PerStudent: ratelimit.Rule{Limit: 2, Window: time.Hour},
	}
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)

	for i := range 2 {
		in := submitInput(token, asg.ID, b.upload(t, token, "essay.txt", "Attempt."))
		_, err := b.svc.Submit(ctx, fmt.Sprint("10.3.0.", i), in) // a new address each time
		require.NotEqual(t, apperr.RateLimited, apperr.From(err).Code, err)
	}
	in := submitInput(token, asg.ID, b.upload(t, token, "essay.txt", "Attempt three."))
	_, err := b.svc.Submit(ctx, "10.3.0.9", in)
	requireCode(t, err, apperr.RateLimited, studentlink.MsgTooMany)

	// Another student is not held back.
	in.StudentName, in.StudentEmail = "Kim Student", "kim@pupils.test"
	_, err = b.svc.Submit(ctx, "10.3.0.9", in)
	require.NoError(t, err)
}

func TestUploadsBelongToTheLinkGenerationThatSignedThem(t *testing.T) {
	t.Parallel()
	b := setup(t, ratelimit.Rule{}, ratelimit.Rule{})
	ctx := context.Background()
	ada, asg := b.teacher(t)
	token := b.link(t, ada, asg)
	on, off := true, false

	// Rotated: the file from the old link is refused through the new one.
	beforeRotate := b.upload(t, token, "essay.txt", "Sent through the first link.")
	rotated, err := b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Rotate: true})
	require.NoError(t, err)
	_, err = b.svc.Submit(ctx, "10.0.0.1", submitInput(rotated.Token, asg.ID, beforeRotate))
	requireCode(t, err, apperr.Invalid, studentlink.MsgOldLink)

	// Turned off and on again, same token: a file from before is refused too.
	beforeOff := b.upload(t, rotated.Token, "essay.txt", "Sent before the link was turned off.")
	_, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &off})
	require.NoError(t, err)
	_, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &on})
	require.NoError(t, err)
	_, err = b.svc.Submit(ctx, "10.0.0.1", submitInput(rotated.Token, asg.ID, beforeOff))
	requireCode(t, err, apperr.Invalid, studentlink.MsgOldLink)

	// Uploaded again through the link as it is now, the file is taken.
	again := b.upload(t, rotated.Token, "essay.txt", "Sent again.")
	got, err := b.svc.Submit(ctx, "10.0.0.1", submitInput(rotated.Token, asg.ID, again))
	require.NoError(t, err)
	require.Len(t, got.Submissions, 1)

	// Turning a link on, or asking for it, is not a new generation.
	current := b.upload(t, rotated.Token, "essay.txt", "Sent now.")
	_, err = b.svc.Update(ctx, ada, asg.ID, studentlink.Change{Enabled: &on})
	require.NoError(t, err)
	_, err = b.svc.Get(ctx, ada, asg.ID)
	require.NoError(t, err)
	in := submitInput(rotated.Token, asg.ID, current)
	in.StudentName, in.StudentEmail = "Kim Student", "kim@pupils.test"
	_, err = b.svc.Submit(ctx, "10.0.0.1", in)
	require.NoError(t, err)
}
