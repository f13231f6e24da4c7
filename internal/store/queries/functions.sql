-- name: CreateFunction :one
-- One function per assignment: a second insert returns no row.
INSERT INTO functions (team_id, assignment_id, type, highlights, context, questions, rubric_id, prompt)
VALUES (@team_id, @assignment_id, @type, @highlights, @context, @questions, @rubric_id, @prompt)
ON CONFLICT (assignment_id) DO NOTHING
RETURNING *;

-- name: UpdateFunction :one
UPDATE functions
SET highlights = @highlights, context = @context, questions = @questions,
    rubric_id = @rubric_id, prompt = @prompt, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: GetFunction :one
SELECT * FROM functions WHERE id = @id AND team_id = @team_id;

-- name: GetAssignmentFunction :one
SELECT * FROM functions WHERE assignment_id = @assignment_id AND team_id = @team_id;
