-- +goose Up
-- "Allow resubmission", set where the student link is: off (the default), a
-- student submits through the link once; on, each later submission is kept
-- as the next attempt, linked to the one before.
ALTER TABLE assignments ADD COLUMN allow_resubmission boolean NOT NULL DEFAULT false;

ALTER TABLE submissions
    -- 1 for the first submission of a student through the link (and for
    -- every other submission), 2 for their second, …
    ADD COLUMN attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
    -- the student's attempt before this one; a deleted attempt unlinks
    ADD COLUMN previous_submission_id uuid REFERENCES submissions (id) ON DELETE SET NULL,
    -- who submitted through the link: their email in lower case, or
    -- 'name:' and their name in lower case with spaces collapsed when there
    -- is no email (package studentlink, studentKey); NULL for submissions
    -- that did not come through the link
    ADD COLUMN student_key text;

-- The link's submissions so far, numbered per student in the order they came.
WITH keyed AS (
    SELECT id, assignment_id, created_at,
           CASE WHEN btrim(student_email) <> '' THEN lower(btrim(student_email))
                ELSE 'name:' || lower(regexp_replace(btrim(student_name), '\s+', ' ', 'g')) END AS key
    FROM submissions
    WHERE source = 'student' AND (btrim(student_email) <> '' OR btrim(student_name) <> '')
), numbered AS (
    SELECT id, key, row_number() OVER w AS attempt, lag(id) OVER w AS previous
    FROM keyed
    WINDOW w AS (PARTITION BY assignment_id, key ORDER BY created_at, id)
)
UPDATE submissions s SET student_key = n.key, attempt = n.attempt, previous_submission_id = n.previous
FROM numbered n WHERE s.id = n.id;

-- One submission per student and attempt: two first submissions of one
-- student sent at the same moment cannot both be kept.
CREATE UNIQUE INDEX submissions_student_attempt_idx ON submissions (assignment_id, student_key, attempt)
    WHERE student_key IS NOT NULL;
CREATE INDEX submissions_previous_submission_id_idx ON submissions (previous_submission_id)
    WHERE previous_submission_id IS NOT NULL;

-- +goose Down
DROP INDEX submissions_previous_submission_id_idx;
DROP INDEX submissions_student_attempt_idx;
ALTER TABLE submissions DROP COLUMN student_key, DROP COLUMN previous_submission_id, DROP COLUMN attempt;
ALTER TABLE assignments DROP COLUMN allow_resubmission;
