-- +goose Up
-- What changed in an assignment since a reader last looked (issue 23).
-- Every write to an assignment, its definition (functions), its submissions
-- or its results stamps the row with the writing transaction's id
-- (changed_xid); a deleted submission or result leaves a tombstone. A read
-- takes pg_current_snapshot() first and hands it to the client as its
-- version (the ETag); the next poll asks for the rows whose changed_xid that
-- snapshot could not see. That is exact under any commit order (no counter
-- to take a lock on, no transaction that commits "late" with a smaller
-- number) and costs a writer nothing but the stamp. Rows written before this
-- migration carry 0, which every snapshot sees.
-- +goose StatementBegin
CREATE FUNCTION stamp_changed_xid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION record_deleted_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO deleted_rows (assignment_id, row_id, kind) VALUES (OLD.assignment_id, OLD.id, TG_ARGV[0]);
    RETURN OLD;
END
$$;
-- +goose StatementEnd

ALTER TABLE assignments ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE functions ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE submissions ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';
ALTER TABLE function_results ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';

CREATE TRIGGER assignments_changed BEFORE INSERT OR UPDATE ON assignments
    FOR EACH ROW EXECUTE FUNCTION stamp_changed_xid();
CREATE TRIGGER functions_changed BEFORE INSERT OR UPDATE ON functions
    FOR EACH ROW EXECUTE FUNCTION stamp_changed_xid();
CREATE TRIGGER submissions_changed BEFORE INSERT OR UPDATE ON submissions
    FOR EACH ROW EXECUTE FUNCTION stamp_changed_xid();
CREATE TRIGGER function_results_changed BEFORE INSERT OR UPDATE ON function_results
    FOR EACH ROW EXECUTE FUNCTION stamp_changed_xid();

-- A poll reads only the rows written since the oldest transaction its
-- snapshot could not see: (assignment, changed_xid >= snapshot's xmin).
CREATE INDEX submissions_changed_idx ON submissions (assignment_id, changed_xid);
CREATE INDEX function_results_changed_idx ON function_results (assignment_id, changed_xid);

-- Tombstones of deleted submissions and results. No foreign key: a deleted
-- assignment's cascade writes them too, and they are pruned by age
-- (changes.Prune); a client whose version is older than the newest pruned
-- tombstone gets the whole answer again.
CREATE TABLE deleted_rows (
    assignment_id uuid NOT NULL,
    row_id        uuid NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('submission', 'function_result')),
    deleted_xid   xid8 NOT NULL DEFAULT pg_current_xact_id(),
    deleted_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deleted_rows_assignment_idx ON deleted_rows (assignment_id, deleted_xid);
CREATE INDEX deleted_rows_deleted_at_idx ON deleted_rows (deleted_at);

CREATE TRIGGER submissions_deleted AFTER DELETE ON submissions
    FOR EACH ROW EXECUTE FUNCTION record_deleted_row('submission');
CREATE TRIGGER function_results_deleted AFTER DELETE ON function_results
    FOR EACH ROW EXECUTE FUNCTION record_deleted_row('function_result');

-- +goose Down
DROP TRIGGER function_results_deleted ON function_results;
DROP TRIGGER submissions_deleted ON submissions;
DROP TABLE deleted_rows;
DROP TRIGGER function_results_changed ON function_results;
DROP TRIGGER submissions_changed ON submissions;
DROP TRIGGER functions_changed ON functions;
DROP TRIGGER assignments_changed ON assignments;
ALTER TABLE function_results DROP COLUMN changed_xid;
ALTER TABLE submissions DROP COLUMN changed_xid;
ALTER TABLE functions DROP COLUMN changed_xid;
ALTER TABLE assignments DROP COLUMN changed_xid;
DROP FUNCTION record_deleted_row();
DROP FUNCTION stamp_changed_xid();
