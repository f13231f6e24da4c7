-- +goose Up
-- Every change a poll counts (00022) is also announced on the channel
-- markwell_changes as "<assignment id> <writing transaction's id>", so an
-- API process that LISTENs can answer a poll of a class nobody touched with
-- a 304 without asking the database (internal/changes, Clock). PostgreSQL
-- sends a transaction's notifications when it commits and sends identical
-- ones once, so a transaction that writes 300 results of one class sends
-- one. The library rubric a definition embeds, and the deletion of an
-- assignment or its definition, announce the assignments they touch too.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION stamp_changed_xid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    IF TG_TABLE_NAME = 'assignments' THEN
        PERFORM pg_notify('markwell_changes', NEW.id::text || ' ' || NEW.changed_xid::text);
    ELSE
        PERFORM pg_notify('markwell_changes', NEW.assignment_id::text || ' ' || NEW.changed_xid::text);
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION record_deleted_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO deleted_rows (assignment_id, row_id, kind) VALUES (OLD.assignment_id, OLD.id, TG_ARGV[0]);
    PERFORM pg_notify('markwell_changes', OLD.assignment_id::text || ' ' || pg_current_xact_id()::text);
    RETURN OLD;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION notify_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'assignments' THEN
        PERFORM pg_notify('markwell_changes', OLD.id::text || ' ' || pg_current_xact_id()::text);
    ELSE
        PERFORM pg_notify('markwell_changes', OLD.assignment_id::text || ' ' || pg_current_xact_id()::text);
    END IF;
    RETURN OLD;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION notify_rubric_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('markwell_changes', f.assignment_id::text || ' ' || pg_current_xact_id()::text)
    FROM functions f WHERE f.rubric_id = OLD.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER assignments_deleted AFTER DELETE ON assignments
    FOR EACH ROW EXECUTE FUNCTION notify_deleted();
CREATE TRIGGER functions_deleted AFTER DELETE ON functions
    FOR EACH ROW EXECUTE FUNCTION notify_deleted();
CREATE TRIGGER rubrics_changed AFTER UPDATE OR DELETE ON rubrics
    FOR EACH ROW EXECUTE FUNCTION notify_rubric_changed();

-- +goose Down
DROP TRIGGER rubrics_changed ON rubrics;
DROP TRIGGER functions_deleted ON functions;
DROP TRIGGER assignments_deleted ON assignments;
DROP FUNCTION notify_rubric_changed();
DROP FUNCTION notify_deleted();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION stamp_changed_xid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION record_deleted_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO deleted_rows (assignment_id, row_id, kind) VALUES (OLD.assignment_id, OLD.id, TG_ARGV[0]);
    RETURN OLD;
END
$$;
-- +goose StatementEnd
