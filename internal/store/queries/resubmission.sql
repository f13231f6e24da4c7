-- A student's attempts through an assignment's student link (package
-- studentlink): who submitted (student_key), the attempt's number and the
-- attempt before it.

-- name: LockStudentAttempts :exec
-- Holds, until the transaction ends, one student's attempts at one
-- assignment: two submissions of the same student wait for each other and
-- the second sees the first; other students are not held up. (The two-key
-- form keeps these locks apart from the single-key ones elsewhere.)
SELECT pg_advisory_xact_lock(hashtext('studentlink.attempt'),
    hashtext(concat(sqlc.arg(assignment_id)::uuid, ' ', sqlc.arg(student_key)::text)));

-- name: LatestStudentAttempt :one
-- The student's latest submission through the link.
SELECT id, attempt FROM submissions
WHERE assignment_id = @assignment_id AND student_key = @student_key::text
ORDER BY attempt DESC
LIMIT 1;

-- name: SetStudentAttempt :exec
-- Records who made a new submission through the link, and which attempt it
-- is (unique per student and assignment: submissions_student_attempt_idx).
UPDATE submissions
SET student_key = @student_key::text, attempt = @attempt, previous_submission_id = sqlc.narg(previous_submission_id)
WHERE id = @id;
