package queue

import (
	"time"

	"github.com/riverqueue/river"
)

// PurgeLinkUploadsArgs asks for the files students uploaded through a link
// but never submitted to be deleted once they are files.UnsubmittedUploadAge
// old: no teacher sees them, so nothing else would ever remove them. It
// runs every PurgeLinkUploadsEvery on whichever worker process leads.
type PurgeLinkUploadsArgs struct{}

// Kind implements river.JobArgs.
func (PurgeLinkUploadsArgs) Kind() string { return "purge_link_uploads" }

// InsertOpts keeps one purge at a time.
func (PurgeLinkUploadsArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: QueueDefault, MaxAttempts: 3, UniqueOpts: river.UniqueOpts{ByPeriod: PurgeLinkUploadsEvery}}
}

// PurgeLinkUploadsEvery is how often the purge runs.
const PurgeLinkUploadsEvery = time.Hour
