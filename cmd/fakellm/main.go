// Command fakellm serves Markwell's demo model, an OpenAI-compatible API at
// /v1 that answers deterministically without an AI provider. Every flag can
// also be set through the environment variable named in its help.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/markwell/markwell/internal/llm/fakellm"
)

func main() {
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.LookupEnv, logger); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		logger.Error("fakellm stopped", "err", err)
		os.Exit(1)
	}
}

type config struct {
	addr string
	opts fakellm.Options
}

// run serves until ctx ends, then shuts down gracefully.
func run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), logger *slog.Logger) error {
	cfg, err := parseConfig(args, lookupEnv, os.Stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	return serve(ctx, ln, cfg.opts, logger)
}

// serve runs the demo model on ln until ctx ends.
func serve(ctx context.Context, ln net.Listener, opts fakellm.Options, logger *slog.Logger) error {
	model := fakellm.New(opts)
	fakellm.TeachAll(model)
	mux := http.NewServeMux()
	mux.Handle("/", model)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	logger.Info("fakellm listening", "addr", ln.Addr().String(), "models", opts.Models,
		"latency", opts.Latency.String(), "jitter", opts.LatencyJitter.String(),
		"rate_429", opts.Rate429, "rate_500", opts.Rate500,
		"rate_timeout", opts.RateTimeout, "rate_malformed", opts.RateMalformed, "seed", opts.Seed,
		"refuse_json_schema", opts.RefuseJSONSchema, "refuse_json_object", opts.RefuseJSONObject, "chatty", opts.Chatty)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("fakellm shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Hanging requests (timeout faults) do not end by themselves.
		_ = srv.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("fakellm stopped")
	return nil
}

// parseConfig reads flags, each defaulting to its environment variable.
func parseConfig(args []string, lookupEnv func(string) (string, bool), out io.Writer) (config, error) {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(out)
	env := func(name, fallback string) string {
		if v, ok := lookupEnv(name); ok && v != "" {
			return v
		}
		return fallback
	}
	var (
		cfg                   config
		models                string
		rate429, rate500      string
		rateTimeout, rateBad  string
		latency, jitter, hang string
		tokenDelay            string
		retryAfter, seed      string
		envErrs               []error
	)
	// flagEnv is a boolean flag's default from its environment variable.
	flagEnv := func(name string) bool {
		v := env(name, "false")
		b, err := strconv.ParseBool(v)
		if err != nil {
			envErrs = append(envErrs, fmt.Errorf("%s %q: want true or false", name, v))
		}
		return b
	}
	fs.StringVar(&cfg.addr, "addr", env("FAKELLM_ADDR", "127.0.0.1:8090"), "listen address (FAKELLM_ADDR)")
	fs.StringVar(&models, "models", env("FAKELLM_MODELS", fakellm.DefaultModel), "comma-separated model ids served (FAKELLM_MODELS)")
	fs.StringVar(&latency, "latency", env("FAKELLM_LATENCY", "0s"), "fixed delay per chat completion (FAKELLM_LATENCY)")
	fs.StringVar(&jitter, "jitter", env("FAKELLM_JITTER", "0s"), "random extra delay up to this (FAKELLM_JITTER)")
	fs.StringVar(&tokenDelay, "token-delay", env("FAKELLM_TOKEN_DELAY", "30ms"), "pause between the pieces of a streamed answer (FAKELLM_TOKEN_DELAY)")
	fs.StringVar(&rate429, "rate-429", env("FAKELLM_RATE_429", "0"), "fraction of requests answered 429 (FAKELLM_RATE_429)")
	fs.StringVar(&rate500, "rate-500", env("FAKELLM_RATE_500", "0"), "fraction of requests answered 500 (FAKELLM_RATE_500)")
	fs.StringVar(&rateTimeout, "rate-timeout", env("FAKELLM_RATE_TIMEOUT", "0"), "fraction of requests that hang (FAKELLM_RATE_TIMEOUT)")
	fs.StringVar(&rateBad, "rate-malformed", env("FAKELLM_RATE_MALFORMED", "0"), "fraction of requests answered with malformed JSON (FAKELLM_RATE_MALFORMED)")
	fs.StringVar(&retryAfter, "retry-after", env("FAKELLM_RETRY_AFTER", "1s"), "Retry-After sent with 429 answers; negative sends none (FAKELLM_RETRY_AFTER)")
	fs.StringVar(&hang, "hang-for", env("FAKELLM_HANG_FOR", "0s"), "how long a timeout fault hangs; 0 until the client gives up (FAKELLM_HANG_FOR)")
	fs.StringVar(&seed, "seed", env("FAKELLM_SEED", "1"), "seed for random faults and jitter (FAKELLM_SEED)")
	fs.BoolVar(&cfg.opts.RefuseJSONSchema, "refuse-json-schema", flagEnv("FAKELLM_REFUSE_JSON_SCHEMA"),
		"answer response_format json_schema with a 400, as a provider without structured outputs (FAKELLM_REFUSE_JSON_SCHEMA)")
	fs.BoolVar(&cfg.opts.RefuseJSONObject, "refuse-json-object", flagEnv("FAKELLM_REFUSE_JSON_OBJECT"),
		"answer response_format json_object with a 400, as a provider without JSON mode (FAKELLM_REFUSE_JSON_OBJECT)")
	fs.BoolVar(&cfg.opts.Chatty, "chatty", flagEnv("FAKELLM_CHATTY"),
		"wrap JSON answers to requests without response_format in a sentence and a ```json fence (FAKELLM_CHATTY)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}

	errs := envErrs
	duration := func(name, v string, allowNegative bool) time.Duration {
		d, err := time.ParseDuration(v)
		if err != nil || (d < 0 && !allowNegative) {
			errs = append(errs, fmt.Errorf("--%s %q: want a duration such as 250ms", name, v))
		}
		return d
	}
	rate := func(name, v string) float64 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			errs = append(errs, fmt.Errorf("--%s %q: want a fraction from 0 to 1", name, v))
		}
		return f
	}
	o := &cfg.opts
	for _, m := range strings.Split(models, ",") {
		if m = strings.TrimSpace(m); m != "" {
			o.Models = append(o.Models, m)
		}
	}
	o.Latency = duration("latency", latency, false)
	o.LatencyJitter = duration("jitter", jitter, false)
	o.TokenDelay = duration("token-delay", tokenDelay, false)
	o.HangFor = duration("hang-for", hang, false)
	o.RetryAfter = duration("retry-after", retryAfter, true)
	o.Rate429 = rate("rate-429", rate429)
	o.Rate500 = rate("rate-500", rate500)
	o.RateTimeout = rate("rate-timeout", rateTimeout)
	o.RateMalformed = rate("rate-malformed", rateBad)
	if sum := o.Rate429 + o.Rate500 + o.RateTimeout + o.RateMalformed; sum > 1 {
		errs = append(errs, fmt.Errorf("fault rates add up to %v, more than 1", sum))
	}
	s, err := strconv.ParseInt(seed, 10, 64)
	if err != nil {
		errs = append(errs, fmt.Errorf("--seed %q: want an integer", seed))
	}
	o.Seed = s
	if len(o.Models) == 0 {
		errs = append(errs, errors.New("--models: at least one model id is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return config{}, err
	}
	return cfg, nil
}
