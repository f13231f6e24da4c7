-- Results released to students by private link and email (package release).

-- name: ListReleaseRows :many
-- Every submission of an assignment with its result's status and its
-- release, if any, in the submissions table's order; with @submission_ids
-- only those (a page of the table; ids not of the assignment left out).
SELECT s.id AS submission_id, s.name, s.student_name, s.student_email,
       COALESCE(fr.status, '')::text AS result_status,
       r.token_nonce, r.released_at, r.revoked_at,
       COALESCE(r.email_state, 'none')::text AS email_state,
       COALESCE(r.email_error, '')::text AS email_error, r.emailed_at
FROM submissions s
LEFT JOIN function_results fr ON fr.submission_id = s.id AND fr.team_id = s.team_id
LEFT JOIN releases r ON r.submission_id = s.id AND r.team_id = s.team_id
WHERE s.assignment_id = @assignment_id AND s.team_id = @team_id
  AND (sqlc.narg(submission_ids)::uuid[] IS NULL OR s.id = ANY(sqlc.narg(submission_ids)::uuid[]))
ORDER BY s.created_at, s.id;

-- name: LockReleases :exec
-- Serialises the releases of one assignment for the transaction, so two
-- release calls never both draw a token for one submission (rows not yet
-- released have no row to lock).
SELECT pg_advisory_xact_lock(hashtextextended(@assignment_id::text, 18));

-- name: PutRelease :one
-- Releases a submission with a new token: a first release, or again after a
-- revoke (the old link stays dead).
INSERT INTO releases (submission_id, team_id, assignment_id, token_nonce, token_hash, released_by)
VALUES (@submission_id, @team_id, @assignment_id, @token_nonce, @token_hash, @released_by)
ON CONFLICT (submission_id) DO UPDATE SET
    token_nonce = EXCLUDED.token_nonce, token_hash = EXCLUDED.token_hash,
    released_at = now(), released_by = EXCLUDED.released_by, revoked_at = NULL,
    email_state = 'none', email_error = '', emailed_at = NULL
WHERE releases.team_id = EXCLUDED.team_id
RETURNING released_at;

-- name: QueueReleaseEmail :exec
-- Marks a live release's email as waiting for its job.
UPDATE releases SET email_state = 'queued', email_error = ''
WHERE submission_id = @submission_id AND team_id = @team_id AND revoked_at IS NULL;

-- name: RevokeReleases :exec
-- Closes the links of the given live releases of an assignment. A queued
-- email is left queued: its job sees the revoke and sends nothing.
UPDATE releases SET revoked_at = now()
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND submission_id = ANY(@submission_ids::uuid[]) AND revoked_at IS NULL;

-- name: GetLiveReleaseByTokenHash :one
-- The submission a live release token opens.
SELECT r.submission_id, r.assignment_id, r.team_id FROM releases r
WHERE r.token_hash = @token_hash AND r.revoked_at IS NULL;

-- name: SubmissionReleased :one
-- Whether a submission's result is released now, and whether its
-- assignment gives instant feedback (either shows the student their
-- feedback).
SELECT EXISTS (SELECT 1 FROM releases r WHERE r.submission_id = @submission_id
                 AND r.team_id = @team_id AND r.revoked_at IS NULL)::boolean AS released,
       a.provide_instant_feedback
FROM assignments a WHERE a.id = @assignment_id AND a.team_id = @team_id;

-- name: GetReleaseForEmail :one
-- What a send_result_email job needs: the release, its student, assignment
-- and the teacher who released it.
SELECT r.submission_id, r.team_id, r.assignment_id, r.token_nonce, r.released_at, r.revoked_at,
       r.email_state, s.student_name, s.student_email, a.name AS assignment_name,
       COALESCE(u.name, '')::text AS teacher_name, COALESCE(u.email, '')::text AS teacher_email
FROM releases r
JOIN submissions s ON s.id = r.submission_id
JOIN assignments a ON a.id = r.assignment_id
LEFT JOIN users u ON u.id = r.released_by
WHERE r.submission_id = @submission_id AND r.team_id = @team_id;

-- name: SetReleaseEmail :exec
-- Records how a release's email went, only for the release the job was
-- queued for (released_at), so a stale job never marks a newer release.
UPDATE releases SET email_state = @email_state, email_error = @email_error,
    emailed_at = CASE WHEN @email_state = 'sent' THEN now() ELSE emailed_at END
WHERE submission_id = @submission_id AND team_id = @team_id AND released_at = @released_at;
