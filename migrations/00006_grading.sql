-- +goose Up
-- AI grading and annotation: what a function result records about the run
-- that wrote it, the teacher's review, and the shared model rate limit.
--
-- Function result statuses:
--   ''               never run
--   ready-to-grade   a handwritten answer got its picture (answer boxes)
--   grading          grade and prompt, in progress
--   rubric-grading   rubric-feedback, in progress
--   annotating       feedback, in progress
--   graded           grade, prompt and rubric-feedback, done by the model
--   annotated        feedback, done by the model
--   failed           the run ended without a result; error says why
--   reviewed         a teacher checked (and maybe edited) the result
ALTER TABLE function_results
    -- [{"kind": "injection", "passage": …, "source": "detector" | "model"}]
    ADD COLUMN flags jsonb NOT NULL DEFAULT '[]',
    -- highlighted passages the model returned that were not in the text or
    -- named an unknown highlighter, and so were left out
    ADD COLUMN dropped_highlights integer NOT NULL DEFAULT 0,
    -- what the run that wrote the result cost
    ADD COLUMN model text NOT NULL DEFAULT '',
    ADD COLUMN model_calls integer NOT NULL DEFAULT 0,
    ADD COLUMN prompt_tokens integer NOT NULL DEFAULT 0,
    ADD COLUMN completion_tokens integer NOT NULL DEFAULT 0,
    ADD COLUMN cost_usd double precision NOT NULL DEFAULT 0,
    -- how many times a finished run was written (exactly once per run,
    -- proven by the fault tests)
    ADD COLUMN result_writes integer NOT NULL DEFAULT 0,
    ADD COLUMN graded_at timestamptz,
    ADD COLUMN reviewed_at timestamptz,
    -- when the status last changed: the sweeper fails runs stuck in progress
    ADD COLUMN status_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX function_results_in_progress_idx ON function_results (status_at)
    WHERE status IN ('grading', 'rubric-grading', 'annotating');
CREATE INDEX function_results_benchmark_idx ON function_results (assignment_id)
    WHERE is_benchmark;

-- The teacher-agreement report of "Check agreement" (leave-one-out regrading
-- of the benchmark results), and whether one is being computed.
ALTER TABLE assignments
    ADD COLUMN agreement jsonb,
    ADD COLUMN agreement_status text NOT NULL DEFAULT '',
    ADD COLUMN summary_status text NOT NULL DEFAULT '';

-- Model calls of every worker process in the last minute, per limit bucket:
-- the shared requests-per-minute and tokens-per-minute limit. A call
-- reserves a row before it is made (tokens estimated) and corrects its
-- tokens when the answer arrives; rows older than a minute are purged.
CREATE TABLE model_calls (
    id      bigserial PRIMARY KEY,
    bucket  text NOT NULL,
    at      timestamptz NOT NULL DEFAULT now(),
    tokens  integer NOT NULL DEFAULT 0
);
CREATE INDEX model_calls_bucket_at_idx ON model_calls (bucket, at);

-- +goose Down
DROP TABLE model_calls;
ALTER TABLE assignments DROP COLUMN summary_status, DROP COLUMN agreement_status,
    DROP COLUMN agreement;
DROP INDEX function_results_benchmark_idx;
DROP INDEX function_results_in_progress_idx;
ALTER TABLE function_results DROP COLUMN status_at, DROP COLUMN reviewed_at,
    DROP COLUMN graded_at, DROP COLUMN result_writes, DROP COLUMN cost_usd,
    DROP COLUMN completion_tokens, DROP COLUMN prompt_tokens, DROP COLUMN model_calls,
    DROP COLUMN model, DROP COLUMN dropped_highlights, DROP COLUMN flags;
