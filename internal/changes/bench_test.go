package changes_test

import (
	"context"
	"testing"
	"time"

	"github.com/markwell/markwell/internal/procstat"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/changes/changestest"
	"github.com/markwell/markwell/internal/testdb"
)

// BenchmarkPollOfAnUnchangedClass is a 304's question, asked of the
// database (changes.Start: one statement) and of the change listener's
// memory (Clock.Start), in CPU per poll: this process and the database
// backend that answers it (the listener's own backend is not counted; it
// costs a heartbeat a second whatever the polls).
func BenchmarkPollOfAnUnchangedClass(b *testing.B) {
	ctx := context.Background()
	t := &testing.T{}
	c := newClass(t, testdb.Pool(b))
	conn, err := c.pool.Acquire(ctx)
	require.NoError(b, err)
	defer conn.Release()
	var pid int
	require.NoError(b, conn.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid))
	v, err := changes.Now(ctx, conn)
	require.NoError(b, err)

	clock, _ := changestest.Listening(b)

	for _, tc := range []struct {
		name  string
		start func() (changes.Read, error)
	}{
		{"database", func() (changes.Read, error) { return changes.Start(ctx, conn, c.team, c.asg, uuid.Nil, v) }},
		{"memory", func() (changes.Read, error) { return clock.Start(ctx, conn, c.team, c.asg, uuid.Nil, v) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			_, err := tc.start()
			require.NoError(b, err)
			self0, db0 := procstat.Self(), procCPU(pid)
			b.ResetTimer()
			for b.Loop() {
				r, err := tc.start()
				if err != nil || !r.InTeam || !r.Changes.None() {
					b.Fatal(err, r)
				}
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(float64((procstat.Self()-self0).Microseconds())/n, "api-cpu-µs/op")
			b.ReportMetric(float64((procCPU(pid)-db0).Microseconds())/n, "pg-cpu-µs/op")
		})
	}
}

// procCPU is a PostgreSQL backend's CPU so far; 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	d, _ := procstat.CPU(pid)
	return d
}
