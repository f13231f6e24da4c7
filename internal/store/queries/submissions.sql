-- name: CreateSubmission :one
INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type, role, student_name, student_email)
VALUES (@team_id, @assignment_id, @name, @file_key, @content_type, @role, @student_name, @student_email)
RETURNING *;

-- name: GetSubmissionForJob :one
-- Workers load by id alone: job args carry ids that the API already scoped.
SELECT * FROM submissions WHERE id = @id;

-- name: GetSubmission :one
SELECT * FROM submissions WHERE id = @id AND team_id = @team_id;

-- name: StartExtraction :exec
UPDATE submissions SET extract_status = 'extracting', extract_error = ''
WHERE id = @id AND extract_status <> 'done';

-- name: FinishExtraction :execrows
-- Idempotent: a retried job never overwrites a finished extraction.
UPDATE submissions
SET extract_status = 'done', extracted_text = @extracted_text, extract_error = '', extracted_at = now()
WHERE id = @id AND extract_status <> 'done';

-- name: FailExtraction :exec
UPDATE submissions SET extract_status = 'failed', extract_error = @extract_error
WHERE id = @id AND extract_status <> 'done';
