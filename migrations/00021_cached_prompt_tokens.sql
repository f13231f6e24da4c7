-- +goose Up
-- Prompt caching (issue 22): the part of a result's prompt tokens the
-- provider served from its prompt cache (usage.prompt_tokens_details.
-- cached_tokens), counted next to prompt_tokens. cost_usd already prices
-- them at the cached-input price (LLM_PRICES input/cached/output).
ALTER TABLE function_results
    ADD COLUMN cached_prompt_tokens integer NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE function_results DROP COLUMN cached_prompt_tokens;
