package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/library"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/rubric"
	"github.com/markwell/markwell/internal/team"
)

// Services are the domain services behind the signed-in routes.
type Services struct {
	Team *team.Service
	// Library is the team library: folders, deletes, duplicates, sharing.
	Library *library.Service
	// Rubrics, Assignments (with their functions) and Assist (AI help in
	// the wizard) are the authoring services.
	Rubrics     *rubric.Service
	Assignments *assignment.Service
	Assist      *assist.Service
	// AIBudget caps AI calls per teacher and per team; nil means no cap.
	AIBudget *ratelimit.AIBudget
}

// signedInRoutes registers every /api/v1 route that needs a signed-in
// teacher; g already requires a session and a CSRF token on writes.
func signedInRoutes(g *gin.RouterGroup, s Services) {
	(&teamHandlers{svc: s.Team}).register(g)
	(&libraryHandlers{svc: s.Library}).register(g)
	(&shareHandlers{svc: s.Library}).register(g)
	(&rubricHandlers{svc: s.Rubrics}).register(g)
	(&assignmentHandlers{svc: s.Assignments}).register(g)
	(&assistHandlers{svc: s.Assist, budget: s.AIBudget}).register(g)
}
