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

func TestParseConfigProviderSwitches(t *testing.T) {
	t.Parallel()
	none := func(string) (string, bool) { return "", false }
	cfg, err := parseConfig(nil, none, io.Discard)
	require.NoError(t, err)
	require.False(t, cfg.opts.RefuseJSONSchema || cfg.opts.RefuseJSONObject || cfg.opts.Chatty, "off by default")

	cfg, err = parseConfig([]string{"--refuse-json-schema", "--chatty"}, none, io.Discard)
	require.NoError(t, err)
	require.True(t, cfg.opts.RefuseJSONSchema)
	require.False(t, cfg.opts.RefuseJSONObject)
	require.True(t, cfg.opts.Chatty)

	env := map[string]string{"FAKELLM_REFUSE_JSON_SCHEMA": "true", "FAKELLM_REFUSE_JSON_OBJECT": "1", "FAKELLM_CHATTY": "true"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, err = parseConfig([]string{"--chatty=false"}, lookup, io.Discard)
	require.NoError(t, err)
	require.True(t, cfg.opts.RefuseJSONSchema)
	require.True(t, cfg.opts.RefuseJSONObject)
	require.False(t, cfg.opts.Chatty, "flags beat env")

	_, err = parseConfig(nil, func(k string) (string, bool) { return "maybe", k == "FAKELLM_CHATTY" }, io.Discard)
	require.ErrorContains(t, err, "FAKELLM_CHATTY")
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
