// Package queue is the contract between the services that ask for
// background work and the workers that do it (package jobs): each job
// kind's River arguments, one file per kind, the queue names and the
// insert-only client. A service that enqueues imports only this package,
// not the workers and what they need (grading, extraction, the model).
package queue

import (
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// Queue names. Operators scale them apart: extract is cheap CPU, ocr is one
// tesseract per core, ai is I/O bound and rate limited.
const (
	QueueDefault = "default"
	QueueExtract = "extract"
	QueueOCR     = "ocr"
	QueueAI      = "ai"
)

// Client is River's client over pgx.
type Client = river.Client[pgx.Tx]

// NewInsertClient builds a client that only inserts jobs (the API's).
func NewInsertClient(pool *pgxpool.Pool, log *slog.Logger) (*Client, error) {
	c, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("river insert client: %w", err)
	}
	return c, nil
}
