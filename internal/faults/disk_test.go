//go:build faults

package faults_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/blob"
	"github.com/markwell/markwell/internal/testdb"
)

// The local blob store's disk is full (a 2 MB tmpfs, filled up): an upload
// fails with a message the teacher can act on, leaves no file, no partial
// file and no submission behind, and once space is freed the same file
// uploads and is read like any other.
func TestFault_BlobDiskFull(t *testing.T) {
	parallel(t)
	dir := smallDisk(t)
	s := newStack(t, testdb.Isolated(t), dir)
	s.startModel()
	s.startAPI()
	s.signIn()
	s.startWorker()
	asg, _ := s.class(1)

	// A file that fits is stored and becomes a submission.
	ok := s.upload(asg, "first.txt", []byte("Chlorophyll traps light; the plant makes glucose sugar."))
	require.Equal(t, http.StatusOK, ok.put, "%s", ok.body)
	status, out := s.addSubmission(asg, "first.txt", ok.fileURL)
	require.Equal(t, http.StatusOK, status, "%v", out)

	// Fill the disk, then upload 256 KB.
	fill(t, filepath.Join(dir, "filler"))
	essay := bytes.Repeat([]byte("The water cycle never ends. "), 256<<10/28)
	began := time.Now()
	full := s.upload(asg, "essay.txt", essay)
	require.Equal(t, http.StatusInsufficientStorage, full.put, "a full disk answers 507: %s", full.body)
	require.Contains(t, full.body, blob.MsgStorageFull, "the message the upload dialog shows")
	figure(t, "disk full: upload refused in", time.Since(began))

	// Nothing half-written: no temporary file, no stored file or metadata.
	tmp, err := os.ReadDir(filepath.Join(dir, "tmp"))
	require.NoError(t, err)
	require.Empty(t, tmp, "no partial upload is left in tmp/")
	for _, sub := range []string{"data", "meta"} {
		matches, _ := filepath.Glob(filepath.Join(dir, sub, "assignments", asg.String(), "submissions", "*essay.txt*"))
		require.Empty(t, matches, "nothing of the failed upload under %s/", sub)
	}
	// The browser would not send it on, but if it did: refused, no row.
	status, out = s.addSubmission(asg, "essay.txt", full.fileURL)
	require.Equal(t, http.StatusBadRequest, status, "%v", out)
	require.Equal(t, "essay.txt has not finished uploading. Please upload it again.", out["error"].(map[string]any)["message"])
	require.Equal(t, 2, s.submissionCount(asg), "no submission row for the failed upload")

	// Space is freed: the same upload now works.
	require.NoError(t, os.Remove(filepath.Join(dir, "filler")))
	again := s.upload(asg, "essay.txt", essay)
	require.Equal(t, http.StatusOK, again.put, "%s", again.body)
	status, out = s.addSubmission(asg, "essay.txt", again.fileURL)
	require.Equal(t, http.StatusOK, status, "%v", out)

	// Every submission ends read, once; no extraction job is left over.
	deadline := time.Now().Add(time.Minute)
	for {
		var ready, total, writes, open int
		require.NoError(t, s.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE extract_status = 'ready'), count(*),
			count(*) FILTER (WHERE extract_writes = 1 OR file_key = ''),
			(SELECT count(*) FROM river_job WHERE state NOT IN ('completed', 'cancelled', 'discarded') AND kind <> 'sweep_runs')
			FROM submissions WHERE assignment_id = $1`, asg).Scan(&ready, &total, &writes, &open))
		if ready == total && open == 0 {
			require.Equal(t, 3, total)
			require.Equal(t, total, writes, "each file's text written exactly once")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d submissions read; %d jobs open", ready, total, open)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// smallDisk mounts a 2 MB tmpfs for the blob store, or skips the test where
// mounting is not allowed (not root).
func smallDisk(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "markwell-faults-blobs-")
	require.NoError(t, err)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		_ = os.Remove(dir)
		t.Skipf("cannot mount a small tmpfs for the blob store (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Logf("umount %s: %v: %s", dir, err, out)
			return
		}
		_ = os.Remove(dir)
	})
	return dir
}

// fill writes to name until the disk is full.
func fill(t *testing.T, name string) {
	t.Helper()
	f, err := os.Create(name)
	require.NoError(t, err)
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "filling the disk: %v", err)
			return
		}
	}
}

type uploaded struct {
	fileURL string
	put     int
	body    string
}

// upload does what the upload dialog does: asks the API for a signed URL,
// then PUTs the bytes to it.
func (s *stack) upload(asg fmt.Stringer, name string, data []byte) uploaded {
	t := s.t
	t.Helper()
	status, out := s.teacher.do(t, "POST", "/api/v1/s3-upload", map[string]any{
		"fileName": "assignments/" + asg.String() + "/submissions/" + name, "fileType": "text/plain", "fileSize": len(data)})
	require.Equal(t, http.StatusOK, status, "%v", out)
	d := out["data"].(map[string]any)
	req, err := http.NewRequest("PUT", d["signedUrl"].(string), bytes.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "text/plain")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	return uploaded{fileURL: d["fileUrl"].(string), put: res.StatusCode, body: readAll(res)}
}

func readAll(res *http.Response) string {
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(res.Body)
	return buf.String()
}

// addSubmission names an uploaded file as a submission, as the dialog does
// when its uploads are done.
func (s *stack) addSubmission(asg fmt.Stringer, name, fileURL string) (int, map[string]any) {
	s.t.Helper()
	return s.teacher.do(s.t, "POST", "/api/v1/db/assignment/update-submissions", map[string]any{
		"assignmentId": asg.String(), "submissions": []map[string]any{{"name": name, "location": fileURL}}})
}

func (s *stack) submissionCount(asg fmt.Stringer) int {
	s.t.Helper()
	var n int
	require.NoError(s.t, s.pool.QueryRow(context.Background(), `SELECT count(*) FROM submissions WHERE assignment_id = $1`, asg.String()).Scan(&n))
	return n
}
