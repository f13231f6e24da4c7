-- name: CreateReport :one
-- A new "Print reports" run; the partial unique index refuses a second run
-- while one is queued or running (the caller answers 409).
INSERT INTO reports (team_id, assignment_id, submission_ids, total, created_by)
VALUES (@team_id, @assignment_id, @submission_ids::uuid[], @total, @created_by)
RETURNING *;

-- name: GetLatestReport :one
SELECT * FROM reports
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: GetReport :one
SELECT * FROM reports WHERE id = @id AND team_id = @team_id;

-- name: StartReportRun :one
-- The job begins (or begins again after a crash): progress from zero, as
-- every attempt builds every file anew.
UPDATE reports SET status = 'running', done = 0, error = '', updated_at = now()
WHERE id = @id AND team_id = @team_id AND status IN ('queued', 'running')
RETURNING *;

-- name: SetReportProgress :exec
UPDATE reports SET done = @done, total = @total, updated_at = now()
WHERE id = @id AND team_id = @team_id AND status = 'running';

-- name: FinishReport :execrows
-- The files are stored: the run is done with both keys at once.
UPDATE reports SET status = 'done', done = total, zip_key = @zip_key, pdf_key = @pdf_key,
    updated_at = now(), finished_at = now()
WHERE id = @id AND team_id = @team_id AND status = 'running';

-- name: FailReport :exec
UPDATE reports SET status = 'failed', error = @error, updated_at = now(), finished_at = now()
WHERE id = @id AND team_id = @team_id AND status IN ('queued', 'running');

-- name: OldReportKeys :many
-- The files of the assignment's earlier finished runs, to delete once a
-- newer run is done.
SELECT id, zip_key, pdf_key FROM reports
WHERE assignment_id = @assignment_id AND team_id = @team_id AND id <> @keep_id
  AND (zip_key <> '' OR pdf_key <> '');

-- name: ForgetReportKeys :exec
UPDATE reports SET zip_key = '', pdf_key = '', updated_at = now()
WHERE team_id = @team_id AND id = ANY(@ids::uuid[]);

-- name: ListReportSubmissions :many
-- The submissions a report covers, in the submissions table's order:
-- every one of the assignment's when ids is empty.
SELECT id, name, student_name, student_email, COALESCE(extracted_text, '')::text AS extracted_text
FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND (cardinality(@ids::uuid[]) = 0 OR id = ANY(@ids::uuid[]))
ORDER BY created_at, id;

-- name: FailStaleReports :exec
-- A run whose job died for good (its last attempt killed with the worker)
-- would stay running and block the next one: a run not moved for
-- @stale_after (longer than an attempt's timeout and River's rescue) fails.
UPDATE reports SET status = 'failed', error = @error, updated_at = now(), finished_at = now()
WHERE assignment_id = @assignment_id AND team_id = @team_id AND status IN ('queued', 'running')
  AND updated_at < now() - @stale_after::interval;
