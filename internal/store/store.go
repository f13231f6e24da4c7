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

	"github.com/markwell/markwell/internal/apperr"
)

// Q is the shared, stateless query set.
var Q = New()

// ErrNotFound is the one not-found answer (apperr.ErrNotFound): a missing
// row and a row of another team look the same to a caller.
var ErrNotFound = apperr.ErrNotFound

// NotFound turns a missing row (pgx.ErrNoRows anywhere in err's chain) into
// ErrNotFound and leaves other errors alone.
func NotFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// Affected answers ErrNotFound when a write scoped to a team changed no row:
// the id was unknown or another team's.
func Affected(rows int64) error {
	if rows == 0 {
		return ErrNotFound
	}
	return nil
}

// InTx runs fn in a transaction, committing when it returns nil and rolling
// back otherwise.
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	if err := pgx.BeginFunc(ctx, pool, fn); err != nil {
		return fmt.Errorf("transaction: %w", err)
	}
	return nil
}
