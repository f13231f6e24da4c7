package queue

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/markwell/markwell/internal/store"
)

// StateCollector exports the number of jobs by kind and state, read from the
// job table at scrape time, so any API instance shows the whole fleet.
type StateCollector struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	desc *prometheus.Desc
}

var _ prometheus.Collector = (*StateCollector)(nil)

// NewStateCollector returns a collector over pool.
func NewStateCollector(pool *pgxpool.Pool, log *slog.Logger) *StateCollector {
	return &StateCollector{pool: pool, log: log, desc: prometheus.NewDesc(
		"markwell_jobs", "Jobs in the queue table by kind and state.", []string{"kind", "state"}, nil)}
}

// Describe implements prometheus.Collector.
func (c *StateCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c *StateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	rows, err := store.Q.CountJobsByKindAndState(ctx, c.pool)
	if err != nil {
		c.log.Warn("collect job metrics", "err", err)
		return
	}
	for _, r := range rows {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(r.Jobs), r.Kind, r.State)
	}
}
