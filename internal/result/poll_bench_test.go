package result_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/procstat"
	"github.com/markwell/markwell/internal/result"
)

// cpuMeter is the CPU this process and the database's backends spent.
type cpuMeter struct {
	b    *testing.B
	bn   *bundle
	self time.Duration
	db   time.Duration
}

func (m *cpuMeter) backends() time.Duration {
	rows, err := m.bn.pool.Query(m.bn.ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		m.b.Fatal(err)
	}
	defer rows.Close()
	var total time.Duration
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			m.b.Fatal(err)
		}
		total += procCPU(pid)
	}
	return total
}

func (m *cpuMeter) start() { m.self, m.db = procstat.Self(), m.backends() }

func (m *cpuMeter) report() {
	n := float64(m.b.N)
	m.b.ReportMetric(float64((procstat.Self()-m.self).Microseconds())/n, "api-cpu-µs/op")
	m.b.ReportMetric(float64((m.backends()-m.db).Microseconds())/n, "pg-cpu-µs/op")
}

// BenchmarkPollDelta is assignment/get as a page polls a graded class of
// 30 in which one result changed since its version: the delta and its
// JSON, in CPU per poll of this process and of PostgreSQL.
func BenchmarkPollDelta(b *testing.B) {
	bn, a, asgID := gradedClass(b, 30)
	whole, err := bn.svc.ReadClass(bn.ctx, a, bn.subs, asgID, result.Poll{})
	if err != nil {
		b.Fatal(err)
	}
	v := whole.Version.String()
	if _, err := bn.pool.Exec(bn.ctx, `UPDATE function_results SET overall_comments = 'Again' WHERE id = $1`, resultID(b, whole.Results[0])); err != nil {
		b.Fatal(err)
	}
	m := &cpuMeter{b: b, bn: bn}
	b.ReportAllocs()
	m.start()
	b.ResetTimer()
	for b.Loop() {
		r, err := bn.svc.ReadClass(bn.ctx, a, bn.subs, asgID, result.Poll{IfNoneMatch: `"` + v + `"`, Since: v})
		if err != nil || !r.Delta || len(r.Results) != 1 {
			b.Fatal("not a delta of one result", err)
		}
		if _, err := r.EncodeJSON(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	m.report()
}

// procCPU is a PostgreSQL backend's CPU so far; 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	d, _ := procstat.CPU(pid)
	return d
}

// resultID is the _id of an encoded result.
func resultID(tb testing.TB, raw json.RawMessage) uuid.UUID {
	tb.Helper()
	var r struct {
		ID uuid.UUID `json:"_id"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		tb.Fatal(err)
	}
	return r.ID
}
