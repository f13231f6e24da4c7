-- +goose Up
-- An assignment can be corrected after it is made (issue 19, item 2).
-- graded_parts: the fingerprints of the definition's parts (questions,
-- criteria, highlighters, rubric, prompt, context) a result was graded
-- against, written with the result; a part whose fingerprint differs now, or
-- that is new, marks the result "graded against an earlier version".
ALTER TABLE function_results ADD COLUMN graded_parts jsonb;

-- assignment_changes: every change to an assignment or its definition, who
-- made it and when; changes lists the sentences ("changed the points of 2a:
-- 2 → 3"), the teacher's name is read when shown.
CREATE TABLE assignment_changes (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id       uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    changes       jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assignment_changes_assignment ON assignment_changes (assignment_id, created_at DESC);

-- +goose Down
DROP TABLE assignment_changes;
ALTER TABLE function_results DROP COLUMN graded_parts;
