-- name: CreateAssignment :one
INSERT INTO assignments (team_id, name, type, is_hand_written, provide_instant_feedback, created_by)
VALUES (@team_id, @name, @type, @is_hand_written, @provide_instant_feedback, @created_by)
RETURNING *;
