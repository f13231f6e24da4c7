-- Notifications: a colleague shared an assignment or a rubric. A share to an
-- address no verified teacher uses yet waits with recipient_email and no
-- user_id until someone signs in with that email, verified.

-- name: NotificationFindUserByEmail :one
-- The teacher a share goes to: only a verified email counts.
SELECT id, team_id, name, email FROM users WHERE lower(email) = lower(@email) AND email_verified;

-- name: NotificationOpenShareExists :one
SELECT EXISTS (
    SELECT 1 FROM notifications
    WHERE user_id = sqlc.arg(user_id)::uuid AND kind = @kind AND status = 'open'
      AND assignment_id IS NOT DISTINCT FROM @assignment_id
      AND rubric_id IS NOT DISTINCT FROM @rubric_id
);

-- name: NotificationOpenPendingShareExists :one
SELECT EXISTS (
    SELECT 1 FROM notifications
    WHERE user_id IS NULL AND lower(recipient_email) = lower(@recipient_email)
      AND kind = @kind AND status = 'open'
      AND assignment_id IS NOT DISTINCT FROM @assignment_id
      AND rubric_id IS NOT DISTINCT FROM @rubric_id
);

-- name: NotificationCreate :one
-- Either user_id (a teacher) or recipient_email (waiting for one) is set.
INSERT INTO notifications (user_id, recipient_email, kind, sender_id, assignment_id, rubric_id)
VALUES (@user_id, @recipient_email, @kind, @sender_id, @assignment_id, @rubric_id)
RETURNING *;

-- name: NotificationClaimPending :execrows
-- Gives the shares that waited for an email to the user who signed in with
-- it, verified.
UPDATE notifications SET user_id = sqlc.arg(user_id)::uuid
WHERE user_id IS NULL AND lower(recipient_email) = lower(@email);

-- name: NotificationList :many
-- A user's shared items, open first then newest; an item whose source was
-- deleted has taken its notification with it (ON DELETE CASCADE).
SELECT n.id, n.kind, n.status, n.created_at,
       coalesce(s.name, '')::text AS sender_name,
       coalesce(s.email, '')::text AS sender_email,
       coalesce(a.id, r.id)::uuid AS item_id,
       coalesce(a.name, r.name)::text AS item_name,
       a.type AS item_type
FROM notifications n
LEFT JOIN users s ON s.id = n.sender_id
LEFT JOIN assignments a ON a.id = n.assignment_id
LEFT JOIN rubrics r ON r.id = n.rubric_id
WHERE n.user_id = sqlc.arg(user_id)::uuid
  AND n.kind IN ('shared-assignment', 'shared-rubric')
  AND (a.id IS NOT NULL OR r.id IS NOT NULL)
ORDER BY (n.status = 'open') DESC, n.created_at DESC, n.id
LIMIT 200;

-- name: NotificationLock :one
SELECT * FROM notifications WHERE id = @id AND user_id = sqlc.arg(user_id)::uuid FOR UPDATE;

-- name: NotificationClose :execrows
UPDATE notifications SET status = 'closed' WHERE id = @id AND user_id = sqlc.arg(user_id)::uuid;

-- name: NotificationSourceAssignment :one
-- The shared assignment, read for a copy; reached only through a
-- notification addressed to the reader.
SELECT * FROM assignments WHERE id = @id;

-- name: NotificationSourceFunction :one
SELECT * FROM functions WHERE assignment_id = @assignment_id;

-- name: NotificationSharedRubric :one
-- The shared rubric, read for a copy; reached only through a notification
-- addressed to the reader.
SELECT * FROM rubrics WHERE id = @id;
