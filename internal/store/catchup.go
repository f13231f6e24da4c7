package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Batcher sends statements in one round trip (a pipeline): a pool, a
// connection or a transaction.
type Batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// CatchUp is PollChanges and ListFunctionResultsChangedSince (since the
// same version) in one round trip: what a class kept in memory needs to
// move to now. The results are read after the changes are listed, so they
// hold every result the list names (as it is now, or missing once
// deleted) and perhaps some written in between.
func CatchUp(ctx context.Context, db Batcher, arg PollChangesParams) ([]PollChangesRow, []FunctionResult, error) {
	b := &pgx.Batch{}
	b.Queue(pollChanges, arg.Since, arg.AssignmentID, arg.TeamID, arg.SubmissionID, arg.SinceAt)
	b.Queue(listFunctionResultsChangedSince, arg.AssignmentID, arg.TeamID, arg.Since)
	br := db.SendBatch(ctx, b)
	defer br.Close()
	rows, err := br.Query()
	if err != nil {
		return nil, nil, fmt.Errorf("poll changes: %w", err)
	}
	changes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[PollChangesRow])
	if err != nil {
		return nil, nil, fmt.Errorf("poll changes: %w", err)
	}
	if rows, err = br.Query(); err != nil {
		return nil, nil, fmt.Errorf("changed results: %w", err)
	}
	results, err := pgx.CollectRows(rows, pgx.RowToStructByPos[FunctionResult])
	if err != nil {
		return nil, nil, fmt.Errorf("changed results: %w", err)
	}
	return changes, results, br.Close()
}
