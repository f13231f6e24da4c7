-- name: LockModelCalls :one
-- Takes the bucket's transaction lock (every process reserving in the
-- bucket waits here) and returns the database clock once it is held: the
-- one clock of the shared window, read after the lock so that the calls of
-- a bucket are stamped in the order they were admitted.
SELECT clock_timestamp()::timestamptz AS now
FROM (SELECT pg_advisory_xact_lock(727001, hashtext(@bucket::text))) AS held;

-- name: ModelCallWindow :one
-- Counts the calls and tokens of the bucket's window (the calls after
-- @since).
SELECT count(*)::int AS calls, coalesce(sum(tokens), 0)::bigint AS tokens
FROM model_calls
WHERE bucket = @bucket AND at > @since;

-- name: PurgeModelCalls :execrows
-- Deletes the bucket's calls that have left the window (at <= @since).
DELETE FROM model_calls WHERE bucket = @bucket AND at <= @since;

-- name: ModelCallFreeAt :one
-- When enough of the window's oldest calls have left it: at least
-- @drop_calls calls and @drop_tokens tokens.
SELECT w.at::timestamptz AS at FROM (
    SELECT at, row_number() OVER oldest AS n, sum(tokens) OVER oldest AS freed
    FROM model_calls
    WHERE bucket = @bucket AND at > @since
    WINDOW oldest AS (ORDER BY at, id)
) AS w
WHERE w.n >= @drop_calls::bigint AND w.freed >= @drop_tokens::bigint
ORDER BY w.at
LIMIT 1;

-- name: InsertModelCall :one
INSERT INTO model_calls (bucket, at, tokens) VALUES (@bucket, @at, @tokens)
RETURNING id;

-- name: SettleModelCall :exec
UPDATE model_calls SET tokens = @tokens WHERE id = @id;
