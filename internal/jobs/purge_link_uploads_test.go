package jobs_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/files"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/testdb"
)

// purgeBundle is a database of its own (the purge looks at every link
// upload), a local store, and an assignment whose link signs uploads.
type purgeBundle struct {
	pool      *pgxpool.Pool
	blobs     *blob.Local
	files     *files.Service
	team, asg uuid.UUID
	worker    *rivertest.Worker[queue.PurgeLinkUploadsArgs, pgx.Tx]
}

func setupPurge(t *testing.T) *purgeBundle {
	t.Helper()
	ctx := context.Background()
	pool := testdb.Isolated(t)
	blobs, err := blob.NewLocal(blob.Config{Dir: t.TempDir(), PublicURL: "http://markwell.test", Secret: bytes.Repeat([]byte("k"), 32)})
	require.NoError(t, err)
	b := &purgeBundle{pool: pool, blobs: blobs, files: &files.Service{Blob: blobs, TTL: time.Minute, Pool: pool}}
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO teams (name) VALUES ('Purge') RETURNING id`).Scan(&b.team))
	require.NoError(t, pool.QueryRow(ctx, `INSERT INTO assignments (team_id, name, type) VALUES ($1, 'Essay', 'feedback') RETURNING id`,
		b.team).Scan(&b.asg))
	b.worker = rivertest.NewWorker(t, riverpgxv5.New(pool), &river.Config{}, jobs.NewPurgeLinkUploadsWorker(jobs.Deps{Pool: pool, Blob: blobs}))
	return b
}

// linkUpload signs an upload through the assignment's link from addr,
// stores its bytes as the browser would, and makes it look made ago.
func (b *purgeBundle) linkUpload(t *testing.T, name, addr string, ago time.Duration) string {
	t.Helper()
	ctx := context.Background()
	body := "essay " + name
	size := int64(len(body))
	up, err := b.files.PresignStudentUpload(ctx, files.LinkUpload{Team: b.team, Assignment: b.asg, Generation: 1, Addr: addr},
		files.UploadRequest{FileName: name, FileType: "text/plain", FileSize: &size})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(ctx, up.Key, strings.NewReader(body), size, "text/plain"))
	_, err = b.pool.Exec(ctx, `UPDATE link_uploads SET created_at = now() - make_interval(secs => $2) WHERE key = $1`, up.Key, ago.Seconds())
	require.NoError(t, err)
	_, err = b.pool.Exec(ctx, `UPDATE blob_uploads SET created_at = now() - make_interval(secs => $2) WHERE key = $1`, up.Key, ago.Seconds())
	require.NoError(t, err)
	return up.Key
}

// submit makes a submission of key, as the student's submit does.
func (b *purgeBundle) submit(t *testing.T, key string) {
	t.Helper()
	_, err := b.pool.Exec(context.Background(), `INSERT INTO submissions (team_id, assignment_id, name, file_key, content_type, role, source)
		VALUES ($1, $2, 'essay.txt', $3, 'text/plain', 'student', 'student')`, b.team, b.asg, key)
	require.NoError(t, err)
}

// uploadState is what is left of an upload: its file, its records and the
// address its link record keeps.
type uploadState struct {
	File, Upload, Link bool
	Addr               string
}

func (b *purgeBundle) state(t *testing.T, key string) uploadState {
	t.Helper()
	ctx := context.Background()
	var s uploadState
	_, err := b.blobs.Stat(ctx, key)
	if err == nil {
		s.File = true
	} else {
		require.ErrorIs(t, err, blob.ErrNotFound)
	}
	require.NoError(t, b.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM blob_uploads WHERE key = $1)`, key).Scan(&s.Upload))
	err = b.pool.QueryRow(ctx, `SELECT addr FROM link_uploads WHERE key = $1`, key).Scan(&s.Addr)
	if err == nil {
		s.Link = true
	} else {
		require.ErrorIs(t, err, pgx.ErrNoRows)
	}
	return s
}

func (b *purgeBundle) purge(t *testing.T) {
	t.Helper()
	tx, err := b.pool.Begin(context.Background())
	require.NoError(t, err)
	defer tx.Rollback(context.Background()) //nolint:errcheck // nothing is written through tx
	res, err := b.worker.Work(context.Background(), t, tx, queue.PurgeLinkUploadsArgs{}, nil)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
}

func TestPurgeDeletesDayOldUnsubmittedLinkUploads(t *testing.T) {
	t.Parallel()
	b := setupPurge(t)
	ctx := context.Background()
	day := files.UnsubmittedUploadAge

	abandoned := b.linkUpload(t, "abandoned.txt", "10.0.0.1", day+time.Hour)
	neverSent := b.linkUpload(t, "never-sent.txt", "10.0.0.2", day+time.Hour)
	require.NoError(t, b.blobs.Delete(ctx, neverSent)) // signed, never PUT
	submitted := b.linkUpload(t, "submitted.txt", "10.0.0.3", day+time.Hour)
	b.submit(t, submitted)
	fresh := b.linkUpload(t, "fresh.txt", "10.0.0.4", day-time.Hour)

	// A teacher's own upload is not a link upload: the purge leaves it alone.
	size := int64(5)
	teacher, err := b.files.PresignUpload(ctx, files.Teacher, b.team, files.UploadRequest{
		FileName: "assignments/" + b.asg.String() + "/submissions/mine.txt", FileType: "text/plain", FileSize: &size,
	})
	require.NoError(t, err)
	require.NoError(t, b.blobs.Put(ctx, teacher.Key, strings.NewReader("mine!"), size, "text/plain"))
	_, err = b.pool.Exec(ctx, `UPDATE blob_uploads SET created_at = now() - interval '3 days' WHERE key = $1`, teacher.Key)
	require.NoError(t, err)

	b.purge(t)

	require.Equal(t, uploadState{}, b.state(t, abandoned), "a day-old upload nobody submitted goes, file and records")
	require.Equal(t, uploadState{}, b.state(t, neverSent))
	require.Equal(t, uploadState{File: true, Upload: true, Link: true, Addr: ""}, b.state(t, submitted),
		"a submitted upload stays; a day on, its address is forgotten")
	require.Equal(t, uploadState{File: true, Upload: true, Link: true, Addr: "10.0.0.4"}, b.state(t, fresh), "a fresh upload stays")
	_, err = b.blobs.Stat(ctx, teacher.Key)
	require.NoError(t, err, "a teacher's upload stays")
	rows, err := store.Q.FilesUploads(ctx, b.pool, []string{teacher.Key})
	require.NoError(t, err)
	require.Len(t, rows, 1)

	// A second run finds nothing more to do.
	b.purge(t)
	require.Equal(t, uploadState{File: true, Upload: true, Link: true, Addr: "10.0.0.4"}, b.state(t, fresh))
	require.True(t, b.state(t, submitted).File)
}

func TestPurgeSkipsAnUploadBeingSubmitted(t *testing.T) {
	t.Parallel()
	b := setupPurge(t)
	ctx := context.Background()
	old := b.linkUpload(t, "late.txt", "10.0.0.1", files.UnsubmittedUploadAge+time.Hour)

	// A student's submission holds the upload's record (LockStudentUpload) while it decides.
	tx, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck // rolled back on purpose below
	_, err = store.Q.LockStudentUpload(ctx, tx, store.LockStudentUploadParams{Key: old, AssignmentID: uuid.NullUUID{UUID: b.asg, Valid: true}})
	require.NoError(t, err)

	n, err := jobs.PurgeLinkUploads(ctx, jobs.Deps{Pool: b.pool, Blob: b.blobs}, time.Now().Add(-files.UnsubmittedUploadAge))
	require.NoError(t, err)
	require.Zero(t, n, "the purge does not wait for, or take, a file being submitted")
	require.True(t, b.state(t, old).File)

	// The submission gave up: the next run deletes the file.
	require.NoError(t, tx.Rollback(ctx))
	n, err = jobs.PurgeLinkUploads(ctx, jobs.Deps{Pool: b.pool, Blob: b.blobs}, time.Now().Add(-files.UnsubmittedUploadAge))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, uploadState{}, b.state(t, old))
}
