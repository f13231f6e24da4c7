// Package changes tells a polled read what changed in an assignment since
// the reader last looked, so that a poll of a class nobody touched costs one
// small query and a 304, and a poll of a class being graded carries only the
// rows that moved.
//
// A Version is the PostgreSQL snapshot a read started from (taken before the
// read's own queries, so anything committed after it is reported next time,
// possibly twice, never missed) and the time it was taken. Every write to an
// assignment, its definition, its submissions or its results stamps the row
// with the writing transaction's id (migration 00022), and a deletion leaves
// a tombstone; Since lists what the version's snapshot could not see.
package changes

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/store"
)

// MaxAge is how long a version stays usable: an older one gets the whole
// answer again. It bounds what a client may keep without a fresh read (the
// answers' signed media URLs live longer than this) and how long tombstones
// must be kept (Prune keeps them for TombstoneAge, well beyond it).
const MaxAge = 10 * time.Minute

// TombstoneAge is how long deleted rows are remembered.
const TombstoneAge = 24 * time.Hour

// Version is where a read stood: a snapshot and when it was taken.
type Version struct {
	Snapshot string
	At       time.Time
}

// snapshotSyntax is pg_snapshot's text form, xmin:xmax:xip,xip,...
var snapshotSyntax = regexp.MustCompile(`^[0-9]{1,20}:[0-9]{1,20}:(?:[0-9]{1,20}(?:,[0-9]{1,20})*)?$`)

// String is the version as a client carries it (the ETag's value, the
// since field): "<unix seconds>-<snapshot>".
func (v Version) String() string {
	if v.Snapshot == "" {
		return ""
	}
	return strconv.FormatInt(v.At.Unix(), 10) + "-" + v.Snapshot
}

// ETag is the version as a strong entity tag, quoted.
func (v Version) ETag() string { return `"` + v.String() + `"` }

// ErrBadVersion says a client sent something that is not a version.
var ErrBadVersion = errors.New("not a version")

// Parse reads a version a client sent back, with or without the ETag's
// quotes (and a weak W/ prefix). A version longer than a snapshot of a busy
// server could be (1,000 in-progress transactions) is refused.
func Parse(s string) (Version, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "W/")
	s = strings.Trim(s, `"`)
	if len(s) > 24_000 {
		return Version{}, ErrBadVersion
	}
	at, snap, ok := strings.Cut(s, "-")
	if !ok || !snapshotSyntax.MatchString(snap) {
		return Version{}, ErrBadVersion
	}
	unix, err := strconv.ParseInt(at, 10, 64)
	if err != nil || unix <= 0 || !validSnapshot(snap) {
		return Version{}, ErrBadVersion
	}
	return Version{Snapshot: snap, At: time.Unix(unix, 0)}, nil
}

// validSnapshot says whether PostgreSQL reads snap (xmin:xmax:xip,...,
// already of snapshotSyntax) as a pg_snapshot: xmin and xmax valid
// transaction ids, xmin <= xmax, every xip in [xmin, xmax) and in
// ascending order. What it would refuse is no version: the whole answer,
// not an error (nor a 500 where another team's assignment is a 404).
func validSnapshot(snap string) bool {
	parts := strings.SplitN(snap, ":", 3)
	xmin, err1 := strconv.ParseUint(parts[0], 10, 64)
	xmax, err2 := strconv.ParseUint(parts[1], 10, 64)
	if err1 != nil || err2 != nil || uint32(xmin) == 0 || uint32(xmax) == 0 || xmax < xmin {
		return false
	}
	if parts[2] == "" {
		return true
	}
	last := xmin
	for _, s := range strings.Split(parts[2], ",") {
		x, err := strconv.ParseUint(s, 10, 64)
		if err != nil || x < last || x >= xmax {
			return false
		}
		last = x
	}
	return true
}

// Usable says whether a version may be answered with a delta or a 304 now:
// not older than MaxAge, not from the future (a clock a client made up).
func (v Version) Usable(now time.Time) bool {
	return v.Snapshot != "" && !v.At.After(now.Add(time.Minute)) && now.Sub(v.At) <= MaxAge
}

// Now is the version of a read that starts now. Call it before the read's
// own queries.
func Now(ctx context.Context, db store.DBTX) (Version, error) {
	snap, err := store.Q.CurrentSnapshot(ctx, db)
	if err != nil {
		return Version{}, fmt.Errorf("read the current snapshot: %w", err)
	}
	return Version{Snapshot: snap, At: time.Now()}, nil
}

// NowIn is Now for a read of one assignment, with whether the assignment
// is the actor's team's, in the same round trip: a poll of another team's
// assignment is 404 whatever version it names.
func NowIn(ctx context.Context, db store.DBTX, teamID, assignmentID uuid.UUID) (Version, bool, error) {
	row, err := store.Q.CurrentSnapshotIn(ctx, db, store.CurrentSnapshotInParams{AssignmentID: assignmentID, TeamID: teamID})
	if err != nil {
		return Version{}, false, fmt.Errorf("read the current snapshot: %w", err)
	}
	return Version{Snapshot: row.Snapshot, At: time.Now()}, row.InTeam, nil
}

// NowForResult is Now for a read of a submission's result in one of the
// team's assignments, with the result's id (uuid.Nil when there is none).
func NowForResult(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID) (Version, uuid.UUID, error) {
	row, err := store.Q.CurrentSnapshotForResult(ctx, db, store.CurrentSnapshotForResultParams{
		SubmissionID: submissionID, AssignmentID: assignmentID, TeamID: teamID,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		v, err := Now(ctx, db)
		return v, uuid.Nil, err
	}
	if err != nil {
		return Version{}, uuid.Nil, fmt.Errorf("read the current snapshot: %w", err)
	}
	return Version{Snapshot: row.Snapshot, At: time.Now()}, row.ID, nil
}

// Set is what changed in one assignment since a version.
type Set struct {
	Assignment         bool // the assignment row (name, settings, grading state)
	Definition         bool // its questions, highlights, rubric or prompt
	Submissions        []uuid.UUID
	Results            []uuid.UUID
	DeletedSubmissions []uuid.UUID
	DeletedResults     []uuid.UUID
}

// None says nothing changed: the answer is a 304.
func (s Set) None() bool {
	return !s.Assignment && !s.Definition && len(s.Submissions) == 0 && len(s.Results) == 0 &&
		len(s.DeletedSubmissions) == 0 && len(s.DeletedResults) == 0
}

// Touches says whether the set names the result or its submission (written
// or deleted), or the assignment or its definition: what a read of that one
// result depends on.
func (s Set) Touches(resultID, submissionID uuid.UUID) bool {
	return s.Assignment || s.Definition || slices.Contains(s.Results, resultID) ||
		slices.Contains(s.DeletedResults, resultID) || slices.Contains(s.Submissions, submissionID) ||
		slices.Contains(s.DeletedSubmissions, submissionID)
}

// Since lists what changed in the assignment since v. The caller has
// checked that the actor may read the assignment; v is Usable.
func Since(ctx context.Context, db store.DBTX, teamID, assignmentID uuid.UUID, v Version) (Set, error) {
	r, err := Start(ctx, db, teamID, assignmentID, uuid.Nil, v)
	return r.Changes, err
}

// Read is where a polled read of one assignment starts (Start).
type Read struct {
	// Now is the read's own version, taken before its own queries.
	Now Version
	// InTeam says the assignment is the team's: otherwise the read is not
	// found, and nothing else here is filled in. (Asked about a submission
	// without a version to compare with, it is whether the result is.)
	InTeam bool
	// ResultID is the team's result of the submission Start was asked
	// about, uuid.Nil when there is none (or none was asked).
	ResultID uuid.UUID
	// Since is the client's version Changes are counted from; zero when
	// Start was given none.
	Since Version
	// Changes is what changed in the assignment between Since and Now.
	Changes Set
}

// Start begins a polled read of an assignment of the team, and of the
// team's result of submissionID in it (uuid.Nil for none): its version,
// whether the assignment is the team's and, given a Usable version since,
// what changed from since to now. All of it in one round trip
// (PollChanges), which for a poll of a class nobody touched is the 304's
// only query. An unusable since (the zero Version) is not asked about.
func Start(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID, since Version) (Read, error) {
	if since.Snapshot == "" {
		return startFresh(ctx, db, teamID, assignmentID, submissionID)
	}
	r, _, err := poll(ctx, db, teamID, assignmentID, submissionID, since)
	return r, err
}

// Change is one row that changed: its kind (PollChanges': "assignment",
// "function", "submission", "function_result", "deleted_submission",
// "deleted_function_result") and the transaction that wrote or deleted it
// (0 for an edit of the library rubric a definition embeds).
type Change struct {
	Kind string
	ID   uuid.UUID
	Xid  uint64
}

func poll(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID, since Version) (Read, []Change, error) {
	rows, err := store.Q.PollChanges(ctx, db, LogParams(teamID, assignmentID, since, submissionID))
	if err != nil {
		return Read{}, nil, fmt.Errorf("changes of assignment %s: %w", assignmentID, err)
	}
	return LogOf(rows, since)
}

// LogParams is PollChanges' arguments for a poll of the assignment (and
// the team's result of submissionID in it; uuid.Nil for none) since v.
func LogParams(teamID, assignmentID uuid.UUID, v Version, submissionID uuid.UUID) store.PollChangesParams {
	return store.PollChangesParams{
		Since: v.Snapshot, AssignmentID: assignmentID, TeamID: teamID, SubmissionID: submissionID, SinceAt: v.At,
	}
}

// LogOf is Start from PollChanges' rows, read by the caller, for a reader
// that keeps the class itself (the API's class cache, store.CatchUp): the
// changes one by one too, with their transactions.
func LogOf(rows []store.PollChangesRow, since Version) (Read, []Change, error) {
	if len(rows) == 0 { // the statement always has a row; be safe
		return Read{}, nil, errors.New("poll changes: no row")
	}
	r := Read{Now: Version{Snapshot: rows[0].Snapshot, At: time.Now()}, InTeam: rows[0].InTeam}
	if !r.InTeam {
		return Read{Now: r.Now}, nil, nil
	}
	r.ResultID, r.Since = rows[0].ResultID, since
	var log []Change
	for _, row := range rows {
		r.Changes.add(row.Kind, row.RowID)
		if row.Kind != "" {
			log = append(log, Change{Kind: row.Kind, ID: row.RowID, Xid: uint64(row.Xid)})
		}
	}
	return r, log, nil
}

// startFresh is Start without a version to compare with.
func startFresh(ctx context.Context, db store.DBTX, teamID, assignmentID, submissionID uuid.UUID) (Read, error) {
	if submissionID == uuid.Nil {
		now, inTeam, err := NowIn(ctx, db, teamID, assignmentID)
		return Read{Now: now, InTeam: inTeam}, err
	}
	now, resultID, err := NowForResult(ctx, db, teamID, assignmentID, submissionID)
	// a result of the team's is in one of its assignments
	return Read{Now: now, InTeam: resultID != uuid.Nil, ResultID: resultID}, err
}

// add notes one changed row of kind (PollChanges' kinds; "" is none).
func (s *Set) add(kind string, id uuid.UUID) {
	switch kind {
	case "assignment":
		s.Assignment = true
	case "function":
		s.Definition = true
	case "submission":
		s.Submissions = append(s.Submissions, id)
	case "function_result":
		s.Results = append(s.Results, id)
	case "deleted_submission":
		s.DeletedSubmissions = append(s.DeletedSubmissions, id)
	case "deleted_function_result":
		s.DeletedResults = append(s.DeletedResults, id)
	}
}

// Pick is the first of the versions a client sent (an If-None-Match
// header, a since field) that parses and is Usable at now; the zero
// Version when none is.
func Pick(now time.Time, sent ...string) Version {
	for _, s := range sent {
		if v, err := Parse(s); err == nil && v.Usable(now) {
			return v
		}
	}
	return Version{}
}

// Prune forgets tombstones older than TombstoneAge.
func Prune(ctx context.Context, db store.DBTX, now time.Time) (int64, error) {
	n, err := store.Q.PruneDeletedRows(ctx, db, now.Add(-TombstoneAge))
	if err != nil {
		return 0, fmt.Errorf("prune deleted rows: %w", err)
	}
	return n, nil
}
