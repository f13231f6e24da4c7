-- name: CreateSubmission :one
-- A bare row, for tests that need a submission to exist; the API creates
-- them with InsertSubmissions (internal/submission).
INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type, role, student_name, student_email)
VALUES (@team_id, @assignment_id, @name, @file_key, @content_type, @role, @student_name, @student_email)
RETURNING *;

-- name: InsertSubmissions :many
-- A batch of submissions in one statement, one array element per row, all
-- arrays as long as @names. A row marked ready (a CSV row, a row without a
-- file) is ready at once with its text; any other waits for its extraction
-- job. An empty element stands for none in @lti, @external_ids, @csv_answers
-- and @view_token_hashes. An external id already imported into the assignment
-- (or earlier in the batch) inserts nothing. Rows come back in the order
-- given: created_at is the clock plus the row's position in microseconds,
-- so a batch lists in the order it was sent.
WITH inserted AS (
    INSERT INTO submissions (
        team_id, assignment_id, name, file_key, content_type, role, student_name, student_email, lti,
        source, reader_hint, is_hand_written, external_id, csv_answers, view_token_hash,
        extract_status, extracted_text, extracted_at, created_at, updated_at)
    SELECT @team_id, @assignment_id, r.name, r.file_key, r.content_type, r.role::submission_role,
           r.student_name, r.student_email, nullif(r.lti, '')::jsonb,
           r.source, r.reader_hint, r.is_hand_written, nullif(r.external_id, ''),
           nullif(r.csv_answers, '')::jsonb, nullif(r.view_token_hash, ''::bytea),
           CASE WHEN r.ready THEN 'ready' ELSE 'queued' END,
           CASE WHEN r.ready THEN r.text END,
           CASE WHEN r.ready THEN now() END,
           clock_timestamp() + r.n * interval '1 microsecond',
           clock_timestamp() + r.n * interval '1 microsecond'
    FROM (
        -- set-returning functions side by side advance together, one row each
        SELECT unnest(@names::text[]) AS name, unnest(@file_keys::text[]) AS file_key,
               unnest(@content_types::text[]) AS content_type, unnest(@roles::text[]) AS role,
               unnest(@student_names::text[]) AS student_name, unnest(@student_emails::text[]) AS student_email,
               unnest(@lti::text[]) AS lti, unnest(@sources::text[]) AS source,
               unnest(@reader_hints::text[]) AS reader_hint, unnest(@is_hand_written::boolean[]) AS is_hand_written,
               unnest(@external_ids::text[]) AS external_id, unnest(@csv_answers::text[]) AS csv_answers,
               unnest(@view_token_hashes::bytea[]) AS view_token_hash, unnest(@ready::boolean[]) AS ready,
               unnest(@texts::text[]) AS text, generate_series(1, cardinality(@names::text[])) AS n
    ) AS r
    ORDER BY r.n
    ON CONFLICT (assignment_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
    RETURNING *
)
SELECT * FROM inserted ORDER BY created_at;

-- name: CreateFunctionResults :many
-- One empty result per new submission, for the assignment's function (NULL
-- while the assignment is not defined yet).
-- In the order given, each a microsecond or more after the one before.
INSERT INTO function_results (team_id, assignment_id, submission_id, function_id, created_at, updated_at)
SELECT @team_id, @assignment_id, s.id, sqlc.narg(function_id)::uuid,
       clock_timestamp() + s.n * interval '1 microsecond', clock_timestamp() + s.n * interval '1 microsecond'
FROM unnest(@submission_ids::uuid[]) WITH ORDINALITY AS s (id, n)
ORDER BY s.n
RETURNING *;

-- name: ListSubmissions :many
-- The submissions table of an assignment: no full text, a preview of it.
SELECT id, assignment_id, name, file_key, role, student_name, student_email, source,
       extract_status, extract_error, left(coalesce(extracted_text, ''), 200)::text AS preview,
       page_count, is_hand_written, attempt, previous_submission_id, created_at, updated_at,
       coalesce(content_sha256, '')::text AS content_sha256, doubtful_pages,
       changed_xid
FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;

-- name: ListSubmissionSortFields :many
-- What the submissions table filters, counts and sorts a class by (every
-- column but the preview), without the text: submission-rows reads the
-- whole class this way and only its page's rows whole (ListSubmissionsByIDs).
SELECT id, name, student_name, student_email, source, extract_status, page_count, created_at
FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at, id;

-- name: ListSubmissionsByIDs :many
-- ListSubmissions restricted to some submissions: a poll's delta. The same
-- columns, so its rows convert to ListSubmissionsRow.
SELECT id, assignment_id, name, file_key, role, student_name, student_email, source,
       extract_status, extract_error, left(coalesce(extracted_text, ''), 200)::text AS preview,
       page_count, is_hand_written, attempt, previous_submission_id, created_at, updated_at,
       coalesce(content_sha256, '')::text AS content_sha256, doubtful_pages,
       changed_xid
FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id AND id = ANY(@ids::uuid[])
ORDER BY created_at, id;

-- name: GetSubmission :one
SELECT * FROM submissions WHERE id = @id AND team_id = @team_id;

-- name: UpdateSubmissionDetails :one
-- A NULL argument leaves its column as it is.
UPDATE submissions
SET name = coalesce(sqlc.narg(name), name),
    student_name = coalesce(sqlc.narg(student_name), student_name),
    student_email = coalesce(sqlc.narg(student_email), student_email),
    updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: CountSubmissionResults :one
-- How many of the given results belong to the given submissions of a team.
SELECT count(*) FROM function_results
WHERE team_id = @team_id AND id = ANY(@ids::uuid[]) AND submission_id = ANY(@submission_ids::uuid[]);

-- name: DeleteSubmissions :many
-- Their function results go with them (ON DELETE CASCADE).
DELETE FROM submissions
WHERE team_id = @team_id AND assignment_id = @assignment_id AND id = ANY(@ids::uuid[])
RETURNING id, file_key;

-- name: FailedUploadsNamed :many
-- The rows of files a teacher picked that could not be uploaded (no file,
-- failed) named like one of @names, other than the rows @created: an upload
-- of the same name that arrived stands for them.
SELECT id FROM submissions
WHERE team_id = @team_id AND assignment_id = @assignment_id AND source = 'upload'
  AND file_key = '' AND extract_status = 'failed'
  AND name = ANY(@names::text[]) AND NOT (id = ANY(@created::uuid[]));

-- name: SubmissionKeysInUse :many
-- Which of the keys a submission still names.
SELECT DISTINCT file_key FROM submissions WHERE file_key = ANY(@keys::text[]);

-- name: PendingSubmissionJobs :many
-- The jobs not yet finished whose args name one of the submissions
-- (extract_text and the jobs it hands pages to).
SELECT id FROM river_job
WHERE state IN ('available', 'scheduled', 'retryable', 'running')
  AND args->>'submission_id' = ANY(@submission_ids::text[])
ORDER BY id;

-- name: RefuseSubmissions :exec
-- Files a teacher picked that never uploaded (empty, too large, a type
-- Markwell cannot read): their rows stay as failed, with the reason, until
-- the teacher deletes them.
UPDATE submissions s
SET extract_status = 'failed', extract_error = r.reason, extracted_text = NULL, extracted_at = NULL, updated_at = now()
FROM (SELECT unnest(@ids::uuid[]) AS id, unnest(@reasons::text[]) AS reason) AS r
WHERE s.id = r.id AND s.team_id = @team_id;
