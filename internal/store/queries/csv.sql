-- name: LockUploadForImport :one
-- Holds an uploaded file's record until the transaction ends, so two
-- imports of the same CSV (a double click, a retried request) run one
-- after the other and the second sees the first's rows.
SELECT key FROM blob_uploads WHERE key = @key FOR UPDATE;
