-- name: HitRateCounter :one
-- Adds n to the counter of key in the window that starts at window_start
-- and returns the new count.
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (@key, @window_start, @n, @expires_at)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
RETURNING count;

-- name: PurgeRateCounters :execrows
DELETE FROM rate_counters WHERE expires_at < @now;

-- name: TakeRateCounter :one
-- Adds n to the counter of key in the window that starts at window_start
-- only if the count stays at most @max, and returns the new count; no row
-- when it would not (the caller checks n <= @max itself).
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (@key, @window_start, @n, @expires_at)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
WHERE rate_counters.count + EXCLUDED.count <= @max::bigint
RETURNING count;

-- name: RateCounter :one
-- The count of key in the window that starts at window_start (0 when none).
SELECT coalesce((SELECT count FROM rate_counters WHERE key = @key AND window_start = @window_start), 0)::bigint AS count;
