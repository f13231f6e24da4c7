// Package logging builds the JSON logger both binaries use.
package logging

import (
	"io"
	"log/slog"
)

// New returns a JSON slog logger at level (debug, info, warn, error).
func New(w io.Writer, level, service string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})).With("service", service)
}
