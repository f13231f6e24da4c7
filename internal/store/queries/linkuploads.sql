-- The uploads signed through student links (link_uploads): which generation
-- of the link signed each one, and the periodic clean-up of those never
-- submitted (packages files, studentlink and jobs).

-- name: RecordLinkUpload :exec
-- An upload signed through the link of assignment at the link's generation,
-- for the client address addr. Its blob_uploads row comes first.
INSERT INTO link_uploads (key, assignment_id, link_generation, addr)
VALUES (@key, @assignment_id, @link_generation, @addr);

-- name: LinkUploadGeneration :one
-- The generation of the link that signed the upload key of assignment; no
-- row when the link did not sign it.
SELECT link_generation FROM link_uploads
WHERE key = @key AND assignment_id = @assignment_id;

-- name: LockStaleLinkUploads :many
-- At most max link uploads signed before cutoff that no submission names,
-- oldest first, their upload records locked for the transaction. A record a
-- submission in progress holds (LockStudentUpload) is skipped: that
-- submission decides, and the next run looks again.
SELECT l.key FROM link_uploads l
JOIN blob_uploads b ON b.key = l.key
WHERE l.created_at < @cutoff
  AND NOT EXISTS (
      SELECT 1 FROM submissions s WHERE s.assignment_id = l.assignment_id AND s.file_key = l.key
  )
ORDER BY l.created_at
LIMIT @max
FOR UPDATE OF b SKIP LOCKED;

-- name: DeleteUploadRecords :execrows
-- Forgets the upload records of keys (their link_uploads rows go with them).
DELETE FROM blob_uploads WHERE key = ANY(@keys::text[]);

-- name: ForgetLinkUploadAddrs :execrows
-- Clears the client address of the link uploads signed before cutoff: once
-- an upload is a day old it is either submitted or deleted, and its address
-- is no longer needed.
UPDATE link_uploads SET addr = '' WHERE created_at < @cutoff AND addr <> '';
