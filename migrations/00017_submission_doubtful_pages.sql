-- +goose Up
-- The pages of a submission whose text may be misread (OCR was unsure,
-- garbled characters, almost no words where more were expected), numbered
-- from 1, as the extraction job found them; each page's reason is in pages
-- (its "warning"). The submissions table shows them without reading pages.
ALTER TABLE submissions ADD COLUMN doubtful_pages integer[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE submissions DROP COLUMN doubtful_pages;
