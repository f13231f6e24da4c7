package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assist"
	"github.com/markwell/markwell/internal/team"
)

type assistHandlers struct {
	svc *assist.Service
}

func (h *assistHandlers) register(g *gin.RouterGroup) {
	g.POST("/ai-assist/suggest-criteria", handle(h.suggestCriteria))
	g.POST("/ai-assist/suggest-questions", handle(h.suggestQuestions))
}

type suggestCriteriaBody struct {
	Question string `json:"question"`
	Context  string `json:"context"`
}

func (h *assistHandlers) suggestCriteria(c *gin.Context, _ team.Actor, in *suggestCriteriaBody) (gin.H, error) {
	criteria, err := h.svc.SuggestCriteria(c, in.Question, in.Context)
	return gin.H{"criteria": criteria}, err
}

type suggestQuestionsBody struct {
	AssignmentText string `json:"assignmentText"`
}

func (h *assistHandlers) suggestQuestions(c *gin.Context, _ team.Actor, in *suggestQuestionsBody) (gin.H, error) {
	qs, err := h.svc.SuggestQuestions(c, in.AssignmentText)
	return gin.H{"questionsAndCrits": qs}, err
}
