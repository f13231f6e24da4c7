package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/library"
)

type shareHandlers struct {
	svc *library.Service
}

func (h *shareHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/share/assignment", handle(h.shareAssignment))
	g.POST("/db/share/rubric", handle(h.shareRubric))
	g.GET("/db/notification/list", handle(h.list))
	g.POST("/db/notification/copySharedAssignment", handle(h.copyAssignment))
	g.POST("/db/notification/copySharedRubric", handle(h.copyRubric))
	g.POST("/db/notification/dismiss", handle(h.dismiss))
}

type shareAssignmentBody struct {
	assignmentRef
	Email string `json:"email"`
}

func (h *shareHandlers) shareAssignment(c *gin.Context, a identity.Actor, in *shareAssignmentBody) (gin.H, error) {
	to, err := h.svc.ShareAssignment(c, a, in.AssignmentID.UUID(), in.Email)
	return gin.H{"sharedWith": to}, err
}

type shareRubricBody struct {
	rubricRef
	Email string `json:"email"`
}

func (h *shareHandlers) shareRubric(c *gin.Context, a identity.Actor, in *shareRubricBody) (gin.H, error) {
	to, err := h.svc.ShareRubric(c, a, in.RubricID.UUID(), in.Email)
	return gin.H{"sharedWith": to}, err
}

func (h *shareHandlers) list(c *gin.Context, a identity.Actor, _ *struct{}) (gin.H, error) {
	n, err := h.svc.Notifications(c, a)
	return gin.H{"notifications": n}, err
}

// notificationBody is what the copy and dismiss calls send; status is the
// spec's 'closed', which is where copying always leaves a notification.
type notificationBody struct {
	NotificationID id     `json:"notificationId"`
	Status         string `json:"status"`
}

func (h *shareHandlers) copyAssignment(c *gin.Context, a identity.Actor, in *notificationBody) (gin.H, error) {
	asg, err := h.svc.CopySharedAssignment(c, a, in.NotificationID.UUID())
	return gin.H{"assignment": asg}, err
}

func (h *shareHandlers) copyRubric(c *gin.Context, a identity.Actor, in *notificationBody) (gin.H, error) {
	r, err := h.svc.CopySharedRubric(c, a, in.NotificationID.UUID())
	return gin.H{"rubric": r}, err
}

func (h *shareHandlers) dismiss(c *gin.Context, a identity.Actor, in *notificationBody) (gin.H, error) {
	return success(h.svc.Dismiss(c, a, in.NotificationID.UUID()))
}
