-- name: ListExportSubmissions :many
-- The rows of an assignment's results export (internal/export): who each
-- submission is from and the ids other systems know it by, in the order of
-- upload; internal/export orders them by name, as the table first shows them.
SELECT id, name, student_name, student_email, source, attempt,
       coalesce(external_id, '')::text AS external_id,
       coalesce(lti->>'user_id', lti->>'userId', lti->>'sub', '')::text AS lti_user_id
FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;
