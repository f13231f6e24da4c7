package changes_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/changes/changestest"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

// countingDB counts the statements a poll sends to the database.
type countingDB struct {
	store.DBTX
	n atomic.Int64
}

func (d *countingDB) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	d.n.Add(1)
	return d.DBTX.Exec(ctx, sql, args...)
}

func (d *countingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	d.n.Add(1)
	return d.DBTX.Query(ctx, sql, args...)
}

func (d *countingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	d.n.Add(1)
	return d.DBTX.QueryRow(ctx, sql, args...)
}

// listening is a Clock listening on the test database; stop ends it.
func listening(t *testing.T) (clock *changes.Clock, stop func()) {
	t.Helper()
	return changestest.Listening(t)
}

// settle waits until every change committed so far has been announced to
// the clock (a heartbeat sent after them is heard).
func settle(t *testing.T, clock *changes.Clock) {
	t.Helper()
	sent, _ := clock.Heard()
	clock.Wrote() // the next heartbeat now
	require.Eventually(t, func() bool { _, heard := clock.Heard(); return heard > sent }, 5*time.Second, 2*time.Millisecond)
}

func TestAnUnchangedClassIsAnsweredFromMemory(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	clock, _ := listening(t)
	db := &countingDB{DBTX: c.pool}
	poll := func(team, sub uuid.UUID, v changes.Version) changes.Read {
		t.Helper()
		r, err := clock.Start(ctx, db, team, c.asg, sub, v)
		require.NoError(t, err)
		return r
	}
	v, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)

	r := poll(c.team, uuid.Nil, v)
	require.True(t, r.InTeam)
	require.True(t, r.Changes.None())
	require.EqualValues(t, 1, db.n.Load(), "the first poll reads the team check from the database")
	r = poll(c.team, uuid.Nil, v)
	require.True(t, r.InTeam)
	require.True(t, r.Changes.None())
	require.Equal(t, v, r.Since)
	require.EqualValues(t, 1, db.n.Load(), "the second is answered from memory")

	// Another team's assignment is not found, from memory too.
	stranger := uuid.New()
	require.False(t, poll(stranger, uuid.Nil, v).InTeam)
	require.False(t, poll(stranger, c.sub, v).InTeam)
	require.EqualValues(t, 1, db.n.Load())

	// A result read: its id is learnt once, then remembered.
	require.Equal(t, c.result, poll(c.team, c.sub, v).ResultID)
	require.Equal(t, c.result, poll(c.team, c.sub, v).ResultID)
	require.EqualValues(t, 2, db.n.Load())

	// Another assignment's write leaves the class answered from memory.
	c.exec(t, `UPDATE assignments SET name = 'Other 2' WHERE id = $1`, c.other)
	settle(t, clock)
	require.True(t, poll(c.team, uuid.Nil, v).Changes.None())
	require.EqualValues(t, 2, db.n.Load())

	// A write from another connection (another API replica, a worker) is
	// seen by the next poll once announced: the database lists it.
	c.exec(t, `UPDATE function_results SET overall_comments = 'Good' WHERE id = $1`, c.result)
	settle(t, clock)
	r = poll(c.team, uuid.Nil, v)
	require.Equal(t, changes.Set{Results: []uuid.UUID{c.result}}, r.Changes)
	require.EqualValues(t, 3, db.n.Load())
	require.Equal(t, changes.Set{Results: []uuid.UUID{c.result}}, poll(c.team, uuid.Nil, v).Changes, "and again: the old version still misses it")

	// From the new version, nothing changed: memory again after one read.
	next := r.Now
	require.True(t, poll(c.team, uuid.Nil, next).Changes.None())
	n := db.n.Load()
	require.True(t, poll(c.team, uuid.Nil, next).Changes.None())
	require.Equal(t, n, db.n.Load())

	// Each kind of write is announced: the submission, the definition, the
	// assignment, a deletion.
	for _, sql := range []string{
		`UPDATE submissions SET name = 'Ada L.' WHERE id = $1`,
		`UPDATE functions SET context = 'Year 9' WHERE assignment_id = (SELECT assignment_id FROM submissions WHERE id = $1)`,
		`UPDATE assignments SET name = 'Essay 2' WHERE id = (SELECT assignment_id FROM submissions WHERE id = $1)`,
		`DELETE FROM submissions WHERE id = $1`,
	} {
		v, err := changes.Now(ctx, c.pool)
		require.NoError(t, err)
		poll(c.team, uuid.Nil, v)
		n := db.n.Load()
		require.True(t, poll(c.team, uuid.Nil, v).Changes.None())
		require.Equal(t, n, db.n.Load(), sql)
		c.exec(t, sql, c.sub)
		settle(t, clock)
		require.False(t, poll(c.team, uuid.Nil, v).Changes.None(), sql)
	}

	// A deleted assignment is not found, not a 304.
	v, err = changes.Now(ctx, c.pool)
	require.NoError(t, err)
	require.True(t, poll(c.team, uuid.Nil, v).InTeam)
	c.exec(t, `DELETE FROM assignments WHERE id = $1`, c.asg)
	settle(t, clock)
	v, err = changes.Now(ctx, c.pool)
	require.NoError(t, err)
	require.False(t, poll(c.team, uuid.Nil, v).InTeam)
}

// What the listener cannot vouch for goes to the database: a version from
// before it listened, a listener that stopped, a reconnected one's past.
func TestAListenerThatDropsFallsBackToTheDatabase(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	before, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)
	c.exec(t, `UPDATE assignments SET name = 'Other 2' WHERE id = $1`, c.other) // before is older than the listener
	clock, stop := listening(t)
	db := &countingDB{DBTX: c.pool}
	poll := func(v changes.Version) changes.Read {
		t.Helper()
		r, err := clock.Start(ctx, db, c.team, c.asg, uuid.Nil, v)
		require.NoError(t, err)
		return r
	}
	poll(before)
	poll(before)
	require.EqualValues(t, 2, db.n.Load(), "a version older than the listener asks the database")

	v, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)
	poll(v)
	require.EqualValues(t, 2, db.n.Load(), "a version after it is answered from memory")

	// The listener's connection is cut, and a write happens meanwhile:
	// its announcement is lost. The reconnected listener starts from
	// nothing, so the poll asks the database and sees the write.
	pid := clock.PID()
	c.exec(t, `SELECT pg_terminate_backend($1)`, int32(pid))
	c.exec(t, `UPDATE submissions SET name = 'Ada L.' WHERE id = $1`, c.sub)
	require.Eventually(t, func() bool { return clock.PID() != pid && clock.Live() }, 10*time.Second, 2*time.Millisecond)
	require.Equal(t, changes.Set{Submissions: []uuid.UUID{c.sub}}, poll(v).Changes)
	require.EqualValues(t, 3, db.n.Load())

	// A stopped listener answers nothing.
	v, err = changes.Now(ctx, c.pool)
	require.NoError(t, err)
	poll(v)
	require.EqualValues(t, 3, db.n.Load())
	stop()
	require.False(t, clock.Live())
	poll(v)
	require.EqualValues(t, 4, db.n.Load())
}

// A write this process made is never answered 304 from memory before its
// announcement has arrived (Wrote).
func TestOurOwnWriteWaitsForItsAnnouncement(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	clock, _ := listening(t)
	v, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)
	for range 20 {
		_, err := clock.Start(ctx, c.pool, c.team, c.asg, uuid.Nil, v)
		require.NoError(t, err)
		c.exec(t, `UPDATE function_results SET overall_comments = 'Again' WHERE id = $1`, c.result)
		clock.Wrote()
		r, err := clock.Start(ctx, c.pool, c.team, c.asg, uuid.Nil, v)
		require.NoError(t, err)
		require.Equal(t, changes.Set{Results: []uuid.UUID{c.result}}, r.Changes)
		v = r.Now
	}
}

// A change to a user or their sessions is heard as that user's, leaves
// the classes' memory alone, and nothing is vouched for once the
// listener stops.
func TestTheClockHearsUsersChange(t *testing.T) {
	ctx := context.Background()
	pool := testdb.Pool(t)
	clock, stop := listening(t)
	var ada, grace uuid.UUID
	for _, u := range []struct {
		name string
		id   *uuid.UUID
	}{{"ada", &ada}, {"grace", &grace}} {
		require.NoError(t, pool.QueryRow(ctx, `INSERT INTO users (email, name) VALUES ($1, $1) RETURNING id`,
			u.name+"-"+uuid.NewString()+"@school.test").Scan(u.id))
	}
	settle(t, clock)
	mark := clock.UserMark()
	require.NotZero(t, mark)
	changed, heard := clock.UserSince(ada, mark)
	require.True(t, heard)
	require.False(t, changed)

	var token []byte
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (sha256(gen_random_uuid()::text::bytea), $1, now() + interval '1 day') RETURNING token_hash`, ada).Scan(&token))
	settle(t, clock)
	changed, _ = clock.UserSince(ada, mark)
	require.False(t, changed, "a new session changes nothing anyone kept")

	_, err := pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, token)
	require.NoError(t, err)
	settle(t, clock)
	changed, heard = clock.UserSince(ada, mark)
	require.True(t, heard)
	require.True(t, changed, "a sign-out is heard")
	changed, _ = clock.UserSince(grace, mark)
	require.False(t, changed, "as Ada's only")
	later := clock.UserMark()
	changed, _ = clock.UserSince(ada, later)
	require.False(t, changed)

	_, err = pool.Exec(ctx, `UPDATE users SET team_id = NULL, name = 'Grace H' WHERE id = $1`, grace)
	require.NoError(t, err)
	settle(t, clock)
	changed, _ = clock.UserSince(grace, later)
	require.True(t, changed, "a change of the user is heard")

	stop()
	_, heard = clock.UserSince(ada, later)
	require.False(t, heard, "a stopped listener vouches for nobody")
	require.Zero(t, clock.UserMark())
}
