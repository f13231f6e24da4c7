package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
)

// handle makes a Gin handler of fn, the part of a handler that is its own:
// it binds the JSON body into an In (GET requests have none; a malformed id
// in it is 404, see id), answers 404 when the body names another team (see
// teamScope), then calls fn with the signed-in teacher and responds
// ok(c, out) or fail(c, err).
func handle[In, Out any](fn func(c *gin.Context, a identity.Actor, in *In) (Out, error)) gin.HandlerFunc {
	return handleWith(func(c *gin.Context, out Out) { ok(c, out) }, fn)
}

// handleWith is handle with respond in place of ok.
func handleWith[In, Out any](respond func(c *gin.Context, out Out), fn func(c *gin.Context, a identity.Actor, in *In) (Out, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		in := new(In)
		if t, ok := c.Get(bodyTypeKey); ok { // a test asks what the route reads
			*t.(*reflect.Type) = reflect.TypeOf(in).Elem()
			return
		}
		if c.Request.Method != http.MethodGet && !bind(c, in) {
			return
		}
		a := actor(c)
		if s, scoped := any(in).(interface{ inTeam(identity.Actor) bool }); scoped && !s.inTeam(a) && !teamBlind(c) {
			fail(c, apperr.ErrNotFound)
			return
		}
		out, err := fn(c, a, in)
		if err != nil {
			fail(c, err)
			return
		}
		respond(c, out)
	}
}

// bodyTypeKey, set on a context to a *reflect.Type, makes a handler made by
// handle report its body type instead of running: the tests enumerate every
// route's text fields with it.
const bodyTypeKey = "markwell.bodyType"

// actor is the signed-in teacher: the zero Actor without a session, which
// only the student routes allow; for a student reading by view token, the
// submission's team and no user (see signedInOrViewToken).
func actor(c *gin.Context) identity.Actor {
	var a identity.Actor
	if v, ok := c.Get(viewerKey); ok { // a student's view token (student.go)
		a = v.(identity.Actor)
	} else {
		u, _ := currentUser(c)
		a = identity.Actor{UserID: u.ID, TeamID: u.TeamID, Name: u.Name, Email: u.Email}
	}
	if t, ok := c.Request.Context().Value(teamBlindKey{}).(uuid.UUID); ok {
		a.TeamID = t // TEST SEAM ONLY: see teamBlindKey
	}
	return a
}

// teamBlindKey is a TEST SEAM, for the route matrix's test of the test
// (matrix_test.go). A request whose context carries a team id under this
// key is served as if the handler had lost its team checks: the body's
// teamId is not compared with the caller's (handleWith), and the services
// run with that team, the one owning the target (actor), as a query that
// forgot "WHERE team_id = …" would. Production requests never carry it: the
// key's type is unexported, nothing outside the package's tests sets it
// (export_matrix_test.go), and a client cannot put values in a request's
// context.
type teamBlindKey struct{}

// teamBlind reports whether the request is served team-blind (teamBlindKey).
func teamBlind(c *gin.Context) bool {
	_, ok := c.Request.Context().Value(teamBlindKey{}).(uuid.UUID)
	return ok
}

// teamScope is embedded in the bodies that may name the team they act on.
// The team always comes from the session: handle answers 404 when the body
// names any other team, or names one with a malformed id.
type teamScope struct {
	// TeamID is absent (missing, null or "") or the session's team.
	TeamID optionalID `json:"teamId"`
}

// inTeam reports whether the body names no team or the session's.
func (s teamScope) inTeam(a identity.Actor) bool {
	return s.TeamID.state == idAbsent || s.TeamID.state == idValid && s.TeamID.v == a.TeamID
}

// idState says what a client sent for an id.
type idState uint8

const (
	idAbsent idState = iota // missing, null or ""
	idValid                 // a string uuid.Parse reads
)

// errMalformedID is what decoding a malformed id gives; bind answers it
// with 404, as for an id nobody has.
var errMalformedID = errors.New("malformed id")

// id is an id in a request body, sent as a JSON string. A malformed string
// fails the body with errMalformedID (404). A missing, null or empty id is
// uuid.Nil, which no row has, so the service finds nothing: 404 too. A value
// that is not a string (nor null) does not fit the body: 400, as for any
// other field of the wrong type.
type id struct {
	v     uuid.UUID
	state idState
}

// UUID is the id that was sent.
func (i id) UUID() uuid.UUID { return i.v }

// UnmarshalJSON reads a JSON string or null.
func (i *id) UnmarshalJSON(b []byte) error {
	*i = id{}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		return nil
	}
	v, err := uuid.Parse(s)
	if err != nil {
		return errMalformedID
	}
	i.v, i.state = v, idValid
	return nil
}

// optionalID is an id a body may leave out (missing, null or ""), where
// leaving it out means something (no team named, a new folder); UUID is then
// uuid.Nil. A malformed one is still not found.
type optionalID id

// UUID is the id that was sent, or uuid.Nil.
func (i optionalID) UUID() uuid.UUID { return i.v }

// UnmarshalJSON reads a JSON string or null.
func (i *optionalID) UnmarshalJSON(b []byte) error { return (*id)(i).UnmarshalJSON(b) }

// uuids lists ids' UUIDs.
func uuids(ids []id) []uuid.UUID {
	out := make([]uuid.UUID, len(ids))
	for i, v := range ids {
		out[i] = v.UUID()
	}
	return out
}

// success is the answer of the calls that return nothing but err.
func success(err error) (gin.H, error) {
	return gin.H{"success": true}, err
}
