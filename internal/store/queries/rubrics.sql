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

-- name: CountTeamRubrics :one
-- How many of the given ids are rubrics of the team.
SELECT count(*) FROM rubrics WHERE team_id = @team_id AND id = ANY(@ids::uuid[]);
