package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/library"
)

type libraryHandlers struct {
	svc *library.Service
}

func (h *libraryHandlers) register(g *gin.RouterGroup) {
	g.GET("/db/library/get", handle(h.get))
	g.POST("/db/team/create-folder", handle(h.createFolder))
	g.POST("/db/team/update-folders", handle(h.updateFolders))
	g.POST("/db/team/delete-assignment", handle(h.deleteAssignment))
	g.POST("/db/team/delete-rubric", handle(h.deleteRubric))
	g.POST("/db/assignment/duplicate", handle(h.duplicate))
}

func (h *libraryHandlers) get(c *gin.Context, a identity.Actor, _ *struct{}) (library.Library, error) {
	return h.svc.Library(c, a)
}

type createFolderBody struct {
	teamScope
	FolderName string `json:"folderName"`
}

func (h *libraryHandlers) createFolder(c *gin.Context, a identity.Actor, in *createFolderBody) (gin.H, error) {
	f, err := h.svc.CreateFolder(c, a, in.FolderName)
	return gin.H{"folder": f}, err
}

type updateFoldersBody struct {
	teamScope
	NewFolders []struct {
		ID          optionalID `json:"_id"` // absent for a new folder
		Name        string     `json:"name"`
		Assignments []id       `json:"assignments"`
	} `json:"newFolders"`
}

func (h *libraryHandlers) updateFolders(c *gin.Context, a identity.Actor, in *updateFoldersBody) (gin.H, error) {
	if in.NewFolders == nil {
		// A missing list would delete every folder; only [] does that.
		return nil, apperr.New(apperr.Invalid, "newFolders must be the list of folders")
	}
	folders := make([]library.FolderInput, len(in.NewFolders))
	for i, f := range in.NewFolders {
		folders[i] = library.FolderInput{ID: f.ID.UUID(), Name: f.Name, Assignments: uuids(f.Assignments)}
	}
	out, err := h.svc.UpdateFolders(c, a, folders)
	return gin.H{"folders": out}, err
}

type deleteAssignmentBody struct {
	teamScope
	assignmentRef
}

func (h *libraryHandlers) deleteAssignment(c *gin.Context, a identity.Actor, in *deleteAssignmentBody) (gin.H, error) {
	return success(h.svc.DeleteAssignment(c, a, in.AssignmentID.UUID()))
}

type deleteRubricBody struct {
	teamScope
	rubricRef
}

func (h *libraryHandlers) deleteRubric(c *gin.Context, a identity.Actor, in *deleteRubricBody) (gin.H, error) {
	return success(h.svc.DeleteRubric(c, a, in.RubricID.UUID()))
}

func (h *libraryHandlers) duplicate(c *gin.Context, a identity.Actor, in *assignmentRef) (gin.H, error) {
	asg, err := h.svc.Duplicate(c, a, in.AssignmentID.UUID())
	return gin.H{"assignment": asg}, err
}
