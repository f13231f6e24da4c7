// Command api serves Markwell's HTTP API and the built frontend.
//
//	api            run the server (applies migrations first unless MIGRATE_ON_START=false)
//	api migrate    apply migrations and exit
//	api check-model [-mode auto|json_schema|json_object|prompt]
//	               send a small built-in set of tasks through the configured
//	               AI provider and print what worked (no database needed;
//	               exit status 1 if any task failed; docs/operations.md)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"riverqueue.com/riverui"

	"github.com/markwell/markwell/internal/answerbox"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/assistant"
	"github.com/markwell/markwell/internal/attachment"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/chat"
	"github.com/markwell/markwell/internal/classroom"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/httpapi"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/llm"
	"github.com/markwell/markwell/internal/logging"
	"github.com/markwell/markwell/internal/lti"
	"github.com/markwell/markwell/internal/migrate"
	"github.com/markwell/markwell/internal/modelcheck"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/original"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/report"
	"github.com/markwell/markwell/internal/result"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/submission"
	"github.com/markwell/markwell/internal/team"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

// defaultGCPercent is the API's GOGC unless the environment sets one. Its
// live heap is small and nearly all its garbage is per request: collecting
// at 5× the live heap rather than Go's 2× took the status poll's cost from
// 5.75 % to 5.26 % of a core (cmd/bench, docs/performance.md), for a heap
// that peaks a few tens of megabytes higher.
const defaultGCPercent = 400

func run() error {
	// GOGC is the Go runtime's own variable, not Markwell's configuration:
	// the runtime has read it already; only its absence is asked here.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	log := logging.New(os.Stdout, cfg.LogLevel, "api")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if len(os.Args) > 1 && os.Args[1] == "check-model" {
		return checkModel(ctx, cfg, os.Args[2:], os.Stdout)
	}

	pool, err := store.NewPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer pool.Close()

	if len(os.Args) > 1 && os.Args[1] == "migrate" {
		return migrate.Up(ctx, pool, log)
	}
	if cfg.MigrateOnStart {
		if err := migrate.Up(ctx, pool, log); err != nil {
			return err
		}
	}
	if !cfg.Production() {
		log.Info("running in development mode")
	}
	if cfg.DevSignIn && cfg.Production() {
		log.Warn("!!! DEV_SIGNIN is on in production: anyone can sign in with any name and email, no password. " +
			"Set DEV_SIGNIN=false unless this is a throwaway demo. !!!")
	}
	if len(cfg.SignInProviders()) == 0 {
		log.Warn("no sign-in provider is configured, so nobody can sign in: set GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET, OIDC_ISSUER/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET, or DEV_SIGNIN=true for development")
	}
	authSvc, err := auth.FromConfig(pool, cfg, log)
	if err != nil {
		return err
	}
	go purgeExpiredSessions(ctx, authSvc, log)
	// Polls of unchanged classes answered from memory (changes.Clock).
	changeClock := changes.NewClock()
	if url := cfg.ChangesListen(); url != "" {
		go changeClock.Run(ctx, url, log)
		// Sessions kept until a change to their user is announced.
		authSvc.HearChanges(changeClock)
	} else {
		log.Info("not listening for changes (CHANGES_LISTEN_URL): every poll asks the database")
	}

	blobs, blobHandler, err := blob.New(ctx, cfg.Storage())
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}

	jobClient, err := queue.NewInsertClient(pool, log)
	if err != nil {
		return err
	}
	jobsUI, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(jobClient, nil),
		Logger:    log,
		Prefix:    "/admin/jobs",
	})
	if err != nil {
		return fmt.Errorf("jobs dashboard: %w", err)
	}
	if err := jobsUI.Start(ctx); err != nil {
		return fmt.Errorf("start jobs dashboard: %w", err)
	}

	// The wizard's AI assist asks the model while the teacher waits: one
	// retry, since no job queue stands behind these calls.
	provider, err := llm.NewOpenAI(apiModel(cfg, log))
	if err != nil {
		return fmt.Errorf("model client: %w", err)
	}
	// The API's calls count against the workers' limit too (LLM_RPM, LLM_TPM).
	model := llm.WithLimit(provider, cfg.ModelLimit(pool), llm.LimitOptions{})

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		queue.NewStateCollector(pool, log))

	limiter := &ratelimit.Limiter{Pool: pool}
	go purgeRateCounters(ctx, limiter, log)
	// The tokens of the teachers' calls count against their AI budget.
	budget := cfg.AIBudget(limiter)
	model = budget.Meter(model)
	// One file service and one submission service, shared by every route.
	fileSvc := &files.Service{Blob: blobs, TTL: cfg.SignedURLTTL, Pool: pool}
	submissions := &submission.Service{Pool: pool, Jobs: jobClient, Files: fileSvc}
	studentLinks := &studentlink.Service{Pool: pool, Files: fileSvc,
		Submissions: submissions,
		Limits: studentlink.Limits{Limiter: limiter, PerLink: cfg.StudentLimitLink, LinkGrowth: cfg.StudentLinkGrowth,
			LinkMax: cfg.StudentLinkMax, PerAddr: cfg.StudentLimitAddr,
			PerSubmitter: cfg.StudentLimitSubmitter, PerStudent: cfg.StudentLimitStudent}}
	googleClassroom, err := classroom.FromConfig(cfg, pool, blobs, submissions, log)
	if err != nil {
		return fmt.Errorf("google classroom: %w", err)
	}
	assignments := &assignment.Service{Pool: pool, AnswerMedia: answerbox.Signer{Blob: blobs, TTL: cfg.SignedURLTTL}}
	pages := answerbox.NewPageGate() // one bound for every page this process draws
	releaseLinks, err := release.NewLinks(cfg.SecretKey, cfg.PublicURL)
	if err != nil {
		return err
	}
	// Markwell as an LTI 1.3 tool (docs/lti.md); pupils' launches submit
	// through the student link.
	ltiTool := lti.New(pool, cfg.SecretKey, cfg.PublicURL, cfg.LTIAllowInsecureURLs, authSvc, studentLinks, jobClient)
	studentLinks.LTI = ltiTool
	router := httpapi.NewRouter(httpapi.Deps{
		Config: cfg, Pool: pool, Log: log, Registry: reg, Limiter: limiter,
		Files:       fileSvc,
		BlobHandler: blobHandler,
		JobsUI:      jobsUI,
		Auth:        authSvc,
		// The operator page's provider check: a fresh client per run,
		// its calls counted against LLM_RPM/LLM_TPM like every other.
		ModelCheck: &modelcheck.Checker{Config: apiModel(cfg, log), Prices: cfg.LLMPrices,
			Wrap: func(c llm.Client) llm.Client { return llm.WithLimit(c, cfg.ModelLimit(pool), llm.LimitOptions{}) }},
		Services: httpapi.Services{
			Team:        &team.Service{Pool: pool, PublicURL: cfg.PublicURL, LinkTTL: cfg.InviteLinkTTL},
			Library:     &library.Service{Pool: pool, Jobs: jobClient},
			Rubrics:     &rubric.Service{Pool: pool},
			Assignments: assignments,
			Results:     &result.Service{Pool: pool, Assignments: assignments, Model: model, Jobs: jobClient, Budget: budget, Changes: changeClock},
			AnswerBoxes: &answerbox.Service{Pool: pool, Jobs: jobClient, Blob: blobs, TTL: cfg.SignedURLTTL, Pages: pages},
			Originals: &original.Service{Pool: pool, Blob: blobs, TTL: cfg.SignedURLTTL, Pages: pages,
				Office: office.LibreOffice{Path: cfg.SofficePath, Timeout: original.ConvertTimeout}},
			Submissions: submissions,
			Assist:      &assist.Service{LLM: model},
			AIBudget:    budget,
			StudentLink: studentLinks,
			Classroom:   googleClassroom,
			Attachments: &attachment.Service{Files: fileSvc, Blob: blobs, MaxBytes: cfg.MaxUploadBytes, Log: log},
			Assistants:  &assistant.Service{Pool: pool, Blob: blobs},
			Chats:       &chat.Service{Pool: pool, Blob: blobs, Model: model},
			Reports: &report.Service{Pool: pool, Blob: blobs, TTL: cfg.SignedURLTTL, Jobs: jobClient,
				Office: office.LibreOffice{Path: cfg.SofficePath}},
			Releases: &release.Service{Pool: pool, Jobs: jobClient, Links: releaseLinks, EmailEnabled: cfg.EmailEnabled()},
			LTI:      ltiTool,
		},
	})
	srv := &http.Server{
		Addr:              cfg.HTTPAddr,
		Handler:           router,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 2)
	go func() {
		log.Info("listening", "addr", cfg.HTTPAddr, "url", cfg.PublicURL)
		errc <- srv.ListenAndServe()
	}()
	var metricsSrv *http.Server
	if cfg.MetricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("/metrics", httpapi.MetricsHandler(reg))
		metricsSrv = &http.Server{Addr: cfg.MetricsAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			log.Info("metrics listening", "addr", cfg.MetricsAddr)
			errc <- metricsSrv.ListenAndServe()
		}()
	}
	if addr := cfg.PprofAddr; addr != "" {
		// Opt-in profiling for benchmarks (cmd/bench): net/http/pprof on an
		// address of its own, never on the app port.
		pprofSrv := &http.Server{Addr: addr, Handler: pprofMux(), ReadHeaderTimeout: 10 * time.Second}
		go func() {
			log.Info("pprof listening", "addr", addr)
			if err := pprofSrv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Warn("pprof stopped", "err", err)
			}
		}()
		defer pprofSrv.Close()
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if metricsSrv != nil {
		_ = metricsSrv.Shutdown(shutdownCtx)
	}
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	slog.Default().Info("stopped")
	return nil
}

// pprofMux serves net/http/pprof's profiles under /debug/pprof/.
func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// purgeExpiredSessions deletes expired sessions and sign-in attempts hourly.
// Lookups ignore them anyway; this keeps the tables small.
func purgeExpiredSessions(ctx context.Context, svc *auth.Service, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			sessions, attempts, err := svc.PurgeExpired(ctx)
			if err != nil {
				log.Warn("purge expired sessions", "err", err)
				continue
			}
			log.Debug("purged expired sessions", "sessions", sessions, "signin_attempts", attempts)
		}
	}
}

// purgeRateCounters deletes the counters of ended rate-limit windows every
// ten minutes.
func purgeRateCounters(ctx context.Context, l *ratelimit.Limiter, log *slog.Logger) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := l.Purge(ctx); err != nil {
				log.Warn("purge rate counters", "err", err)
			}
		}
	}
}

// errCheckFailed is check-model's exit status 1: the table says why.
var errCheckFailed = errors.New("the provider check failed (see the table above)")

// checkModel runs the provider check (package modelcheck) with the model
// client the API builds, before any database is opened, prints its table
// to out, and fails when a task failed.
func checkModel(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("check-model", flag.ContinueOnError)
	mode := flags.String("mode", "", "output mode to check: auto, json_schema, json_object or prompt (default: LLM_OUTPUT_MODE)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	parsed, err := llm.ParseOutputMode(*mode)
	if err != nil {
		return fmt.Errorf("-mode: %w", err)
	}
	if *mode == "" {
		parsed = "" // the configured mode
	}
	// Logs (the detection's warning) go to stderr: stdout is the table's.
	checker := &modelcheck.Checker{Config: apiModel(cfg, logging.New(os.Stderr, cfg.LogLevel, "api")), Prices: cfg.LLMPrices}
	fmt.Fprintf(out, "Checking %s with the built-in tasks (seconds to a few minutes)…\n", cfg.LLMBaseURL)
	rep, err := checker.Check(ctx, parsed)
	if err != nil {
		return err
	}
	fmt.Fprint(out, rep.Text())
	if !rep.Passed {
		return errCheckFailed
	}
	return nil
}

// apiModel is the model client of requests a teacher waits on (AI assist):
// one quick retry, since there is no job queue behind it. The output mode
// is LLM_OUTPUT_MODE's; auto detection's warning goes to log.
func apiModel(cfg config.Config, log *slog.Logger) llm.Config {
	m := cfg.Model()
	m.MaxRetries = 1
	m.Log = log
	return m
}
