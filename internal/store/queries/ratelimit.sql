-- name: HitRateCounter :one
-- Adds n to the counter of key in the window that starts at window_start
-- and returns the new count.
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (@key, @window_start, @n, @expires_at)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
RETURNING count;

-- name: PurgeRateCounters :execrows
DELETE FROM rate_counters WHERE expires_at < @now;
