package httpapi

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/apperr"
)

// The answers once written by hand (a panic, the 404 of unknown API paths
// and operator pages, the CSRF refusal) go through the one error writer,
// byte for byte as before.
func TestErrorAnswersKeepTheirBytes(t *testing.T) {
	t.Parallel()
	r := gin.New()
	r.Use(recoverer())
	r.GET("/panic", func(*gin.Context) { panic("boom") })
	r.GET("/missing", notFound)
	r.POST("/csrf", func(c *gin.Context) {
		failWith(c, apperr.New(apperr.Forbidden, "Invalid CSRF token"),
			gin.H{"url": "http://localhost:8080/signin?csrf=true", "error": "not this"})
	})
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/panic", 500, `{"error":{"code":"internal","message":"Something went wrong. Please try again."}}`},
		{"GET", "/missing", 404, `{"error":{"code":"not_found","message":"Not found"}}`},
		{"POST", "/csrf", 403, `{"error":{"code":"forbidden","message":"Invalid CSRF token"},"url":"http://localhost:8080/signin?csrf=true"}`},
	} {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
		require.Equal(t, tc.status, w.Code, tc.path)
		require.Equal(t, "application/json; charset=utf-8", w.Header().Get("Content-Type"), tc.path)
		require.Equal(t, tc.body, w.Body.String(), tc.path)
	}
}
