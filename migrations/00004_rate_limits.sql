-- +goose Up
-- Fixed-window counters behind every rate limit (sign-ins per client
-- address, AI calls per teacher and per team), shared by every API and
-- worker process. Unlogged: after a crash the counters start again at zero,
-- which only forgives a little.
CREATE UNLOGGED TABLE rate_counters (
    key           text NOT NULL,
    window_start  timestamptz NOT NULL,
    count         integer NOT NULL,
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_counters_expires_at_idx ON rate_counters (expires_at);

-- +goose Down
DROP TABLE rate_counters;
