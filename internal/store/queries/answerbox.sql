-- name: AnswerBoxAssignment :one
-- An assignment's answer-box template and the question tree it points into
-- (the questions are '[]' until the assignment is defined).
SELECT a.id, a.type, a.is_hand_written, a.answer_boxes,
       COALESCE(f.questions, '[]'::jsonb)::jsonb AS questions
FROM assignments a
LEFT JOIN functions f ON f.assignment_id = a.id
WHERE a.id = @id AND a.team_id = @team_id;

-- name: SaveAnswerBoxes :execrows
UPDATE assignments SET answer_boxes = @answer_boxes, updated_at = now()
WHERE id = @id AND team_id = @team_id;

-- name: ReadySubmissionIDsWithFile :many
-- The submissions whose answers can be cropped: read, with a file.
SELECT id FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND extract_status = 'ready' AND file_key <> ''
ORDER BY created_at, id;

-- name: AnswerBoxSample :one
-- The sample page the teacher draws on: the first ready submission with pages.
SELECT id, page_count FROM submissions
WHERE assignment_id = @assignment_id AND team_id = @team_id
  AND extract_status = 'ready' AND file_key <> '' AND page_count > 0
ORDER BY created_at, id
LIMIT 1;

-- name: SubmissionPageSource :one
-- What rendering one page of a team's submission needs.
SELECT id, assignment_id, file_key, content_type, page_count, extract_status
FROM submissions WHERE id = @id AND team_id = @team_id;

-- name: GetSubmissionToCrop :one
-- What the crop_answers job needs, by id alone (the API scoped it): the file,
-- the template, the question tree and the result's current answers.
SELECT s.id, s.assignment_id, s.file_key, s.content_type, s.page_count, s.extract_status,
       a.answer_boxes,
       COALESCE(f.questions, '[]'::jsonb)::jsonb AS questions,
       fr.id AS result_id, fr.answers
FROM submissions s
JOIN assignments a ON a.id = s.assignment_id
JOIN function_results fr ON fr.submission_id = s.id
LEFT JOIN functions f ON f.assignment_id = s.assignment_id
WHERE s.id = @id;

-- name: SaveCroppedAnswers :execrows
-- The one write of crop_answers, guarded by the answers it read: a grade
-- saved meanwhile makes it change nothing (the job then reads again).
-- A result the AI is grading keeps its status: the crops arrived for it.
UPDATE function_results
SET answers = @answers, updated_at = now(),
    status = CASE WHEN status IN ('grading', 'rubric-grading', 'annotating') THEN status ELSE 'ready-to-grade' END
WHERE id = @id AND answers IS NOT DISTINCT FROM sqlc.narg(previous)::jsonb;

-- name: NeedsAnswerCrops :one
-- Whether a submission's answers are cropped once it is read: handwritten
-- work of a grade assignment whose template has boxes.
SELECT (a.type = 'grade' AND (s.is_hand_written OR a.is_hand_written)
        AND jsonb_array_length(a.answer_boxes) > 0 AND s.file_key <> '')::boolean AS needs
FROM submissions s JOIN assignments a ON a.id = s.assignment_id
WHERE s.id = @id;
