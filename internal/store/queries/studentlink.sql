-- The student submission link of an assignment, its uploads and the view
-- tokens of the submissions made through it (package studentlink).

-- name: GetStudentLink :one
SELECT student_link_token, student_link_enabled, allow_resubmission FROM assignments
WHERE id = @id AND team_id = @team_id;

-- name: UpdateStudentLink :one
-- Gives the assignment new_token when it has none yet or rotate is set, and
-- sets enabled and allow_resubmission when given; a link made here starts
-- enabled. Under the row lock a concurrent first call sees the token the
-- other one set.
UPDATE assignments SET
    student_link_token = CASE WHEN @rotate::boolean OR student_link_token IS NULL
        THEN @new_token::text ELSE student_link_token END,
    student_link_enabled = COALESCE(sqlc.narg(enabled)::boolean,
        student_link_enabled OR student_link_token IS NULL),
    allow_resubmission = COALESCE(sqlc.narg(allow_resubmission)::boolean, allow_resubmission)
WHERE id = @id AND team_id = @team_id
RETURNING student_link_token, student_link_enabled, allow_resubmission;

-- name: GetAssignmentByStudentLink :one
-- An assignment by the token of its student link, only while the link is on.
SELECT * FROM assignments
WHERE student_link_token = @token AND student_link_enabled;

-- name: LockStudentUpload :one
-- The upload key a student was issued through this assignment's link, locked
-- for the transaction so one file makes at most one submission.
SELECT key FROM blob_uploads
WHERE key = @key AND assignment_id = @assignment_id AND by_student
FOR UPDATE;

-- name: SubmissionKeyUsed :one
SELECT EXISTS (
    SELECT 1 FROM submissions WHERE assignment_id = @assignment_id AND file_key = @file_key
);

-- name: GetSubmissionByViewToken :one
-- The submission a student's view token opens (view_token_hash is SHA-256 of
-- the token).
SELECT id, team_id, assignment_id FROM submissions
WHERE view_token_hash = @view_token_hash;
