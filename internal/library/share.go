package library

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/store"
)

// Notification kinds and statuses.
const (
	KindSharedAssignment = "shared-assignment"
	KindSharedRubric     = "shared-rubric"
	StatusOpen           = "open"
	StatusClosed         = "closed"
)

// Messages users see.
const (
	msgBadEmail      = "Please enter a valid email address."
	msgCopied        = "This item has already been copied."
	msgNotAssignment = "This notification is not a shared assignment."
	msgNotRubric     = "This notification is not a shared rubric."
)

// Person is who sent a notification.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Item is what a notification is about; Type is set for assignments.
type Item struct {
	ID   uuid.UUID `json:"_id"`
	Name string    `json:"name"`
	Type string    `json:"type,omitempty"`
}

// Notification tells a teacher a colleague of another team shared an
// assignment or a rubric with them.
type Notification struct {
	ID        uuid.UUID `json:"_id"`
	Kind      string    `json:"kind"`
	Status    string    `json:"status"`
	Sender    Person    `json:"sender"`
	Item      Item      `json:"item"`
	CreatedAt time.Time `json:"createdAt"`
}

// ShareAssignment sends an assignment of the actor's team to the teacher
// with that email, who may copy it into their own team; when nobody has
// signed up with the email yet, the share waits for them. It returns the
// email, the same answer either way. Sharing again while the last share is
// still open sends nothing new.
func (s *Service) ShareAssignment(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, email string) (string, error) {
	if _, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: assignmentID, TeamID: a.TeamID}); err != nil {
		return "", fmt.Errorf("load assignment %s: %w", assignmentID, store.NotFound(err))
	}
	return s.share(ctx, a, email, store.NotificationCreateParams{
		Kind: store.NotificationKindSharedAssignment, AssignmentID: uuid.NullUUID{UUID: assignmentID, Valid: true},
	})
}

// ShareRubric sends a rubric of the actor's team to the teacher with that
// email, as ShareAssignment does.
func (s *Service) ShareRubric(ctx context.Context, a identity.Actor, rubricID uuid.UUID, email string) (string, error) {
	if _, err := store.Q.GetRubric(ctx, s.Pool, store.GetRubricParams{ID: rubricID, TeamID: a.TeamID}); err != nil {
		return "", fmt.Errorf("load rubric %s: %w", rubricID, store.NotFound(err))
	}
	return s.share(ctx, a, email, store.NotificationCreateParams{
		Kind: store.NotificationKindSharedRubric, RubricID: uuid.NullUUID{UUID: rubricID, Valid: true},
	})
}

// share sends n to the teacher with the verified email, or keeps it for
// whoever first signs in with that email, verified (see
// store.NotificationClaimPending). Both answer the same, with the same
// work, so sharing never tells whether an address belongs to a teacher.
func (s *Service) share(ctx context.Context, a identity.Actor, email string, n store.NotificationCreateParams) (string, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Name != "" || len(addr.Address) > input.MaxEmail {
		return "", apperr.New(apperr.Invalid, msgBadEmail)
	}
	email = strings.ToLower(addr.Address)
	n.SenderID = uuid.NullUUID{UUID: a.UserID, Valid: true}
	to, err := store.Q.NotificationFindUserByEmail(ctx, s.Pool, email)
	var open bool
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		n.RecipientEmail = &email
		open, err = store.Q.NotificationOpenPendingShareExists(ctx, s.Pool, store.NotificationOpenPendingShareExistsParams{
			RecipientEmail: email, Kind: n.Kind, AssignmentID: n.AssignmentID, RubricID: n.RubricID,
		})
	case err != nil:
		return "", fmt.Errorf("find user by email: %w", err)
	case to.ID == a.UserID || (to.TeamID.Valid && to.TeamID.UUID == a.TeamID):
		return "", apperr.Invalidf("%s is in your team already.", email)
	default:
		n.UserID = uuid.NullUUID{UUID: to.ID, Valid: true}
		open, err = store.Q.NotificationOpenShareExists(ctx, s.Pool, store.NotificationOpenShareExistsParams{
			UserID: to.ID, Kind: n.Kind, AssignmentID: n.AssignmentID, RubricID: n.RubricID,
		})
	}
	if err != nil {
		return "", fmt.Errorf("check open shares: %w", err)
	}
	if !open {
		if _, err := store.Q.NotificationCreate(ctx, s.Pool, n); err != nil {
			return "", fmt.Errorf("create notification: %w", err)
		}
	}
	return email, nil
}

// Notifications lists what was shared with the actor, open first, then
// newest first. Items deleted at their source are gone from the list.
func (s *Service) Notifications(ctx context.Context, a identity.Actor) ([]Notification, error) {
	rows, err := store.Q.NotificationList(ctx, s.Pool, a.UserID)
	if err != nil {
		return nil, fmt.Errorf("list notifications of %s: %w", a.UserID, err)
	}
	out := make([]Notification, len(rows))
	for i, r := range rows {
		out[i] = Notification{
			ID:        r.ID,
			Kind:      string(r.Kind),
			Status:    r.Status,
			Sender:    Person{Name: r.SenderName, Email: r.SenderEmail},
			Item:      Item{ID: r.ItemID, Name: r.ItemName},
			CreatedAt: r.CreatedAt,
		}
		out[i].Item.Type = string(r.ItemType) // "" when the item is not an assignment
	}
	return out, nil
}

// Dismiss closes one of the actor's notifications without copying.
func (s *Service) Dismiss(ctx context.Context, a identity.Actor, notificationID uuid.UUID) error {
	n, err := store.Q.NotificationClose(ctx, s.Pool, store.NotificationCloseParams{ID: notificationID, UserID: a.UserID})
	if err != nil {
		return fmt.Errorf("close notification %s: %w", notificationID, err)
	}
	return store.Affected(n)
}

// CopySharedAssignment copies the assignment a notification shares into the
// actor's team, with its definition and the rubrics it uses, and closes the
// notification. The copy is independent of its source: rubric-feedback and
// grade rubric ids point at the copied rubrics; an id whose rubric no longer
// exists in the source team is cleared.
func (s *Service) CopySharedAssignment(ctx context.Context, a identity.Actor, notificationID uuid.UUID) (assignment.Assignment, error) {
	var out assignment.Assignment
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		n, err := openNotification(ctx, tx, a, notificationID, store.NotificationKindSharedAssignment)
		if err != nil {
			return err
		}
		src, err := store.Q.NotificationSourceAssignment(ctx, tx, n.AssignmentID.UUID)
		if err != nil {
			return fmt.Errorf("load shared assignment %s: %w", n.AssignmentID.UUID, store.NotFound(err))
		}
		cp, err := store.Q.CopyAssignment(ctx, tx, store.CopyAssignmentParams{
			TeamID:                 a.TeamID,
			Name:                   sharedCopyName(src.Name, src.TeamID, a),
			Type:                   src.Type,
			IsHandWritten:          src.IsHandWritten,
			ProvideInstantFeedback: src.ProvideInstantFeedback,
			CreatedBy:              uuid.NullUUID{UUID: a.UserID, Valid: true},
		})
		if err != nil {
			return fmt.Errorf("copy assignment %s: %w", src.ID, err)
		}
		fn, err := store.Q.NotificationSourceFunction(ctx, tx, src.ID)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return fmt.Errorf("load function of assignment %s: %w", src.ID, err)
		default:
			c := &rubricCopier{tx: tx, actor: a, from: src.TeamID, copies: map[uuid.UUID]uuid.UUID{}}
			rubricID := uuid.NullUUID{}
			if fn.RubricID.Valid {
				if rubricID, err = c.copy(ctx, fn.RubricID.UUID); err != nil {
					return err
				}
			}
			questions, err := c.rewrite(ctx, fn.Questions)
			if err != nil {
				return err
			}
			if _, err := store.Q.CreateFunction(ctx, tx, copyFunctionParams(fn, a.TeamID, cp.ID, rubricID, questions)); err != nil {
				return fmt.Errorf("copy function of assignment %s: %w", src.ID, err)
			}
		}
		if _, err := store.Q.NotificationClose(ctx, tx, store.NotificationCloseParams{ID: n.ID, UserID: a.UserID}); err != nil {
			return fmt.Errorf("close notification %s: %w", n.ID, err)
		}
		out = assignment.FromRow(cp, nil)
		return nil
	})
	return out, err
}

// CopySharedRubric copies the rubric a notification shares into the actor's
// team and closes the notification.
func (s *Service) CopySharedRubric(ctx context.Context, a identity.Actor, notificationID uuid.UUID) (rubric.Rubric, error) {
	var out rubric.Rubric
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		n, err := openNotification(ctx, tx, a, notificationID, store.NotificationKindSharedRubric)
		if err != nil {
			return err
		}
		src, err := store.Q.NotificationSharedRubric(ctx, tx, n.RubricID.UUID)
		if err != nil {
			return fmt.Errorf("load shared rubric %s: %w", n.RubricID.UUID, store.NotFound(err))
		}
		cp, err := store.Q.CreateRubric(ctx, tx, store.CreateRubricParams{
			TeamID: a.TeamID, Name: sharedCopyName(src.Name, src.TeamID, a), Criteria: src.Criteria, CreatedBy: uuid.NullUUID{UUID: a.UserID, Valid: true},
		})
		if err != nil {
			return fmt.Errorf("copy rubric %s: %w", src.ID, err)
		}
		if _, err := store.Q.NotificationClose(ctx, tx, store.NotificationCloseParams{ID: n.ID, UserID: a.UserID}); err != nil {
			return fmt.Errorf("close notification %s: %w", n.ID, err)
		}
		out, err = rubric.FromRow(cp)
		return err
	})
	return out, err
}

// sharedCopyName is the name of a shared item's copy: its own, or "Copy of
// …" when the item is in the actor's team already (shared before the
// actor joined it), so the library does not hold two of the same name.
func sharedCopyName(name string, from uuid.UUID, a identity.Actor) string {
	if from == a.TeamID {
		return copyName(name)
	}
	return name
}

// openNotification locks one of the actor's notifications of the given kind
// that has not been copied yet.
func openNotification(ctx context.Context, tx pgx.Tx, a identity.Actor, id uuid.UUID, kind store.NotificationKind) (store.Notification, error) {
	n, err := store.Q.NotificationLock(ctx, tx, store.NotificationLockParams{ID: id, UserID: a.UserID})
	if err != nil {
		return n, fmt.Errorf("load notification %s: %w", id, store.NotFound(err))
	}
	if n.Kind != kind {
		if kind == store.NotificationKindSharedRubric {
			return n, apperr.New(apperr.Invalid, msgNotRubric)
		}
		return n, apperr.New(apperr.Invalid, msgNotAssignment)
	}
	if n.Status != StatusOpen {
		return n, apperr.New(apperr.Invalid, msgCopied)
	}
	if (kind == store.NotificationKindSharedAssignment && !n.AssignmentID.Valid) || (kind == store.NotificationKindSharedRubric && !n.RubricID.Valid) {
		return n, apperr.ErrNotFound
	}
	return n, nil
}

// rubricCopier copies the rubrics of a shared assignment's team into the
// actor's team, each once.
type rubricCopier struct {
	tx     pgx.Tx
	actor  identity.Actor
	from   uuid.UUID
	copies map[uuid.UUID]uuid.UUID
}

// copy returns the id of the actor's copy of a source rubric, or no id when
// the source team has no such rubric.
func (c *rubricCopier) copy(ctx context.Context, id uuid.UUID) (uuid.NullUUID, error) {
	if cp, ok := c.copies[id]; ok {
		return uuid.NullUUID{UUID: cp, Valid: cp != uuid.Nil}, nil
	}
	src, err := store.Q.GetRubric(ctx, c.tx, store.GetRubricParams{ID: id, TeamID: c.from})
	if errors.Is(err, pgx.ErrNoRows) {
		c.copies[id] = uuid.Nil
		return uuid.NullUUID{}, nil
	}
	if err != nil {
		return uuid.NullUUID{}, fmt.Errorf("load rubric %s: %w", id, err)
	}
	if c.from == c.actor.TeamID {
		// The rubric is in the actor's team already: the copy grades against it.
		c.copies[id] = src.ID
		return uuid.NullUUID{UUID: src.ID, Valid: true}, nil
	}
	cp, err := store.Q.CreateRubric(ctx, c.tx, store.CreateRubricParams{
		TeamID: c.actor.TeamID, Name: src.Name, Criteria: src.Criteria, CreatedBy: uuid.NullUUID{UUID: c.actor.UserID, Valid: true},
	})
	if err != nil {
		return uuid.NullUUID{}, fmt.Errorf("copy rubric %s: %w", id, err)
	}
	c.copies[id] = cp.ID
	return uuid.NullUUID{UUID: cp.ID, Valid: true}, nil
}

// rewrite copies the rubrics that a grade question tree names in its
// rubricId fields, at any depth, and points the fields at the copies; ids
// without a rubric in the source team become null. Everything else in the
// tree is kept as it is.
func (c *rubricCopier) rewrite(ctx context.Context, questions json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(questions)) == 0 || !bytes.Contains(questions, []byte(`"rubricId"`)) {
		return questions, nil
	}
	dec := json.NewDecoder(bytes.NewReader(questions))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	var walk func(v any) error
	walk = func(v any) error {
		switch v := v.(type) {
		case map[string]any:
			for k, child := range v {
				if k == "rubricId" {
					v[k] = nil
					if s, ok := child.(string); ok && s != "" {
						if id, err := uuid.Parse(s); err == nil {
							cp, err := c.copy(ctx, id)
							if err != nil {
								return err
							}
							if cp.Valid {
								v[k] = cp.UUID.String()
							}
						}
					}
					continue
				}
				if err := walk(child); err != nil {
					return err
				}
			}
		case []any:
			for _, child := range v {
				if err := walk(child); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(tree); err != nil {
		return nil, err
	}
	out, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("write questions: %w", err)
	}
	return out, nil
}
