package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/assist"
)

type assistHandlers struct {
	svc *assist.Service
}

func (h *assistHandlers) register(g *gin.RouterGroup) {
	g.POST("/ai-assist/suggest-criteria", h.suggestCriteria)
	g.POST("/ai-assist/suggest-questions", h.suggestQuestions)
}

func (h *assistHandlers) suggestCriteria(c *gin.Context) {
	var in struct {
		Question string `json:"question"`
		Context  string `json:"context"`
	}
	if !bind(c, &in) {
		return
	}
	criteria, err := h.svc.SuggestCriteria(c, in.Question, in.Context)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"criteria": criteria})
}

func (h *assistHandlers) suggestQuestions(c *gin.Context) {
	var in struct {
		AssignmentText string `json:"assignmentText"`
	}
	if !bind(c, &in) {
		return
	}
	qs, err := h.svc.SuggestQuestions(c, in.AssignmentText)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"questionsAndCrits": qs})
}
