package changes_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/changes"
	"github.com/markwell/markwell/internal/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

type class struct {
	pool             *pgxpool.Pool
	team, asg, other uuid.UUID
	sub, result, fn  uuid.UUID
	otherSub         uuid.UUID
}

// newClass is an assignment with a definition, one submission and its
// result, and a second assignment of the same team with one submission.
func newClass(t *testing.T, pool *pgxpool.Pool) class {
	t.Helper()
	ctx := context.Background()
	c := class{pool: pool}
	q := func(sql string, out *uuid.UUID, args ...any) {
		t.Helper()
		require.NoError(t, c.pool.QueryRow(ctx, sql, args...).Scan(out))
	}
	q(`INSERT INTO teams (name) VALUES ('Changes') RETURNING id`, &c.team)
	q(`INSERT INTO assignments (team_id, name, type) VALUES ($1, 'Essay', 'feedback') RETURNING id`, &c.asg, c.team)
	q(`INSERT INTO assignments (team_id, name, type) VALUES ($1, 'Other', 'feedback') RETURNING id`, &c.other, c.team)
	q(`INSERT INTO functions (team_id, assignment_id, type) VALUES ($1, $2, 'feedback') RETURNING id`, &c.fn, c.team, c.asg)
	q(`INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type, role) VALUES ($1, $2, 'Ada', '', '', 'student') RETURNING id`, &c.sub, c.team, c.asg)
	q(`INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type, role) VALUES ($1, $2, 'Bo', '', '', 'student') RETURNING id`, &c.otherSub, c.team, c.other)
	q(`INSERT INTO function_results (team_id, assignment_id, submission_id, function_id) VALUES ($1, $2, $3, $4) RETURNING id`, &c.result, c.team, c.asg, c.sub, c.fn)
	return c
}

func (c class) since(t *testing.T, v changes.Version) changes.Set {
	t.Helper()
	s, err := changes.Since(context.Background(), c.pool, c.team, c.asg, v)
	require.NoError(t, err)
	return s
}

func (c class) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	_, err := c.pool.Exec(context.Background(), sql, args...)
	require.NoError(t, err)
}

// Every kind of write to the class moves it past a version; reads, and
// writes to another assignment, do not.
func TestEveryWriteMovesTheVersionAndNothingElseDoes(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	now := func() changes.Version {
		v, err := changes.Now(ctx, c.pool)
		require.NoError(t, err)
		return v
	}

	v := now()
	require.True(t, c.since(t, v).None(), "nothing written since the version")
	c.exec(t, `SELECT * FROM assignments WHERE id = $1`, c.asg)
	c.exec(t, `UPDATE submissions SET name = 'Bo B.' WHERE id = $1`, c.otherSub)
	c.exec(t, `UPDATE assignments SET name = 'Other 2' WHERE id = $1`, c.other)
	require.True(t, c.since(t, v).None(), "reads and another assignment's writes leave the class's version")

	c.exec(t, `UPDATE function_results SET overall_comments = 'Good' WHERE id = $1`, c.result)
	require.Equal(t, changes.Set{Results: []uuid.UUID{c.result}}, c.since(t, v))

	v = now()
	c.exec(t, `UPDATE submissions SET student_email = 'ada@school.test' WHERE id = $1`, c.sub)
	require.Equal(t, changes.Set{Submissions: []uuid.UUID{c.sub}}, c.since(t, v))

	v = now()
	c.exec(t, `UPDATE assignments SET name = 'Essay 2' WHERE id = $1`, c.asg)
	require.Equal(t, changes.Set{Assignment: true}, c.since(t, v))

	v = now()
	c.exec(t, `UPDATE functions SET context = 'Year 9' WHERE id = $1`, c.fn)
	require.Equal(t, changes.Set{Definition: true}, c.since(t, v))

	v = now()
	c.exec(t, `DELETE FROM submissions WHERE id = $1`, c.sub) // cascades to its result
	require.Equal(t, changes.Set{DeletedSubmissions: []uuid.UUID{c.sub}, DeletedResults: []uuid.UUID{c.result}}, c.since(t, v))
	require.True(t, c.since(t, now()).None())
}

// A transaction that began before a read and commits after it is reported
// to that read's next poll, though its id is older than the read's.
func TestAWriteCommittedAfterTheReadIsNotMissed(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	tx, err := c.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, `UPDATE function_results SET overall_comments = 'late' WHERE id = $1`, c.result)
	require.NoError(t, err)

	v, err := changes.Now(ctx, c.pool) // the write above is in progress
	require.NoError(t, err)
	_, err = c.pool.Exec(ctx, `UPDATE submissions SET name = 'Ada L.' WHERE id = $1`, c.sub) // a later transaction, committed
	require.NoError(t, err)
	require.Equal(t, changes.Set{Submissions: []uuid.UUID{c.sub}}, c.since(t, v))

	require.NoError(t, tx.Commit(ctx))
	require.Equal(t, changes.Set{Submissions: []uuid.UUID{c.sub}, Results: []uuid.UUID{c.result}}, c.since(t, v))
}

func TestVersionRoundTripsAndRefusesJunk(t *testing.T) {
	v := changes.Version{Snapshot: "730:735:731,733", At: time.Unix(1_790_000_000, 0)}
	for _, s := range []string{v.String(), v.ETag(), "W/" + v.ETag()} {
		got, err := changes.Parse(s)
		require.NoError(t, err, s)
		require.Equal(t, v, got)
	}
	for _, s := range []string{"", `""`, "730:735:", "1790000000-730:735:x", "x-730:735:", "0-730:735:", "1790000000-'; DROP TABLE x;--",
		// the syntax of a snapshot, but none PostgreSQL reads
		"1790000000-5:3:", "1790000000-3:9:2", "1790000000-3:9:5,4", "1790000000-3:9:9", "1790000000-4294967296:4294967297:"} {
		_, err := changes.Parse(s)
		require.ErrorIs(t, err, changes.ErrBadVersion, s)
	}
	require.True(t, v.Usable(v.At.Add(changes.MaxAge)))
	require.False(t, v.Usable(v.At.Add(changes.MaxAge+time.Second)), "too old: the whole answer again")
	require.False(t, v.Usable(v.At.Add(-2*time.Minute)), "from the future")
}

func TestPruneForgetsOldTombstones(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Isolated(t)) // Prune sees every tombstone
	c.exec(t, `DELETE FROM submissions WHERE id = $1`, c.otherSub)
	n, err := changes.Prune(ctx, c.pool, time.Now())
	require.NoError(t, err)
	require.Zero(t, n, "a fresh tombstone is kept")
	n, err = changes.Prune(ctx, c.pool, time.Now().Add(changes.TombstoneAge+time.Minute))
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
}

// The library rubric a definition embeds (and scores with) is part of the
// definition: editing it moves the class's version.
func TestEditingTheEmbeddedRubricChangesTheDefinition(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	var rub uuid.UUID
	require.NoError(t, c.pool.QueryRow(ctx, `INSERT INTO rubrics (team_id, name) VALUES ($1, 'Essay') RETURNING id`, c.team).Scan(&rub))
	c.exec(t, `UPDATE functions SET rubric_id = $2 WHERE id = $1`, c.fn, rub)
	c.exec(t, `UPDATE rubrics SET updated_at = now() - interval '2 minutes' WHERE id = $1`, rub) // edited a while ago
	v, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)
	require.True(t, c.since(t, v).None(), "a rubric edited before the version")

	c.exec(t, `UPDATE rubrics SET name = 'Essay 2', updated_at = now() WHERE id = $1`, rub)
	require.True(t, c.since(t, v).Definition)
}

// Start answers a poll's questions in one statement: the read's version,
// whether the assignment is the team's, the team's result of a submission,
// and what changed since the client's version; another team learns nothing.
func TestStartAnswersAPollInOneGo(t *testing.T) {
	ctx := context.Background()
	c := newClass(t, testdb.Pool(t))
	v, err := changes.Now(ctx, c.pool)
	require.NoError(t, err)

	r, err := changes.Start(ctx, c.pool, c.team, c.asg, c.sub, v)
	require.NoError(t, err)
	require.True(t, r.InTeam)
	require.Equal(t, c.result, r.ResultID)
	require.Equal(t, v, r.Since)
	require.True(t, r.Changes.None())
	require.NotEmpty(t, r.Now.Snapshot)

	c.exec(t, `UPDATE function_results SET overall_comments = 'Good' WHERE id = $1`, c.result)
	r, err = changes.Start(ctx, c.pool, c.team, c.asg, uuid.Nil, v)
	require.NoError(t, err)
	require.Equal(t, uuid.Nil, r.ResultID, "no submission asked about")
	require.Equal(t, changes.Set{Results: []uuid.UUID{c.result}}, r.Changes)
	require.True(t, c.since(t, r.Now).None(), "the read's own version has seen the write")

	var stranger uuid.UUID
	require.NoError(t, c.pool.QueryRow(ctx, `INSERT INTO teams (name) VALUES ('Stranger') RETURNING id`).Scan(&stranger))
	r, err = changes.Start(ctx, c.pool, stranger, c.asg, c.sub, v)
	require.NoError(t, err)
	require.Equal(t, changes.Read{Now: r.Now}, r, "another team's assignment: not in the team, nothing listed")

	// Without a version: the read's version and the team's result only.
	r, err = changes.Start(ctx, c.pool, c.team, c.asg, c.sub, changes.Pick(time.Now(), "", "junk"))
	require.NoError(t, err)
	require.True(t, r.InTeam)
	require.Equal(t, c.result, r.ResultID)
	require.Equal(t, changes.Version{}, r.Since)
	r, err = changes.Start(ctx, c.pool, stranger, c.asg, uuid.Nil, changes.Version{})
	require.NoError(t, err)
	require.False(t, r.InTeam)
}
