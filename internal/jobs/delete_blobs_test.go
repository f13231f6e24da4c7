package jobs_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertest"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/jobs"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/testdb"
)

// deleteBundle is a local blob store holding a few files, and a test worker
// of delete_blobs jobs over it.
type deleteBundle struct {
	blobs  *blob.Local
	worker *rivertest.Worker[queue.DeleteBlobsArgs, pgx.Tx]
	tx     pgx.Tx
}

func setupDelete(t *testing.T, deps jobs.Deps) *deleteBundle {
	t.Helper()
	blobs, err := blob.NewLocal(blob.Config{Dir: t.TempDir(), PublicURL: "http://markwell.test", Secret: bytes.Repeat([]byte("k"), 32)})
	require.NoError(t, err)
	if deps.Blob == nil {
		deps.Blob = blobs
	}
	pool := testdb.Pool(t)
	tx, err := pool.Begin(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	return &deleteBundle{
		blobs:  blobs,
		worker: rivertest.NewWorker(t, riverpgxv5.New(pool), &river.Config{}, jobs.NewDeleteBlobsWorker(deps)),
		tx:     tx,
	}
}

func (b *deleteBundle) put(t *testing.T, key string) {
	t.Helper()
	require.NoError(t, b.blobs.Put(context.Background(), key, strings.NewReader("essay"), 5, "text/plain"))
}

func (b *deleteBundle) exists(t *testing.T, key string) bool {
	t.Helper()
	_, err := b.blobs.Stat(context.Background(), key)
	if err == nil {
		return true
	}
	require.ErrorIs(t, err, blob.ErrNotFound)
	return false
}

func TestDeleteBlobsDeletesKeysAndFolders(t *testing.T) {
	t.Parallel()
	b := setupDelete(t, jobs.Deps{})
	const gone, kept = "assignments/0b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/", "assignments/1b6f4c2e-5d7a-4c4b-9a34-2f0e1d9c8b7a/"
	folder := []string{gone + "submissions/aaaaaaaaaaaaaaaa-one.txt", gone + "submissions/student/bbbbbbbbbbbbbbbb-two.txt"}
	one, two, stay := kept+"submissions/cccccccccccccccc-a.txt", kept+"submissions/dddddddddddddddd-b.txt", kept+"submissions/eeeeeeeeeeeeeeee-c.txt"
	for _, k := range append(folder, one, two, stay) {
		b.put(t, k)
	}

	res, err := b.worker.Work(context.Background(), t, b.tx, queue.DeleteBlobsArgs{
		Keys:   []string{one, two, kept + "submissions/ffffffffffffffff-never-there.txt"},
		Prefix: gone,
	}, nil)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind, "files already gone are not an error")
	for _, k := range append(folder, one, two) {
		require.False(t, b.exists(t, k), k)
	}
	require.True(t, b.exists(t, stay), "files not named stay")

	// Run again (a retry after a partial run): nothing left to do, still fine.
	res, err = b.worker.Work(context.Background(), t, b.tx, queue.DeleteBlobsArgs{Keys: []string{one}, Prefix: gone}, nil)
	require.NoError(t, err)
	require.Equal(t, river.EventKindJobCompleted, res.EventKind)
}

func TestDeleteBlobsRetriesWhatItCouldNotDelete(t *testing.T) {
	t.Parallel()
	b := setupDelete(t, jobs.Deps{})
	// A folder one level deep would empty a whole root: the store refuses it,
	// and the job fails (to be retried or seen by an operator) rather than
	// reporting success.
	res, err := b.worker.Work(context.Background(), t, b.tx, queue.DeleteBlobsArgs{Prefix: "assignments/"}, nil)
	require.ErrorContains(t, err, "delete folder assignments/")
	require.Equal(t, river.EventKindJobFailed, res.EventKind)

	// A store that cannot delete fails the job the same way.
	r := setupDelete(t, jobs.Deps{Blob: readOnly{}})
	res, err = r.worker.Work(context.Background(), t, r.tx, queue.DeleteBlobsArgs{Keys: []string{"chats/x"}}, nil)
	require.ErrorContains(t, err, "cannot delete files")
	require.Equal(t, river.EventKindJobFailed, res.EventKind)
}

// readOnly is a BlobReader without deletion.
type readOnly struct{}

func (readOnly) Get(context.Context, string) (io.ReadCloser, error) { return nil, blob.ErrNotFound }
