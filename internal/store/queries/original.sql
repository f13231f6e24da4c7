-- name: SubmissionOriginal :one
-- What showing a team's submission's original file needs: its name, file,
-- page count and the pages as read (with OCR confidence).
SELECT id, assignment_id, name, file_key, content_type, page_count, pages
FROM submissions WHERE id = @id AND team_id = @team_id;
