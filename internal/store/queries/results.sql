-- name: GetSubmissionResult :one
-- A submission's function result, scoped to the assignment and the team.
SELECT * FROM function_results
WHERE submission_id = @submission_id AND assignment_id = @assignment_id AND team_id = @team_id;

-- name: GetFunctionResultByID :one
SELECT * FROM function_results WHERE id = @id AND team_id = @team_id;

-- name: LockFunctionResult :one
-- The result a teacher edits, locked for the rest of the transaction.
SELECT * FROM function_results WHERE id = @id AND team_id = @team_id FOR UPDATE;

-- name: LockFunctionResultForEdit :one
-- LockFunctionResult with its assignment's definition, in one round trip:
-- what a teacher's edit checks against. No row when the result is not the
-- team's or its assignment has no definition of its own type.
SELECT sqlc.embed(fr), sqlc.embed(f)
FROM function_results fr
JOIN assignments a ON a.id = fr.assignment_id AND a.team_id = fr.team_id
JOIN functions f ON f.assignment_id = a.id AND f.team_id = a.team_id AND f.type = a.type
WHERE fr.id = @id AND fr.team_id = @team_id
FOR UPDATE OF fr;

-- name: StartRuns :many
-- Grade-all: every selected result of the assignment goes in progress at
-- once; its previous error is cleared.
UPDATE function_results
SET status = @status, error = '', status_at = now(), updated_at = now()
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND submission_id = ANY(@submission_ids::uuid[])
RETURNING *;

-- name: LockRuns :many
-- The selected results of an assignment, locked for the rest of the
-- transaction (in one order, so two grade-alls take turns): grading starts
-- only those not already in progress.
SELECT * FROM function_results
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND submission_id = ANY(@submission_ids::uuid[])
ORDER BY id
FOR UPDATE;

-- name: RunTarget :one
-- What a grading job needs to know about its submission, by id alone (the
-- API scoped it when it queued the job).
SELECT s.id, s.team_id, s.assignment_id, s.extract_status, s.extract_error,
       COALESCE(s.extracted_text, '')::text AS text, s.is_hand_written,
       a.type, a.is_hand_written AS assignment_hand_written,
       fr.id AS result_id, fr.status, fr.answers, fr.graded_parts,
       EXISTS (SELECT 1 FROM function_results b
               WHERE b.assignment_id = s.assignment_id AND b.is_benchmark)::boolean AS has_benchmarks,
       -- the definition's version (its row's changed_xid; '' without one):
       -- the worker's decoded definitions are cached under it
       COALESCE(fn.changed_xid::text, '')::text AS definition_version
FROM submissions s
JOIN assignments a ON a.id = s.assignment_id
JOIN function_results fr ON fr.submission_id = s.id
LEFT JOIN functions fn ON fn.assignment_id = s.assignment_id AND fn.team_id = s.team_id
WHERE s.id = @id;

-- name: SaveRuns :many
-- The one write of a finished run, guarded by the in-progress status: a run
-- written once (or a result the teacher reviewed meanwhile) is left alone,
-- and result_writes proves each run is written exactly once. A regraded
-- result is no longer reviewed. runs is a JSON array of runs by column
-- name (the grading worker writes the runs that finish while its previous
-- write is under way in one statement and one commit); the guard holds row
-- by row, and the ids returned are the runs written.
UPDATE function_results fr
SET status = r.status, error = '', feedback = r.feedback, highlighted_text = r.highlighted_text,
    criteria_levels = r.criteria_levels, criteria_points = r.criteria_points,
    criteria_feedback = r.criteria_feedback, overall_comments = r.overall_comments,
    answers = COALESCE(r.answers, fr.answers),
    graded_parts = r.graded_parts,
    flags = r.flags, dropped_highlights = r.dropped_highlights,
    model = r.model, model_calls = fr.model_calls + r.model_calls, prompt_tokens = fr.prompt_tokens + r.prompt_tokens,
    cached_prompt_tokens = fr.cached_prompt_tokens + r.cached_prompt_tokens,
    completion_tokens = fr.completion_tokens + r.completion_tokens, cost_usd = fr.cost_usd + r.cost_usd,
    result_writes = fr.result_writes + 1, graded_at = now(), reviewed_at = NULL, status_at = now(), updated_at = now()
FROM jsonb_to_recordset(@runs::jsonb) AS r(
    submission_id uuid, in_progress text, status text, feedback text, highlighted_text text,
    criteria_levels jsonb, criteria_points jsonb, criteria_feedback jsonb, overall_comments text,
    answers jsonb, graded_parts jsonb, flags jsonb, dropped_highlights integer, model text,
    model_calls integer, prompt_tokens integer, cached_prompt_tokens integer, completion_tokens integer,
    cost_usd double precision)
WHERE fr.submission_id = r.submission_id AND fr.status = r.in_progress
RETURNING fr.submission_id;

-- name: FailRun :execrows
-- A run that ended without a result: error is a sentence for the teacher.
UPDATE function_results
SET status = 'failed', error = @error,
    model = CASE WHEN @model::text = '' THEN model ELSE @model::text END,
    model_calls = model_calls + @model_calls, prompt_tokens = prompt_tokens + @prompt_tokens,
    cached_prompt_tokens = cached_prompt_tokens + @cached_prompt_tokens,
    completion_tokens = completion_tokens + @completion_tokens, cost_usd = cost_usd + @cost_usd,
    status_at = now(), updated_at = now()
WHERE submission_id = @submission_id AND status IN ('grading', 'rubric-grading', 'annotating');

-- name: ResultWaitingForText :one
-- Whether a submission's result waits in progress for its text (grade-all
-- came first): the extraction then queues the grading job.
SELECT (fr.status IN ('grading', 'rubric-grading', 'annotating'))::boolean AS waiting
FROM function_results fr WHERE fr.submission_id = @submission_id;

-- name: SweepStuckRuns :many
-- Runs in progress for longer than the cutoff with no live grading job and
-- no extraction still under way fail with a reason: nothing stays in
-- progress forever.
UPDATE function_results fr
SET status = 'failed', error = @error, status_at = now(), updated_at = now()
WHERE fr.status IN ('grading', 'rubric-grading', 'annotating') AND fr.status_at < @cutoff
  AND NOT EXISTS (
      SELECT 1 FROM river_job j
      WHERE j.kind = 'grade_submission'
        AND j.state IN ('available', 'pending', 'running', 'retryable', 'scheduled')
        AND j.args @> jsonb_build_object('submission_id', fr.submission_id::text)) -- river_job_args_index
  AND NOT EXISTS (
      SELECT 1 FROM submissions s
      WHERE s.id = fr.submission_id AND s.extract_status IN ('queued', 'extracting'))
RETURNING fr.id;

-- name: SaveTeacherEdit :one
-- A teacher's edit of a result; status is 'reviewed' or the type's done
-- status (un-reviewing).
UPDATE function_results
SET feedback = @feedback, highlighted_text = @highlighted_text, criteria_levels = @criteria_levels,
    criteria_points = @criteria_points, criteria_feedback = @criteria_feedback,
    overall_comments = @overall_comments, answers = sqlc.narg(answers)::jsonb, status = @status,
    reviewed_at = CASE WHEN @status::text = 'reviewed' THEN now() ELSE NULL END,
    status_at = CASE WHEN status = @status::text THEN status_at ELSE now() END, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: SaveTickedAnswers :exec
-- A teacher's criterion tick: the answers as ticked, and the result is now
-- the teacher's (reviewed), as after any other edit of theirs.
UPDATE function_results
SET answers = @answers, status = 'reviewed', reviewed_at = now(),
    status_at = CASE WHEN status = 'reviewed' THEN status_at ELSE now() END, updated_at = now()
WHERE id = @id AND team_id = @team_id;

-- name: SaveTickedAnswersIfUnchanged :one
-- SaveTickedAnswers of a tick computed from the result and the definition a
-- kept class holds (result's class cache): written only while neither has
-- been written since it was read (@stamp and @function_stamp, their
-- changed_xid), so the tick is what a locked read would have made, and
-- returned as written (the kept class takes it). No row otherwise: the
-- caller takes the locking way.
UPDATE function_results fr
SET answers = @answers, status = 'reviewed', reviewed_at = now(),
    status_at = CASE WHEN fr.status = 'reviewed' THEN fr.status_at ELSE now() END, updated_at = now()
WHERE fr.id = @id AND fr.team_id = @team_id AND fr.changed_xid::text = @stamp::text
  AND EXISTS (SELECT 1 FROM functions f
              JOIN assignments a ON a.id = f.assignment_id AND a.team_id = f.team_id AND a.type = f.type
              WHERE f.assignment_id = fr.assignment_id AND f.team_id = fr.team_id
                AND f.changed_xid::text = @function_stamp::text)
RETURNING *;

-- name: SaveTeacherEditIfUnchanged :one
-- SaveTeacherEdit of an edit computed from what a kept class holds, on the
-- terms of SaveTickedAnswersIfUnchanged: no row when the result or its
-- definition has been written since.
UPDATE function_results fr
SET feedback = @feedback, highlighted_text = @highlighted_text, criteria_levels = @criteria_levels,
    criteria_points = @criteria_points, criteria_feedback = @criteria_feedback,
    overall_comments = @overall_comments, answers = sqlc.narg(answers)::jsonb, status = @status,
    reviewed_at = CASE WHEN @status::text = 'reviewed' THEN now() ELSE NULL END,
    status_at = CASE WHEN fr.status = @status::text THEN fr.status_at ELSE now() END, updated_at = now()
WHERE fr.id = @id AND fr.team_id = @team_id AND fr.changed_xid::text = @stamp::text
  AND EXISTS (SELECT 1 FROM functions f
              JOIN assignments a ON a.id = f.assignment_id AND a.team_id = f.team_id AND a.type = f.type
              WHERE f.assignment_id = fr.assignment_id AND f.team_id = fr.team_id
                AND f.changed_xid::text = @function_stamp::text)
RETURNING *;

-- name: SetBenchmark :one
UPDATE function_results SET is_benchmark = @is_benchmark, updated_at = now()
WHERE id = @id AND team_id = @team_id
RETURNING *;

-- name: SavePromptFeedback :execrows
-- The feedback of a prompt assignment's result, as the teacher edited it:
-- the result is now the teacher's (reviewed). The caller has refused a
-- result in progress under its row lock.
UPDATE function_results fr
SET feedback = @feedback, status = 'reviewed', reviewed_at = now(),
    status_at = CASE WHEN fr.status = 'reviewed' THEN fr.status_at ELSE now() END,
    updated_at = now()
FROM assignments a
WHERE fr.id = @id AND fr.team_id = @team_id AND a.id = fr.assignment_id AND a.type = 'prompt';

-- name: ListBenchmarks :many
-- The teacher-checked results an assignment's runs learn from, with the
-- submissions' text (never names: they are not sent to the model).
SELECT fr.*, s.name AS submission_name, COALESCE(s.extracted_text, '')::text AS text
FROM function_results fr JOIN submissions s ON s.id = fr.submission_id
WHERE fr.assignment_id = @assignment_id AND fr.team_id = @team_id AND fr.is_benchmark
  AND s.extract_status = 'ready'
ORDER BY fr.created_at, fr.id;

-- name: StartAgreement :execrows
-- "Check agreement" begins, unless a check is already running.
UPDATE assignments SET agreement_status = 'running', updated_at = now()
WHERE id = @id AND team_id = @team_id AND agreement_status <> 'running';

-- name: FinishAgreement :exec
-- A check that failed (agreement NULL) keeps the last report.
UPDATE assignments SET agreement = COALESCE(sqlc.narg(agreement)::jsonb, agreement),
    agreement_status = @agreement_status, updated_at = now()
WHERE id = @id;

-- name: SaveClassSummary :exec
UPDATE assignments SET class_summary = @class_summary, summary_status = 'done', updated_at = now()
WHERE id = @id AND team_id = @team_id;

-- name: GetRubricsByIDs :many
-- The team's rubrics among ids (those a grade assignment's questions use).
SELECT * FROM rubrics WHERE team_id = @team_id AND id = ANY(@ids::uuid[]);

-- name: AddRunUsage :exec
-- What model calls cost that no guarded write counted: an attempt that
-- will be retried (or snoozed), or a run whose answer was discarded (the
-- result was written already, or the teacher moved on). Counted on the
-- result whatever its status, so its usage covers every call made for it.
UPDATE function_results
SET model_calls = model_calls + @model_calls, prompt_tokens = prompt_tokens + @prompt_tokens,
    cached_prompt_tokens = cached_prompt_tokens + @cached_prompt_tokens,
    completion_tokens = completion_tokens + @completion_tokens, cost_usd = cost_usd + @cost_usd
WHERE submission_id = @submission_id;

-- name: GetSubmissionResultWithFunction :one
-- A submission's function result with its assignment's definition, in one
-- round trip (functionResult/get); no row when either is missing.
SELECT sqlc.embed(fr), sqlc.embed(f)
FROM function_results fr
JOIN functions f ON f.assignment_id = fr.assignment_id AND f.team_id = fr.team_id
WHERE fr.submission_id = @submission_id AND fr.assignment_id = @assignment_id AND fr.team_id = @team_id;
