-- Markwell as an LTI 1.3 tool (internal/lti, docs/lti.md): registered
-- platforms, Markwell's signing keys, logins under way, courses and
-- resource links, pupils' launches, deep-linking requests and the scores
-- sent back. Reads of a team's rows are scoped by team_id.

-- name: LtiListPlatforms :many
SELECT * FROM lti_platforms ORDER BY created_at;

-- name: LtiGetPlatform :one
SELECT * FROM lti_platforms WHERE id = @id;

-- name: LtiFindPlatforms :many
-- The platforms of an issuer, of one client id when the login names it.
SELECT * FROM lti_platforms WHERE issuer = @issuer AND (@client_id::text = '' OR client_id = @client_id::text);

-- name: LtiInsertPlatform :one
INSERT INTO lti_platforms (name, issuer, client_id, deployment_ids, auth_login_url, token_url, jwks_url)
VALUES (@name, @issuer, @client_id, @deployment_ids, @auth_login_url, @token_url, @jwks_url)
RETURNING *;

-- name: LtiUpdatePlatform :one
UPDATE lti_platforms SET name = @name, issuer = @issuer, client_id = @client_id, deployment_ids = @deployment_ids,
    auth_login_url = @auth_login_url, token_url = @token_url, jwks_url = @jwks_url
WHERE id = @id
RETURNING *;

-- name: LtiDeletePlatform :execrows
DELETE FROM lti_platforms WHERE id = @id;

-- name: LtiLockKeys :exec
-- Serialises making and rotating signing keys (transaction-scoped).
SELECT pg_advisory_xact_lock(hashtext('lti_keys'));

-- name: LtiCurrentKey :one
SELECT kid, private_sealed FROM lti_keys WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1;

-- name: LtiInsertKey :exec
INSERT INTO lti_keys (kid, private_sealed, created_at) VALUES (@kid, @private_sealed, @created_at);

-- name: LtiRetireKeys :exec
UPDATE lti_keys SET retired_at = @retired_at::timestamptz WHERE retired_at IS NULL;

-- name: LtiDeleteKeysRetiredBefore :exec
DELETE FROM lti_keys WHERE retired_at < @before::timestamptz;

-- name: LtiListPublishedKeys :many
-- The keys of the JWKS: the current one and those retired after @since.
SELECT kid, private_sealed FROM lti_keys WHERE retired_at IS NULL OR retired_at > @since::timestamptz ORDER BY created_at DESC;

-- name: LtiDeleteExpiredLogins :exec
DELETE FROM lti_logins WHERE expires_at < @now;

-- name: LtiInsertLogin :exec
INSERT INTO lti_logins (state_hash, nonce, platform_id, expires_at) VALUES (@state_hash, @nonce, @platform_id, @expires_at);

-- name: LtiTakeLogin :one
-- Consumes the login: a state works once, even when it has expired.
DELETE FROM lti_logins WHERE state_hash = @state_hash RETURNING nonce, platform_id, expires_at;

-- name: LtiInsertDeepLink :one
INSERT INTO lti_deep_links (platform_id, user_id, team_id, deployment_id, return_url, data, line_item, expires_at)
VALUES (@platform_id, @user_id, @team_id, @deployment_id, @return_url, @data, @line_item, @expires_at)
RETURNING id;

-- name: LtiGetDeepLink :one
-- The user's own live deep-linking request, with its platform.
SELECT d.platform_id, p.name AS platform_name, p.issuer, p.client_id, d.deployment_id, d.return_url, d.data, d.line_item
FROM lti_deep_links d JOIN lti_platforms p ON p.id = d.platform_id
WHERE d.id = @id AND d.user_id = @user_id AND d.team_id = @team_id AND d.expires_at > @now;

-- name: LtiDeleteDeepLink :exec
DELETE FROM lti_deep_links WHERE id = @id;

-- name: LtiLinkCourse :one
-- Links the course to @team_id on its first teacher launch (a later one
-- only refreshes the title) and returns the course's team.
INSERT INTO lti_contexts (platform_id, context_id, team_id, title) VALUES (@platform_id, @context_id, @team_id, @title)
ON CONFLICT (platform_id, context_id) DO UPDATE SET title = EXCLUDED.title
RETURNING team_id;

-- name: LtiLinkedAssignment :one
SELECT assignment_id, team_id FROM lti_links WHERE platform_id = @platform_id AND resource_link_id = @resource_link_id;

-- name: LtiAssignmentTeam :one
SELECT id, team_id FROM assignments WHERE id = @id;

-- name: LtiTeamAssignmentName :one
SELECT name FROM assignments WHERE id = @id AND team_id = @team_id;

-- name: LtiTeamHasAssignment :one
SELECT EXISTS (SELECT 1 FROM assignments WHERE id = @id AND team_id = @team_id)::boolean;

-- name: LtiRememberLink :exec
-- The resource link's assignment and the service endpoints of its latest
-- launch (a launch without a line item keeps the one already known).
INSERT INTO lti_links (platform_id, resource_link_id, team_id, assignment_id, context_id, deployment_id, lineitems_url, lineitem_url, ags_scopes, nrps_url, updated_at)
VALUES (@platform_id, @resource_link_id, @team_id, @assignment_id, @context_id, @deployment_id, @lineitems_url, @lineitem_url, @ags_scopes, @nrps_url, @updated_at)
ON CONFLICT (platform_id, resource_link_id) DO UPDATE SET context_id = EXCLUDED.context_id, deployment_id = EXCLUDED.deployment_id,
    lineitems_url = EXCLUDED.lineitems_url,
    lineitem_url = CASE WHEN EXCLUDED.lineitem_url <> '' THEN EXCLUDED.lineitem_url ELSE lti_links.lineitem_url END,
    ags_scopes = EXCLUDED.ags_scopes, nrps_url = EXCLUDED.nrps_url, updated_at = EXCLUDED.updated_at;

-- name: LtiLinkForLineItem :one
SELECT l.assignment_id, l.lineitems_url, l.lineitem_url, a.name
FROM lti_links l JOIN assignments a ON a.id = l.assignment_id
WHERE l.platform_id = @platform_id AND l.resource_link_id = @resource_link_id;

-- name: LtiSetLineItem :exec
UPDATE lti_links SET lineitem_url = @lineitem_url WHERE platform_id = @platform_id AND resource_link_id = @resource_link_id;

-- name: LtiAssignmentLinked :one
SELECT EXISTS (SELECT 1 FROM lti_links WHERE assignment_id = @assignment_id AND team_id = @team_id)::boolean;

-- name: LtiRosterLink :one
-- The Names and Roles service of the assignment's latest launch that had one.
SELECT platform_id, nrps_url FROM lti_links
WHERE assignment_id = @assignment_id AND team_id = @team_id AND nrps_url <> ''
ORDER BY updated_at DESC LIMIT 1;

-- name: LtiDeleteExpiredLearners :exec
DELETE FROM lti_learners WHERE expires_at < @now;

-- name: LtiInsertLearner :exec
INSERT INTO lti_learners (token_hash, assignment_id, name, email, details, expires_at)
VALUES (@token_hash, @assignment_id, @name, @email, @details, @expires_at);

-- name: LtiGetLearner :one
SELECT name, email, details FROM lti_learners
WHERE token_hash = @token_hash AND assignment_id = @assignment_id AND expires_at > @now;

-- name: LtiSubmissionDetails :one
-- A team's submission's LTI details (null for one not from a launch).
SELECT lti FROM submissions WHERE id = @id AND assignment_id = @assignment_id AND team_id = @team_id;

-- name: LtiRecordScore :exec
-- A released submission's score, pending (or skipped); nothing when its
-- platform was deleted meanwhile.
INSERT INTO lti_scores (submission_id, team_id, assignment_id, platform_id, resource_link_id, user_sub, student_name, score, max_score, comment, state, error, updated_at)
SELECT @submission_id, @team_id, @assignment_id, @platform_id, @resource_link_id, @user_sub, @student_name, @score, @max_score, @comment, @state, @error, @updated_at
WHERE EXISTS (SELECT 1 FROM lti_platforms WHERE id = @platform_id)
ON CONFLICT (submission_id) DO UPDATE SET score = EXCLUDED.score, max_score = EXCLUDED.max_score, comment = EXCLUDED.comment,
    state = EXCLUDED.state, error = EXCLUDED.error, updated_at = EXCLUDED.updated_at;

-- name: LtiScoresToSend :many
SELECT submission_id, platform_id, resource_link_id, user_sub, comment, score, max_score FROM lti_scores
WHERE team_id = @team_id AND assignment_id = @assignment_id AND state IN ('pending', 'failed')
ORDER BY student_name;

-- name: LtiSetScoreOutcome :exec
UPDATE lti_scores SET state = @state, error = @error, updated_at = @updated_at WHERE submission_id = @submission_id;

-- name: LtiAbandonScores :exec
-- The scores still unsent when the job gave up: failed, saying so.
UPDATE lti_scores SET state = 'failed', error = @error, updated_at = @updated_at
WHERE team_id = @team_id AND assignment_id = @assignment_id AND state IN ('pending', 'failed');

-- name: LtiListScores :many
SELECT submission_id, student_name, score, max_score, state, error, updated_at FROM lti_scores
WHERE assignment_id = @assignment_id AND team_id = @team_id
ORDER BY student_name, submission_id;

-- name: LtiSubmitters :many
-- Who submitted the assignment: LTI subject (empty when none) and email.
SELECT coalesce(lti->>'sub', '')::text AS sub, lower(student_email)::text AS email
FROM submissions WHERE assignment_id = @assignment_id AND team_id = @team_id;

-- name: LtiDeleteExpiredAccountLinks :exec
DELETE FROM lti_account_links WHERE expires_at < @now;

-- name: LtiInsertAccountLink :exec
INSERT INTO lti_account_links (token_hash, platform_id, claims, expires_at)
VALUES (@token_hash, @platform_id, @claims, @expires_at);

-- name: LtiGetAccountLink :one
SELECT platform_id, claims FROM lti_account_links WHERE token_hash = @token_hash AND expires_at > @now;

-- name: LtiDeleteAccountLink :exec
DELETE FROM lti_account_links WHERE token_hash = @token_hash;
