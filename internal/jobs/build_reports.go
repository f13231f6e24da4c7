package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/report"
)

// buildReportsTimeout bounds one attempt of build_reports: a class of 300
// takes a few minutes (docs/performance.md); a stuck LibreOffice is killed
// by its own per-batch timeout well before this.
const buildReportsTimeout = 30 * time.Minute

// BuildReportsWorker builds a "Print reports" run (package report). Its
// Deps.Blob must also store files (blob.Blob does).
type BuildReportsWorker struct {
	river.WorkerDefaults[queue.BuildReportsArgs]
	deps Deps
}

// NewBuildReportsWorker returns the worker of build_reports jobs over d.
func NewBuildReportsWorker(d Deps) *BuildReportsWorker { return &BuildReportsWorker{deps: d} }

// Timeout implements river.Worker.
func (w *BuildReportsWorker) Timeout(*river.Job[queue.BuildReportsArgs]) time.Duration {
	return buildReportsTimeout
}

// reportBlobs is what the reports need of the blob store.
type reportBlobs interface {
	BlobReader
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	PresignDownload(ctx context.Context, key, fileName string, ttl time.Duration) (string, error)
}

// Work implements river.Worker. An attempt that fails is retried (the run
// stays running, its progress back to 0 on the next attempt); the last
// failed attempt marks the run failed with a sentence for the teacher.
func (w *BuildReportsWorker) Work(ctx context.Context, job *river.Job[queue.BuildReportsArgs]) error {
	blobs, ok := w.deps.Blob.(reportBlobs)
	if !ok {
		return fmt.Errorf("build reports: the worker's blob store (%T) cannot store files", w.deps.Blob)
	}
	jobsClient, err := river.ClientFromContextSafely[pgx.Tx](ctx)
	if err != nil {
		return fmt.Errorf("build reports: %w", err)
	}
	svc := &report.Service{Pool: w.deps.Pool, Blob: blobs, Jobs: jobsClient,
		Office: office.LibreOffice{Path: w.deps.ReadOptions.SofficePath, TempDir: w.deps.ReadOptions.TempDir}}
	err = svc.Build(ctx, job.Args.TeamID, job.Args.ReportID, w.deps.ReadOptions.TempDir)
	switch {
	case err == nil, errors.Is(err, report.ErrGone):
		return nil
	case job.Attempt >= job.MaxAttempts || errors.Is(err, office.ErrNotInstalled):
		if ferr := svc.Fail(context.WithoutCancel(ctx), job.Args.TeamID, job.Args.ReportID, err); ferr != nil {
			return errors.Join(err, ferr)
		}
		return river.JobCancel(err)
	}
	return err
}
