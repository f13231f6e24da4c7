-- name: CreateTeam :one
INSERT INTO teams (name) VALUES (@name) RETURNING *;

-- name: CreateUser :one
INSERT INTO users (email, name, email_verified, team_id)
VALUES (@email, @name, @email_verified, @team_id)
RETURNING *;

-- name: GetTeam :one
SELECT * FROM teams WHERE id = @id;

-- name: GetUser :one
SELECT * FROM users WHERE id = @id;

-- name: SetUserTeam :exec
UPDATE users SET team_id = @team_id, updated_at = now() WHERE id = @id;

-- name: SetTeamOwner :exec
UPDATE teams SET owner_id = @owner_id WHERE id = @id;

-- name: ListTeamMembers :many
SELECT * FROM users WHERE team_id = @team_id ORDER BY created_at, id;

-- name: TeamAssignmentIDs :many
SELECT id FROM assignments WHERE team_id = @team_id ORDER BY created_at, id;

-- name: TeamRubricIDs :many
SELECT id FROM rubrics WHERE team_id = @team_id ORDER BY created_at, id;

-- name: TeamFolders :many
SELECT f.id, f.name,
       coalesce(array_agg(a.id ORDER BY a.created_at, a.id) FILTER (WHERE a.id IS NOT NULL), '{}')::uuid[] AS assignment_ids
FROM folders f
LEFT JOIN assignments a ON a.folder_id = f.id AND a.team_id = f.team_id
WHERE f.team_id = @team_id
GROUP BY f.id
ORDER BY f.position, f.created_at, f.id;

-- name: TeamFunctions :many
SELECT id, assignment_id, type FROM functions WHERE team_id = @team_id ORDER BY created_at, id;

-- name: ListPendingInvites :many
-- The invites that can still be accepted: an email invite until it is
-- accepted, a link invite until it is used or expires.
SELECT * FROM team_invites
WHERE team_id = @team_id AND accepted_at IS NULL AND (expires_at IS NULL OR expires_at > @now::timestamptz)
ORDER BY created_at, id;

-- name: CreateInvite :one
-- An email invite has an email and no expiry; a link invite, the reverse.
-- Only a member of the team makes one: the inviter's row is locked, so a
-- removal running at the same time either comes first (no invite) or
-- waits and then revokes it.
INSERT INTO team_invites (team_id, email, token_hash, invited_by, expires_at)
SELECT u.team_id, sqlc.narg(email)::text, sqlc.arg(token_hash)::bytea, u.id, sqlc.narg(expires_at)::timestamptz
FROM users u
WHERE u.id = sqlc.arg(invited_by)::uuid AND u.team_id = sqlc.arg(team_id)::uuid
FOR SHARE
RETURNING *;

-- name: GetPendingInvite :one
SELECT * FROM team_invites WHERE id = @id AND team_id = @team_id AND accepted_at IS NULL;

-- name: DeletePendingInvite :execrows
DELETE FROM team_invites WHERE id = @id AND team_id = @team_id AND accepted_at IS NULL;

-- name: LockInviteByToken :one
-- The invite a link names, locked while it is checked and accepted.
SELECT * FROM team_invites WHERE token_hash = @token_hash FOR UPDATE;

-- name: MarkInviteAccepted :exec
UPDATE team_invites SET accepted_at = @accepted_at::timestamptz WHERE id = @id;

-- name: RevokeInvitesBy :execrows
-- A teacher who leaves a team (removed or not) takes back the invites they
-- made for it that are still pending.
DELETE FROM team_invites
WHERE team_id = @team_id AND invited_by = @invited_by::uuid AND accepted_at IS NULL;

-- name: RevokeInvitesTo :execrows
-- A member the owner removes loses the pending email invites to their
-- address in that team, so they cannot accept one and walk back in.
DELETE FROM team_invites
WHERE team_id = @team_id AND lower(email) = lower(@email::text) AND accepted_at IS NULL;

-- name: IsMemberEmail :one
SELECT EXISTS (SELECT 1 FROM users WHERE team_id = @team_id AND lower(email) = lower(@email));

-- name: IsInvitePending :one
SELECT EXISTS (SELECT 1 FROM team_invites WHERE team_id = @team_id AND lower(email) = lower(@email) AND accepted_at IS NULL);

-- name: AssignmentTeamID :one
SELECT team_id FROM assignments WHERE id = @id;
