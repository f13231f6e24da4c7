-- +goose Up
-- Grades back into Google Classroom (internal/classroom, job pass_back_grades).

-- Where each imported submission came from in Classroom: the import records
-- it from now on. Submissions imported before this migration have no row
-- (their course and coursework ids were never kept) and cannot be sent back.
CREATE TABLE classroom_submissions (
    submission_id         uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    team_id               uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id         uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    course_id             text NOT NULL,
    coursework_id         text NOT NULL,
    student_submission_id text NOT NULL
);
CREATE INDEX classroom_submissions_assignment_idx ON classroom_submissions (assignment_id);

-- One "Send grades to Classroom" run of an assignment, on the Google token of
-- the teacher who started it.
CREATE TABLE classroom_passbacks (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    team_id             uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    assignment_id       uuid NOT NULL REFERENCES assignments (id) ON DELETE CASCADE,
    user_id             uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    grade_kind          text NOT NULL CHECK (grade_kind IN ('draft', 'assigned')),
    return_to_students  boolean NOT NULL DEFAULT false,
    status              text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX classroom_passbacks_assignment_idx ON classroom_passbacks (assignment_id, created_at DESC);
-- One run at a time per assignment: a second start while one works is refused.
CREATE UNIQUE INDEX classroom_passbacks_active_idx ON classroom_passbacks (assignment_id)
    WHERE status IN ('queued', 'running');

-- Each student of a run: what Markwell had (points of max_points, taken when
-- the run started), what was sent (grade, on the coursework's scale) and
-- Google's answer as a sentence a teacher understands.
CREATE TABLE classroom_passback_students (
    passback_id           uuid NOT NULL REFERENCES classroom_passbacks (id) ON DELETE CASCADE,
    submission_id         uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position              integer NOT NULL,
    student_name          text NOT NULL DEFAULT '',
    course_id             text NOT NULL DEFAULT '',
    coursework_id         text NOT NULL DEFAULT '',
    student_submission_id text NOT NULL DEFAULT '',
    points                double precision,
    max_points            double precision,
    state                 text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'returned', 'failed')),
    grade                 double precision,
    error                 text,
    at                    timestamptz,
    PRIMARY KEY (passback_id, submission_id)
);

-- +goose Down
DROP TABLE classroom_passback_students;
DROP TABLE classroom_passbacks;
DROP TABLE classroom_submissions;
