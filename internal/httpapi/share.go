package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/library"
)

type shareHandlers struct {
	svc *library.Service
}

func (h *shareHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/share/assignment", h.shareAssignment)
	g.POST("/db/share/rubric", h.shareRubric)
	g.GET("/db/notification/list", h.list)
	g.POST("/db/notification/copySharedAssignment", h.copyAssignment)
	g.POST("/db/notification/copySharedRubric", h.copyRubric)
	g.POST("/db/notification/dismiss", h.dismiss)
}

func (h *shareHandlers) shareAssignment(c *gin.Context) {
	var in struct {
		AssignmentID string `json:"assignmentId"`
		Email        string `json:"email"`
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	if err != nil {
		fail(c, err)
		return
	}
	to, err := h.svc.ShareAssignment(c, actor(c), id, in.Email)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"sharedWith": to})
}

func (h *shareHandlers) shareRubric(c *gin.Context) {
	var in struct {
		RubricID string `json:"rubricId"`
		Email    string `json:"email"`
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.RubricID)
	if err != nil {
		fail(c, err)
		return
	}
	to, err := h.svc.ShareRubric(c, actor(c), id, in.Email)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"sharedWith": to})
}

func (h *shareHandlers) list(c *gin.Context) {
	n, err := h.svc.Notifications(c, actor(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"notifications": n})
}

// notificationBody is what the copy and dismiss calls send; status is the
// spec's 'closed', which is where copying always leaves a notification.
type notificationBody struct {
	NotificationID string `json:"notificationId"`
	Status         string `json:"status"`
}

func (h *shareHandlers) copyAssignment(c *gin.Context) {
	var in notificationBody
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.NotificationID)
	if err != nil {
		fail(c, err)
		return
	}
	asg, err := h.svc.CopySharedAssignment(c, actor(c), id)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}

func (h *shareHandlers) copyRubric(c *gin.Context) {
	var in notificationBody
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.NotificationID)
	if err != nil {
		fail(c, err)
		return
	}
	r, err := h.svc.CopySharedRubric(c, actor(c), id)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"rubric": r})
}

func (h *shareHandlers) dismiss(c *gin.Context) {
	var in notificationBody
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.NotificationID)
	if err == nil {
		err = h.svc.Dismiss(c, actor(c), id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"success": true})
}
