// Package lti is Markwell as an LTI 1.3 tool: the platforms an operator
// registered, Markwell's signing keys and JWKS, the OIDC third-party
// initiated login and the launch it ends in (resource links and deep
// linking), and the Assignment and Grade Services and Names and Roles
// clients. It knows nothing of HTTP requests: internal/httpapi serves it
// (lti*.go). docs/lti.md explains it for operators.
package lti

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/auth"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/seal"
	"github.com/markwell/markwell/internal/studentlink"
)

// Lifetimes of what a launch leaves behind.
const (
	// LoginTTL is how long the platform may take from our login redirect
	// to its launch.
	LoginTTL = 10 * time.Minute
	// LearnerTTL is how long a pupil's launch lets the student page submit
	// as them.
	LearnerTTL = 12 * time.Hour
	// LinkTTL is how long a teacher whose email has a Markwell account may
	// take to sign in to it and come back to their launch.
	LinkTTL = 30 * time.Minute
	// DeepLinkTTL is how long a teacher may take to pick an assignment.
	DeepLinkTTL = time.Hour
	// KeyOverlap is how long a rotated-out key stays in the JWKS.
	KeyOverlap = 7 * 24 * time.Hour
	// JWKSTTL bounds how long a platform's keys are trusted without
	// fetching them again; JWKSRefreshGap how often an unknown kid may
	// make us fetch them early.
	JWKSTTL        = 15 * time.Minute
	JWKSRefreshGap = 30 * time.Second
	// FetchTimeout and FetchLimit bound every call to a platform.
	FetchTimeout = 10 * time.Second
	FetchLimit   = 1 << 20
)

// StudentLinks gives the student link of an assignment
// (studentlink.Service).
type StudentLinks interface {
	Get(ctx context.Context, a identity.Actor, assignmentID uuid.UUID) (studentlink.Link, error)
}

// Service is Markwell's LTI tool.
type Service struct {
	Pool *pgxpool.Pool
	// Auth signs teachers in from their launch.
	Auth *auth.Service
	// Links opens an assignment's student link for a pupil's launch.
	Links StudentLinks
	// Jobs queues lti_score when results are released.
	Jobs *queue.Client
	// Secret is SECRET_KEY: it seals the signing keys and signs the
	// assignment references Markwell puts in deep links.
	Secret string
	// PublicURL is where platforms reach Markwell (PUBLIC_URL).
	PublicURL string
	// AllowInsecure lets platform URLs be http:// (LTI_ALLOW_INSECURE_URLS;
	// tests and local platforms only).
	AllowInsecure bool
	// Client makes the calls to platforms; nil means one with FetchTimeout.
	Client *http.Client
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu   sync.Mutex
	jwks map[uuid.UUID]*platformKeys
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) base() string {
	if s.PublicURL == "" {
		return "http://localhost:8080"
	}
	return strings.TrimRight(s.PublicURL, "/")
}

// The tool's URLs, as the operator page shows them and platforms call them.
func (s *Service) LoginURL() string  { return s.base() + "/api/lti/login" }
func (s *Service) LaunchURL() string { return s.base() + "/api/lti/launch" }
func (s *Service) JWKSURL() string   { return s.base() + "/api/lti/jwks" }

// randomToken is 32 random bytes, base64url.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashOf(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// mac signs v for purpose under SECRET_KEY.
func (s *Service) mac(purpose, v string) string {
	m := hmac.New(sha256.New, []byte(s.Secret))
	m.Write([]byte(purpose + "\x00" + v))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// linkRef is the reference to an assignment a deep link's custom
// parameter carries: its id and a MAC, so a course editor who changes the
// parameter cannot point a link at another team's assignment.
func (s *Service) linkRef(assignmentID uuid.UUID) string {
	return assignmentID.String() + "." + s.mac("lti-link", assignmentID.String())
}

func (s *Service) parseLinkRef(ref string) (uuid.UUID, bool) {
	id, sig, ok := strings.Cut(ref, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.mac("lti-link", id))) {
		return uuid.Nil, false
	}
	u, err := uuid.Parse(id)
	return u, err == nil
}

// errUnseal is a sealed key that does not open (another SECRET_KEY).
var errUnseal = errors.New("lti: sealed key does not open (was SECRET_KEY changed?)")

// keySealer seals the signing keys (internal/seal, the purpose's own key
// derived from SECRET_KEY); a key's id is its additional data.
func (s *Service) keySealer() (*seal.Sealer, error) {
	return seal.New(s.Secret, "markwell lti signing key")
}

func (s *Service) seal(plain []byte, kid string) ([]byte, error) {
	sl, err := s.keySealer()
	if err != nil {
		return nil, err
	}
	return sl.Seal(plain, []byte(kid)), nil
}

// open opens a sealed key, also one stored without the version byte (the
// keys made before the sealers were one).
func (s *Service) open(sealed []byte, kid string) ([]byte, error) {
	sl, err := s.keySealer()
	if err != nil {
		return nil, err
	}
	plain, err := sl.Open(sealed, []byte(kid))
	if err != nil {
		plain, err = sl.OpenUnversioned(sealed, []byte(kid))
	}
	if err != nil {
		return nil, errUnseal
	}
	return plain, nil
}

// New is the tool as cmd/api and cmd/worker run it.
func New(pool *pgxpool.Pool, secret, publicURL string, allowInsecure bool, sessions *auth.Service, links StudentLinks, jobs *queue.Client) *Service {
	return &Service{Pool: pool, Secret: secret, PublicURL: publicURL, AllowInsecure: allowInsecure, Auth: sessions, Links: links, Jobs: jobs}
}
