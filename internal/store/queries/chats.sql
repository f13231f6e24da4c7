-- name: CreateChat :one
INSERT INTO chats (team_id, user_id, assistant_id, tool_id, messages, document, past_documents)
VALUES (@team_id, @user_id, sqlc.narg(assistant_id), @tool_id, @messages, @document, @past_documents)
RETURNING *;

-- name: UpdateChat :one
-- Only the chat's own teacher, in the team it was made in, updates it. A
-- null assistant or an empty tool keeps the chat's own.
UPDATE chats
SET assistant_id = COALESCE(sqlc.narg(assistant_id), assistant_id),
    tool_id = COALESCE(NULLIF(@tool_id::text, ''), tool_id), messages = @messages, document = @document,
    past_documents = @past_documents, updated_at = now()
WHERE id = @id AND user_id = @user_id AND team_id = @team_id
RETURNING *;

-- name: ListChats :many
-- The teacher's chats in their team, most recently saved first.
SELECT * FROM chats WHERE user_id = @user_id AND team_id = @team_id
ORDER BY updated_at DESC, id DESC
LIMIT @max_chats;

-- name: DeleteChat :execrows
DELETE FROM chats WHERE id = @id AND user_id = @user_id AND team_id = @team_id;
