-- name: AddAssignmentChange :exec
-- One saved change of an assignment or its definition (issue 19, item 2).
INSERT INTO assignment_changes (team_id, assignment_id, user_id, changes)
VALUES (@team_id, @assignment_id, @user_id, @changes);

-- name: ListAssignmentChanges :many
-- An assignment's history, newest first, with the teacher's current name.
SELECT c.id, c.user_id, c.changes, c.created_at, COALESCE(u.name, '')::text AS user_name,
       COALESCE(u.email, '')::text AS user_email
FROM assignment_changes c
LEFT JOIN users u ON u.id = c.user_id
WHERE c.assignment_id = @assignment_id AND c.team_id = @team_id
ORDER BY c.created_at DESC, c.id
LIMIT 500;

-- name: LockAssignmentResultAnswers :many
-- The results of an assignment whose answers a definition change reshapes,
-- locked for the change's transaction.
SELECT id, answers, graded_parts, graded_at FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY id
FOR UPDATE;

-- name: SetResultAnswers :exec
UPDATE function_results SET answers = @answers
WHERE id = @id AND team_id = @team_id;

-- name: BackfillGradedParts :exec
-- Results graded before their definition's parts were fingerprinted are
-- taken as graded against the definition being replaced.
UPDATE function_results SET graded_parts = @graded_parts
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND graded_parts IS NULL AND graded_at IS NOT NULL;

-- name: AddRubricChangeToUsers :execrows
-- A saved rubric's change goes into the history of every assignment of the
-- team whose definition uses it (as LibraryRubricUsers finds them).
INSERT INTO assignment_changes (team_id, assignment_id, user_id, changes)
SELECT f.team_id, f.assignment_id, sqlc.narg(user_id)::uuid, @changes
FROM functions f
WHERE f.team_id = @team_id
  AND (f.rubric_id = @rubric_id::uuid
       OR EXISTS (SELECT 1 FROM jsonb_path_query(f.questions, 'lax $.**.rubricId') AS q(v)
                  WHERE lower(btrim(q.v #>> '{}')) = (@rubric_id::uuid)::text));
