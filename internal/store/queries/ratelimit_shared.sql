-- name: HitSharedRateCounter :one
-- Counts one hit of a member on a quota the members of a group share, in
-- the fixed window that starts at window_start (package ratelimit,
-- Limiter.AllowShared): the member's own counter (member_key), the number of
-- distinct members seen in the window (members_key, one more on a member's
-- first hit), and the shared count (key), which is raised only while it is
-- under the quota, base + per_member × members, at most cap. A refused hit
-- leaves the shared count as it was, so hits past the quota do not eat the
-- room later members bring. Returns the members, the quota and whether the
-- hit was counted.
WITH member AS (
    INSERT INTO rate_counters (key, window_start, count, expires_at)
    VALUES (sqlc.arg(member_key)::text, sqlc.arg(window_start)::timestamptz, 1, sqlc.arg(expires_at)::timestamptz)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
    RETURNING count
), members AS (
    INSERT INTO rate_counters (key, window_start, count, expires_at)
    SELECT sqlc.arg(members_key)::text, sqlc.arg(window_start)::timestamptz,
           CASE WHEN member.count = 1 THEN 1 ELSE 0 END, sqlc.arg(expires_at)::timestamptz
    FROM member
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
    RETURNING count
), quota AS (
    SELECT LEAST(sqlc.arg(base)::bigint + sqlc.arg(per_member)::bigint * members.count, sqlc.arg(cap)::bigint) AS quota,
           members.count AS members
    FROM members
), total AS (
    INSERT INTO rate_counters (key, window_start, count, expires_at)
    SELECT sqlc.arg(key)::text, sqlc.arg(window_start)::timestamptz, 1, sqlc.arg(expires_at)::timestamptz
    FROM quota
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
    WHERE rate_counters.count < (SELECT quota.quota FROM quota)
    RETURNING count
)
SELECT quota.members::bigint AS members, quota.quota::bigint AS quota, EXISTS (SELECT 1 FROM total) AS allowed
FROM quota;
