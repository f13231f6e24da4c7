-- name: CreateTeam :one
INSERT INTO teams (name) VALUES (@name) RETURNING *;

-- name: CreateUser :one
INSERT INTO users (email, name, email_verified, team_id)
VALUES (@email, @name, @email_verified, @team_id)
RETURNING *;
