-- name: CountJobsByKindAndState :many
SELECT kind, state, count(*)::bigint AS jobs FROM river_job GROUP BY kind, state ORDER BY kind, state;

-- name: LockQueueInterleave :exec
-- Batches queued at the same moment take turns placing their jobs: without
-- it, concurrent transactions each see a queue without the others' jobs and
-- place theirs as if alone (InterleaveQueuedJobs). Held until commit.
SELECT pg_advisory_xact_lock(hashtext('markwell.interleave.' || @queue::text));

-- name: InterleaveQueuedJobs :exec
-- Classes take turns on a queue. River fetches a queue's available jobs by
-- priority, then scheduled_at, then id. The k-th job of a batch just queued
-- is stamped k-1 milliseconds after the oldest job still waiting (or, when
-- none waits, so that the batch ends now), and never later than now: the
-- k-th jobs of every class come before any class's (k+1)-th, a class of 30
-- queued behind a class of 300 starts at once, and no job waits for a time
-- in the future. "Now" is the clock's (clock_timestamp()), not the
-- transaction's start (now()): a grade-all that began first but waited
-- for another's lock would otherwise place all its jobs before the other's
-- first (make test-scale: one class of twelve waited 42 s).
WITH head AS (
    SELECT least(coalesce(min(w.scheduled_at), clock_timestamp()),
                 clock_timestamp() - cardinality(@ids::bigint[]) * interval '1 millisecond') AS at
    FROM river_job w
    WHERE w.queue = @queue::text AND w.state = 'available' AND NOT (w.id = ANY(@ids::bigint[]))
)
UPDATE river_job j
SET scheduled_at = least(head.at + (b.ord - 1) * interval '1 millisecond', clock_timestamp())
FROM head, unnest(@ids::bigint[]) WITH ORDINALITY AS b(id, ord)
WHERE j.id = b.id AND j.state = 'available';
