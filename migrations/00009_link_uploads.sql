-- +goose Up
-- A student link's generation: 1 for every link as it is now, one more each
-- time the link is rotated or turned off. An upload belongs to the
-- generation that signed it, so a file uploaded through a link that was
-- rotated or turned off since cannot be submitted through the new one
-- (package studentlink). The trigger below keeps the count, whichever
-- statement rotates or turns off the link.
ALTER TABLE assignments ADD COLUMN student_link_generation integer NOT NULL DEFAULT 1;

-- +goose StatementBegin
CREATE FUNCTION assignments_bump_student_link_generation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- A new token replacing one (a rotation, not the link's first token),
    -- or the link going from on to off.
    IF (OLD.student_link_token IS NOT NULL AND NEW.student_link_token IS DISTINCT FROM OLD.student_link_token)
       OR (OLD.student_link_enabled AND NOT NEW.student_link_enabled) THEN
        NEW.student_link_generation := OLD.student_link_generation + 1;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER assignments_student_link_generation
    BEFORE UPDATE OF student_link_token, student_link_enabled ON assignments
    FOR EACH ROW EXECUTE FUNCTION assignments_bump_student_link_generation();

-- Every upload signed through a student link: which generation of the link
-- signed it and for which client address. The periodic job
-- purge_link_uploads deletes the file and its records once it is a day old
-- and no submission names it, and forgets the address of the ones that were
-- submitted.
CREATE TABLE link_uploads (
    key              text PRIMARY KEY REFERENCES blob_uploads (key) ON DELETE CASCADE,
    assignment_id    uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    link_generation  integer NOT NULL,
    addr             text NOT NULL DEFAULT '',
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_uploads_created_at_idx ON link_uploads (created_at);
CREATE INDEX link_uploads_assignment_id_idx ON link_uploads (assignment_id);

-- The link uploads made before this migration belong to today's links.
INSERT INTO link_uploads (key, assignment_id, link_generation, created_at)
SELECT key, assignment_id, 1, created_at FROM blob_uploads
WHERE by_student AND assignment_id IS NOT NULL;

-- +goose Down
DROP TABLE link_uploads;
DROP TRIGGER assignments_student_link_generation ON assignments;
DROP FUNCTION assignments_bump_student_link_generation();
ALTER TABLE assignments DROP COLUMN student_link_generation;
