-- +goose Up
-- OAuth sign-in attempts, kept server-side between the redirect to the
-- provider and its callback. The browser holds the state; the row holds its
-- SHA-256 with the nonce and PKCE verifier. A callback consumes its row with
-- DELETE … RETURNING, so a state works once.
CREATE TABLE signin_attempts (
    state_hash     bytea PRIMARY KEY,
    provider       text NOT NULL,
    nonce          text NOT NULL,
    code_verifier  text NOT NULL,
    callback_url   text NOT NULL,
    expires_at     timestamptz NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signin_attempts_expires_at_idx ON signin_attempts (expires_at);

-- Sign-in looks up pending invites by email alone.
CREATE INDEX team_invites_pending_email_idx ON team_invites (lower(email)) WHERE accepted_at IS NULL;

-- +goose Down
DROP INDEX team_invites_pending_email_idx;
DROP TABLE signin_attempts;
