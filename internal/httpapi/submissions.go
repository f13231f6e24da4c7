package httpapi

import (
	"encoding/json"

	"github.com/gin-gonic/gin"

	"github.com/markwell/markwell/internal/csvimport"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/submission"
)

type submissionHandlers struct {
	svc *submission.Service
}

func (h *submissionHandlers) register(g *gin.RouterGroup) {
	g.POST("/db/assignment/update-submissions", handle(h.add))
	g.POST("/db/submission/get", handle(h.get))
	g.POST("/db/submission/get-view-only", handle(h.getViewOnly))
	g.POST("/db/submission/update", handle(h.update))
	g.POST("/db/assignment/delete-submission-and-function-result", handle(h.deleteOne))
	g.POST("/db/assignment/delete-submissions-and-function-results", handle(h.deleteMany))
	g.POST("/db/assignment/preview-csv", handle(h.previewCSV))
	g.POST("/db/assignment/update-submissions-csv", handle(h.importCSV))
}

// updateSubmissionsBody is update-submissions' body: the uploaded files
// and, per file, the reader the client thinks it needs.
type updateSubmissionsBody struct {
	assignmentRef
	Submissions    []submission.Upload `json:"submissions"`
	SubmissionRole string              `json:"submissionRole"`
	Type           string              `json:"type"`
	submission.Readers
	IsHandWritten bool `json:"isHandWritten"`
}

func (h *submissionHandlers) add(c *gin.Context, a identity.Actor, in *updateSubmissionsBody) (gin.H, error) {
	subs, results, err := h.svc.UpdateSubmissions(c, a, submission.UpdateInput{
		AssignmentID: in.AssignmentID.UUID(), Submissions: in.Submissions, SubmissionRole: in.SubmissionRole,
		Type: in.Type, Readers: in.Readers, IsHandWritten: in.IsHandWritten,
	})
	return gin.H{"submissions": subs, "functionResults": results}, err
}

// submissionRef is the body of the calls that name one submission.
type submissionRef struct {
	SubmissionID id `json:"submissionId"`
}

func (h *submissionHandlers) get(c *gin.Context, a identity.Actor, in *submissionRef) (gin.H, error) {
	s, err := h.svc.Get(c, a, in.SubmissionID.UUID())
	return gin.H{"submission": s}, err
}

func (h *submissionHandlers) getViewOnly(c *gin.Context, a identity.Actor, in *submissionRef) (gin.H, error) {
	s, err := h.svc.GetViewOnly(c, a, in.SubmissionID.UUID())
	return gin.H{"submission": s}, err
}

type updateSubmissionBody struct {
	submissionRef
	Submission submission.Changes `json:"submission"`
}

func (h *submissionHandlers) update(c *gin.Context, a identity.Actor, in *updateSubmissionBody) (gin.H, error) {
	s, err := h.svc.Update(c, a, in.SubmissionID.UUID(), in.Submission)
	return gin.H{"submission": s}, err
}

// deleteOneBody names one submission and, optionally, its function result.
type deleteOneBody struct {
	assignmentRef
	submissionRef
	FunctionResultID optionalID `json:"frId"`
	Type             string     `json:"type"`
}

func (h *submissionHandlers) deleteOne(c *gin.Context, a identity.Actor, in *deleteOneBody) (gin.H, error) {
	del := submission.DeleteInput{AssignmentID: in.AssignmentID.UUID(), SubmissionIDs: uuids([]id{in.SubmissionID}), Type: in.Type}
	if in.FunctionResultID.state == idValid {
		del.ResultIDs = uuids([]id{id(in.FunctionResultID)})
	}
	n, err := h.svc.Delete(c, a, del)
	return gin.H{"deleted": n}, err
}

type deleteManyBody struct {
	assignmentRef
	SubmissionIDs     []id   `json:"submissionIds"`
	FunctionResultIDs []id   `json:"frIds"`
	Type              string `json:"type"`
}

func (h *submissionHandlers) deleteMany(c *gin.Context, a identity.Actor, in *deleteManyBody) (gin.H, error) {
	n, err := h.svc.Delete(c, a, submission.DeleteInput{
		AssignmentID: in.AssignmentID.UUID(), SubmissionIDs: uuids(in.SubmissionIDs),
		ResultIDs: uuids(in.FunctionResultIDs), Type: in.Type,
	})
	return gin.H{"deleted": n}, err
}

// previewCSVBody names an uploaded CSV of an assignment.
type previewCSVBody struct {
	assignmentRef
	CSVLocation string `json:"csvLocation"`
}

func (h *submissionHandlers) previewCSV(c *gin.Context, a identity.Actor, in *previewCSVBody) (submission.CSVPreview, error) {
	return h.svc.PreviewCSV(c, a, in.AssignmentID.UUID(), in.CSVLocation)
}

// importCSVBody is update-submissions-csv's body: the uploaded CSV and the
// column mapping the teacher confirmed (parsedCSV; left out, the suggested
// one).
type importCSVBody struct {
	assignmentRef
	SubmissionRole string      `json:"submissionRole"`
	Type           string      `json:"type"`
	CSVLocation    string      `json:"csvLocation"`
	ParsedCSV      *csvMapping `json:"parsedCSV"`
}

// csvMapping is a csvimport.Mapping as a client sends it: a name or email
// column left out is -1 (none), not column 0.
type csvMapping csvimport.Mapping

// UnmarshalJSON reads a mapping, columns left out being -1.
func (m *csvMapping) UnmarshalJSON(b []byte) error {
	type plain csvMapping
	v := plain{NameColumn: -1, EmailColumn: -1}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = csvMapping(v)
	return nil
}

func (h *submissionHandlers) importCSV(c *gin.Context, a identity.Actor, in *importCSVBody) (gin.H, error) {
	imp := submission.CSVInput{
		AssignmentID: in.AssignmentID.UUID(), SubmissionRole: in.SubmissionRole, Type: in.Type, Location: in.CSVLocation,
	}
	if in.ParsedCSV != nil {
		m := csvimport.Mapping(*in.ParsedCSV)
		imp.Mapping = &m
	}
	subs, results, err := h.svc.ImportCSV(c, a, imp)
	return gin.H{"submissions": subs, "functionResults": results, "imported": len(subs)}, err
}
