-- name: CountJobsByKindAndState :many
SELECT kind, state, count(*)::bigint AS jobs FROM river_job GROUP BY kind, state ORDER BY kind, state;
