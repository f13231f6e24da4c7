-- +goose Up
-- A submission's result released to its student (package release): a
-- private link PUBLIC_URL/results/<token> that opens that result page, and
-- the email that carried it. The token is never stored: token_hash
-- (SHA-256) finds the release, and the teacher's copy of the link is the
-- HMAC of token_nonce under a key derived from SECRET_KEY, so a database
-- dump alone opens nothing. One row per submission; revoking sets
-- revoked_at (the link is dead at once), releasing again after that draws a
-- new nonce (a new link).
CREATE TABLE releases (
    submission_id uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    team_id       uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    token_nonce   bytea NOT NULL,
    token_hash    bytea NOT NULL,
    released_at   timestamptz NOT NULL DEFAULT now(),
    released_by   uuid REFERENCES users (id) ON DELETE SET NULL,
    revoked_at    timestamptz,
    -- none: never emailed; queued: a send_result_email job waits; sent,
    -- bounced (the server refused the recipient for good), failed (out of
    -- retries, or the address was unusable)
    email_state   text NOT NULL DEFAULT 'none'
                  CHECK (email_state IN ('none', 'queued', 'sent', 'bounced', 'failed')),
    email_error   text NOT NULL DEFAULT '',
    emailed_at    timestamptz
);
CREATE UNIQUE INDEX releases_token_hash_idx ON releases (token_hash);
CREATE INDEX releases_assignment_idx ON releases (assignment_id, team_id);

-- +goose Down
DROP TABLE releases;
