-- +goose Up
-- Printable feedback reports (issue 21): one row per "Print reports" run of
-- an assignment. The build_reports job fills done as it converts each batch
-- and, once every PDF is stored, sets zip_key and pdf_key (blob keys of the
-- ZIP of one PDF per student and of the combined PDF) together with
-- status 'done' in one update: a run is never done with half its files.
-- submission_ids empty means every submission of the assignment.
CREATE TABLE reports (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id        uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id  uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    status         text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'done', 'failed')),
    submission_ids uuid[] NOT NULL DEFAULT '{}',
    done           integer NOT NULL DEFAULT 0,
    total          integer NOT NULL DEFAULT 0,
    error          text NOT NULL DEFAULT '',
    zip_key        text NOT NULL DEFAULT '',
    pdf_key        text NOT NULL DEFAULT '',
    created_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);
CREATE INDEX reports_assignment_idx ON reports (assignment_id, created_at DESC);
-- At most one run in progress per assignment: a second start is a 409.
CREATE UNIQUE INDEX reports_one_running_idx ON reports (assignment_id) WHERE status IN ('queued', 'running');

-- +goose Down
DROP TABLE reports;
