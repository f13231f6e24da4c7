package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/rubric"
)

type assistHandlers struct {
	svc *assist.Service
	// rubrics saves the rubrics drafted from assignment sheets.
	rubrics *rubric.Service
	budget  *ratelimit.AIBudget
}

func (h *assistHandlers) register(g *gin.RouterGroup) {
	ai := g.Group("/ai-assist", spendAI(h.budget))
	ai.POST("/suggest-criteria", handle(h.suggestCriteria))
	ai.POST("/suggest-questions", handle(h.suggestQuestions))
	ai.POST("/rubric-from-sheet", handle(h.rubricFromSheet))
}

// spendAI counts each call against the teacher's and the team's AI budget,
// answering 429 with Retry-After past either (calls or tokens), and names
// them as the payer of the model calls the handler makes, so a model client
// from AIBudget.Meter counts the tokens they use.
func spendAI(budget *ratelimit.AIBudget) gin.HandlerFunc {
	return func(c *gin.Context) {
		a := actor(c)
		if err := budget.Spend(c, a.UserID, a.TeamID); err != nil {
			fail(c, err)
			return
		}
		c.Request = c.Request.WithContext(ratelimit.WithPayer(c.Request.Context(), a.UserID, a.TeamID))
		c.Next()
	}
}

type suggestCriteriaBody struct {
	Question string `json:"question"`
	Context  string `json:"context"`
}

func (h *assistHandlers) suggestCriteria(c *gin.Context, _ identity.Actor, in *suggestCriteriaBody) (gin.H, error) {
	criteria, err := h.svc.SuggestCriteria(c, in.Question, in.Context)
	return gin.H{"criteria": criteria}, err
}

type suggestQuestionsBody struct {
	AssignmentText string `json:"assignmentText"`
}

func (h *assistHandlers) suggestQuestions(c *gin.Context, _ identity.Actor, in *suggestQuestionsBody) (gin.H, error) {
	qs, err := h.svc.SuggestQuestions(c, in.AssignmentText)
	return gin.H{"questionsAndCrits": qs}, err
}

type rubricFromSheetBody struct {
	AssignmentText string `json:"assignmentText"`
}

// rubricFromSheet drafts a rubric from an assignment sheet and saves it in
// the actor's team library, as rubric/put does.
func (h *assistHandlers) rubricFromSheet(c *gin.Context, a identity.Actor, in *rubricFromSheetBody) (gin.H, error) {
	draft, err := h.svc.RubricFromSheet(c, in.AssignmentText)
	if err != nil {
		return nil, err
	}
	r, err := h.rubrics.Create(c, a, draft)
	return gin.H{"rubric": r}, err
}
