-- +goose Up
-- The AI budget counts tokens as well as calls (per teacher and per team, in
-- the same fixed-window rate_counters): a team's daily tokens pass what an
-- integer holds long before a limit worth setting does.
ALTER TABLE rate_counters ALTER COLUMN count TYPE bigint;

-- +goose Down
ALTER TABLE rate_counters ALTER COLUMN count TYPE integer;
