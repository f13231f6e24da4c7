-- +goose Up
-- A chat remembers the built-in tool or workflow it is with (package
-- catalog: "lesson-planner", "lesson-plan" …); '' for a document chat or a
-- chat with an assistant.
ALTER TABLE chats ADD COLUMN tool_id text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE chats DROP COLUMN tool_id;
