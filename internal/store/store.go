// Package store is Markwell's data access: SQL in queries/*.sql, Go generated
// by sqlc (`make generate`) into *_gen.go. Methods take a DBTX, so the same
// query runs on the pool or inside a transaction.
package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Q is the shared, stateless query set.
var Q = New()

// ErrNotFound is returned by lookups that find no row.
var ErrNotFound = errors.New("not found")

// NotFound turns pgx.ErrNoRows into ErrNotFound and leaves other errors alone.
func NotFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// InTx runs fn in a transaction, committing when it returns nil and rolling
// back otherwise.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	if err := pgx.BeginFunc(ctx, pool, fn); err != nil {
		return fmt.Errorf("transaction: %w", err)
	}
	return nil
}
