-- Google Classroom import (internal/classroom): a teacher's Google token,
-- encrypted by the caller, and the ids of what an import already brought in.

-- name: GetGoogleToken :one
SELECT * FROM google_tokens WHERE user_id = @user_id;

-- name: UpsertGoogleToken :exec
INSERT INTO google_tokens (user_id, encrypted_token, scopes, updated_at)
VALUES (@user_id, @encrypted_token, @scopes, now())
ON CONFLICT (user_id) DO UPDATE
SET encrypted_token = EXCLUDED.encrypted_token, scopes = EXCLUDED.scopes, updated_at = now();

-- name: DeleteGoogleToken :exec
DELETE FROM google_tokens WHERE user_id = @user_id;

-- name: ImportedExternalIDs :many
-- Which of the given external ids the assignment already has.
SELECT external_id::text FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND external_id = ANY(@external_ids::text[]);
