-- name: GetSubmissionToExtract :one
-- What the extraction jobs (extract_text, ocr_pages, transcribe_pages) need:
-- queued → extracting → ready | failed. Every write below is guarded by
-- extract_status <> 'ready', so a job that runs again (a retry, a rescue
-- after a crash) never overwrites a finished extraction. Workers load by id
-- alone: job args carry ids that the API already scoped. A submission is
-- handwritten when it says so or its assignment does.
SELECT s.id, s.team_id, s.assignment_id, s.name, s.file_key, s.content_type, s.reader_hint,
       s.extract_status, s.extract_error, s.extracted_text, s.pages, s.page_count, s.extract_writes,
       (s.is_hand_written OR a.is_hand_written)::boolean AS hand_written
FROM submissions s
JOIN assignments a ON a.id = s.assignment_id
WHERE s.id = @id;

-- name: StartExtracting :execrows
UPDATE submissions SET extract_status = 'extracting', extract_error = '', updated_at = now()
WHERE id = @id AND extract_status <> 'ready';

-- name: SavePartialExtraction :execrows
-- The pages read so far, while OCR or the vision model reads the rest (in a
-- job inserted in the same transaction); the status stays extracting.
UPDATE submissions SET pages = @pages, page_count = @page_count, updated_at = now()
WHERE id = @id AND extract_status <> 'ready';

-- name: FinishExtracting :execrows
-- The one write of a finished extraction: extract_writes counts it, and the
-- guard makes a second run change nothing.
UPDATE submissions
SET extract_status = 'ready', pages = @pages, page_count = @page_count, extracted_text = @extracted_text,
    extract_error = @extract_error, doubtful_pages = coalesce(@doubtful_pages::int[], '{}'), extract_writes = extract_writes + 1,
    extracted_at = now(), updated_at = now()
WHERE id = @id AND extract_status <> 'ready';

-- name: FailExtracting :execrows
-- extract_error is a sentence for the teacher, never an internal error.
UPDATE submissions SET extract_status = 'failed', extract_error = @extract_error, updated_at = now()
WHERE id = @id AND extract_status <> 'ready';

-- name: SetSubmissionContentHash :exec
-- The SHA-256 of the file, as the extraction job read it.
UPDATE submissions SET content_sha256 = @content_sha256 WHERE id = @id;
