package queue

import (
	"time"

	"github.com/riverqueue/river"
)

// SweepRunsArgs asks for AI runs stuck in progress to be failed with a
// reason. It runs every SweepEvery on whichever worker process leads.
type SweepRunsArgs struct{}

// Kind implements river.JobArgs.
func (SweepRunsArgs) Kind() string { return "sweep_runs" }

// InsertOpts keeps one sweep at a time.
func (SweepRunsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

// SweepEvery is how often River's leader sweeps stuck runs.
const SweepEvery = time.Minute
