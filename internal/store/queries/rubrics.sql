-- name: CreateRubric :one
INSERT INTO rubrics (team_id, name, criteria, created_by)
VALUES (@team_id, @name, @criteria, @created_by)
RETURNING *;

-- name: UpdateRubric :one
UPDATE rubrics SET name = @name, criteria = @criteria, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: GetRubric :one
SELECT * FROM rubrics WHERE id = @id AND team_id = @team_id;

-- name: ListRubrics :many
SELECT * FROM rubrics WHERE team_id = @team_id ORDER BY created_at DESC, id DESC;

-- name: LockTeamRubrics :many
-- The given ids that are rubrics of the team, each locked against deletion
-- (LibraryLockRubric) until the transaction ends: a definition that names
-- them reads them through this.
SELECT id FROM rubrics WHERE team_id = @team_id AND id = ANY(@ids::uuid[]) FOR KEY SHARE;
