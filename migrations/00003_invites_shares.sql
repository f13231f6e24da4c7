-- +goose Up
-- Invitations (issue 7, finding 1). An email invite (email set) is accepted
-- only by a user signed in with that email, verified. A link invite (no
-- email) is made by the team's owner, works once and expires. Either works
-- once; removing a member deletes the pending invites they made.
ALTER TABLE team_invites ALTER COLUMN email DROP NOT NULL;
ALTER TABLE team_invites ADD COLUMN expires_at timestamptz;
ALTER TABLE team_invites ADD CONSTRAINT team_invites_link_expires_check
    CHECK (email IS NOT NULL OR expires_at IS NOT NULL);
CREATE INDEX team_invites_pending_invited_by_idx ON team_invites (invited_by) WHERE accepted_at IS NULL;

-- Shares to an address no verified teacher uses yet (issue 7, finding 7):
-- the notification waits with recipient_email and no user, and is given to
-- the user who first signs in with that email, verified.
ALTER TABLE notifications ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE notifications ADD COLUMN recipient_email text;
ALTER TABLE notifications ADD CONSTRAINT notifications_recipient_check
    CHECK (user_id IS NOT NULL OR recipient_email IS NOT NULL);
CREATE INDEX notifications_pending_email_idx ON notifications (lower(recipient_email)) WHERE user_id IS NULL;

-- +goose Down
DROP INDEX notifications_pending_email_idx;
DELETE FROM notifications WHERE user_id IS NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_recipient_check;
ALTER TABLE notifications DROP COLUMN recipient_email;
ALTER TABLE notifications ALTER COLUMN user_id SET NOT NULL;

DROP INDEX team_invites_pending_invited_by_idx;
DELETE FROM team_invites WHERE email IS NULL;
ALTER TABLE team_invites DROP CONSTRAINT team_invites_link_expires_check;
ALTER TABLE team_invites DROP COLUMN expires_at;
ALTER TABLE team_invites ALTER COLUMN email SET NOT NULL;
