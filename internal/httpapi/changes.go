package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/result"
)

// polledReads are the routes that only read a class: everything else on
// the API may write to one.
var polledReads = map[string]bool{
	"/api/v1/db/assignment/get":               true,
	"/api/v1/db/assignment/submission-rows":   true,
	"/api/v1/db/functionResult/get":           true,
	"/api/v1/db/functionResult/get-view-only": true,
}

// noteWrites tells the change listener (changes.Clock) when a request that
// may have written has finished, so that a poll that follows it (the
// teacher's own save, then the page's poll) is never answered from memory
// before the write's announcement has arrived.
func noteWrites(results *result.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		if results == nil || results.Changes == nil || c.Request.Method == http.MethodGet || polledReads[c.FullPath()] {
			return
		}
		results.Changes.Wrote()
	}
}
