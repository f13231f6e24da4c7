// Package team is a teacher's team: its members, invitations, and the
// library summary the spec's user/get returns. Every method takes the actor
// from the session; ids of other teams are answered as not found.
package team

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/input"
	"github.com/markwell/markwell/internal/store"
)

// DefaultLinkTTL is how long a link invite works when LinkTTL is not set.
const DefaultLinkTTL = 7 * 24 * time.Hour

// Invite kinds: an email invite is for one address; a link invite, made by
// the owner, is for whoever opens it first before it expires.
const (
	KindEmail = "email"
	KindLink  = "link"
)

// Messages users see about invitations.
const (
	msgInviteInvalid    = "This invitation is no longer valid."
	msgInviteUsed       = "This invitation has already been used."
	msgLinkExpired      = "This invitation link has expired. Ask your team's owner for a new one."
	msgInviteOtherEmail = "This invitation was sent to another email address. Sign in with that address to accept it."
	msgEmailUnverified  = "Your email address is not verified, so this invitation cannot be accepted. Sign in with a provider that verifies it."
	msgOwnerLinks       = "Only the team's owner can create invitation links."
	msgOwnerRevokeLinks = "Only the team's owner can revoke invitation links."
)

// Service manages teams.
type Service struct {
	Pool *pgxpool.Pool
	// PublicURL prefixes invite links.
	PublicURL string
	// LinkTTL is how long a link invite works; DefaultLinkTTL when zero.
	LinkTTL time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) linkTTL() time.Duration {
	if s.LinkTTL > 0 {
		return s.LinkTTL
	}
	return DefaultLinkTTL
}

// Ref is an id in the spec's {_id} shape.
type Ref struct {
	ID uuid.UUID `json:"_id"`
}

// Folder is a named group of assignment ids.
type Folder struct {
	ID          uuid.UUID   `json:"_id"`
	Name        string      `json:"name"`
	Assignments []uuid.UUID `json:"assignments"`
}

// Team is the library summary of a team.
type Team struct {
	ID          uuid.UUID `json:"_id"`
	Name        string    `json:"name"`
	OwnerID     uuid.UUID `json:"ownerId"`
	Assignments []Ref     `json:"assignments"`
	Rubrics     []Ref     `json:"rubrics"`
	Folders     []Folder  `json:"folders"`
}

// Function is one assignment definition in the user's library.
type Function struct {
	ID           uuid.UUID `json:"_id"`
	AssignmentID uuid.UUID `json:"assignmentId"`
	Type         string    `json:"type"`
}

// User is what GET /api/v1/db/user/get returns.
type User struct {
	ID        uuid.UUID  `json:"_id"`
	Name      string     `json:"name"`
	Email     string     `json:"email"`
	Image     string     `json:"image"`
	Team      Team       `json:"team"`
	Functions []Function `json:"functions"`
}

// Member is one teacher of a team.
type Member struct {
	ID      uuid.UUID `json:"_id"`
	Name    string    `json:"name"`
	Email   string    `json:"email"`
	Image   string    `json:"image"`
	IsOwner bool      `json:"isOwner"`
}

// Invite is a pending invitation.
type Invite struct {
	ID uuid.UUID `json:"_id"`
	// Kind is KindEmail or KindLink.
	Kind string `json:"kind"`
	// Email is who an email invite is for; "" for a link invite.
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"createdAt"`
	// ExpiresAt is when a link invite stops working; nil for an email invite.
	ExpiresAt *time.Time `json:"expiresAt"`
	// URL is the invite link; only returned when the invite is made.
	URL string `json:"url,omitempty"`
}

func inviteFrom(inv store.TeamInvite) Invite {
	out := Invite{ID: inv.ID, Kind: KindLink, CreatedAt: inv.CreatedAt, ExpiresAt: inv.ExpiresAt}
	if inv.Email != nil {
		out.Kind, out.Email = KindEmail, *inv.Email
	}
	return out
}

// Roster is a team's members and pending invites.
type Roster struct {
	Members []Member `json:"members"`
	Invites []Invite `json:"invites"`
}

// User returns the actor with their team's library summary.
func (s *Service) User(ctx context.Context, a identity.Actor) (User, error) {
	u, err := store.Q.GetUser(ctx, s.Pool, a.UserID)
	if err != nil {
		return User{}, fmt.Errorf("load user %s: %w", a.UserID, err)
	}
	t, err := s.summary(ctx, a.TeamID)
	if err != nil {
		return User{}, err
	}
	fns, err := store.Q.TeamFunctions(ctx, s.Pool, a.TeamID)
	if err != nil {
		return User{}, fmt.Errorf("load functions of team %s: %w", a.TeamID, err)
	}
	out := User{ID: u.ID, Name: u.Name, Email: u.Email, Image: u.Image, Team: t, Functions: make([]Function, len(fns))}
	for i, f := range fns {
		out.Functions[i] = Function{ID: f.ID, AssignmentID: f.AssignmentID, Type: string(f.Type)}
	}
	return out, nil
}

func (s *Service) summary(ctx context.Context, teamID uuid.UUID) (Team, error) {
	t, err := store.Q.GetTeam(ctx, s.Pool, teamID)
	if err != nil {
		return Team{}, fmt.Errorf("load team %s: %w", teamID, err)
	}
	asg, err := store.Q.TeamAssignmentIDs(ctx, s.Pool, teamID)
	if err != nil {
		return Team{}, fmt.Errorf("load assignments of team %s: %w", teamID, err)
	}
	rub, err := store.Q.TeamRubricIDs(ctx, s.Pool, teamID)
	if err != nil {
		return Team{}, fmt.Errorf("load rubrics of team %s: %w", teamID, err)
	}
	folders, err := store.Q.TeamFolders(ctx, s.Pool, teamID)
	if err != nil {
		return Team{}, fmt.Errorf("load folders of team %s: %w", teamID, err)
	}
	out := Team{ID: t.ID, Name: t.Name, Assignments: refs(asg), Rubrics: refs(rub), Folders: make([]Folder, len(folders))}
	if t.OwnerID.Valid {
		out.OwnerID = t.OwnerID.UUID
	}
	for i, f := range folders {
		out.Folders[i] = Folder{ID: f.ID, Name: f.Name, Assignments: f.AssignmentIds}
	}
	return out, nil
}

func refs(ids []uuid.UUID) []Ref {
	out := make([]Ref, len(ids))
	for i, id := range ids {
		out[i] = Ref{ID: id}
	}
	return out
}

// Roster lists the actor's team members and pending invites.
func (s *Service) Roster(ctx context.Context, a identity.Actor) (Roster, error) {
	t, err := store.Q.GetTeam(ctx, s.Pool, a.TeamID)
	if err != nil {
		return Roster{}, fmt.Errorf("load team %s: %w", a.TeamID, err)
	}
	users, err := store.Q.ListTeamMembers(ctx, s.Pool, uuid.NullUUID{UUID: a.TeamID, Valid: true})
	if err != nil {
		return Roster{}, fmt.Errorf("list members of team %s: %w", a.TeamID, err)
	}
	invites, err := store.Q.ListPendingInvites(ctx, s.Pool, store.ListPendingInvitesParams{TeamID: a.TeamID, Now: s.now()})
	if err != nil {
		return Roster{}, fmt.Errorf("list invites of team %s: %w", a.TeamID, err)
	}
	r := Roster{Members: make([]Member, len(users)), Invites: make([]Invite, len(invites))}
	for i, u := range users {
		r.Members[i] = Member{ID: u.ID, Name: u.Name, Email: u.Email, Image: u.Image, IsOwner: t.OwnerID.Valid && t.OwnerID.UUID == u.ID}
	}
	for i, inv := range invites {
		r.Invites[i] = inviteFrom(inv)
	}
	return r, nil
}

// Invite invites a colleague by email. They join when they sign in with that
// email, verified, or by opening the returned link while signed in with it.
// Any member may invite; the invite dies when its maker leaves the team.
func (s *Service) Invite(ctx context.Context, a identity.Actor, email string) (Invite, error) {
	addr, err := mail.ParseAddress(strings.TrimSpace(email))
	if err != nil || addr.Name != "" || !strings.Contains(addr.Address, ".") || len(addr.Address) > input.MaxEmail {
		return Invite{}, apperr.New(apperr.Invalid, "Please enter a valid email address.")
	}
	email = strings.ToLower(addr.Address)
	member, err := store.Q.IsMemberEmail(ctx, s.Pool, store.IsMemberEmailParams{TeamID: uuid.NullUUID{UUID: a.TeamID, Valid: true}, Email: email})
	if err != nil {
		return Invite{}, fmt.Errorf("check membership: %w", err)
	}
	if member {
		return Invite{}, apperr.Invalidf("%s is already in your team.", email)
	}
	pending, err := store.Q.IsInvitePending(ctx, s.Pool, store.IsInvitePendingParams{TeamID: a.TeamID, Email: email})
	if err != nil {
		return Invite{}, fmt.Errorf("check invites: %w", err)
	}
	if pending {
		return Invite{}, apperr.Invalidf("%s has already been invited.", email)
	}
	return s.create(ctx, s.Pool, store.CreateInviteParams{TeamID: a.TeamID, Email: &email, InvitedBy: a.UserID})
}

// CreateLink makes a link invite: whoever opens the link first, signed in,
// joins the team, until it expires (LinkTTL) or is revoked. Only the owner
// may.
func (s *Service) CreateLink(ctx context.Context, a identity.Actor) (Invite, error) {
	var out Invite
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		if err := requireOwner(ctx, tx, a, msgOwnerLinks); err != nil {
			return err
		}
		expires := s.now().Add(s.linkTTL())
		var err error
		out, err = s.create(ctx, tx, store.CreateInviteParams{TeamID: a.TeamID, InvitedBy: a.UserID, ExpiresAt: &expires})
		return err
	})
	return out, err
}

// create stores an invite made by a member of the team (the inviter who has
// just left it finds nothing) and returns it with its link.
func (s *Service) create(ctx context.Context, db store.DBTX, p store.CreateInviteParams) (Invite, error) {
	token, hash := newToken()
	p.TokenHash = hash
	inv, err := store.Q.CreateInvite(ctx, db, p)
	if errors.Is(err, pgx.ErrNoRows) {
		return Invite{}, apperr.ErrNotFound
	}
	if err != nil {
		return Invite{}, fmt.Errorf("create invite: %w", err)
	}
	out := inviteFrom(inv)
	out.URL = s.PublicURL + "/invite/" + token
	return out, nil
}

// CancelInvite withdraws a pending invite of the actor's team: any member
// may cancel an email invite, only the owner a link invite.
func (s *Service) CancelInvite(ctx context.Context, a identity.Actor, inviteID uuid.UUID) error {
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		inv, err := store.Q.GetPendingInvite(ctx, tx, store.GetPendingInviteParams{ID: inviteID, TeamID: a.TeamID})
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("load invite %s: %w", inviteID, err)
		}
		if inv.Email == nil {
			if err := requireOwner(ctx, tx, a, msgOwnerRevokeLinks); err != nil {
				return err
			}
		}
		if _, err := store.Q.DeletePendingInvite(ctx, tx, store.DeletePendingInviteParams{ID: inviteID, TeamID: a.TeamID}); err != nil {
			return fmt.Errorf("delete invite %s: %w", inviteID, err)
		}
		return nil
	})
}

// AcceptInvite moves the actor into the team of an invite link. An invite
// works once; a link invite until it expires; an email invite only for a
// user signed in with that email, verified. Opening an invite to the team
// the actor is already in changes nothing and leaves the invite unused.
func (s *Service) AcceptInvite(ctx context.Context, a identity.Actor, token string) (Team, error) {
	var teamID uuid.UUID
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		inv, err := store.Q.LockInviteByToken(ctx, tx, hashToken(token))
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.New(apperr.NotFound, msgInviteInvalid)
		}
		if err != nil {
			return fmt.Errorf("load invite: %w", err)
		}
		now := s.now()
		switch {
		case inv.AcceptedAt != nil:
			return apperr.New(apperr.Invalid, msgInviteUsed)
		case inv.ExpiresAt != nil && !inv.ExpiresAt.After(now):
			return apperr.New(apperr.Invalid, msgLinkExpired)
		}
		if inv.Email != nil {
			u, err := store.Q.GetUser(ctx, tx, a.UserID)
			if err != nil {
				return fmt.Errorf("load user %s: %w", a.UserID, err)
			}
			if !strings.EqualFold(strings.TrimSpace(u.Email), *inv.Email) {
				return apperr.New(apperr.Forbidden, msgInviteOtherEmail)
			}
			if !u.EmailVerified {
				return apperr.New(apperr.Forbidden, msgEmailUnverified)
			}
		}
		teamID = inv.TeamID
		if teamID == a.TeamID {
			return nil
		}
		if err := store.Q.MarkInviteAccepted(ctx, tx, store.MarkInviteAcceptedParams{ID: inv.ID, AcceptedAt: now}); err != nil {
			return fmt.Errorf("accept invite %s: %w", inv.ID, err)
		}
		return Move(ctx, tx, a.UserID, uuid.NullUUID{UUID: a.TeamID, Valid: a.TeamID != uuid.Nil}, teamID)
	})
	if err != nil {
		return Team{}, err
	}
	return s.summary(ctx, teamID)
}

// requireOwner answers forbidden with msg unless the actor owns their team.
func requireOwner(ctx context.Context, tx pgx.Tx, a identity.Actor, msg string) error {
	t, err := store.Q.GetTeam(ctx, tx, a.TeamID)
	if err != nil {
		return fmt.Errorf("load team %s: %w", a.TeamID, err)
	}
	if !t.OwnerID.Valid || t.OwnerID.UUID != a.UserID {
		return apperr.New(apperr.Forbidden, msg)
	}
	return nil
}

// RemoveMember takes a member out of the actor's team; only the owner may.
// The removed teacher gets a team of their own, and in the same transaction
// the invites they made that are still pending are revoked (see Move), and
// so is every pending email invite to their address in the team: a removed
// member cannot accept one (or sign in and be placed by one) and come back.
// A member who leaves of their own accord keeps the invites to them.
func (s *Service) RemoveMember(ctx context.Context, a identity.Actor, userID uuid.UUID) error {
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		u, err := store.Q.GetUser(ctx, tx, userID)
		if err != nil || !u.TeamID.Valid || u.TeamID.UUID != a.TeamID {
			return apperr.ErrNotFound
		}
		if err := requireOwner(ctx, tx, a, "Only the team's owner can remove members."); err != nil {
			return err
		}
		if userID == a.UserID {
			return apperr.New(apperr.Invalid, "You cannot remove yourself; leave the team instead.")
		}
		if _, err := CreateOwn(ctx, tx, u); err != nil {
			return err
		}
		if _, err := store.Q.RevokeInvitesTo(ctx, tx, store.RevokeInvitesToParams{TeamID: a.TeamID, Email: u.Email}); err != nil {
			return fmt.Errorf("revoke invites to %s in %s: %w", userID, a.TeamID, err)
		}
		return nil
	})
}

// Leave takes the actor out of their team into a new team of their own. An
// owner who leaves hands the team to its longest-standing member.
func (s *Service) Leave(ctx context.Context, a identity.Actor) (Team, error) {
	var newTeam uuid.UUID
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		members, err := store.Q.ListTeamMembers(ctx, tx, uuid.NullUUID{UUID: a.TeamID, Valid: true})
		if err != nil {
			return fmt.Errorf("list members: %w", err)
		}
		if len(members) <= 1 {
			return apperr.New(apperr.Invalid, "You are the only member of this team.")
		}
		u, err := store.Q.GetUser(ctx, tx, a.UserID)
		if err != nil {
			return fmt.Errorf("load user: %w", err)
		}
		if _, err := CreateOwn(ctx, tx, u); err != nil {
			return err
		}
		u, err = store.Q.GetUser(ctx, tx, a.UserID)
		newTeam = u.TeamID.UUID
		return err
	})
	if err != nil {
		return Team{}, err
	}
	return s.summary(ctx, newTeam)
}

// CreateOwn makes a team named after u, owned by u, and moves u into it
// (handing their old team, if they owned one, to its next member). It runs
// in the caller's transaction; sign-in and leaving a team both use it.
func CreateOwn(ctx context.Context, tx pgx.Tx, u store.User) (uuid.UUID, error) {
	t, err := store.Q.CreateTeam(ctx, tx, TeamName(u.Name, u.Email))
	if err != nil {
		return uuid.Nil, fmt.Errorf("create team: %w", err)
	}
	if err := store.Q.SetTeamOwner(ctx, tx, store.SetTeamOwnerParams{ID: t.ID, OwnerID: uuid.NullUUID{UUID: u.ID, Valid: true}}); err != nil {
		return uuid.Nil, fmt.Errorf("set owner: %w", err)
	}
	return t.ID, Move(ctx, tx, u.ID, u.TeamID, t.ID)
}

// Move puts a user in another team, in the caller's transaction. The
// invites they made for the team they leave and that are still pending are
// revoked, so nobody gets back in through them. If they owned the team they
// leave, its longest-standing remaining member becomes its owner.
func Move(ctx context.Context, tx pgx.Tx, userID uuid.UUID, from uuid.NullUUID, to uuid.UUID) error {
	if err := store.Q.SetUserTeam(ctx, tx, store.SetUserTeamParams{ID: userID, TeamID: uuid.NullUUID{UUID: to, Valid: true}}); err != nil {
		return fmt.Errorf("move user %s: %w", userID, err)
	}
	if !from.Valid || from.UUID == to {
		return nil
	}
	if _, err := store.Q.RevokeInvitesBy(ctx, tx, store.RevokeInvitesByParams{TeamID: from.UUID, InvitedBy: userID}); err != nil {
		return fmt.Errorf("revoke invites of %s in %s: %w", userID, from.UUID, err)
	}
	old, err := store.Q.GetTeam(ctx, tx, from.UUID)
	if err != nil {
		return fmt.Errorf("load team %s: %w", from.UUID, err)
	}
	if !old.OwnerID.Valid || old.OwnerID.UUID != userID {
		return nil
	}
	rest, err := store.Q.ListTeamMembers(ctx, tx, from)
	if err != nil {
		return fmt.Errorf("list members of %s: %w", from.UUID, err)
	}
	owner := uuid.NullUUID{}
	if len(rest) > 0 {
		owner = uuid.NullUUID{UUID: rest[0].ID, Valid: true}
	}
	return store.Q.SetTeamOwner(ctx, tx, store.SetTeamOwnerParams{ID: from.UUID, OwnerID: owner})
}

// TeamName is the name of a teacher's own team.
func TeamName(name, email string) string {
	if name = strings.TrimSpace(name); name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	return name + "'s team"
}

func newToken() (token string, hash []byte) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
