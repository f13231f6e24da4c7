-- +goose Up
-- The SHA-256 of a submission's file (lower-case hex), written by the
-- extraction job when it reads the file; NULL until then and for rows
-- without a file. The upload screen compares the files a teacher picks with
-- these, so a folder uploaded again adds only what is not there yet.
ALTER TABLE submissions ADD COLUMN content_sha256 text;
CREATE INDEX submissions_assignment_content_sha256 ON submissions (assignment_id, content_sha256)
    WHERE content_sha256 IS NOT NULL;

-- +goose Down
DROP INDEX submissions_assignment_content_sha256;
ALTER TABLE submissions DROP COLUMN content_sha256;
