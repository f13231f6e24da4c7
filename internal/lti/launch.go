package lti

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/studentlink"
	"github.com/markwell/markwell/internal/team"
)

// LTI message types and claims.
const (
	MsgResourceLink   = "LtiResourceLinkRequest"
	MsgDeepLinking    = "LtiDeepLinkingRequest"
	MsgDeepLinkingRes = "LtiDeepLinkingResponse"
	claimPrefix       = "https://purl.imsglobal.org/spec/lti/claim/"
	ScopeLineItem     = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeLineItemRead = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
	ScopeScore        = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	ScopeNRPS         = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	// customLink is the custom parameter of the links Markwell makes.
	customLink = "markwell_link"
)

// Scopes are the services Markwell asks platforms for.
var Scopes = []string{ScopeLineItem, ScopeLineItemRead, ScopeScore, ScopeNRPS}

// LaunchError is a refused login or launch: Message is the sentence the
// error page shows (the reason is logged, not shown).
type LaunchError struct {
	Message string
	Reason  string
	// SignIn: the page offers to sign in to Markwell and come back (a
	// launch waiting to be linked to an account, AccountLink).
	SignIn bool
}

func (e *LaunchError) Error() string { return e.Message + " (" + e.Reason + ")" }

func refuse(msg, reason string, args ...any) *LaunchError {
	return &LaunchError{Message: msg, Reason: fmt.Sprintf(reason, args...)}
}

// The sentences of the error page.
const (
	MsgUnknownPlatform = "This learning platform is not registered with Markwell. Ask your Markwell administrator to register it."
	MsgLoginExpired    = "This launch has expired or was already used. Please open the activity again from your course."
	MsgStateMismatch   = "This launch did not start in this browser. Please open the activity again from your course (and allow cookies for Markwell)."
	MsgBadToken        = "The platform's launch message could not be verified, so Markwell did not open it."
	MsgExpiredToken    = "The platform's launch message has expired. Please open the activity again from your course."
	MsgWrongIssuer     = "The launch message came from a different platform than the one that started the sign-in."
	MsgWrongAudience   = "The launch message was meant for a different tool."
	MsgReplay          = "This launch message was already used. Please open the activity again from your course."
	MsgUnknownKey      = "The launch message is signed with a key the platform does not publish."
	MsgDeployment      = "This deployment of Markwell is not registered. Ask your Markwell administrator to add its deployment id."
	MsgMessageType     = "Markwell does not handle this kind of launch."
	MsgNoEmail         = "Your platform did not share your email address with Markwell; ask its administrator to share names and emails with the tool."
	MsgNoRole          = "Markwell opens for teachers and pupils; your role in this course is neither."
	MsgNotLinked       = "Your teacher has not set up this activity in Markwell yet."
	MsgLinkOff         = "Submissions for this assignment are turned off."
	MsgSignInToLink    = "Your course gave Markwell an email that already has a Markwell account. Sign in to Markwell in this browser once, then launch again from your course: Markwell links the two and opens directly from then on."
	MsgLinkedToOther   = "Your account on this learning platform is linked to another Markwell account already. Ask your Markwell administrator for help."
	MsgSignedInAsOther = "You are signed in to Markwell with a different email than the one your course gave. Sign out of Markwell in this browser, sign in with the Markwell account of your course's email once, then launch again from your course."
)

// LoginRequest is the platform's third-party initiated login.
type LoginRequest struct {
	Issuer, LoginHint, TargetLinkURI, MessageHint, ClientID, DeploymentID string
}

// Login begins a launch: it remembers a state and a nonce (LoginTTL) and
// returns the platform's authentication URL to send the browser to, and
// the state, which the caller binds to the browser (a cookie).
func (s *Service) Login(ctx context.Context, r LoginRequest) (redirect, state string, err error) {
	if r.Issuer == "" || r.LoginHint == "" {
		return "", "", refuse(MsgUnknownPlatform, "login without iss or login_hint")
	}
	ps, err := store.Q.LtiFindPlatforms(ctx, s.Pool, store.LtiFindPlatformsParams{Issuer: r.Issuer, ClientID: r.ClientID})
	if err != nil {
		return "", "", fmt.Errorf("find platform: %w", err)
	}
	if len(ps) != 1 {
		return "", "", refuse(MsgUnknownPlatform, "%d platforms for iss %q client_id %q", len(ps), r.Issuer, r.ClientID)
	}
	p := platformFrom(ps[0])
	state, nonce := randomToken(), randomToken()
	if err := store.Q.LtiDeleteExpiredLogins(ctx, s.Pool, s.now()); err != nil {
		return "", "", fmt.Errorf("purge logins: %w", err)
	}
	if err := store.Q.LtiInsertLogin(ctx, s.Pool, store.LtiInsertLoginParams{StateHash: hashOf(state), Nonce: nonce, PlatformID: p.ID,
		ExpiresAt: s.now().Add(LoginTTL)}); err != nil {
		return "", "", fmt.Errorf("store login: %w", err)
	}
	q := url.Values{
		"scope": {"openid"}, "response_type": {"id_token"}, "response_mode": {"form_post"}, "prompt": {"none"},
		"client_id": {p.ClientID}, "redirect_uri": {s.LaunchURL()}, "login_hint": {r.LoginHint},
		"state": {state}, "nonce": {nonce},
	}
	if r.MessageHint != "" {
		q.Set("lti_message_hint", r.MessageHint)
	}
	sep := "?"
	if strings.Contains(p.AuthLoginURL, "?") {
		sep = "&"
	}
	return p.AuthLoginURL + sep + q.Encode(), state, nil
}

// Claims are the id_token's claims Markwell reads.
type Claims struct {
	Issuer    string           `json:"iss"`
	Subject   string           `json:"sub"`
	Audience  jwt.Audience     `json:"aud"`
	AZP       string           `json:"azp"`
	Expiry    *jwt.NumericDate `json:"exp"`
	IssuedAt  *jwt.NumericDate `json:"iat"`
	Nonce     string           `json:"nonce"`
	Name      string           `json:"name"`
	GivenName string           `json:"given_name"`
	Family    string           `json:"family_name"`
	Email     string           `json:"email"`

	MessageType  string         `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string         `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string         `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	Roles        []string       `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	Context      idTitle        `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	ResourceLink idTitle        `json:"https://purl.imsglobal.org/spec/lti/claim/resource_link"`
	Custom       map[string]any `json:"https://purl.imsglobal.org/spec/lti/claim/custom"`
	AGS          *struct {
		Scope     []string `json:"scope"`
		LineItems string   `json:"lineitems"`
		LineItem  string   `json:"lineitem"`
	} `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
	NRPS *struct {
		URL string `json:"context_memberships_url"`
	} `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	DeepLinking *struct {
		ReturnURL   string   `json:"deep_link_return_url"`
		Data        string   `json:"data"`
		AcceptTypes []string `json:"accept_types"`
	} `json:"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"`
}

// idTitle is a context or resource link claim (go-jose's JSON matches
// names exactly, hence the tags).
type idTitle struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// displayName is the person's name from the token.
func (c Claims) displayName() string {
	if n := strings.TrimSpace(c.Name); n != "" {
		return n
	}
	return strings.TrimSpace(c.GivenName + " " + c.Family)
}

func hasRole(roles []string, names ...string) bool {
	for _, r := range roles {
		for _, n := range names {
			if strings.HasSuffix(r, "#"+n) || r == n {
				return true
			}
		}
	}
	return false
}

// clockSkew is how far the platform's clock may be from ours.
const clockSkew = time.Minute

// verify checks a launch's id_token against the login it answers.
func (s *Service) verify(ctx context.Context, p Platform, nonce, raw string) (Claims, error) {
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil || len(tok.Headers) != 1 {
		return Claims{}, refuse(MsgBadToken, "id_token does not parse: %v", err)
	}
	key, err := s.platformKey(ctx, p, tok.Headers[0].KeyID)
	if err != nil {
		return Claims{}, refuse(MsgBadToken, "platform keys: %v", err)
	}
	if key == nil {
		return Claims{}, refuse(MsgUnknownKey, "kid %q not in the platform's JWKS", tok.Headers[0].KeyID)
	}
	var c Claims
	if err := tok.Claims(key.Key, &c); err != nil {
		return Claims{}, refuse(MsgBadToken, "signature: %v", err)
	}
	now := s.now()
	switch {
	case c.Issuer != p.Issuer:
		return Claims{}, refuse(MsgWrongIssuer, "iss %q, want %q", c.Issuer, p.Issuer)
	case !c.Audience.Contains(p.ClientID):
		return Claims{}, refuse(MsgWrongAudience, "aud %v lacks %q", c.Audience, p.ClientID)
	case len(c.Audience) > 1 && c.AZP != p.ClientID:
		return Claims{}, refuse(MsgWrongAudience, "azp %q, want %q", c.AZP, p.ClientID)
	case c.Expiry == nil || now.After(c.Expiry.Time().Add(clockSkew)):
		return Claims{}, refuse(MsgExpiredToken, "exp %v", c.Expiry)
	case c.IssuedAt == nil || c.IssuedAt.Time().After(now.Add(clockSkew)):
		return Claims{}, refuse(MsgBadToken, "iat %v in the future", c.IssuedAt)
	case subtle.ConstantTimeCompare([]byte(c.Nonce), []byte(nonce)) != 1:
		return Claims{}, refuse(MsgReplay, "nonce does not match the login's")
	case !slices.Contains(p.DeploymentIDs, c.DeploymentID):
		return Claims{}, refuse(MsgDeployment, "deployment %q", c.DeploymentID)
	case c.Version != "1.3.0":
		return Claims{}, refuse(MsgMessageType, "version %q", c.Version)
	case c.MessageType != MsgResourceLink && c.MessageType != MsgDeepLinking:
		return Claims{}, refuse(MsgMessageType, "message type %q", c.MessageType)
	case c.Subject == "":
		return Claims{}, refuse(MsgBadToken, "no sub")
	}
	return c, nil
}

// Launched is where a verified launch goes.
type Launched struct {
	// Redirect is the app path to open.
	Redirect string
	// Teacher, when set, is signed in on this browser.
	Teacher *auth.User
	// LinkToken, when set, is a teacher launch waiting for the Markwell
	// account that has its email (AccountLink): the caller keeps it in a
	// cookie of this browser and sends the browser to the link page, where
	// the browser's own Markwell session (which a cross-site launch post
	// does not carry) says who it is.
	LinkToken string
	// Confirm, when set, is a waiting link the signed-in teacher has not
	// agreed to yet (AccountLink without confirmed): the caller asks her,
	// and nothing has changed.
	Confirm *LinkConfirm
}

// LinkConfirm is what the teacher is asked before her LMS account is
// linked to her Markwell account: which account, which platform, which
// course.
type LinkConfirm struct {
	Email    string
	Platform string
	Course   string
}

// Launch verifies a launch (the form's state and id_token, and the state
// the browser's cookie holds) and acts on it: a teacher is signed in and
// joins the course's team, a pupil is sent to the student page.
func (s *Service) Launch(ctx context.Context, cookieState, formState, idToken string) (Launched, error) {
	if formState == "" || subtle.ConstantTimeCompare([]byte(cookieState), []byte(formState)) != 1 {
		return Launched{}, refuse(MsgStateMismatch, "state cookie does not match the form's")
	}
	login, err := store.Q.LtiTakeLogin(ctx, s.Pool, hashOf(formState))
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && s.now().After(login.ExpiresAt)) {
		return Launched{}, refuse(MsgLoginExpired, "no live login for this state")
	}
	if err != nil {
		return Launched{}, fmt.Errorf("take login: %w", err)
	}
	p, err := s.platform(ctx, login.PlatformID)
	if err != nil {
		return Launched{}, fmt.Errorf("load platform: %w", err)
	}
	c, err := s.verify(ctx, p, login.Nonce, idToken)
	if err != nil {
		return Launched{}, err
	}
	teacher := hasRole(c.Roles, "Instructor", "Administrator", "ContentDeveloper", "TeachingAssistant")
	switch {
	case teacher:
		return s.teacherLaunch(ctx, p, c)
	case hasRole(c.Roles, "Learner", "Student") && c.MessageType == MsgResourceLink:
		return s.learnerLaunch(ctx, p, c)
	}
	return Launched{}, refuse(MsgNoRole, "roles %v", c.Roles)
}

// teacherLaunch signs the teacher in (their account is (platform, sub);
// name and email from the token), puts them in the team of the course (the
// first teacher's launch links the course to their team) and opens the
// deep-linking picker or the linked assignment.
func (s *Service) teacherLaunch(ctx context.Context, p Platform, c Claims) (Launched, error) {
	if strings.TrimSpace(c.Email) == "" {
		return Launched{}, refuse(MsgNoEmail, "no email claim")
	}
	u, err := s.Auth.SignIn(ctx, auth.Identity{Provider: provider(p), Subject: c.Subject, Email: c.Email, Name: c.displayName()})
	if err != nil {
		var se *apperr.SignInError
		if errors.As(err, &se) && se.Code == apperr.SignInAccountNotLinked {
			return s.awaitAccountLink(ctx, p, c)
		}
		return Launched{}, err
	}
	if c.Context.ID != "" {
		teamID, err := s.joinCourse(ctx, p, c, u)
		if err != nil {
			return Launched{}, err
		}
		u.TeamID = teamID
	}
	out := Launched{Teacher: &u, Redirect: "/library"}
	if c.MessageType == MsgDeepLinking {
		if c.DeepLinking == nil || !s.URLAllowed(c.DeepLinking.ReturnURL) {
			return Launched{}, refuse(MsgBadToken, "deep linking without an https return URL")
		}
		id, err := store.Q.LtiInsertDeepLink(ctx, s.Pool, store.LtiInsertDeepLinkParams{PlatformID: p.ID, UserID: u.ID, TeamID: u.TeamID,
			DeploymentID: c.DeploymentID, ReturnUrl: c.DeepLinking.ReturnURL, Data: c.DeepLinking.Data, LineItem: c.AGS != nil,
			ExpiresAt: s.now().Add(DeepLinkTTL)})
		if err != nil {
			return Launched{}, fmt.Errorf("store deep link request: %w", err)
		}
		out.Redirect = "/lti/deep-link/" + id.String()
		return out, nil
	}
	asg, ok, err := s.linkedAssignment(ctx, p, c, u.TeamID)
	if err != nil {
		return Launched{}, err
	}
	if ok {
		out.Redirect = "/assignment/" + asg.String()
	}
	return out, nil
}

// provider is the auth provider of a platform's accounts.
func provider(p Platform) string { return "lti:" + p.ID.String() }

// awaitAccountLink keeps a teacher launch whose email belongs to a Markwell
// account made another way until the browser shows who it is (AccountLink):
// the LMS's word about an email is never proof of owning the account.
func (s *Service) awaitAccountLink(ctx context.Context, p Platform, c Claims) (Launched, error) {
	claims, err := json.Marshal(c)
	if err != nil {
		return Launched{}, err
	}
	token := randomToken()
	if err := store.Q.LtiDeleteExpiredAccountLinks(ctx, s.Pool, s.now()); err != nil {
		return Launched{}, fmt.Errorf("purge account links: %w", err)
	}
	if err := store.Q.LtiInsertAccountLink(ctx, s.Pool, store.LtiInsertAccountLinkParams{TokenHash: hashOf(token), PlatformID: p.ID,
		Claims: claims, ExpiresAt: s.now().Add(LinkTTL)}); err != nil {
		return Launched{}, fmt.Errorf("store account link: %w", err)
	}
	return Launched{LinkToken: token}, nil
}

// AccountLink goes on with a teacher launch that waits for its account
// (token, from Launched.LinkToken, kept by the browser that launched). When
// that browser is signed in to Markwell (signedIn) as the user with the
// launch's email and she has confirmed (a click on the page that asked
// her, Launched.Confirm), the launch's account (platform, sub) is linked to
// her and the launch goes on as any teacher's; before she confirms,
// nothing changes. Otherwise a LaunchError that offers to sign in and come
// back. Only the launching browser holds the token, so nobody can make
// another person's browser link their LMS account, and the click means a
// platform cannot link a signed-in teacher by steering her browser through
// a launch she did not start.
func (s *Service) AccountLink(ctx context.Context, token string, signedIn *auth.User, confirmed bool) (Launched, error) {
	if token == "" {
		return Launched{}, refuse(MsgLoginExpired, "no account link token")
	}
	row, err := store.Q.LtiGetAccountLink(ctx, s.Pool, store.LtiGetAccountLinkParams{TokenHash: hashOf(token), Now: s.now()})
	if errors.Is(err, pgx.ErrNoRows) {
		return Launched{}, refuse(MsgLoginExpired, "no live account link")
	}
	if err != nil {
		return Launched{}, fmt.Errorf("find account link: %w", err)
	}
	var c Claims
	if err := json.Unmarshal(row.Claims, &c); err != nil {
		return Launched{}, fmt.Errorf("read account link: %w", err)
	}
	switch {
	case signedIn == nil:
		return Launched{}, &LaunchError{Message: MsgSignInToLink, Reason: "account link: not signed in", SignIn: true}
	case !strings.EqualFold(strings.TrimSpace(signedIn.Email), strings.TrimSpace(c.Email)):
		// No sign-in link: the sign-in page sends a signed-in visitor on
		// without signing them in again.
		return Launched{}, refuse(MsgSignedInAsOther, "account link: signed in as user %s", signedIn.ID)
	}
	p, err := s.platform(ctx, row.PlatformID)
	if err != nil {
		return Launched{}, fmt.Errorf("load platform: %w", err)
	}
	if !confirmed {
		return Launched{Confirm: &LinkConfirm{Email: signedIn.Email, Platform: p.Name, Course: c.Context.Title}}, nil
	}
	if err := s.Auth.LinkAccount(ctx, signedIn.ID, provider(p), c.Subject); err != nil {
		var se *apperr.SignInError
		if errors.As(err, &se) && se.Code == apperr.SignInAccountNotLinked {
			return Launched{}, refuse(MsgLinkedToOther, "%v", err)
		}
		return Launched{}, err
	}
	if err := store.Q.LtiDeleteAccountLink(ctx, s.Pool, hashOf(token)); err != nil {
		return Launched{}, fmt.Errorf("use account link: %w", err)
	}
	return s.teacherLaunch(ctx, p, c)
}

// CancelAccountLink forgets a waiting link the teacher declined; nothing
// is linked. An unknown or used token is no error.
func (s *Service) CancelAccountLink(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	if err := store.Q.LtiDeleteAccountLink(ctx, s.Pool, hashOf(token)); err != nil {
		return fmt.Errorf("cancel account link: %w", err)
	}
	return nil
}

// joinCourse puts u in the team of the course, or links the course to u's
// team on its first teacher launch. It returns the team.
func (s *Service) joinCourse(ctx context.Context, p Platform, c Claims, u auth.User) (uuid.UUID, error) {
	var teamID uuid.UUID
	err := store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		var err error
		teamID, err = store.Q.LtiLinkCourse(ctx, tx, store.LtiLinkCourseParams{PlatformID: p.ID, ContextID: c.Context.ID, TeamID: u.TeamID, Title: c.Context.Title})
		if err != nil {
			return fmt.Errorf("link course: %w", err)
		}
		if teamID == u.TeamID {
			return nil
		}
		return team.Move(ctx, tx, u.ID, uuid.NullUUID{UUID: u.TeamID, Valid: u.TeamID != uuid.Nil}, teamID)
	})
	if err == nil && teamID != u.TeamID {
		s.Auth.ForgetSessions()
	}
	return teamID, err
}

// linkedAssignment is the assignment a resource link opens: the one it was
// linked to, or the one its signed custom parameter names (a link Markwell
// made by deep linking), which must be of teamID (uuid.Nil: any team). The
// launch's service endpoints are remembered with the link.
func (s *Service) linkedAssignment(ctx context.Context, p Platform, c Claims, teamID uuid.UUID) (uuid.UUID, bool, error) {
	if c.ResourceLink.ID == "" {
		return uuid.Nil, false, nil
	}
	linked, err := store.Q.LtiLinkedAssignment(ctx, s.Pool, store.LtiLinkedAssignmentParams{PlatformID: p.ID, ResourceLinkID: c.ResourceLink.ID})
	asg, asgTeam := linked.AssignmentID, linked.TeamID
	if errors.Is(err, pgx.ErrNoRows) {
		ref, _ := c.Custom[customLink].(string)
		id, ok := s.parseLinkRef(ref)
		if !ok {
			return uuid.Nil, false, nil
		}
		var a store.LtiAssignmentTeamRow
		a, err = store.Q.LtiAssignmentTeam(ctx, s.Pool, id)
		if errors.Is(err, pgx.ErrNoRows) {
			return uuid.Nil, false, nil
		}
		asg, asgTeam = a.ID, a.TeamID
	}
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("find linked assignment: %w", err)
	}
	if teamID != uuid.Nil && asgTeam != teamID {
		return uuid.Nil, false, nil
	}
	var lineitems, lineitem, nrps string
	var scopes []string
	if c.AGS != nil {
		lineitems, lineitem, scopes = c.AGS.LineItems, c.AGS.LineItem, c.AGS.Scope
	}
	if c.NRPS != nil {
		nrps = c.NRPS.URL
	}
	if scopes == nil {
		scopes = []string{}
	}
	err = store.Q.LtiRememberLink(ctx, s.Pool, store.LtiRememberLinkParams{PlatformID: p.ID, ResourceLinkID: c.ResourceLink.ID,
		TeamID: asgTeam, AssignmentID: asg, ContextID: c.Context.ID, DeploymentID: c.DeploymentID, LineitemsUrl: lineitems,
		LineitemUrl: lineitem, AgsScopes: scopes, NrpsUrl: nrps, UpdatedAt: s.now()})
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("remember link: %w", err)
	}
	return asg, true, nil
}

// LearnerDetails are the LTI details a pupil's submission carries, set
// from their verified launch.
type LearnerDetails struct {
	PlatformID     uuid.UUID `json:"platformId"`
	Issuer         string    `json:"iss"`
	Subject        string    `json:"sub"`
	DeploymentID   string    `json:"deploymentId"`
	ContextID      string    `json:"contextId"`
	ResourceLinkID string    `json:"resourceLinkId"`
}

// learnerLaunch sends a pupil to the student page of the linked
// assignment with a token that submits as them.
func (s *Service) learnerLaunch(ctx context.Context, p Platform, c Claims) (Launched, error) {
	asg, ok, err := s.linkedAssignment(ctx, p, c, uuid.Nil)
	if err != nil {
		return Launched{}, err
	}
	if !ok {
		return Launched{}, refuse(MsgNotLinked, "resource link %q is not linked", c.ResourceLink.ID)
	}
	if strings.TrimSpace(c.Email) == "" {
		return Launched{}, refuse(MsgNoEmail, "no email claim")
	}
	a, err := store.Q.LtiAssignmentTeam(ctx, s.Pool, asg)
	if err != nil {
		return Launched{}, fmt.Errorf("assignment team: %w", err)
	}
	link, err := s.Links.Get(ctx, identity.Actor{TeamID: a.TeamID}, asg)
	if err != nil {
		return Launched{}, err
	}
	if !link.Enabled {
		return Launched{}, refuse(MsgLinkOff, "student link off")
	}
	details, _ := json.Marshal(LearnerDetails{PlatformID: p.ID, Issuer: c.Issuer, Subject: c.Subject, DeploymentID: c.DeploymentID,
		ContextID: c.Context.ID, ResourceLinkID: c.ResourceLink.ID})
	token := randomToken()
	name := c.displayName()
	if name == "" {
		name = c.Email
	}
	if err := store.Q.LtiDeleteExpiredLearners(ctx, s.Pool, s.now()); err != nil {
		return Launched{}, fmt.Errorf("purge learner launches: %w", err)
	}
	if err := store.Q.LtiInsertLearner(ctx, s.Pool, store.LtiInsertLearnerParams{TokenHash: hashOf(token), AssignmentID: asg, Name: name,
		Email: strings.TrimSpace(c.Email), Details: details, ExpiresAt: s.now().Add(LearnerTTL)}); err != nil {
		return Launched{}, fmt.Errorf("store learner launch: %w", err)
	}
	return Launched{Redirect: "/submit/" + url.PathEscape(link.Token) + "?ltiLaunch=" + token}, nil
}

// Learner returns the pupil's launch of token for assignmentID, or not
// found.
func (s *Service) Learner(ctx context.Context, assignmentID uuid.UUID, token string) (studentlink.LTILearner, error) {
	l, err := store.Q.LtiGetLearner(ctx, s.Pool, store.LtiGetLearnerParams{TokenHash: hashOf(token), AssignmentID: assignmentID, Now: s.now()})
	if err != nil {
		return studentlink.LTILearner{}, store.NotFound(fmt.Errorf("learner launch: %w", err))
	}
	return studentlink.LTILearner{Name: l.Name, Email: l.Email, Details: l.Details}, nil
}
