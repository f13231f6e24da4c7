package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/store"
)

// maxRunsPerWrite bounds how many finished runs one write gathers.
const maxRunsPerWrite = 64

// runWriter writes the finished runs of a worker's grading jobs: a run
// that finishes while an earlier write is under way waits for it and is
// written with the others that finished meanwhile, in one statement and one
// commit (store.SaveRuns), instead of each taking a connection and a commit
// of its own. A run that finds no write under way is written at once, so a
// lone job waits for nothing. At L = 0 (a class of 300 with a model that
// answers at once) the jobs' own writes were half of a job's time in the
// database; see docs/performance.md.
//
// Each run keeps the write's guard (the result still in progress with the
// status the job read), so a run is written once whatever the batch; a job
// learns whether its own run was written. When a batch fails, each of its
// runs is written alone, so one bad run fails only its own job.
type runWriter struct {
	mu      sync.Mutex
	busy    bool
	pending []*pendingRun
}

type pendingRun struct {
	p    savedRun
	wake chan struct{}
	// set before wake is signalled when the run was written by another
	// job's write; otherwise the woken job writes the next batch itself
	finished bool
	n        int64
	err      error
}

// save writes p (store.Q.SaveRuns) and returns the rows written: 1, or 0
// when the result was no longer in progress with p.InProgress.
func (w *runWriter) save(ctx context.Context, db store.DBTX, p savedRun) (int64, error) {
	r := &pendingRun{p: p, wake: make(chan struct{}, 1)}
	w.mu.Lock()
	w.pending = append(w.pending, r)
	lead := !w.busy
	w.busy = true
	w.mu.Unlock()
	if !lead {
		<-r.wake
		if r.finished {
			return r.n, r.err
		}
	}
	// this job writes the runs waiting now (its own among them: the next
	// writer is always the first waiting)
	w.mu.Lock()
	batch := w.pending
	if len(batch) > maxRunsPerWrite {
		batch = batch[:maxRunsPerWrite:maxRunsPerWrite]
	}
	w.pending = w.pending[len(batch):]
	w.mu.Unlock()

	written := false
	defer func() {
		if !written { // write panicked: no run of the batch may pass for saved
			for _, o := range batch {
				o.n, o.err = 0, errWriteInterrupted
			}
		}
		w.handOver(batch, r)
	}()
	write(ctx, db, batch)
	written = true
	return r.n, r.err
}

// errWriteInterrupted is the outcome of runs whose batch's write panicked.
var errWriteInterrupted = errors.New("the write of the finished runs was interrupted")

// handOver wakes the next writer, if runs are waiting, and the jobs of the
// batch just written (all but the writer's own, r).
func (w *runWriter) handOver(batch []*pendingRun, r *pendingRun) {
	w.mu.Lock()
	if len(w.pending) > 0 {
		w.pending[0].wake <- struct{}{}
	} else {
		w.busy = false
	}
	w.mu.Unlock()
	for _, o := range batch {
		if o != r {
			o.finished = true
			o.wake <- struct{}{}
		}
	}
}

// write saves a batch of runs and sets each one's outcome; when the batch
// fails, each run is written alone.
func write(ctx context.Context, db store.DBTX, batch []*pendingRun) {
	runs := make([]savedRun, len(batch))
	for i, r := range batch {
		runs[i] = r.p
	}
	written, err := saveRuns(ctx, db, runs)
	if err != nil && len(batch) > 1 {
		for _, r := range batch {
			written, err := saveRuns(ctx, db, []savedRun{r.p})
			r.n, r.err = int64(len(written)), err
		}
		return
	}
	ok := make(map[uuid.UUID]bool, len(written))
	for _, id := range written {
		ok[id] = true
	}
	for _, r := range batch {
		r.err = err
		if ok[r.p.SubmissionID] {
			r.n = 1
			delete(ok, r.p.SubmissionID) // a duplicated job's second run was not written
		}
	}
}

func saveRuns(ctx context.Context, db store.DBTX, runs []savedRun) ([]uuid.UUID, error) {
	raw, err := json.Marshal(runs)
	if err != nil {
		return nil, err
	}
	return store.Q.SaveRuns(ctx, db, raw)
}

// savedRun is one finished run as store.SaveRuns reads it: the result's
// new columns (Answers nil keeps the stored answers; the usage is added to
// what is stored), the submission, and the in-progress status the job
// read (the guard).
type savedRun struct {
	Status             string          `json:"status"`
	Feedback           string          `json:"feedback"`
	HighlightedText    string          `json:"highlighted_text"`
	CriteriaLevels     json.RawMessage `json:"criteria_levels"`
	CriteriaPoints     json.RawMessage `json:"criteria_points"`
	CriteriaFeedback   json.RawMessage `json:"criteria_feedback"`
	OverallComments    string          `json:"overall_comments"`
	Answers            json.RawMessage `json:"answers"`
	GradedParts        json.RawMessage `json:"graded_parts"`
	Flags              json.RawMessage `json:"flags"`
	DroppedHighlights  int32           `json:"dropped_highlights"`
	Model              string          `json:"model"`
	ModelCalls         int32           `json:"model_calls"`
	PromptTokens       int32           `json:"prompt_tokens"`
	CachedPromptTokens int32           `json:"cached_prompt_tokens"`
	CompletionTokens   int32           `json:"completion_tokens"`
	CostUsd            float64         `json:"cost_usd"`
	SubmissionID       uuid.UUID       `json:"submission_id"`
	InProgress         string          `json:"in_progress"`
}
