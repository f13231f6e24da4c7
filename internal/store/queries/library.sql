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

-- name: LibraryLockRubric :one
-- Locks a rubric of the team against new uses until the transaction ends:
-- a definition naming it (functions.rubric_id's foreign key, or a grade
-- question through LockTeamRubrics) takes a KEY SHARE lock on it, which
-- waits for this one.
SELECT id FROM rubrics WHERE id = @id AND team_id = @team_id FOR UPDATE;

-- name: LibraryRubricUsers :many
-- The team's assignments whose definition uses a rubric: a rubric-feedback
-- definition's rubric_id, or the rubricId of a grade question at any depth.
SELECT a.name
FROM functions f
JOIN assignments a ON a.id = f.assignment_id
WHERE f.team_id = @team_id
  AND (f.rubric_id = @rubric_id::uuid
       OR EXISTS (SELECT 1 FROM jsonb_path_query(f.questions, 'lax $.**.rubricId') AS q(v)
                  WHERE lower(btrim(q.v #>> '{}')) = (@rubric_id::uuid)::text))
ORDER BY a.created_at DESC, a.id;

-- name: LibraryDeleteRubric :execrows
-- Only an unused rubric is deleted (LibraryLockRubric, LibraryRubricUsers
-- first, in the same transaction).
DELETE FROM rubrics WHERE id = @id AND team_id = @team_id;

-- name: CopyAssignment :one
INSERT INTO assignments (team_id, folder_id, name, type, is_hand_written, provide_instant_feedback, created_by)
VALUES (@team_id, @folder_id, @name, @type, @is_hand_written, @provide_instant_feedback, @created_by)
RETURNING *;

-- name: LibraryCountFolders :one
SELECT count(*) FROM folders WHERE team_id = @team_id;
