-- The team library: listing, folders, deletes, duplicates and the copies
-- that sharing makes. Every query but the Copy* source reads is scoped to a
-- team; the source reads are reached only through a notification addressed
-- to the reader.

-- name: LibraryLockTeam :exec
-- Serialises the folder edits of one team (two tabs saving folders at once).
SELECT id FROM teams WHERE id = @id FOR NO KEY UPDATE;

-- name: LibraryListAssignments :many
SELECT sqlc.embed(a),
       coalesce((SELECT array_agg(s.id ORDER BY s.created_at, s.id)
                 FROM submissions s WHERE s.assignment_id = a.id), '{}')::uuid[] AS submission_ids
FROM assignments a
WHERE a.team_id = @team_id
ORDER BY a.created_at DESC, a.id;

-- name: LibraryCreateFolder :one
INSERT INTO folders (team_id, name, position)
VALUES (@team_id, @name,
        coalesce((SELECT max(position) + 1 FROM folders WHERE team_id = @team_id), 0))
RETURNING *;

-- name: LibraryInsertFolder :one
INSERT INTO folders (team_id, name, position) VALUES (@team_id, @name, @position) RETURNING *;

-- name: LibraryFolderIDs :many
SELECT id FROM folders WHERE team_id = @team_id;

-- name: LibraryUpdateFolder :execrows
UPDATE folders SET name = @name, position = @position WHERE id = @id AND team_id = @team_id;

-- name: LibraryDeleteOtherFolders :execrows
-- Deletes the team's folders not kept; their assignments return to the top
-- level through folder_id's ON DELETE SET NULL.
DELETE FROM folders WHERE team_id = @team_id AND NOT (id = ANY(@keep::uuid[]));

-- name: LibraryCountTeamAssignments :one
SELECT count(*) FROM assignments WHERE team_id = @team_id AND id = ANY(@ids::uuid[]);

-- name: LibraryUnfileOthers :exec
-- Moves the team's assignments not listed in any folder to the top level.
UPDATE assignments SET folder_id = NULL
WHERE team_id = @team_id AND folder_id IS NOT NULL AND NOT (id = ANY(@listed::uuid[]));

-- name: LibraryFileAssignments :exec
UPDATE assignments SET folder_id = @folder_id
WHERE team_id = @team_id AND id = ANY(@ids::uuid[]) AND folder_id IS DISTINCT FROM @folder_id;

-- name: LibraryDeleteAssignment :execrows
-- Its function, submissions and results go with it (ON DELETE CASCADE).
DELETE FROM assignments WHERE id = @id AND team_id = @team_id;

-- name: LibraryDeleteRubric :execrows
-- Functions that used it keep rubric_id NULL (ON DELETE SET NULL).
DELETE FROM rubrics WHERE id = @id AND team_id = @team_id;

-- name: CopyAssignment :one
INSERT INTO assignments (team_id, folder_id, name, type, is_hand_written, provide_instant_feedback, created_by)
VALUES (@team_id, @folder_id, @name, @type, @is_hand_written, @provide_instant_feedback, @created_by)
RETURNING *;

-- name: LibraryCountFolders :one
SELECT count(*) FROM folders WHERE team_id = @team_id;
