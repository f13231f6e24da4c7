package httpapi

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/markwell/markwell/internal/assignment"
	"github.com/markwell/markwell/internal/grading"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/ratelimit"
	"github.com/markwell/markwell/internal/result"
)

// resultHandlers are the grading routes: starting AI runs, reading and
// editing function results, the class summary and "Check agreement".
type resultHandlers struct {
	svc    *result.Service
	budget *ratelimit.AIBudget
}

func (h *resultHandlers) register(g *gin.RouterGroup) {
	g.POST("/lambda/runFunctionOnMany", handle(h.runMany))
	g.POST("/lambda/gradeOnePub", handle(h.gradeOne))
	g.POST("/db/functionResult/get", handleWith(respondPolled, h.get))
	g.POST("/db/functionResult/get-view-only", handleWith(respondPolled, h.getViewOnly))
	g.POST("/db/functionResult/update", handle(h.update))
	g.POST("/db/gradeFunction/toggleCriterion", handle(h.toggle))
	g.POST("/db/rubricFeedbackFunctionResult/update", handle(h.setBenchmark))
	g.PUT("/db/promptFunctionResult/update", handle(h.updatePrompt))
	g.POST("/db/assignment/check-agreement", handle(h.checkAgreement))
	g.POST("/ai-assist/generate-summary", spendAI(h.budget), handle(h.summary))
}

type runManyBody struct {
	assignmentRef
	SubmissionIDs     []id `json:"submissionIds"`
	OverwriteReviewed bool `json:"overwriteReviewed"`
	// OnlyOutdated grades again only the results graded against an earlier
	// version of the definition ("Grade changed questions again").
	OnlyOutdated bool `json:"onlyOutdated"`
}

// runMany answers {functionResults, skipped}: skipped counts the reviewed
// results left alone (they are in functionResults, unchanged). With
// onlyOutdated it answers the results started.
func (h *resultHandlers) runMany(c *gin.Context, a identity.Actor, in *runManyBody) (gin.H, error) {
	opts := result.RunOptions{OverwriteReviewed: in.OverwriteReviewed}
	if in.OnlyOutdated {
		results, err := h.svc.RunOutdated(c, a, in.AssignmentID.UUID(), uuids(in.SubmissionIDs), opts)
		return gin.H{"functionResults": results}, err
	}
	results, err := h.svc.RunMany(c, a, in.AssignmentID.UUID(), uuids(in.SubmissionIDs), opts)
	return gin.H{"functionResults": results, "skipped": result.Skipped(results)}, err
}

type gradeOneBody struct {
	assignmentRef
	SubmissionID      id     `json:"submissionId"`
	ProcessName       string `json:"processName"`
	OverwriteReviewed bool   `json:"overwriteReviewed"`
}

// gradeOne answers {status}, and {status, message} when a student's instant
// feedback waits for the teacher (the team's AI budget is spent).
func (h *resultHandlers) gradeOne(c *gin.Context, a identity.Actor, in *gradeOneBody) (gin.H, error) {
	g, err := h.svc.Grade(c, a, in.SubmissionID.UUID(), in.AssignmentID.UUID(), in.ProcessName,
		result.RunOptions{OverwriteReviewed: in.OverwriteReviewed})
	out := gin.H{"status": g.Status}
	if g.Message != "" {
		out["message"] = g.Message
	}
	return out, err
}

type resultRef struct {
	assignmentRef
	SubmissionID id `json:"submissionId"`
}

// get and getViewOnly answer 304 to an If-None-Match version under which
// neither the result, its submission, the assignment nor its definition
// changed, and carry the read's version as their ETag otherwise.
func (h *resultHandlers) get(c *gin.Context, a identity.Actor, in *resultRef) (polled, error) {
	// from the class kept in memory when the assignment's page keeps it
	r, ok, err := h.svc.ReadResult(c, a, in.SubmissionID.UUID(), in.AssignmentID.UUID(), c.GetHeader("If-None-Match"))
	if err != nil || ok && r.NotModified {
		return polled{version: r.Version, notModified: r.NotModified}, err
	}
	if ok {
		body, err := r.AppendJSON([]byte(`{"data":`))
		if err != nil {
			return polled{}, err
		}
		return polled{version: r.Version, body: append(body, '}')}, nil
	}
	return h.read(c, a, in, h.svc.Get)
}

func (h *resultHandlers) getViewOnly(c *gin.Context, a identity.Actor, in *resultRef) (polled, error) {
	return h.read(c, a, in, h.svc.GetViewOnly)
}

func (h *resultHandlers) read(c *gin.Context, a identity.Actor, in *resultRef,
	get func(context.Context, identity.Actor, uuid.UUID, uuid.UUID) (result.FunctionResult, error)) (polled, error) {
	v, same, err := h.svc.ResultUnchanged(c, a, in.SubmissionID.UUID(), in.AssignmentID.UUID(), c.GetHeader("If-None-Match"))
	if err != nil || same {
		return polled{version: v, notModified: same}, err
	}
	fr, err := get(c, a, in.SubmissionID.UUID(), in.AssignmentID.UUID())
	return polled{version: v, data: gin.H{"functionResult": fr, "version": v.String()}}, err
}

// updateResultBody is functionResult/update's body: the whole result as
// the client holds it (its _id names it), the answers, the function and
// the submission, and optionally the status.
type updateResultBody struct {
	ID               id         `json:"_id"`
	FunctionResultID optionalID `json:"functionResultId"`
	SubmissionID     optionalID `json:"submissionId"`
	FunctionID       optionalID `json:"functionId"`
	assignment.ResultFields
	Status string `json:"status"`
	// UpdatedAt is the result's as the client read it: a result saved
	// since is not overwritten (409).
	UpdatedAt *time.Time `json:"updatedAt"`
}

func (h *resultHandlers) update(c *gin.Context, a identity.Actor, in *updateResultBody) (gin.H, error) {
	resultID := in.ID.UUID()
	if in.FunctionResultID.state == idValid {
		resultID = in.FunctionResultID.UUID()
	}
	fr, err := h.svc.Update(c, a, result.Edit{
		ResultID: resultID, SubmissionID: in.SubmissionID.UUID(), ResultFields: in.ResultFields, Status: in.Status,
		BasedOn: in.UpdatedAt,
	})
	return gin.H{"functionResult": fr}, err
}

// toggleBody is toggleCriterion's body. questionsCriterion (the criterion
// as the client shows it) is read and ignored: points come from the
// assignment, never from the client.
type toggleBody struct {
	GradeFunctionID    id              `json:"gradeFunctionId"`
	QuestionIndexPath  []int           `json:"questionIndexPath"`
	CriterionIndex     int             `json:"criterionIndex"`
	QuestionsCriterion json.RawMessage `json:"questionsCriterion"`
}

func (h *resultHandlers) toggle(c *gin.Context, a identity.Actor, in *toggleBody) (gin.H, error) {
	change, err := h.svc.ToggleCriterion(c, a, result.Toggle{
		ResultID: in.GradeFunctionID.UUID(), Path: in.QuestionIndexPath, CriterionIndex: in.CriterionIndex,
	})
	return gin.H{"totalPointsChange": change}, err
}

type benchmarkBody struct {
	FunctionResultID id `json:"functionResultId"`
	Data             struct {
		IsBenchmark bool `json:"isBenchmark"`
	} `json:"data"`
}

func (h *resultHandlers) setBenchmark(c *gin.Context, a identity.Actor, in *benchmarkBody) (gin.H, error) {
	fr, err := h.svc.SetBenchmark(c, a, in.FunctionResultID.UUID(), in.Data.IsBenchmark)
	return gin.H{"functionResult": fr}, err
}

type promptFeedbackBody struct {
	FunctionResultID id `json:"functionResultId"`
	Data             struct {
		Feedback string `json:"feedback"`
	} `json:"data"`
}

func (h *resultHandlers) updatePrompt(c *gin.Context, a identity.Actor, in *promptFeedbackBody) (gin.H, error) {
	return success(h.svc.UpdatePromptFeedback(c, a, in.FunctionResultID.UUID(), in.Data.Feedback))
}

func (h *resultHandlers) checkAgreement(c *gin.Context, a identity.Actor, in *assignmentRef) (gin.H, error) {
	err := h.svc.CheckAgreement(c, a, in.AssignmentID.UUID())
	return gin.H{"agreementStatus": "running"}, err
}

type summaryBody struct {
	assignmentRef
	CriteriaBreakdown []grading.CriterionRate `json:"criteriaBreakdown"`
}

func (h *resultHandlers) summary(c *gin.Context, a identity.Actor, in *summaryBody) (gin.H, error) {
	sum, err := h.svc.GenerateSummary(c, a, in.AssignmentID.UUID(), in.CriteriaBreakdown)
	return gin.H{"classSummary": sum}, err
}
