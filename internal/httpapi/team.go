package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/team"
)

type teamHandlers struct {
	svc *team.Service
	// forgetSessions drops the API's remembered sessions after a team
	// change, so the people moved act in their new team at once.
	forgetSessions func()
}

func (h *teamHandlers) register(g *gin.RouterGroup) {
	g.GET("/db/user/get", handle(h.user))
	g.GET("/db/team/members", handle(h.members))
	g.POST("/db/team/invite", handle(h.invite))
	g.POST("/db/team/invite-link", handle(h.inviteLink))
	g.POST("/db/team/cancel-invite", handle(h.cancelInvite))
	g.POST("/db/team/remove-member", handle(h.removeMember))
	g.POST("/db/team/leave", handle(h.leave))
	g.POST("/db/team/accept-invite", handle(h.acceptInvite))
}

func (h *teamHandlers) user(c *gin.Context, a identity.Actor, _ *struct{}) (gin.H, error) {
	u, err := h.svc.User(c, a)
	return gin.H{"user": u}, err
}

func (h *teamHandlers) members(c *gin.Context, a identity.Actor, _ *struct{}) (team.Roster, error) {
	return h.svc.Roster(c, a)
}

type inviteBody struct {
	teamScope
	Email string `json:"email"`
}

func (h *teamHandlers) invite(c *gin.Context, a identity.Actor, in *inviteBody) (gin.H, error) {
	inv, err := h.svc.Invite(c, a, in.Email)
	return gin.H{"invite": inv}, err
}

func (h *teamHandlers) inviteLink(c *gin.Context, a identity.Actor, _ *teamScope) (gin.H, error) {
	inv, err := h.svc.CreateLink(c, a)
	return gin.H{"invite": inv}, err
}

type cancelInviteBody struct {
	teamScope
	InviteID id `json:"inviteId"`
}

func (h *teamHandlers) cancelInvite(c *gin.Context, a identity.Actor, in *cancelInviteBody) (gin.H, error) {
	return success(h.svc.CancelInvite(c, a, in.InviteID.UUID()))
}

type removeMemberBody struct {
	teamScope
	UserID id `json:"userId"`
}

func (h *teamHandlers) removeMember(c *gin.Context, a identity.Actor, in *removeMemberBody) (gin.H, error) {
	defer h.forgetSessions()
	return success(h.svc.RemoveMember(c, a, in.UserID.UUID()))
}

func (h *teamHandlers) leave(c *gin.Context, a identity.Actor, _ *teamScope) (gin.H, error) {
	defer h.forgetSessions()
	t, err := h.svc.Leave(c, a)
	return gin.H{"team": t}, err
}

type acceptInviteBody struct {
	Token string `json:"token"`
}

func (h *teamHandlers) acceptInvite(c *gin.Context, a identity.Actor, in *acceptInviteBody) (gin.H, error) {
	defer h.forgetSessions()
	t, err := h.svc.AcceptInvite(c, a, in.Token)
	return gin.H{"team": t}, err
}
