// Command worker runs Markwell's background jobs from the queues it is given:
//
//	worker --queues ai=64,ocr=2
//
// Without --queues it runs WORKER_QUEUES (every queue by default). A worker
// that runs the ocr queue keeps one tesseract pool as wide as that queue
// (it needs a cgo build). On SIGTERM it stops fetching, lets running jobs
// finish within SHUTDOWN_TIMEOUT, then cancels the rest, which return to the
// queue for another worker; the jobs of a worker killed outright are rescued
// after JOB_RESCUE_AFTER.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/extract"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/logging"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/migrate"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	queuesFlag := flag.String("queues", cfg.WorkerQueues, "queues and concurrency, e.g. ai=64,ocr=2 (known: default, extract, ocr, ai)")
	addr := flag.String("addr", cfg.WorkerAddr, "address for /healthz and /metrics (empty: none)")
	flag.Parse()
	queues, err := config.ParseQueues(*queuesFlag)
	if err != nil {
		return fmt.Errorf("--queues: %w", err)
	}
	if queues[queue.QueueOCR] > 0 {
		// First, before any work: it may re-execute the program.
		if err := ensureOCRThreadLimit(); err != nil {
			return fmt.Errorf("ocr queue: %w", err)
		}
	}
	log := logging.New(os.Stdout, cfg.LogLevel, "worker")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pool, err := store.NewPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer pool.Close()
	if cfg.MigrateOnStart {
		if err := migrate.Up(ctx, pool, log); err != nil {
			return err
		}
	}
	blobs, _, err := blob.New(ctx, cfg.Storage())
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}

	modelConfig := cfg.Model() // LLM_OUTPUT_MODE included
	modelConfig.Log = log
	provider, err := llm.NewOpenAI(modelConfig)
	if err != nil {
		return fmt.Errorf("model client: %w", err)
	}
	checkModel(ctx, provider, cfg, log)
	// Every process's calls count against one limit (LLM_RPM, LLM_TPM).
	model := llm.WithLimit(provider, cfg.ModelLimit(pool), llm.LimitOptions{})

	// One OCR pool per process, as wide as the ocr queue: one tesseract per slot.
	var ocrPool extract.OCR
	if n := queues[queue.QueueOCR]; n > 0 {
		p, closePool, err := newOCRPool(n)
		if err != nil {
			return fmt.Errorf("ocr queue: %w", err)
		}
		defer func() { _ = closePool() }()
		ocrPool = p
	}
	mailer, err := cfg.Mailer(pool)
	if err != nil {
		return err
	}
	if mailer.SMTP == nil {
		log.Info("SMTP_URL not set: released results are not emailed (teachers copy the links)")
	}
	// Sends grades back to Google Classroom on the teachers' stored tokens.
	googleClassroom, err := classroom.FromConfig(cfg, pool, blobs, nil, log)
	if err != nil {
		return fmt.Errorf("google classroom: %w", err)
	}
	workers := jobs.NewWorkers(jobs.Deps{
		Classroom: googleClassroom,
		// Posts released scores to LMS gradebooks (docs/lti.md).
		LTI:    lti.New(pool, cfg.SecretKey, cfg.PublicURL, cfg.LTIAllowInsecureURLs, nil, nil, nil),
		Mailer: mailer,
		Pool:   pool, Blob: blobs, OCR: ocrPool, LLM: model, Prices: cfg.LLMPrices, Log: log,
		FenceKey: grading.FenceKey(cfg.SecretKey), GradeTimeout: cfg.GradeJobTimeout,
		Budget: cfg.AIBudget(&ratelimit.Limiter{Pool: pool}),
		ReadOptions: extract.Options{
			Limits:      extract.Limits{MaxFileBytes: cfg.MaxUploadBytes, ConvertTimeout: cfg.ConvertTimeout},
			SofficePath: cfg.SofficePath,
		},
	})
	client, err := jobs.NewWorkerClient(pool, workers, jobs.WorkerOptions{
		Queues: queues, JobTimeout: cfg.JobTimeout, RescueAfter: cfg.JobRescueAfter, PollOnly: cfg.JobsPollOnly,
	}, log)
	if err != nil {
		return err
	}
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	if queues[queue.QueueExtract] > 0 {
		logConverter(cfg, log)
	}
	log.Info("worker started", "queues", queues, "job_timeout", cfg.JobTimeout, "rescue_after", cfg.JobRescueAfter,
		"ocr_pool", queues[queue.QueueOCR], "poll_only", cfg.JobsPollOnly)

	var srv *http.Server
	if *addr != "" {
		reg := prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"status":"ok"}`)) })
		mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		srv = &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go func() {
			if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("worker http", "err", err)
			}
		}()
	}

	<-ctx.Done()
	log.Info("stopping: finishing running jobs", "timeout", cfg.ShutdownTimeout)
	soft, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := client.Stop(soft); err != nil {
		log.Warn("jobs still running; cancelling them back to the queue", "err", err)
		hard, cancelHard := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancelHard()
		if err := client.StopAndCancel(hard); err != nil {
			return fmt.Errorf("stop worker: %w", err)
		}
	}
	if srv != nil {
		_ = srv.Shutdown(context.Background())
	}
	log.Info("worker stopped")
	return nil
}

// logConverter says whether this worker can convert OpenDocument, RTF and
// Office 97–2003 files, and how LibreOffice is kept off the network.
func logConverter(cfg config.Config, log *slog.Logger) {
	tool := cmp.Or(cfg.SofficePath, "soffice")
	path, err := exec.LookPath(tool)
	if err != nil {
		log.Warn("LibreOffice not found: ODT, ODP, RTF, DOC and PPT submissions will fail with a sentence asking for PDF or Word", "soffice", tool)
		return
	}
	isolation := office.CheckIsolation()
	if isolation != "network namespace" {
		log.Warn("LibreOffice conversions cannot get a network namespace of their own (not root, user namespaces off): only its settings block linked content", "soffice", path)
		return
	}
	log.Info("LibreOffice conversions", "soffice", path, "network", isolation, "timeout", cfg.ConvertTimeout)
}

// checkModel logs whether the model endpoint answers; jobs retry either way.
func checkModel(ctx context.Context, model *llm.OpenAI, cfg config.Config, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	models, err := model.Models(ctx)
	if err != nil {
		log.Warn("model endpoint not reachable yet; AI jobs will retry", "base_url", cfg.LLMBaseURL, "err", err)
		return
	}
	log.Info("model endpoint reachable", "base_url", cfg.LLMBaseURL, "model", cfg.LLMModel, "models", models, "demo", cfg.DemoModel)
}
