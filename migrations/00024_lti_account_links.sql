-- +goose Up
-- A teacher's launch waiting to be linked to the Markwell account they
-- already have (same email, signed up another way): the launch's verified
-- claims, found again by the token in a cookie of the browser that launched
-- (internal/lti, docs/lti.md "A teacher who already has an account").
CREATE TABLE lti_account_links (
    token_hash  bytea PRIMARY KEY,
    platform_id uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    claims      jsonb NOT NULL,
    expires_at  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE lti_account_links;
