package httpapi

import (
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/library"
)

type libraryHandlers struct {
	svc *library.Service
}

func (h *libraryHandlers) register(g *gin.RouterGroup) {
	g.GET("/db/library/get", h.get)
	g.POST("/db/team/create-folder", h.createFolder)
	g.POST("/db/team/update-folders", h.updateFolders)
	g.POST("/db/team/delete-assignment", h.deleteAssignment)
	g.POST("/db/team/delete-rubric", h.deleteRubric)
	g.POST("/db/assignment/duplicate", h.duplicate)
}

func (h *libraryHandlers) get(c *gin.Context) {
	l, err := h.svc.Library(c, actor(c))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, l)
}

func (h *libraryHandlers) createFolder(c *gin.Context) {
	var in struct {
		TeamID     string `json:"teamId"`
		FolderName string `json:"folderName"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	if err := sameTeam(a, in.TeamID); err != nil {
		fail(c, err)
		return
	}
	f, err := h.svc.CreateFolder(c, a, in.FolderName)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"folder": f})
}

func (h *libraryHandlers) updateFolders(c *gin.Context) {
	var in struct {
		TeamID     string `json:"teamId"`
		NewFolders []struct {
			ID          string   `json:"_id"`
			Name        string   `json:"name"`
			Assignments []string `json:"assignments"`
		} `json:"newFolders"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	err := sameTeam(a, in.TeamID)
	if err == nil && in.NewFolders == nil {
		// A missing list would delete every folder; only [] does that.
		err = apperr.New(apperr.Invalid, "newFolders must be the list of folders")
	}
	folders := make([]library.FolderInput, len(in.NewFolders))
	for i, f := range in.NewFolders {
		if err != nil {
			break
		}
		folders[i] = library.FolderInput{Name: f.Name, Assignments: make([]uuid.UUID, len(f.Assignments))}
		if f.ID != "" {
			folders[i].ID, err = parseID(f.ID)
		}
		for j, s := range f.Assignments {
			if err == nil {
				folders[i].Assignments[j], err = parseID(s)
			}
		}
	}
	if err != nil {
		fail(c, err)
		return
	}
	out, err := h.svc.UpdateFolders(c, a, folders)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"folders": out})
}

func (h *libraryHandlers) deleteAssignment(c *gin.Context) {
	var in struct {
		TeamID       string `json:"teamId"`
		AssignmentID string `json:"assignmentId"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	id, err := parseID(in.AssignmentID)
	if err == nil {
		err = sameTeam(a, in.TeamID)
	}
	if err == nil {
		err = h.svc.DeleteAssignment(c, a, id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"success": true})
}

func (h *libraryHandlers) deleteRubric(c *gin.Context) {
	var in struct {
		TeamID   string `json:"teamId"`
		RubricID string `json:"rubricId"`
	}
	if !bind(c, &in) {
		return
	}
	a := actor(c)
	id, err := parseID(in.RubricID)
	if err == nil {
		err = sameTeam(a, in.TeamID)
	}
	if err == nil {
		err = h.svc.DeleteRubric(c, a, id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"success": true})
}

func (h *libraryHandlers) duplicate(c *gin.Context) {
	var in struct {
		AssignmentID string `json:"assignmentId"`
	}
	if !bind(c, &in) {
		return
	}
	id, err := parseID(in.AssignmentID)
	if err != nil {
		fail(c, err)
		return
	}
	asg, err := h.svc.Duplicate(c, actor(c), id)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, gin.H{"assignment": asg})
}
