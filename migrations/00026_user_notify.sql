-- +goose Up
-- A change to a user or to one of their sessions (a sign-out, a team
-- change, a session's data, the user deleted) is announced on the channel
-- markwell_changes as "user <user id>", so an API process that LISTENs
-- (internal/changes, Clock) can keep a looked-up session past
-- SessionCacheTTL until something about its user is announced
-- (internal/auth, sessionCache), and forget it at once when it is. A
-- transaction's identical notifications are sent once, so deleting a
-- user's expired sessions announces the user once.
-- +goose StatementBegin
CREATE FUNCTION notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('markwell_changes', 'user ' || OLD.id::text);
    ELSE
        PERFORM pg_notify('markwell_changes', 'user ' || OLD.user_id::text);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION notify_user_changed();
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION notify_user_changed();

-- +goose Down
DROP TRIGGER sessions_changed ON sessions;
DROP TRIGGER users_changed ON users;
DROP FUNCTION notify_user_changed();
