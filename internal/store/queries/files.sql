-- name: FilesRecordUpload :exec
-- Every upload key handed out, so a submission's location can be proven to
-- be this team's (or this assignment's student link's) upload.
INSERT INTO blob_uploads (key, team_id, assignment_id, user_id, by_student)
VALUES (@key, @team_id, sqlc.narg(assignment_id), sqlc.narg(user_id), @by_student)
ON CONFLICT (key) DO NOTHING;

-- name: FilesUploads :many
-- The records of the given keys; a key never issued has none.
SELECT * FROM blob_uploads WHERE key = ANY(@keys::text[]);

-- name: FilesUploadIssued :one
-- Whether key was issued to team under assignment.
SELECT EXISTS (
    SELECT 1 FROM blob_uploads
    WHERE key = @key AND team_id = @team_id AND assignment_id = @assignment_id
);
