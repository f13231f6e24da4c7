// Package studentlink is an assignment's student submission link: an
// unguessable token the teacher copies, turns off and rotates, through which
// a student (no sign-in) uploads one file and submits it, getting back a view
// token that opens exactly that submission's result page. Teacher methods
// take the actor from the session, and ids of other teams are not found;
// student methods take only the link's token.
package studentlink

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/release"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// The messages a student sees.
const (
	// MsgLinkOff answers a link that is turned off, was rotated away or never
	// existed: the three look alike.
	MsgLinkOff = "This submission link is turned off or does not exist."
	// MsgTooMany answers a link or a client address past its rate limit.
	MsgTooMany = "Too many submissions from this link. Please try again in a few minutes."
)

// tokenBytes is the entropy of a link token and of a view token.
const tokenBytes = 32

// tokenLen is the length of a token: tokenBytes in unpadded base64url.
var tokenLen = base64.RawURLEncoding.EncodedLen(tokenBytes)

// Service manages student links and what students send through them.
type Service struct {
	Pool *pgxpool.Pool
	// Files signs the students' uploads; its Blob proves an upload arrived.
	Files *files.Service
	// Submissions creates the student's submission, its result and its
	// extraction job.
	Submissions *submission.Service
	// Limits bound what one link and one client address may send.
	Limits Limits
	// LTI resolves pupils' LTI launches (SubmitInput.LTILaunch); nil
	// refuses them.
	LTI LTILearners
}

// Limits are the student routes' rate limits. Uploads and submissions are
// counted apart. One holder of a link must not lock the class out, so a
// client address (an IPv6 address by its /64 network) is limited on its own,
// everywhere and on each link, and the link's quota grows with the number of
// addresses sending through it. A nil Limiter or a zero Rule turns a limit
// off.
type Limits struct {
	Limiter *ratelimit.Limiter
	// PerLink is the link's quota, every address together, before it grows
	// (its window is the quota's window).
	PerLink ratelimit.Rule
	// LinkGrowth raises the link's quota by this many calls for each
	// distinct address that sent through the link in PerLink's window, up to
	// LinkMax calls (0: no cap).
	LinkGrowth int
	LinkMax    int
	// PerAddr caps one address over every link (a school's classes behind
	// one address share it).
	PerAddr ratelimit.Rule
	// PerSubmitter caps one address on one link: past it, that address
	// waits, and the link's quota is not touched.
	PerSubmitter ratelimit.Rule
	// PerStudent caps the submissions of one student (their email, or their
	// name without one) through one link.
	PerStudent ratelimit.Rule
}

// Link is an assignment's student link as its teacher sees it. The student
// page is /submit/{Token}. AllowResubmission off (the default), a student
// submits through the link once; on, each later submission is kept as their
// next attempt (see Submit).
type Link struct {
	Enabled           bool   `json:"enabled"`
	Token             string `json:"token"`
	AllowResubmission bool   `json:"allowResubmission"`
}

// Change is what a teacher changes about a link: Enabled turns it on or off
// and AllowResubmission lets students submit again (nil leaves either);
// Rotate replaces its token so the old link stops working.
type Change struct {
	Enabled           *bool
	AllowResubmission *bool
	Rotate            bool
}

// Assignment is the part of an assignment a student sees.
type Assignment struct {
	ID                     uuid.UUID `json:"_id"`
	Name                   string    `json:"name"`
	Type                   string    `json:"type"`
	IsHandWritten          bool      `json:"isHandWritten"`
	ProvideInstantFeedback bool      `json:"provideInstantFeedback"`
}

// PublicAssignment is the student's view of row.
func PublicAssignment(row store.Assignment) Assignment {
	return Assignment{
		ID: row.ID, Name: row.Name, Type: string(row.Type),
		IsHandWritten: row.IsHandWritten, ProvideInstantFeedback: row.ProvideInstantFeedback,
	}
}

// LinkAssignment is the assignment as the submission pages see it (Open,
// Submit): the public part plus AllowResubmission, a Markwell addition to
// the spec's payload, so the thank-you page offers another submission only
// when the link takes one. The result page's reads keep to Assignment.
type LinkAssignment struct {
	Assignment
	AllowResubmission bool `json:"allowResubmission"`
}

// linkAssignment is the submission pages' view of row.
func linkAssignment(row store.Assignment) LinkAssignment {
	return LinkAssignment{Assignment: PublicAssignment(row), AllowResubmission: row.AllowResubmission}
}

// Get returns the student link of one of the actor's assignments, making it
// on the first call: a new link starts on.
func (s *Service) Get(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (Link, error) {
	row, err := store.Q.GetStudentLink(ctx, s.Pool, store.GetStudentLinkParams{ID: assignmentID, TeamID: a.TeamID})
	if err != nil {
		return Link{}, store.NotFound(fmt.Errorf("student link of assignment %s: %w", assignmentID, err))
	}
	if row.StudentLinkToken != nil {
		return Link{Enabled: row.StudentLinkEnabled, Token: *row.StudentLinkToken, AllowResubmission: row.AllowResubmission}, nil
	}
	return s.Update(ctx, a, assignmentID, Change{})
}

// Update turns the link of one of the actor's assignments on or off,
// allows or stops resubmission and rotates its token. Turning it off keeps
// the token, so turning it on again restores the same link; rotating makes
// a new one. An assignment without a link gets one.
func (s *Service) Update(ctx context.Context, a identity.Actor, assignmentID uuid.UUID, ch Change) (Link, error) {
	optional := func(b *bool) pgtype.Bool {
		if b == nil {
			return pgtype.Bool{}
		}
		return pgtype.Bool{Bool: *b, Valid: true}
	}
	var link Link
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		was, err := store.Q.GetStudentLink(ctx, tx, store.GetStudentLinkParams{ID: assignmentID, TeamID: a.TeamID})
		if err != nil {
			return store.NotFound(fmt.Errorf("student link of assignment %s: %w", assignmentID, err))
		}
		row, err := store.Q.UpdateStudentLink(ctx, tx, store.UpdateStudentLinkParams{
			Rotate: ch.Rotate, NewToken: newToken(), Enabled: optional(ch.Enabled),
			AllowResubmission: optional(ch.AllowResubmission), ID: assignmentID, TeamID: a.TeamID,
		})
		if err != nil {
			return store.NotFound(fmt.Errorf("update student link of assignment %s: %w", assignmentID, err))
		}
		link = Link{Enabled: row.StudentLinkEnabled, Token: *row.StudentLinkToken, AllowResubmission: row.AllowResubmission}
		if was.StudentLinkToken == nil {
			return nil // the link is being made: nothing changed yet
		}
		return assignment.RecordChange(ctx, tx, a, assignmentID, describeLinkChange(was, link, ch.Rotate))
	})
	return link, err
}

// describeLinkChange is a link's change as the assignment's history says
// it.
func describeLinkChange(was store.GetStudentLinkRow, now Link, rotated bool) []string {
	var out []string
	if was.StudentLinkEnabled != now.Enabled {
		out = append(out, map[bool]string{true: "turned the student link on", false: "turned the student link off"}[now.Enabled])
	}
	if was.AllowResubmission != now.AllowResubmission {
		out = append(out, map[bool]string{true: "allowed students to resubmit", false: "stopped resubmissions"}[now.AllowResubmission])
	}
	if rotated {
		out = append(out, "made a new student link (the old one stopped working)")
	}
	return out
}

// Open returns the assignment a student link leads to while it is on, or a
// not-found error with MsgLinkOff.
func (s *Service) Open(ctx context.Context, linkToken string) (LinkAssignment, error) {
	row, err := s.assignmentOf(ctx, linkToken)
	if err != nil {
		return LinkAssignment{}, err
	}
	return linkAssignment(row), nil
}

// assignmentOf resolves a link token to its assignment while the link is on.
func (s *Service) assignmentOf(ctx context.Context, linkToken string) (store.Assignment, error) {
	if !wellFormed(linkToken) {
		return store.Assignment{}, apperr.New(apperr.NotFound, MsgLinkOff)
	}
	row, err := store.Q.GetAssignmentByStudentLink(ctx, s.Pool, &linkToken)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return store.Assignment{}, apperr.New(apperr.NotFound, MsgLinkOff)
		}
		return store.Assignment{}, fmt.Errorf("open student link: %w", err)
	}
	return row, nil
}

// Upload signs the upload of one file a student sends through a link, into
// the assignment's submissions/student/ folder; addr is the student's client
// address, for the rate limits. The upload belongs to the link's current
// generation: once the link is rotated or turned off, it can no longer be
// submitted (see checkLinkUpload).
func (s *Service) Upload(ctx context.Context, addr, linkToken string, req files.UploadRequest) (files.Upload, error) {
	asg, err := s.limited(ctx, "upload", addr, linkToken)
	if err != nil {
		return files.Upload{}, err
	}
	return s.Files.PresignStudentUpload(ctx, files.LinkUpload{
		Team: asg.TeamID, Assignment: asg.ID, Generation: asg.StudentLinkGeneration, Addr: addr,
	}, req)
}

// limited counts one call of kind ("upload", "submit") from addr, resolves
// the link and counts the call against it: past any limit the answer is 429
// with MsgTooMany. The address is counted first, everywhere (PerAddr), so
// calls with made-up tokens are limited too; then on this link
// (PerSubmitter); then, only when the address is within its own limits,
// against the link's quota, which its first call in the window raises.
func (s *Service) limited(ctx context.Context, kind, addr, linkToken string) (store.Assignment, error) {
	l := s.Limits
	from := submitterOf(addr)
	if err := l.Limiter.Allow(ctx, l.PerAddr, "student:"+kind+":addr:"+from, MsgTooMany); err != nil {
		return store.Assignment{}, err
	}
	asg, err := s.assignmentOf(ctx, linkToken)
	if err != nil {
		return store.Assignment{}, err
	}
	link := "student:" + kind + ":link:" + asg.ID.String()
	if err := l.Limiter.Allow(ctx, l.PerSubmitter, link+":addr:"+from, MsgTooMany); err != nil {
		return store.Assignment{}, err
	}
	quota := ratelimit.SharedRule{Base: l.PerLink, PerMember: l.LinkGrowth, Max: l.LinkMax}
	if err := l.Limiter.AllowShared(ctx, quota, link, from, MsgTooMany); err != nil {
		return store.Assignment{}, err
	}
	return asg, nil
}

// Viewer is what a student's view token opens: one submission and its
// assignment, in the assignment's team. Released says the token is a
// release token (the link a teacher released, package release) rather than
// the view token handed out by Submit: it opens the same read-only page.
type Viewer struct {
	SubmissionID uuid.UUID
	AssignmentID uuid.UUID
	TeamID       uuid.UUID
	Release      bool
}

// Viewer resolves a view token handed out by Submit, or a live release
// token; an unknown, malformed or revoked token is not found.
func (s *Service) Viewer(ctx context.Context, viewToken string) (Viewer, error) {
	if !wellFormed(viewToken) {
		return Viewer{}, apperr.ErrNotFound
	}
	row, err := store.Q.GetSubmissionByViewToken(ctx, s.Pool, hashToken(viewToken))
	if errors.Is(err, pgx.ErrNoRows) {
		// Not a submitter's view token: a release token, while live, opens
		// the result page just the same.
		r, err := release.Resolve(ctx, s.Pool, viewToken)
		if err != nil {
			return Viewer{}, err
		}
		return Viewer{SubmissionID: r.SubmissionID, AssignmentID: r.AssignmentID, TeamID: r.TeamID, Release: true}, nil
	}
	if err != nil {
		return Viewer{}, fmt.Errorf("submission by view token: %w", err)
	}
	return Viewer{SubmissionID: row.ID, AssignmentID: row.AssignmentID, TeamID: row.TeamID}, nil
}

// ViewAssignment is the student's view of the assignment a view token opens.
func (s *Service) ViewAssignment(ctx context.Context, v Viewer) (Assignment, error) {
	row, err := store.Q.GetAssignment(ctx, s.Pool, store.GetAssignmentParams{ID: v.AssignmentID, TeamID: v.TeamID})
	if err != nil {
		return Assignment{}, store.NotFound(fmt.Errorf("assignment %s of a view token: %w", v.AssignmentID, err))
	}
	return PublicAssignment(row), nil
}

// newToken is a fresh token: 32 random bytes, base64url without padding.
func newToken() string {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it crashes the program instead)
	return base64.RawURLEncoding.EncodeToString(b)
}

// wellFormed reports whether s could be a token newToken made, so that
// anything else is refused without a query.
func wellFormed(s string) bool {
	if len(s) != tokenLen {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == tokenBytes
}

// hashToken is what is stored of a view token: its SHA-256.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
