-- Sign-in and sessions (internal/auth). Times come from the caller so the
-- service's clock is the only clock.

-- name: CreateSession :exec
INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (@token_hash, @user_id, @expires_at);

-- name: GetSessionUser :one
-- A live session and its user; expired rows are never returned.
SELECT s.data, s.expires_at, sqlc.embed(u)
FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.token_hash = @token_hash AND s.expires_at > @now;

-- name: ExtendSession :exec
UPDATE sessions SET expires_at = @expires_at
WHERE token_hash = @token_hash AND expires_at < @expires_at;

-- name: UpdateSessionData :one
UPDATE sessions SET data = @data
WHERE token_hash = @token_hash AND expires_at > @now
RETURNING expires_at;

-- name: DeleteSession :exec
DELETE FROM sessions WHERE token_hash = @token_hash;

-- name: DeleteExpiredSessions :execrows
DELETE FROM sessions WHERE expires_at <= @now;

-- name: CreateSigninAttempt :exec
INSERT INTO signin_attempts (state_hash, provider, nonce, code_verifier, callback_url, expires_at)
VALUES (@state_hash, @provider, @nonce, @code_verifier, @callback_url, @expires_at);

-- name: TakeSigninAttempt :one
-- Consumes the attempt: a state works once, even when it has expired.
DELETE FROM signin_attempts WHERE state_hash = @state_hash RETURNING *;

-- name: DeleteExpiredSigninAttempts :execrows
DELETE FROM signin_attempts WHERE expires_at <= @now;

-- name: AuthUserByAccount :one
SELECT u.* FROM accounts a JOIN users u ON u.id = a.user_id
WHERE a.provider = @provider AND a.provider_account_id = @provider_account_id
FOR UPDATE OF u;

-- name: AuthUserByEmail :one
SELECT * FROM users WHERE lower(email) = lower(@email) FOR UPDATE;

-- name: AuthCreateUser :one
INSERT INTO users (email, name, image, email_verified)
VALUES (@email, @name, @image, @email_verified)
RETURNING *;

-- name: AuthCreateAccount :exec
INSERT INTO accounts (user_id, provider, provider_account_id)
VALUES (@user_id, @provider, @provider_account_id);

-- name: AuthRefreshUser :one
-- Fills a missing name or picture and records a verified email; never
-- overwrites what the user already has.
UPDATE users SET
    email_verified = email_verified OR @email_verified,
    name = CASE WHEN name = '' THEN @name ELSE name END,
    image = CASE WHEN image = '' THEN @image ELSE image END,
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: AuthNewestPendingInvite :one
SELECT * FROM team_invites
WHERE lower(email) = lower(@email) AND accepted_at IS NULL
ORDER BY created_at DESC, id
LIMIT 1;

-- name: AuthCloseInvites :execrows
-- Closes every pending invite for the email: the user joined one team.
UPDATE team_invites SET accepted_at = @accepted_at::timestamptz
WHERE lower(email) = lower(@email) AND accepted_at IS NULL;

-- name: AuthLinkAccount :execrows
-- Links an account to a user unless it is linked already (to anyone).
INSERT INTO accounts (user_id, provider, provider_account_id)
VALUES (@user_id, @provider, @provider_account_id)
ON CONFLICT (provider, provider_account_id) DO NOTHING;
