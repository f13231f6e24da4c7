package httpapi

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/team"
)

type teamHandlers struct {
	svc *team.Service
}

func (h *teamHandlers) register(g *gin.RouterGroup) {
	g.GET("/db/user/get", h.user)
	g.GET("/db/team/members", h.members)
	g.POST("/db/team/invite", h.invite)
	g.POST("/db/team/cancel-invite", h.cancelInvite)
	g.POST("/db/team/remove-member", h.removeMember)
	g.POST("/db/team/leave", h.leave)
	g.POST("/db/team/accept-invite", h.acceptInvite)
}

// actor is the signed-in teacher; routes using it sit behind requireUser.
func actor(c *gin.Context) team.Actor {
	u, _ := currentUser(c)
	return team.Actor{UserID: u.ID, TeamID: u.TeamID, Name: u.Name, Email: u.Email}
}

// parseID reads an id from a request; a malformed id is simply not found.
func parseID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, apperr.ErrNotFound
	}
	return id, nil
}

// sameTeam checks the teamId a client sends against the session's team: the
// team always comes from the session, and a mismatch is not found.
func sameTeam(a team.Actor, teamID string) error {
	if teamID == "" {
		return nil
	}
	if id, err := uuid.Parse(teamID); err != nil || id != a.TeamID {
		return apperr.ErrNotFound
	}
	return nil
}

func (h *teamHandlers) user(c *gin.Context) {
	u, err := h.svc.User(c, actor(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"user": u})
}

func (h *teamHandlers) members(c *gin.Context) {
	r, err := h.svc.Roster(c, actor(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, r)
}

func (h *teamHandlers) invite(c *gin.Context) {
	var in struct {
		TeamID string `json:"teamId"`
		Email  string `json:"email"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	if err := sameTeam(a, in.TeamID); err != nil {
		fail(c, err)
		return
	}
	inv, err := h.svc.Invite(c, a, in.Email)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"invite": inv})
}

func (h *teamHandlers) cancelInvite(c *gin.Context) {
	var in struct {
		TeamID   string `json:"teamId"`
		InviteID string `json:"inviteId"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	id, err := parseID(in.InviteID)
	if err == nil {
		err = sameTeam(a, in.TeamID)
	}
	if err == nil {
		err = h.svc.CancelInvite(c, a, id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"success": true})
}

func (h *teamHandlers) removeMember(c *gin.Context) {
	var in struct {
		TeamID string `json:"teamId"`
		UserID string `json:"userId"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	id, err := parseID(in.UserID)
	if err == nil {
		err = sameTeam(a, in.TeamID)
	}
	if err == nil {
		err = h.svc.RemoveMember(c, a, id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"success": true})
}

func (h *teamHandlers) leave(c *gin.Context) {
	var in struct {
		TeamID string `json:"teamId"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	if err := sameTeam(a, in.TeamID); err != nil {
		fail(c, err)
		return
	}
	t, err := h.svc.Leave(c, a)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"team": t})
}

func (h *teamHandlers) acceptInvite(c *gin.Context) {
	var in struct {
		Token string `json:"token"`
	}
	if !bind(c, &in) {
		return
	}
	t, err := h.svc.AcceptInvite(c, actor(c), in.Token)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"team": t})
}
