-- +goose Up
-- Markwell's schema for the whole product. Every team-owned row carries
-- team_id so that every query can be scoped to the signed-in user's team.

CREATE TABLE teams (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name        text NOT NULL,
    owner_id    uuid,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email           text NOT NULL,
    email_verified  boolean NOT NULL DEFAULT false,
    name            text NOT NULL DEFAULT '',
    image           text NOT NULL DEFAULT '',
    team_id         uuid REFERENCES teams (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_team_id_idx ON users (team_id);

ALTER TABLE teams ADD CONSTRAINT teams_owner_fk FOREIGN KEY (owner_id) REFERENCES users (id) ON DELETE SET NULL;

-- An identity at a provider (Google, an OIDC issuer, the development sign-in).
CREATE TABLE accounts (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id              uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider             text NOT NULL,
    provider_account_id  text NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_account_id)
);
CREATE INDEX accounts_user_id_idx ON accounts (user_id);

-- Server-side sessions; the cookie holds a random token, the row its SHA-256.
CREATE TABLE sessions (
    token_hash  bytea PRIMARY KEY,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    data        jsonb NOT NULL DEFAULT '{}',
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE team_invites (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id      uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    email        text NOT NULL,
    token_hash   bytea NOT NULL UNIQUE,
    invited_by   uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    accepted_at  timestamptz
);
CREATE UNIQUE INDEX team_invites_pending_key ON team_invites (team_id, lower(email)) WHERE accepted_at IS NULL;

CREATE TABLE folders (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id     uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    position    integer NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX folders_team_id_idx ON folders (team_id);

CREATE TABLE rubrics (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id     uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    name        text NOT NULL,
    -- [{criterionDescription, levelDescriptions[], useRange, levelRanges[{levelDescriptionsIndex,min,max}]}]
    criteria    jsonb NOT NULL DEFAULT '[]',
    created_by  uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rubrics_team_id_idx ON rubrics (team_id);

CREATE TYPE assignment_type AS ENUM ('grade', 'feedback', 'rubric-feedback', 'prompt');

-- folder_id makes "an assignment sits in at most one folder" hold by construction.
CREATE TABLE assignments (
    id                        uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id                   uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    folder_id                 uuid REFERENCES folders (id) ON DELETE SET NULL,
    name                      text NOT NULL,
    type                      assignment_type NOT NULL,
    is_hand_written           boolean NOT NULL DEFAULT false,
    provide_instant_feedback  boolean NOT NULL DEFAULT false,
    class_summary             jsonb,
    created_by                uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assignments_team_id_idx ON assignments (team_id);
CREATE INDEX assignments_folder_id_idx ON assignments (folder_id);

-- The assignment's definition: highlights+context (feedback), the question
-- tree (grade), a rubric (rubric-feedback) or a prompt (prompt).
CREATE TABLE functions (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id        uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id  uuid NOT NULL UNIQUE REFERENCES assignments (id) ON DELETE CASCADE,
    type           assignment_type NOT NULL,
    highlights     jsonb NOT NULL DEFAULT '[]',
    context        text NOT NULL DEFAULT '',
    questions      jsonb NOT NULL DEFAULT '[]',
    rubric_id      uuid REFERENCES rubrics (id) ON DELETE SET NULL,
    prompt         text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX functions_team_id_idx ON functions (team_id);

CREATE TYPE submission_role AS ENUM ('teacher', 'student');

CREATE TABLE submissions (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id         uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id   uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    name            text NOT NULL,
    -- the blob key of the uploaded file (never a URL the user chose)
    file_key        text NOT NULL DEFAULT '',
    content_type    text NOT NULL DEFAULT '',
    role            submission_role NOT NULL DEFAULT 'teacher',
    student_name    text NOT NULL DEFAULT '',
    student_email   text NOT NULL DEFAULT '',
    lti             jsonb,
    -- extraction: pending → extracting → done | failed
    extract_status  text NOT NULL DEFAULT 'pending'
                    CHECK (extract_status IN ('pending', 'extracting', 'done', 'failed')),
    extracted_text  text,
    extract_error   text NOT NULL DEFAULT '',
    extracted_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX submissions_assignment_id_idx ON submissions (assignment_id);
CREATE INDEX submissions_team_id_idx ON submissions (team_id);

CREATE TABLE function_results (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id            uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id      uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    submission_id      uuid NOT NULL UNIQUE REFERENCES submissions (id) ON DELETE CASCADE,
    function_id        uuid REFERENCES functions (id) ON DELETE SET NULL,
    -- grading | rubric-grading | annotating | ready-to-grade | graded | failed …
    status             text NOT NULL DEFAULT '',
    feedback           text NOT NULL DEFAULT '',
    highlighted_text   text NOT NULL DEFAULT '',
    criteria_levels    jsonb NOT NULL DEFAULT '[]',
    criteria_points    jsonb NOT NULL DEFAULT '[]',
    criteria_feedback  jsonb NOT NULL DEFAULT '[]',
    overall_comments   text NOT NULL DEFAULT '',
    is_benchmark       boolean NOT NULL DEFAULT false,
    answers            jsonb,
    error              text NOT NULL DEFAULT '',
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX function_results_assignment_id_idx ON function_results (assignment_id);
CREATE INDEX function_results_team_id_idx ON function_results (team_id);

CREATE TABLE assistants (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id          uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    created_by       uuid REFERENCES users (id) ON DELETE SET NULL,
    title            text NOT NULL,
    description      text NOT NULL,
    system_prompt    text NOT NULL,
    initial_message  text NOT NULL DEFAULT '',
    image_url        text NOT NULL DEFAULT '',
    -- [{fileName, fileText, fileType}]
    file_data        jsonb NOT NULL DEFAULT '[]',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assistants_team_id_idx ON assistants (team_id);

CREATE TABLE team_saved_assistants (
    team_id       uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assistant_id  uuid NOT NULL REFERENCES assistants (id) ON DELETE CASCADE,
    saved_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, assistant_id)
);

CREATE TABLE chats (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id         uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assistant_id    uuid REFERENCES assistants (id) ON DELETE SET NULL,
    -- [{role, content}]
    messages        jsonb NOT NULL DEFAULT '[]',
    document        text NOT NULL DEFAULT '',
    -- [{messageIndex, document}]
    past_documents  jsonb NOT NULL DEFAULT '[]',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chats_user_id_idx ON chats (user_id, updated_at DESC);

CREATE TYPE notification_kind AS ENUM ('shared-assignment', 'shared-rubric', 'team-invite');

-- A notification to one user, e.g. "a colleague shared a rubric with you".
CREATE TABLE notifications (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind            notification_kind NOT NULL,
    sender_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    assignment_id   uuid REFERENCES assignments (id) ON DELETE CASCADE,
    rubric_id       uuid REFERENCES rubrics (id) ON DELETE CASCADE,
    status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_id_idx ON notifications (user_id, status);

-- +goose Down
DROP TABLE notifications;
DROP TYPE notification_kind;
DROP TABLE chats;
DROP TABLE team_saved_assistants;
DROP TABLE assistants;
DROP TABLE function_results;
DROP TABLE submissions;
DROP TYPE submission_role;
DROP TABLE functions;
DROP TABLE assignments;
DROP TYPE assignment_type;
DROP TABLE rubrics;
DROP TABLE folders;
DROP TABLE team_invites;
DROP TABLE sessions;
DROP TABLE accounts;
ALTER TABLE teams DROP CONSTRAINT teams_owner_fk;
DROP TABLE users;
DROP TABLE teams;
