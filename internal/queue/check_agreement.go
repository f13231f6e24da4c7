package queue

import (
	"github.com/google/uuid"
	"github.com/riverqueue/river"
)

// CheckAgreementArgs asks how closely the AI agrees with the teacher on an
// assignment's benchmark results: each benchmark is regraded with the other
// benchmarks as examples (leave-one-out) and compared with the teacher's
// grading.
type CheckAgreementArgs struct {
	AssignmentID uuid.UUID `json:"assignment_id"`
	TeamID       uuid.UUID `json:"team_id"`
}

// Kind implements river.JobArgs.
func (CheckAgreementArgs) Kind() string { return "check_agreement" }

// InsertOpts puts the job on the ai queue.
func (CheckAgreementArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueAI, MaxAttempts: 5}
}

// MinBenchmarks is how many benchmark results "Check agreement" needs.
const MinBenchmarks = 3
