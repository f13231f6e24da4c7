-- name: CurrentSnapshot :one
-- The snapshot a polled read starts from: its version (internal/changes).
SELECT pg_current_snapshot()::text AS snapshot;

-- name: PollChanges :many
-- A polled read's first round trip, and a 304's only one: the snapshot the
-- read starts from (its own version), whether the assignment is the
-- team's, the team's result of @submission_id in it (functionResult/get;
-- the nil id when there is none or none was asked), and what changed in
-- the assignment that snapshot @since (the client's version) could not
-- see: the assignment row, its definition, its submissions and results
-- (written or deleted). One row per change, with kind and row_id; a row
-- with an empty kind when nothing changed or the assignment is not the team's
-- (nothing of it is listed then); xid is the transaction that wrote or
-- deleted the row (0 for an edit of the library rubric, which has none).
-- The changes are computed in the same
-- statement, so under the statement's own snapshot: exactly what happened
-- between the two versions. Rows written in one transaction after @since's
-- xmin are the only candidates, so the submission and result legs read an
-- index range, not the class.
WITH snap AS (SELECT CAST(sqlc.arg(since)::text AS pg_snapshot) AS s),
here AS (
  SELECT pg_current_snapshot()::text AS snapshot,
         EXISTS (SELECT 1 FROM assignments
                 WHERE id = sqlc.arg(assignment_id)::uuid AND team_id = sqlc.arg(team_id)::uuid) AS in_team,
         COALESCE((SELECT fr.id FROM function_results fr
                   WHERE fr.submission_id = sqlc.arg(submission_id)::uuid
                     AND fr.assignment_id = sqlc.arg(assignment_id)::uuid
                     AND fr.team_id = sqlc.arg(team_id)::uuid),
                  '00000000-0000-0000-0000-000000000000'::uuid)::uuid AS result_id
),
changed AS (
  SELECT 'assignment'::text AS kind, a.id AS row_id, a.changed_xid AS xid
  FROM snap, assignments a
  WHERE a.id = sqlc.arg(assignment_id)::uuid AND NOT pg_visible_in_snapshot(a.changed_xid, snap.s)
  UNION ALL
  SELECT 'function', f.id, f.changed_xid
  FROM snap, functions f
  WHERE f.assignment_id = sqlc.arg(assignment_id)::uuid AND NOT pg_visible_in_snapshot(f.changed_xid, snap.s)
  UNION ALL
  -- The library rubric the definition embeds carries no stamp: an edit of it
  -- counts when its updated_at (its transaction's start) is within a minute
  -- before the version's time or after it, a margin for transactions that
  -- started before the version and committed after it, and for clocks. It
  -- costs a few whole answers after a rubric edit, never a missed one.
  SELECT 'function', f.id, NULL::xid8
  FROM functions f
  JOIN rubrics r ON r.id = f.rubric_id AND r.team_id = f.team_id
  WHERE f.assignment_id = sqlc.arg(assignment_id)::uuid
    AND r.updated_at > sqlc.arg(since_at)::timestamptz - interval '1 minute'
  UNION ALL
  SELECT 'submission', s.id, s.changed_xid
  FROM snap, submissions s
  WHERE s.assignment_id = sqlc.arg(assignment_id)::uuid
    AND s.changed_xid >= pg_snapshot_xmin(snap.s)
    AND NOT pg_visible_in_snapshot(s.changed_xid, snap.s)
  UNION ALL
  SELECT 'function_result', r.id, r.changed_xid
  FROM snap, function_results r
  WHERE r.assignment_id = sqlc.arg(assignment_id)::uuid
    AND r.changed_xid >= pg_snapshot_xmin(snap.s)
    AND NOT pg_visible_in_snapshot(r.changed_xid, snap.s)
  UNION ALL
  SELECT 'deleted_' || d.kind, d.row_id, d.deleted_xid
  FROM snap, deleted_rows d
  WHERE d.assignment_id = sqlc.arg(assignment_id)::uuid
    AND d.deleted_xid >= pg_snapshot_xmin(snap.s)
    AND NOT pg_visible_in_snapshot(d.deleted_xid, snap.s)
)
SELECT here.snapshot, here.in_team, here.result_id,
       COALESCE(changed.kind, '')::text AS kind,
       COALESCE(changed.row_id, '00000000-0000-0000-0000-000000000000'::uuid)::uuid AS row_id,
       COALESCE(changed.xid::text, '0')::bigint AS xid
FROM here LEFT JOIN changed ON here.in_team;

-- name: PruneDeletedRows :execrows
-- Tombstones older than any version a client may still send (changes.MaxAge).
DELETE FROM deleted_rows WHERE deleted_at < @before;

-- name: CurrentSnapshotIn :one
-- CurrentSnapshot with whether the assignment is the team's, in one round
-- trip: a poll answers 404 for another team's assignment before it looks at
-- the version it was sent.
SELECT pg_current_snapshot()::text AS snapshot,
       EXISTS (SELECT 1 FROM assignments WHERE id = @assignment_id AND team_id = @team_id) AS in_team;

-- name: CurrentSnapshotForResult :one
-- CurrentSnapshot with the id of a submission's result in the team's
-- assignment (no row when there is none): functionResult/get's 304 check.
SELECT pg_current_snapshot()::text AS snapshot, fr.id
FROM function_results fr
WHERE fr.submission_id = @submission_id AND fr.assignment_id = @assignment_id AND fr.team_id = @team_id;

-- name: ListFunctionResultsChangedSince :many
-- The results of an assignment written after the version @since (a
-- pg_snapshot) could see, as they are now: a kept class's catch-up
-- (CatchUp) reads them in the round trip of its PollChanges.
SELECT * FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND changed_xid >= pg_snapshot_xmin(CAST(sqlc.arg(since)::text AS pg_snapshot))
  AND NOT pg_visible_in_snapshot(changed_xid, CAST(sqlc.arg(since)::text AS pg_snapshot))
ORDER BY created_at, id;
