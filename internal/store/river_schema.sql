-- River's job table as far as Markwell's own queries read it (metrics, and
-- the pending jobs of deleted submissions).
-- Only sqlc reads this file; rivermigrate owns the real schema.
CREATE TABLE river_job (
    id bigserial PRIMARY KEY,
    state text NOT NULL,
    kind text NOT NULL,
    queue text NOT NULL,
    args jsonb NOT NULL
);
