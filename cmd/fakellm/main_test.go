package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseConfig(t *testing.T) {
	t.Parallel()
	env := map[string]string{"FAKELLM_ADDR": "127.0.0.1:9999", "FAKELLM_RATE_500": "0.2", "FAKELLM_LATENCY": "50ms"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }

	cfg, err := parseConfig([]string{"--rate-500", "0.1", "--seed", "42", "--models", "a, b"}, lookup, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:9999", cfg.addr, "env sets the default")
	require.Equal(t, 0.1, cfg.opts.Rate500, "flags beat env")
	require.Equal(t, 50*time.Millisecond, cfg.opts.Latency)
	require.Equal(t, int64(42), cfg.opts.Seed)
	require.Equal(t, []string{"a", "b"}, cfg.opts.Models)

	_, err = parseConfig([]string{"--rate-429", "1.5"}, lookup, io.Discard)
	require.ErrorContains(t, err, "rate-429")
	_, err = parseConfig([]string{"--rate-429", "0.6", "--rate-malformed", "0.6"}, lookup, io.Discard)
	require.ErrorContains(t, err, "add up to")
	_, err = parseConfig([]string{"--latency", "soon"}, lookup, io.Discard)
	require.ErrorContains(t, err, "latency")
}

func TestServeAndShutdown(t *testing.T) {
	t.Parallel()
	cfg, err := parseConfig(nil, func(string) (string, bool) { return "", false }, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8090", cfg.addr)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, cfg.opts, slog.New(slog.DiscardHandler)) }()

	for _, path := range []string{"/healthz", "/v1/models"} {
		res, err := http.Get("http://" + ln.Addr().String() + path)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
	}
	cancel()
	require.NoError(t, <-done)
}
