-- +goose Up
-- LTI 1.3: Markwell as a tool inside a school's LMS (internal/lti, docs/lti.md).

-- Markwell's own signing keys (RS256). The private key is sealed with a key
-- derived from SECRET_KEY; the newest unretired key signs, retired ones stay
-- in the JWKS for a while so platforms holding a cached copy keep verifying.
CREATE TABLE lti_keys (
    kid            text PRIMARY KEY,
    private_sealed bytea NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    retired_at     timestamptz
);

-- The platforms an operator registered: only their URLs are ever fetched.
CREATE TABLE lti_platforms (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name           text NOT NULL DEFAULT '',
    issuer         text NOT NULL,
    client_id      text NOT NULL,
    deployment_ids text[] NOT NULL DEFAULT '{}',
    auth_login_url text NOT NULL,
    token_url      text NOT NULL,
    jwks_url       text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (issuer, client_id)
);

-- One OIDC login under way: its state (hashed; the browser's cookie holds
-- it) and nonce, used once by the launch that follows.
CREATE TABLE lti_logins (
    state_hash  bytea PRIMARY KEY,
    nonce       text NOT NULL,
    platform_id uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL
);

-- A course (context) of a platform and the team it is linked to.
CREATE TABLE lti_contexts (
    platform_id uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    context_id  text NOT NULL,
    team_id     uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    title       text NOT NULL DEFAULT '',
    PRIMARY KEY (platform_id, context_id)
);

-- A resource link (an activity in the course) and the assignment it opens,
-- with the service endpoints its last verified launch carried.
CREATE TABLE lti_links (
    platform_id      uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    resource_link_id text NOT NULL,
    team_id          uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id    uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    context_id       text NOT NULL DEFAULT '',
    deployment_id    text NOT NULL DEFAULT '',
    lineitems_url    text NOT NULL DEFAULT '',
    lineitem_url     text NOT NULL DEFAULT '',
    ags_scopes       text[] NOT NULL DEFAULT '{}',
    nrps_url         text NOT NULL DEFAULT '',
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (platform_id, resource_link_id)
);
CREATE INDEX lti_links_assignment_idx ON lti_links (assignment_id);

-- A pupil's verified launch: the token in the student page's address lets
-- that page submit as them (name, email and LTI details from the launch).
CREATE TABLE lti_learners (
    token_hash    bytea PRIMARY KEY,
    assignment_id uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    name          text NOT NULL,
    email         text NOT NULL,
    details       jsonb NOT NULL,
    expires_at    timestamptz NOT NULL
);

-- A teacher's deep-linking request waiting for them to pick an assignment.
CREATE TABLE lti_deep_links (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    platform_id   uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    team_id       uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    deployment_id text NOT NULL,
    return_url    text NOT NULL,
    data          text NOT NULL DEFAULT '',
    line_item     boolean NOT NULL DEFAULT false,
    expires_at    timestamptz NOT NULL
);

-- Each released LTI submission's score for the platform's gradebook: what
-- is sent, and the platform's answer as a sentence.
CREATE TABLE lti_scores (
    submission_id    uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    team_id          uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id    uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    platform_id      uuid NOT NULL REFERENCES lti_platforms (id) ON DELETE CASCADE,
    resource_link_id text NOT NULL,
    user_sub         text NOT NULL,
    student_name     text NOT NULL DEFAULT '',
    score            double precision NOT NULL,
    max_score        double precision NOT NULL,
    comment          text NOT NULL DEFAULT '',
    state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'skipped')),
    error            text NOT NULL DEFAULT '',
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lti_scores_assignment_idx ON lti_scores (assignment_id);

-- +goose Down
DROP TABLE lti_scores;
DROP TABLE lti_deep_links;
DROP TABLE lti_learners;
DROP TABLE lti_links;
DROP TABLE lti_contexts;
DROP TABLE lti_logins;
DROP TABLE lti_platforms;
DROP TABLE lti_keys;
