package queue

import (
	"github.com/riverqueue/river"
)

// DeleteBlobsArgs asks for stored files to be removed: the files under
// Keys, and every file under Prefix (a folder such as "assignments/{id}/")
// when it is set. The API inserts it in the transaction that deletes the
// rows naming the files, so the files go even if the API dies right after.
type DeleteBlobsArgs struct {
	Keys   []string `json:"keys,omitempty"`
	Prefix string   `json:"prefix,omitempty"`
	// Prefixes are more folders to empty (a deleted submission's page
	// images and crops).
	Prefixes []string `json:"prefixes,omitempty"`
}

// Kind implements river.JobArgs.
func (DeleteBlobsArgs) Kind() string { return "delete_blobs" }

// InsertOpts puts the job on the default queue; a store that is down is
// retried with River's backoff.
func (DeleteBlobsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 10}
}
