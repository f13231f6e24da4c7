// Package jobs holds Markwell's background work: River's workers, one file
// per job kind, and the working client cmd/worker runs. The jobs' arguments
// and queues (what the API needs to enqueue) are the contract in package
// queue, so a service that only enqueues does not import the workers.
package jobs

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
)

// How often the ai queue looks for work: measured with the grading
// benchmarks (internal/benchmark).
const (
	aiFetchCooldown     = 5 * time.Millisecond
	aiFetchPollInterval = 100 * time.Millisecond
)

// BlobReader reads stored files; blob.Blob satisfies it.
type BlobReader interface {
	Get(ctx context.Context, key string) (io.ReadCloser, error)
}

// Deps are what workers need.
type Deps struct {
	Pool *pgxpool.Pool
	Blob BlobReader
	// Extractor reads files on the extract queue; nil means a Reader built
	// from ReadOptions without OCR, which leaves pages that need OCR marked
	// for the ocr_pages or transcribe_pages job.
	Extractor extract.Extractor
	// OCR reads page images on the ocr queue: the process's one *ocr.Pool,
	// sized to that queue's concurrency; nil where the ocr queue is not run.
	OCR extract.OCR
	// ReadOptions configure the Readers of the extraction jobs (limits,
	// temporary directory, poppler paths); their OCR field is ignored.
	ReadOptions extract.Options
	// LLM is the model client of grading and annotation jobs, and of the
	// transcription of handwriting (its vision model).
	LLM llm.Client
	// Prices turn a run's token usage into money (LLM_PRICES).
	Prices llm.Prices
	// FenceKey is every grading run's grading.Input.FenceKey
	// (grading.FenceKey(SECRET_KEY)): the prompts of a class share their
	// fences, so the provider caches their common prefix. Nil fences every
	// call with random codes.
	FenceKey []byte
	// Budget counts each grading run's tokens against its team's AI
	// budget (the calls were counted when grading was asked for); nil
	// counts nothing.
	Budget *ratelimit.AIBudget
	Log    *slog.Logger
	// GradeTimeout bounds one grading attempt; 0 means config.DefaultGradeJobTimeout.
	// River rescues a grading job left running by a killed worker only
	// after this long (and JOB_RESCUE_AFTER), so it is also how long such
	// a result waits (GRADE_JOB_TIMEOUT; docs/faults.md).
	GradeTimeout time.Duration
	// Classroom sends grades back to Google Classroom (pass_back_grades);
	// nil cancels those jobs.
	Classroom *classroom.Service
	// LTI posts released scores to LMS gradebooks (lti_score); nil
	// cancels those jobs.
	LTI *lti.Service
	// Mailer sends released results' emails (send_result_email); nil
	// leaves those jobs waiting for a worker that has one.
	Mailer *release.Mailer
}

// NewWorkers registers every job kind's worker.
func NewWorkers(d Deps) *river.Workers {
	w := river.NewWorkers()
	river.AddWorker(w, &ExtractTextWorker{deps: d})
	river.AddWorker(w, &OCRPagesWorker{deps: d})
	river.AddWorker(w, &TranscribePagesWorker{deps: d})
	river.AddWorker(w, &DeleteBlobsWorker{deps: d})
	river.AddWorker(w, &CropAnswersWorker{deps: d})
	river.AddWorker(w, &GradeSubmissionWorker{deps: d})
	river.AddWorker(w, &SweepRunsWorker{deps: d})
	river.AddWorker(w, &CheckAgreementWorker{deps: d})
	river.AddWorker(w, &PurgeLinkUploadsWorker{deps: d})
	river.AddWorker(w, &PassBackGradesWorker{deps: d})
	river.AddWorker(w, &BuildReportsWorker{deps: d})
	river.AddWorker(w, &SendResultEmailWorker{deps: d})
	river.AddWorker(w, &LTIScoreWorker{deps: d})
	return w
}

// WorkerOptions shape a working client.
type WorkerOptions struct {
	// Queues maps queue name to concurrency.
	Queues map[string]int
	// JobTimeout bounds one attempt.
	JobTimeout time.Duration
	// RescueAfter returns jobs left running by a dead worker to the queue.
	RescueAfter time.Duration
	// FetchPollInterval overrides River's poll interval (tests use short ones).
	FetchPollInterval time.Duration
	// PollOnly never LISTENs for notifications: queues look for new jobs
	// every poll interval (1 s; 100 ms on the ai queue) and leadership moves
	// within seconds. Needed behind a transaction-pooling PgBouncer
	// (JOBS_POLL_ONLY).
	PollOnly bool
}

// NewWorkerClient builds a client that runs jobs from the given queues.
func NewWorkerClient(pool *pgxpool.Pool, workers *river.Workers, o WorkerOptions, log *slog.Logger) (*queue.Client, error) {
	queues := make(map[string]river.QueueConfig, len(o.Queues))
	for name, n := range o.Queues {
		queues[name] = river.QueueConfig{MaxWorkers: n}
	}
	if q, ok := queues[queue.QueueAI]; ok {
		// A wave of model answers frees many slots at once: River's default
		// 100 ms between fetches left them idle, and snoozed jobs (rate limits)
		// waited up to a second for the next poll (docs/performance.md, AI
		// grading).
		q.FetchCooldown, q.FetchPollInterval = aiFetchCooldown, aiFetchPollInterval
		queues[queue.QueueAI] = q
	}
	cfg := &river.Config{
		Queues:               queues,
		Workers:              workers,
		JobTimeout:           o.JobTimeout,
		RescueStuckJobsAfter: o.RescueAfter,
		MaxAttempts:          10,
		Logger:               log,
		FetchPollInterval:    o.FetchPollInterval,
		PollOnly:             o.PollOnly,
		PeriodicJobs: append(periodicJobs(),
			river.NewPeriodicJob(river.PeriodicInterval(queue.PurgeLinkUploadsEvery), func() (river.JobArgs, *river.InsertOpts) {
				return queue.PurgeLinkUploadsArgs{}, nil
			}, nil)),
	}
	c, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("river worker client: %w", err)
	}
	return c, nil
}
