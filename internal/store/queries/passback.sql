-- Grades back into Google Classroom (internal/classroom, job pass_back_grades):
-- where imported submissions came from, and each passback run with its
-- per-student rows. Every read is scoped by team_id.

-- name: InsertClassroomSubmission :exec
INSERT INTO classroom_submissions (submission_id, team_id, assignment_id, course_id, coursework_id, student_submission_id)
VALUES (@submission_id, @team_id, @assignment_id, @course_id, @coursework_id, @student_submission_id)
ON CONFLICT (submission_id) DO NOTHING;

-- name: ListPassbackCandidates :many
-- The assignment's submissions with where they came from in Classroom
-- (course_id is '' for one not imported, or imported before Markwell
-- kept it) and their result's status, oldest first.
SELECT s.id, s.student_name, s.source, s.external_id,
       coalesce(cs.course_id, '')::text AS course_id, coalesce(cs.coursework_id, '')::text AS coursework_id,
       coalesce(cs.student_submission_id, '')::text AS student_submission_id,
       coalesce(fr.status, '')::text AS result_status
FROM submissions s
LEFT JOIN classroom_submissions cs ON cs.submission_id = s.id AND cs.team_id = s.team_id
LEFT JOIN function_results fr ON fr.submission_id = s.id AND fr.team_id = s.team_id
WHERE s.assignment_id = @assignment_id AND s.team_id = @team_id
ORDER BY s.created_at, s.id;

-- name: HasGoogleSubmissions :one
SELECT EXISTS (SELECT 1 FROM submissions
               WHERE assignment_id = @assignment_id AND team_id = @team_id AND source = 'google')::boolean;

-- name: ActivePassback :one
SELECT id FROM classroom_passbacks
WHERE assignment_id = @assignment_id AND team_id = @team_id AND status IN ('queued', 'running')
LIMIT 1;

-- name: CreatePassback :one
INSERT INTO classroom_passbacks (team_id, assignment_id, user_id, grade_kind, return_to_students)
VALUES (@team_id, @assignment_id, @user_id, @grade_kind, @return_to_students)
RETURNING *;

-- name: InsertPassbackStudent :exec
INSERT INTO classroom_passback_students (passback_id, submission_id, position, student_name, course_id,
    coursework_id, student_submission_id, points, max_points, state, error, at)
VALUES (@passback_id, @submission_id, @position, @student_name, @course_id, @coursework_id,
    @student_submission_id, sqlc.narg('points'), sqlc.narg('max_points'), @state, sqlc.narg('error'), sqlc.narg('at'));

-- name: GetPassback :one
SELECT * FROM classroom_passbacks WHERE id = @id AND team_id = @team_id;

-- name: LatestPassback :one
SELECT * FROM classroom_passbacks
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: ListPassbackStudents :many
SELECT ps.* FROM classroom_passback_students ps
JOIN classroom_passbacks p ON p.id = ps.passback_id
WHERE ps.passback_id = @passback_id AND p.team_id = @team_id
ORDER BY ps.position;

-- name: SetPassbackStatus :exec
UPDATE classroom_passbacks SET status = @status, updated_at = now()
WHERE id = @id AND team_id = @team_id;

-- name: FinishPassbackStudent :exec
-- Records Google's answer for one student; only a pending row changes, so a
-- retried job never rewrites what an earlier attempt finished.
UPDATE classroom_passback_students ps
SET state = @state, grade = sqlc.narg('grade'), error = sqlc.narg('error'), at = now()
FROM classroom_passbacks p
WHERE ps.passback_id = @passback_id AND ps.submission_id = @submission_id
  AND p.id = ps.passback_id AND p.team_id = @team_id AND ps.state = 'pending';
