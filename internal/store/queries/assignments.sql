-- name: CreateAssignment :one
INSERT INTO assignments (team_id, name, type, is_hand_written, provide_instant_feedback, created_by)
VALUES (@team_id, @name, @type, @is_hand_written, @provide_instant_feedback, @created_by)
RETURNING *;

-- name: UpdateAssignment :one
UPDATE assignments
SET name = @name, is_hand_written = @is_hand_written,
    provide_instant_feedback = @provide_instant_feedback, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: GetAssignment :one
SELECT * FROM assignments WHERE id = @id AND team_id = @team_id;

-- name: TouchAssignment :exec
UPDATE assignments SET updated_at = now() WHERE id = @id AND team_id = @team_id;

-- name: AssignmentSubmissionIDs :many
SELECT id FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;

-- name: ListAssignmentFunctionResults :many
SELECT * FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;

-- name: GetAssignmentWithSubmissionIDs :one
-- An assignment and the ids of its submissions (AssignmentSubmissionIDs'
-- order) in one round trip: assignment/get and the status poll read it.
SELECT sqlc.embed(a),
       ARRAY(SELECT s.id FROM submissions s
             WHERE s.assignment_id = a.id AND s.team_id = a.team_id
             ORDER BY s.created_at, s.id)::uuid[] AS submission_ids
FROM assignments a
WHERE a.id = @id AND a.team_id = @team_id;

-- name: GetAssignmentWithFunction :one
-- GetAssignmentWithSubmissionIDs with the assignment's definition and what
-- the AI has cost it (AssignmentUsageTotals' sums, in the same order), for
-- assignment/get: a poll's delta needs no statement of its own for the
-- totals. No row when the assignment or its definition is missing.
SELECT sqlc.embed(a),
       ARRAY(SELECT s.id FROM submissions s
             WHERE s.assignment_id = a.id AND s.team_id = a.team_id
             ORDER BY s.created_at, s.id)::uuid[] AS submission_ids,
       sqlc.embed(f),
       u.calls::bigint AS usage_calls, u.prompt_tokens::bigint AS usage_prompt_tokens,
       u.cached_prompt_tokens::bigint AS usage_cached_prompt_tokens,
       u.completion_tokens::bigint AS usage_completion_tokens, u.cost_usd::float8 AS usage_cost_usd
FROM assignments a
JOIN functions f ON f.assignment_id = a.id AND f.team_id = a.team_id
CROSS JOIN LATERAL (
  SELECT coalesce(sum(r.model_calls), 0) AS calls,
         coalesce(sum(r.prompt_tokens), 0) AS prompt_tokens,
         coalesce(sum(r.cached_prompt_tokens), 0) AS cached_prompt_tokens,
         coalesce(sum(r.completion_tokens), 0) AS completion_tokens,
         coalesce(sum(r.cost_usd ORDER BY r.created_at, r.id), 0) AS cost_usd
  FROM function_results r
  WHERE r.assignment_id = a.id AND r.team_id = a.team_id
) u
WHERE a.id = @id AND a.team_id = @team_id;

-- name: ListAssignmentResultsForTable :many
-- ListAssignmentFunctionResults with what the submissions table shows and
-- scores (status, error, flags, dates, answers and criteria), not the
-- feedback, highlights or usage: submission-rows reads a whole class so.
SELECT id, submission_id, status, error, flags, is_benchmark, answers,
       criteria_levels, criteria_points, graded_at, reviewed_at, graded_parts, created_at
FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;

-- name: ListAssignmentFunctionResultsByIDs :many
-- ListAssignmentFunctionResults restricted to some results: a poll's delta.
SELECT * FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id AND id = ANY(@ids::uuid[])
ORDER BY created_at, id;

-- name: AssignmentUsageTotals :one
-- What the AI has cost the assignment, summed in the order assignment/get's
-- full answer sums it (so a delta's totals equal the full answer's). Only the
-- float cost needs that order; the integer sums are exact in any order and
-- each ordered aggregate is a sort of its own in PostgreSQL 15 (five sorts
-- were most of the statement's time for a batch of 300).
SELECT coalesce(sum(model_calls), 0)::bigint AS calls,
       coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens,
       coalesce(sum(cached_prompt_tokens), 0)::bigint AS cached_prompt_tokens,
       coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens,
       coalesce(sum(cost_usd ORDER BY created_at, id), 0)::float8 AS cost_usd
FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id;
