package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/changes"
)

// polled is the answer of a read the UI polls: its data, or a 304 when the
// client's version is still current.
type polled struct {
	version     changes.Version
	notModified bool
	data        any
	// body, when set, is the whole answer ({"data": ...}) encoded already,
	// sent instead of data.
	body []byte
}

// respondPolled answers a polled read with its version as the ETag. The
// answer may be kept by the browser but must be revalidated (private,
// no-cache): the UI sends the ETag back and gets a 304 for free.
func respondPolled(c *gin.Context, p polled) {
	if p.version.Snapshot != "" {
		c.Header("ETag", p.version.ETag())
	}
	c.Header("Cache-Control", "private, no-cache")
	if p.notModified {
		c.Status(http.StatusNotModified)
		return
	}
	if p.body != nil {
		writeJSON(c, http.StatusOK, p.body)
		return
	}
	ok(c, p.data)
}
