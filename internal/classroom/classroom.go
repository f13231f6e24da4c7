// Package classroom imports students' work from Google Classroom. A teacher
// connects Classroom once (incremental consent on the Google client that
// signs people in: the Classroom and Drive scopes are asked for only then,
// with PKCE and a state bound to the teacher's session); the token is stored
// encrypted (AES-GCM, key derived from SECRET_KEY). With it the teacher's
// picker lists courses, coursework and turned-in submissions with their
// Drive attachments, and Import copies the chosen attachments into the
// assignment's submissions folder and creates submissions from them. A
// passback (passback.go, job pass_back_grades) sends the finished results'
// grades back to the Classroom coursework they came from.
//
// It speaks to Google through google.golang.org/api (classroom/v1, drive/v3);
// every endpoint is configurable so tests run against an httptest fake. It
// knows nothing of HTTP handlers: internal/httpapi serves it.
package classroom

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/config"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/seal"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// The scopes asked for when a teacher connects Classroom, on top of the
// sign-in's openid, email and profile (include_granted_scopes=true).
const (
	ScopeCourses    = "https://www.googleapis.com/auth/classroom.courses.readonly"
	ScopeCoursework = "https://www.googleapis.com/auth/classroom.coursework.students.readonly"
	ScopeRosters    = "https://www.googleapis.com/auth/classroom.rosters.readonly"
	// ScopeEmails lets the roster show students' email addresses: without
	// it Classroom leaves UserProfile.emailAddress empty.
	ScopeEmails = "https://www.googleapis.com/auth/classroom.profile.emails"
	ScopeDrive  = "https://www.googleapis.com/auth/drive.readonly"
	// ScopeGrades lets Markwell set draft and assigned grades and return
	// work (studentSubmissions.patch and return need it, not the readonly
	// scope). Connect asks for it too, but the import works without it: a
	// teacher who connected before Markwell sent grades, or who unticked it,
	// is asked to reconnect only when sending grades.
	ScopeGrades = "https://www.googleapis.com/auth/classroom.coursework.students"
)

// Scopes are the scopes the import needs; all are needed.
var Scopes = []string{ScopeCourses, ScopeCoursework, ScopeRosters, ScopeEmails, ScopeDrive}

// requested are the scopes Connect asks for: Scopes and ScopeGrades.
var requested = append(slices.Clone(Scopes), ScopeGrades)

// CallbackPath is where Google sends the teacher back after consent; the
// Google client must list PUBLIC_URL + CallbackPath as a redirect URI.
const CallbackPath = "/api/v1/google/classroom/callback"

// FlowTTL is how long a teacher has to answer Google's consent screen.
const FlowTTL = 10 * time.Minute

// Messages users see.
const (
	MsgNotConfigured = "Google sign-in is not configured on this server"
	MsgDisabled      = "Google Classroom import is turned off on this server"
	MsgNotConnected  = "Connect Google Classroom to import your students' work."
	MsgReconnect     = "Google Classroom access has expired or was revoked. Please connect Google Classroom again."
	MsgMissingScopes = "Markwell needs every permission it asks for to import from Google Classroom. Please connect again and allow them all."
	MsgGoogleDown    = "Google Classroom did not answer. Please try again."
	MsgGoogleBusy    = "Google Classroom is busy. Please try again in a minute."
	MsgForbidden     = "Google Classroom did not allow this. Check that you teach this class."
	MsgClassRequired = "Please choose a class."
	MsgWorkRequired  = "Please choose an assignment of the class."
	MsgNoneSelected  = "Please choose at least one student submission to import."
	MsgTooMany       = "You can import at most 200 submissions at once."
)

// Limits.
const (
	// MaxSelected caps the student submissions of one import.
	MaxSelected = submission.MaxPerUpload
	// maxPages caps the pages read from one Google list (of up to 100 items).
	maxPages = 50
	// metaWorkers and downloadWorkers bound the Drive calls in flight for
	// one request.
	metaWorkers     = 4
	downloadWorkers = 3
)

// Endpoints are the Google addresses the service talks to.
type Endpoints struct {
	// AuthURL is the consent page; TokenURL redeems codes and refreshes tokens.
	AuthURL, TokenURL string
	// ClassroomURL and DriveURL are the APIs' base paths, ending in '/'.
	ClassroomURL, DriveURL string
}

// GoogleEndpoints are Google's production addresses.
func GoogleEndpoints() Endpoints {
	return Endpoints{
		AuthURL:      "https://accounts.google.com/o/oauth2/v2/auth",
		TokenURL:     "https://oauth2.googleapis.com/token",
		ClassroomURL: "https://classroom.googleapis.com/",
		DriveURL:     "https://www.googleapis.com/drive/v3/",
	}
}

// EndpointsAt puts every endpoint under one base URL, the layout of the
// test fake: {base}/o/oauth2/auth, {base}/token, {base}/v1/… and
// {base}/drive/v3/….
func EndpointsAt(base string) Endpoints {
	base = strings.TrimRight(base, "/")
	return Endpoints{
		AuthURL: base + "/o/oauth2/auth", TokenURL: base + "/token",
		ClassroomURL: base + "/", DriveURL: base + "/drive/v3/",
	}
}

// Config is what a Service needs.
type Config struct {
	// ClientID and ClientSecret are the Google OAuth client (the sign-in's).
	// Empty means Google is not configured: Status says so.
	ClientID, ClientSecret string
	// Disabled turns the import off even though Google is configured.
	Disabled bool
	// Secret is the server's SECRET_KEY; the token and flow keys derive from it.
	Secret string
	// PublicURL is where users reach the app; the redirect URI is
	// PublicURL + CallbackPath.
	PublicURL string
	// Endpoints are Google's addresses; the zero value means GoogleEndpoints.
	Endpoints Endpoints
	// HTTPClient carries every call to Google; nil means one with a 2 minute timeout.
	HTTPClient *http.Client
	// MaxDownloadBytes caps one imported file (MAX_UPLOAD_BYTES).
	MaxDownloadBytes int64
	// Pool is the database.
	Pool *pgxpool.Pool
	// Blob stores the imported files.
	Blob blob.Blob
	// Submissions creates the imported submissions.
	Submissions *submission.Service
	// Jobs queues the pass_back_grades jobs; nil means Submissions.Jobs.
	Jobs *queue.Client
	// RetryBase is the first wait before a call Google answered 429 or 5xx
	// is tried again (then twice as long, three tries in all); 0 means a
	// second.
	RetryBase time.Duration
	// Log receives what users are not shown; nil discards it.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service connects teachers' Google accounts and imports from Classroom.
type Service struct {
	cfg    Config
	tokens *seal.Sealer // google_tokens.encrypted_token
	flows  *seal.Sealer // the consent flow cookie
	log    *slog.Logger
	now    func() time.Time
}

// New checks c and returns a Service. A Service without a Google client
// still answers Status (not configured) and refuses everything else.
func New(c Config) (*Service, error) {
	if c.Pool == nil {
		return nil, errors.New("classroom: no database pool")
	}
	if len(c.Secret) < 32 {
		return nil, errors.New("classroom: the secret must be at least 32 characters")
	}
	if c.Endpoints == (Endpoints{}) {
		c.Endpoints = GoogleEndpoints()
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: 2 * time.Minute}
	}
	if c.MaxDownloadBytes <= 0 {
		c.MaxDownloadBytes = blob.DefaultMaxUploadBytes
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.Jobs == nil && c.Submissions != nil {
		c.Jobs = c.Submissions.Jobs
	}
	if c.RetryBase <= 0 {
		c.RetryBase = time.Second
	}
	tokens, err := seal.New(c.Secret, "markwell google_tokens v1")
	if err != nil {
		return nil, err
	}
	flows, err := seal.New(c.Secret, "markwell classroom consent flow v1")
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: c, tokens: tokens, flows: flows, log: c.Log, now: c.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// FromConfig builds the Service the application configuration describes:
// the Google sign-in client, GOOGLE_CLASSROOM_ENABLED, and
// GOOGLE_API_BASE_URL (a fake's address, for end-to-end tests) when set.
func FromConfig(cfg config.Config, pool *pgxpool.Pool, blobs blob.Blob, subs *submission.Service, log *slog.Logger) (*Service, error) {
	c := Config{
		ClientID: cfg.GoogleClientID, ClientSecret: cfg.GoogleClientSecret, Disabled: !cfg.GoogleClassroomEnabled,
		Secret: cfg.SecretKey, PublicURL: cfg.PublicURL, MaxDownloadBytes: cfg.MaxUploadBytes,
		Pool: pool, Blob: blobs, Submissions: subs, Log: log,
	}
	if cfg.GoogleAPIBaseURL != "" {
		c.Endpoints = EndpointsAt(cfg.GoogleAPIBaseURL)
	}
	return New(c)
}

// Status is what the Classroom button shows.
type Status struct {
	// Configured: this server can talk to Google Classroom.
	Configured bool `json:"configured"`
	// Connected: the teacher has connected their Google account.
	Connected bool `json:"connected"`
	// Reason says why the import cannot be used yet; "" when it can.
	Reason string `json:"reason"`
	// CanSendGrades: the teacher's token allows sending grades back
	// (ScopeGrades); when connected without it, "Send grades" asks the
	// teacher to reconnect.
	CanSendGrades bool `json:"canSendGrades"`
}

// unavailable is the reason Classroom cannot be used on this server, or "".
func (s *Service) unavailable() string {
	switch {
	case s == nil || s.cfg.ClientID == "" || s.cfg.ClientSecret == "":
		return MsgNotConfigured
	case s.cfg.Disabled:
		return MsgDisabled
	}
	return ""
}

// Status reports whether the server is configured and user has connected.
func (s *Service) Status(ctx context.Context, user uuid.UUID) (Status, error) {
	if why := s.unavailable(); why != "" {
		return Status{Reason: why}, nil
	}
	row, err := store.Q.GetGoogleToken(ctx, s.cfg.Pool, user)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Status{Configured: true, Reason: MsgNotConnected}, nil
	case err != nil:
		return Status{}, fmt.Errorf("load google token of user %s: %w", user, err)
	}
	if missing := missingScopes(row.Scopes); len(missing) > 0 {
		return Status{Configured: true, Reason: MsgMissingScopes}, nil
	}
	return Status{Configured: true, Connected: true, CanSendGrades: hasScope(row.Scopes, ScopeGrades)}, nil
}

// hasScope reports whether granted (space-separated) includes scope.
func hasScope(granted, scope string) bool { return slices.Contains(strings.Fields(granted), scope) }

// Disconnect forgets user's Google token.
func (s *Service) Disconnect(ctx context.Context, user uuid.UUID) error {
	if s == nil {
		return nil
	}
	if err := store.Q.DeleteGoogleToken(ctx, s.cfg.Pool, user); err != nil {
		return fmt.Errorf("delete google token of user %s: %w", user, err)
	}
	return nil
}

// missingScopes lists the Scopes that granted (space-separated) lacks.
func missingScopes(granted string) []string {
	have := map[string]bool{}
	for _, sc := range strings.Fields(granted) {
		have[sc] = true
	}
	var out []string
	for _, sc := range Scopes {
		if !have[sc] {
			out = append(out, sc)
		}
	}
	return out
}
