-- name: CreateAssistant :one
INSERT INTO assistants (team_id, created_by, title, description, system_prompt, initial_message, image_url, file_data)
VALUES (@team_id, @created_by, @title, @description, @system_prompt, @initial_message, @image_url, @file_data)
RETURNING *;

-- name: UpdateAssistant :one
UPDATE assistants
SET title = @title, description = @description, system_prompt = @system_prompt,
    initial_message = @initial_message, image_url = @image_url, file_data = @file_data, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: GetAssistant :one
SELECT * FROM assistants WHERE id = @id AND team_id = @team_id;

-- name: DeleteAssistant :execrows
DELETE FROM assistants WHERE id = @id AND team_id = @team_id;

-- name: ListAssistants :many
-- The team's saved assistants and the user's own, newest first.
SELECT sqlc.embed(a), (s.assistant_id IS NOT NULL)::boolean AS is_saved
FROM assistants a
LEFT JOIN team_saved_assistants s ON s.assistant_id = a.id AND s.team_id = a.team_id
WHERE a.team_id = @team_id AND (s.assistant_id IS NOT NULL OR a.created_by = @user_id::uuid)
ORDER BY a.created_at DESC, a.id DESC;

-- name: AssistantIsSaved :one
SELECT EXISTS (SELECT 1 FROM team_saved_assistants WHERE team_id = @team_id AND assistant_id = @assistant_id);

-- name: SaveTeamAssistant :exec
INSERT INTO team_saved_assistants (team_id, assistant_id) VALUES (@team_id, @assistant_id)
ON CONFLICT DO NOTHING;

-- name: UnsaveTeamAssistant :exec
DELETE FROM team_saved_assistants WHERE team_id = @team_id AND assistant_id = @assistant_id;
