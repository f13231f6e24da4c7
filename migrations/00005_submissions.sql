-- +goose Up
-- Submissions as the teacher sees them: queued → extracting → ready, or
-- failed with a reason a teacher understands.
ALTER TABLE submissions DROP CONSTRAINT submissions_extract_status_check;
UPDATE submissions SET extract_status = CASE extract_status
    WHEN 'pending' THEN 'queued' WHEN 'done' THEN 'ready' ELSE extract_status END;
ALTER TABLE submissions ALTER COLUMN extract_status SET DEFAULT 'queued';
ALTER TABLE submissions ADD CONSTRAINT submissions_extract_status_check
    CHECK (extract_status IN ('queued', 'extracting', 'ready', 'failed'));

ALTER TABLE submissions
    -- how it arrived: a teacher's upload, a CSV row, a student link, Google Classroom
    ADD COLUMN source text NOT NULL DEFAULT 'upload'
        CHECK (source IN ('upload', 'csv', 'student', 'google')),
    -- the reader the client asked for ('textract', 'pdf', 'image' or ''); a
    -- hint only: the file's bytes decide
    ADD COLUMN reader_hint text NOT NULL DEFAULT '',
    ADD COLUMN is_hand_written boolean NOT NULL DEFAULT false,
    -- [{"text": …, "source": "text-layer" | "ocr" | "vision" | …}], one per page
    ADD COLUMN pages jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN page_count integer NOT NULL DEFAULT 0,
    -- how many times an extraction was written (exactly once, proven by the crash test)
    ADD COLUMN extract_writes integer NOT NULL DEFAULT 0,
    -- a CSV row's answers, one per mapped question: [{"question": 0, "text": …}]
    ADD COLUMN csv_answers jsonb,
    -- SHA-256 of the per-submission token handed to a student at submission
    -- time; it authorises the view-only calls of the result page
    ADD COLUMN view_token_hash bytea,
    -- an id in the source system (a Google Classroom submission and attachment),
    -- so an import run twice never duplicates
    ADD COLUMN external_id text,
    ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
CREATE UNIQUE INDEX submissions_external_id_idx ON submissions (assignment_id, external_id)
    WHERE external_id IS NOT NULL;
CREATE UNIQUE INDEX submissions_view_token_hash_idx ON submissions (view_token_hash)
    WHERE view_token_hash IS NOT NULL;
CREATE INDEX submissions_assignment_created_idx ON submissions (assignment_id, created_at);

-- The student submission link: an unguessable token the teacher can copy,
-- turn off and rotate; the answer-box template of handwritten grade
-- assignments: [{"path": [0, 1], "page": 0, "x": …, "y": …, "width": …, "height": …}]
-- in fractions of the page.
ALTER TABLE assignments
    ADD COLUMN student_link_token text UNIQUE,
    ADD COLUMN student_link_enabled boolean NOT NULL DEFAULT false,
    ADD COLUMN answer_boxes jsonb NOT NULL DEFAULT '[]';

-- Every signed upload URL handed out, so a submission's location can be
-- proven to be a key this team (or this assignment's student link) uploaded.
CREATE TABLE blob_uploads (
    key            text PRIMARY KEY,
    team_id        uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id  uuid REFERENCES assignments (id) ON DELETE CASCADE,
    user_id        uuid REFERENCES users (id) ON DELETE SET NULL,
    -- issued through a student link rather than to a signed-in teacher
    by_student     boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blob_uploads_assignment_id_idx ON blob_uploads (assignment_id);

-- A teacher's Google token for Classroom import, encrypted with the
-- server's key (AES-GCM); asked for only when the teacher connects Classroom.
CREATE TABLE google_tokens (
    user_id           uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    encrypted_token   bytea NOT NULL,
    scopes            text NOT NULL DEFAULT '',
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE google_tokens;
DROP TABLE blob_uploads;
ALTER TABLE assignments DROP COLUMN answer_boxes, DROP COLUMN student_link_enabled,
    DROP COLUMN student_link_token;
DROP INDEX submissions_assignment_created_idx;
DROP INDEX submissions_view_token_hash_idx;
DROP INDEX submissions_external_id_idx;
ALTER TABLE submissions DROP COLUMN updated_at, DROP COLUMN external_id, DROP COLUMN view_token_hash,
    DROP COLUMN csv_answers, DROP COLUMN extract_writes, DROP COLUMN page_count, DROP COLUMN pages,
    DROP COLUMN is_hand_written, DROP COLUMN reader_hint, DROP COLUMN source;
ALTER TABLE submissions DROP CONSTRAINT submissions_extract_status_check;
UPDATE submissions SET extract_status = CASE extract_status
    WHEN 'queued' THEN 'pending' WHEN 'ready' THEN 'done' ELSE extract_status END;
ALTER TABLE submissions ALTER COLUMN extract_status SET DEFAULT 'pending';
ALTER TABLE submissions ADD CONSTRAINT submissions_extract_status_check
    CHECK (extract_status IN ('pending', 'extracting', 'done', 'failed'));
